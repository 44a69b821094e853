"""The docs quote real output: their checked blocks are re-run and must still say the same.

A block preceded by `<!-- checked: exit N -->` holds one `$ evalview ...` command and what it
printed (long parts cut at a `…` line). The cheap commands (check, score, power, psr on the
bundled sample runs) are run as separate processes from the repository root: the exit code must
be the one the guide states, and every quoted line must still appear, in order. A piped command
(`... --json | jq ...`) is run without its pipe: its exit code is checked and its stdout must be
exactly one JSON document, since that is what the jq example relies on.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass

import pytest

from evalview.cli import COMMANDS
from helpers.paths import REPO

GUIDE = REPO / "docs" / "guide.md"
#: Every page whose checked blocks are re-run (docs/folders.md once quoted `9 reads, 1 with errors`
#: where the real output said 19 and 3).
CHECKED_DOCS = ("guide.md", "folders.md", "inspect.md")

#: Subcommands cheap enough to run here (well under a second each on the bundled runs).
CHEAP = {"check", "score", "power", "psr"}

MARKER = re.compile(r"<!-- checked: exit (\d) -->\n```console\n(.*?)\n```", re.S)
ELLIPSIS = "…"


@dataclass(frozen=True)
class Checked:
    """One checked block of the guide: its command, stated exit code and quoted output."""

    line: int
    command: str
    page: str
    exit_code: int
    output: tuple[str, ...]

    @property
    def argv(self) -> list[str]:
        """The evalview arguments, without the pipe and what follows it."""
        words = shlex.split(self.command)
        if "|" in words:
            words = words[: words.index("|")]
        return words[1:]

    @property
    def piped(self) -> bool:
        return "|" in shlex.split(self.command)


def checked_blocks(text: str, page: str = "guide.md") -> list[Checked]:
    """Every checked block, with the guide line it starts on (for readable failures)."""
    blocks = []
    for m in MARKER.finditer(text):
        lines = m.group(2).split("\n")
        commands = [ln for ln in lines if ln.startswith("$ ")]
        assert len(commands) == 1 and lines[0] == commands[0], (
            f"docs/{page}:{text.count(chr(10), 0, m.start()) + 1}: a checked block holds one "
            f"`$ evalview ...` command on its first line, then its output"
        )
        blocks.append(
            Checked(
                line=text.count("\n", 0, m.start()) + 1,
                command=commands[0][2:],
                page=page,
                exit_code=int(m.group(1)),
                output=tuple(lines[1:]),
            )
        )
    return blocks


BLOCKS = checked_blocks(GUIDE.read_text(encoding="utf-8"))
RUNNABLE = [
    b
    for page in CHECKED_DOCS
    for b in checked_blocks((GUIDE.parent / page).read_text(encoding="utf-8"), page)
    if b.argv and b.argv[0] in CHEAP
]


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """evalview as a user runs it: a process, from the repository root, on an 80-column pipe."""
    env = {k: v for k, v in os.environ.items() if k not in {"FORCE_COLOR", "NO_COLOR", "TERM"}}
    env["COLUMNS"] = "80"
    return subprocess.run(
        [sys.executable, "-m", "evalview", *argv],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_guide_has_checked_blocks_of_known_commands() -> None:
    assert len(BLOCKS) >= 10
    for block in BLOCKS:
        assert block.command.startswith("evalview "), f"docs/guide.md:{block.line}"
        assert block.argv[0] in COMMANDS, f"docs/guide.md:{block.line}: {block.command}"
    assert {b.argv[0] for b in RUNNABLE} >= {"check", "score", "power"}
    assert {b.exit_code for b in RUNNABLE} >= {0, 1, 2}


def test_block_parser_reads_command_exit_code_and_output() -> None:
    text = (
        "x\n<!-- checked: exit 2 -->\n```console\n$ evalview check a | jq '.a | .b'\nout\n…\n```\n"
    )
    (block,) = checked_blocks(text)
    assert (block.line, block.exit_code, block.output) == (2, 2, ("out", ELLIPSIS))
    assert block.argv == ["check", "a"] and block.piped


@pytest.mark.parametrize(
    "block", RUNNABLE, ids=[f"{b.page.removesuffix('.md')}-line{b.line}" for b in RUNNABLE]
)
def test_checked_command_behaves_as_the_guide_says(block: Checked) -> None:
    result = run(block.argv)
    where = f"docs/{block.page}:{block.line}: `{block.command}`"
    assert result.returncode == block.exit_code, (
        f"{where}: exit {result.returncode}\n{result.stderr}"
    )
    if block.piped:
        json.loads(result.stdout)  # exactly one JSON document on stdout, as jq needs
        return
    actual = [ln.rstrip() for ln in (result.stdout + result.stderr).splitlines()]
    pos = 0
    for quoted in block.output:
        if quoted.strip() == ELLIPSIS:
            continue
        try:
            pos = actual.index(quoted.rstrip(), pos) + 1
        except ValueError:
            pytest.fail(f"{where}: the quoted line is no longer printed (in this order):\n{quoted}")


def test_guide_names_no_machine_paths_and_its_links_resolve() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    assert "/work/" not in text and "/home/" not in text
    for absolute in re.findall(r"(?<![\w.])/(?:tmp|Users|var|root)\b[^\s`)]*", text):
        assert absolute.startswith(("/tmp/robobench-report", "/tmp/ckpt-52000")), absolute
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        assert (GUIDE.parent / target).exists(), f"docs/guide.md links to a missing {target}"
