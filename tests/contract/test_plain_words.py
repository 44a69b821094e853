"""Words for people on every text door: no Python `None`, no `1 seeds`, counts with thousands
separators, for every input the contract test makes (issue 23: `compare` of two LeRobot files
printed `None None, test seeds`; the Runs screen `641 / 1200` beside `641 / 1,200`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from contract_inputs import SPECS, make, run_cli

#: Python leaking into prose, a singular counted as plural, a count over a denominator of four or
#: more digits without its thousands separator.
SLIPS = {
    "Python None": re.compile(r"\bNone\b(?!-)"),
    "singular counted as plural": re.compile(
        r"(?<![\d.,])\b1 (seeds|tasks|arms|reads|episodes|errors|warnings|pairs|files|findings)\b"
    ),
    "count without thousands separator": re.compile(r"\b\d+ / \d{4,}\b"),
}

CASES = sorted(k for k, s in SPECS.items() if not s.broken)


def _doors(path: Path, read: list[str]) -> dict[str, list[str]]:
    return {
        "check": ["check", str(path), *read],
        "score": ["score", str(path), *read, "--allow-errors"],
        "compare": ["compare", str(path), str(path), *_sides(read), "--allow-errors"],
        "table": ["table", str(path.parent)],
    }


def _sides(read: list[str]) -> list[str]:
    """`--read KEY` as compare takes it: one per side."""
    return [] if not read else ["--read-a", read[1], "--read-b", read[1]]


def slips_in(text: str) -> list[str]:
    return [f"{name}: {m.group(0)!r} in …{text[max(0, m.start() - 60):m.end() + 20]}…"
            for name, rx in SLIPS.items() for m in rx.finditer(text)]


def test_the_slips_are_caught() -> None:
    """The patterns catch what the issue saw and pass what is right."""
    assert slips_in("run x, None None, test seeds")
    assert slips_in("5 arms × 1 seeds")
    assert slips_in("641 / 1200")
    assert not slips_in("641 / 1,200 · 1 seed · 11 tasks · 0.1 errors · None-such")


@pytest.mark.parametrize("spec_id", CASES)
def test_no_slips_in_text(spec_id: str, tmp_path: Path) -> None:
    (tmp_path / "scratch").mkdir()
    inp = make(spec_id, tmp_path / "in", tmp_path / "scratch")
    found = []
    for door, args in _doors(inp.path, inp.read_args).items():
        res = run_cli(args)
        found += [f"{door}: {s}" for s in slips_in(res.stdout + res.stderr)]
    assert not found, "\n".join(found)
