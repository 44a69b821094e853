"""The README's example commands work as written (run from the repository root)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from evalview.cli import main
from helpers.paths import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def _example_commands() -> list[tuple[str, int]]:
    """`(command, expected exit code)` from the block that starts with `evalview check`."""
    block = next(
        b for b in re.findall(r"```sh\n(.*?)```", README, re.S) if "evalview check sample_runs" in b
    )
    joined = block.replace("\\\n", " ")
    out = []
    for line in joined.splitlines():
        command, _, comment = line.partition("#")
        if command.strip().startswith("evalview "):
            code = re.search(r"exit (\d)", comment)
            out.append((" ".join(command.split()), int(code.group(1)) if code else 0))
    return out


COMMANDS = _example_commands()


def test_the_examples_block_was_found() -> None:
    assert len(COMMANDS) >= 5
    assert {c.split()[1] for c, _ in COMMANDS} >= {"check", "score", "export", "psr", "power"}


@pytest.mark.parametrize(("command", "expected"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_readme_example_exits_as_stated(
    command: str, expected: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(REPO)
    argv = [tmp_path.joinpath("out").as_posix() if a.startswith("/tmp/") else a
            for a in shlex.split(command)[1:]]
    assert main(argv) == expected, capsys.readouterr()


def _lerobot_commands() -> list[str]:
    block = next(
        b for b in re.findall(r"```sh\n(.*?)```", README, re.S) if "sample_runs/lerobot" in b
    )
    joined = block.replace("\\\n", " ")
    return [
        " ".join(line.partition("#")[0].split())
        for line in joined.splitlines()
        if line.strip().startswith("evalview ") and "evalview sample_runs" not in line
    ]


@pytest.mark.parametrize("command", _lerobot_commands())
def test_readme_lerobot_example_exits_0(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(REPO)
    argv = [tmp_path.joinpath("out").as_posix() if a.startswith("/tmp/") else a
            for a in shlex.split(command)[1:]]
    if argv[0] in ("score", "export"):
        argv += ["--bootstrap", "0"]
    assert main(argv) == 0, capsys.readouterr()
