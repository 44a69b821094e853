"""A wrong option names its own subcommand's usage; a mistyped command suggests the right one."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalview.cli import main, suggest_command
from helpers.paths import SAMPLE_RUNS

FAULTY = SAMPLE_RUNS / "faulty"


@pytest.mark.parametrize(
    ("argv", "bad"),
    [
        (["check", str(FAULTY), "--jsn"], "--jsn"),
        (["check", str(FAULTY), "second"], "second"),
        (["score", str(FAULTY), "--per-tsak"], "--per-tsak"),
    ],
)
def test_a_wrong_argument_prints_that_commands_usage(
    argv: list[str], bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: evalview {argv[0]} ")
    assert f"evalview {argv[0]}: error: unrecognized arguments: {bad}" in err
    assert "evalview [PATH [PATH_B]]" not in err  # not the program's top-level usage


def test_a_mistyped_command_suggests_the_right_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["chekc", "X"]) == 2
    err = capsys.readouterr().err
    assert "'chekc' is not a command" in err and "Did you mean `evalview check`?" in err
    assert suggest_command("socre") == "score" and suggest_command("exprot") == "export"
    assert suggest_command("robobench-24x50") is None


def test_a_path_named_like_a_command_typo_still_opens_as_a_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`chekc` that exists on disk is a path: no suggestion, the app's own checks apply."""
    from evalview.cli import _mistyped

    monkeypatch.chdir(tmp_path)
    (tmp_path / "chekc").mkdir()
    assert not _mistyped("chekc")
