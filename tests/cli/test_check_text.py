"""The text form of `evalview check`: each finding's place is printed once, above its message."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalview.cli import main

FAULTY = Path(__file__).resolve().parents[2] / "sample_runs" / "faulty"


def test_place_is_not_repeated_at_the_start_of_the_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(FAULTY)]) == 1
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if "EV323" in line)
    assert "episodes.jsonl:6 (pick-red-cube/seed1004)" in lines[head]
    message = lines[head + 1].strip()
    assert message.startswith("'pick-red-cube/seed1004' comes after")
    # The JSON form keeps the full message, place included, for readers without the layout.
    assert main(["check", str(FAULTY), "--json"]) == 1
    out = capsys.readouterr().out
    assert "episodes.jsonl:6 (pick-red-cube/seed1004): 'pick-red-cube/seed1004'" in out
