"""The audit imports and runs its registered checks only for a read that holds a closed run's
parts (`evalview.audit.has_closed_run_parts`): what makes that sound is that no check finds
anything in a read without them. Every contract input (samples, real files and the variants made
to break) is read here and, where the gate says no, every registered check is run on it anyway
and must find nothing: a check that starts reading another format's read fails this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from contract_inputs import SPECS, make

import evalview.audit.checks  # noqa: F401  (registers every check, as the gate would)
from evalview.audit import has_closed_run_parts
from evalview.audit.checks._common import ids_computed_once
from evalview.audit.registry import CHECKS
from evalview.load import InputError, ReadOptions
from evalview.load.registry import read_input
from evalview.model.run import Run


def _made(spec_id: str, tmp_path: Path) -> Path:
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    return make(spec_id, tmp_path / "in", scratch).path


def _runs(path: Path) -> list[Run]:
    try:
        reading = read_input(path, ReadOptions())
    except InputError:  # not a read of episodes (a harness result, a folder of inputs)
        return []
    return [named.run for named in reading.runs]


def _found_by_checks(run: Run) -> list[str]:
    with ids_computed_once(run):
        return [f"{f.code} {f.message}" for check in CHECKS for f in check(run)]


@pytest.mark.parametrize("spec_id", sorted(SPECS))
def test_no_check_finds_anything_in_a_read_without_closed_run_parts(
    spec_id: str, tmp_path: Path
) -> None:
    for run in _runs(_made(spec_id, tmp_path)):
        if run.kind == "closed-run":
            assert has_closed_run_parts(run)  # a closed run always goes through the checks
        if not has_closed_run_parts(run):
            assert _found_by_checks(run) == []


def test_the_gate_is_closed_for_the_other_formats_and_open_for_closed_runs(
    tmp_path: Path,
) -> None:
    """Not vacuous: the formats whose readers make their own findings pass the gate closed, the
    closed runs (and a reopened result.json, whose records the checks read) open."""
    closed: set[str] = set()
    opened: set[str] = set()
    first_of_kind = {spec.kind: spec_id for spec_id, spec in reversed(SPECS.items())}
    for spec_id in sorted(first_of_kind.values()):
        for run in _runs(_made(spec_id, tmp_path)):
            (opened if has_closed_run_parts(run) else closed).add(run.kind)
    assert {"lerobot-eval", "inspect-ai", "lm-eval"} <= closed
    assert "closed-run" in opened and "closed-run" not in closed


def test_an_empty_closed_run_directory_gets_its_reading_findings_only(tmp_path: Path) -> None:
    """Every file missing: the reader says so; no check has anything to read."""
    from evalview.audit import audit

    empty = tmp_path / "run"
    empty.mkdir()
    (empty / "manifest.json").write_text("{", encoding="utf-8")  # unreadable: parsed as None
    runs = _runs(empty)
    assert runs, "an empty closed run is still read"
    for run in runs:
        assert _found_by_checks(run) == [] or has_closed_run_parts(run)
        codes = sorted(f.code for f in audit(run))
        assert codes == sorted(f.code for f in run.reading_findings)
