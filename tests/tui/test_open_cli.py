"""`evalview [PATH]` argument handling, before any app starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalview.cli.open import main, resolve_path
from helpers.paths import EXAMPLE


def test_missing_path_exits_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "absent")]) == 2
    err = capsys.readouterr().err
    assert "absent" in err and "no such file or directory" in err


def test_two_paths_with_one_missing_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(EXAMPLE), str(tmp_path / "gone")]) == 2
    assert "no such file or directory" in capsys.readouterr().err


def test_three_paths_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLE)] * 3) == 2
    assert "at most two paths" in capsys.readouterr().err


def test_no_path_means_the_bundled_sample() -> None:
    from evalview.samples import bundled_sample_path

    path, problem = resolve_path([])
    assert problem is None and path == bundled_sample_path()
    assert path is not None and (path / "manifest.json").is_file()


def test_help_describes_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "bundled" in out and "ctrl+p" in out and "exit codes" in out
