"""The text form of `evalview check`: each finding's place is printed once, above its message."""

from __future__ import annotations

import pytest

from evalview.cli import main
from helpers.paths import SAMPLE_RUNS

FAULTY = SAMPLE_RUNS / "faulty"


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


def test_a_message_that_starts_with_its_file_drops_it_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fail_fast = FAULTY.parent / "fail-fast"
    assert main(["check", str(fail_fast)]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if "EV602" in line)
    assert lines[head].split()[-2:] == ["manifest.json", "(sort-fruit/seed1008)"]
    assert lines[head + 1].strip().startswith("fail_fast stopped the run")
