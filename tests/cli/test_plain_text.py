"""Text that leaves the terminal: piped output keeps task names whole; NO_COLOR means plain."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from evalview.cli import main
from helpers.paths import SAMPLE_RUNS

SAMPLE = SAMPLE_RUNS / "robobench-24x50"
FAULTY = SAMPLE.parent / "faulty"
ESC = "\x1b["


def test_piped_tables_never_cut_a_task_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(SAMPLE), "--per-task", "--allow-errors"]) == 0
    out = capsys.readouterr().out
    assert "│ stack-three-blocks " in out  # whole, on its row
    assert "stack-three-bloc │" not in out and "│ ks " not in out


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "FORCE_COLOR"}}
    return subprocess.run(
        [sys.executable, "-m", "evalview", "check", str(FAULTY)],
        env={**base, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_no_color_means_no_colour_and_no_bold_or_dim() -> None:
    """FORCE_COLOR makes rich style a pipe as it would a terminal; NO_COLOR then wins."""
    styled = _run({"FORCE_COLOR": "1"})
    assert styled.returncode == 1 and ESC in styled.stdout  # the control: styles are on
    plain = _run({"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert plain.returncode == 1 and "EV212 credential-field" in plain.stdout
    assert ESC not in plain.stdout and ESC not in plain.stderr
