"""Text output never hands run data to the terminal as control sequences or as rich markup."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evalview.cli import main
from helpers.hostile_run import write_hostile_run

#: ESC, BEL, BS, VT, DEL, CSI (C1) and the right-to-left override must never be printed raw.
RAW_CONTROL = re.compile("[\x1b\x07\x08\x0b\x7f\x9b\u202e]")


@pytest.mark.parametrize(
    "argv",
    [
        ["check"],
        ["score", "--allow-errors", "--per-task"],
        ["score"],
        ["psr"],
        ["compare", "SAME"],
    ],
    ids=["check", "score", "score-refused", "psr", "compare"],
)
def test_hostile_run_data_is_printed_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    run = write_hostile_run(tmp_path / "run")
    args = [argv[0], str(run), *(str(run) if a == "SAME" else a for a in argv[1:])]
    main(args)
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "TASKA" in text or "RUNID" in text or "EPISODE" in text  # the data was shown
    assert not RAW_CONTROL.search(text)
    assert "␛" in text  # the escape is shown as a visible stand-in
    assert "[bold]" in text  # markup printed as written, not interpreted
