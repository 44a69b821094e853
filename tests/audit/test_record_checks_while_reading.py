"""The audit's per-record checks, run by the reader as each line is parsed (`RecordChecks`),
give exactly the findings of the audit's own walk over the records, and the audit uses them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import evalview.audit.checks.episodes as episodes
from evalview.audit import audit
from evalview.load.closed_run import load_closed_run
from evalview.session import _record_checks, open_run

SAMPLES = Path(__file__).resolve().parents[2] / "sample_runs"
RUNS = [SAMPLES / "faulty", SAMPLES / "fail-fast", SAMPLES / "robobench-24x50"]


def _both(path: Path) -> tuple[list[object], list[object]]:
    walked = audit(load_closed_run(path))
    hooked_run = load_closed_run(path, on_record=_record_checks)
    assert isinstance(hooked_run.record_checks, episodes.RecordChecks)
    return walked, audit(hooked_run)


@pytest.mark.parametrize("path", RUNS, ids=lambda p: p.name)
def test_same_findings_as_the_audits_own_walk(path: Path) -> None:
    walked, hooked = _both(path)
    assert hooked == walked
    assert walked  # each sample run has findings to compare


def test_a_repeated_key_makes_the_reader_parse_again_and_the_checks_start_over(
    tmp_path: Path,
) -> None:
    run = shutil.copytree(SAMPLES / "faulty", tmp_path / "run")
    jsonl = run / "episodes.jsonl"
    lines = jsonl.read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"status":', b'"status":"x","status":', 1)
    lines[9] = lines[9].replace(b'"policy_calls":', b'"policy_calls":-1,"policy_calls":', 1)
    jsonl.write_bytes(b"\n".join(lines))
    walked, hooked = _both(run)
    assert hooked == walked
    assert {f.code for f in hooked} >= {"EV105"}  # duplicate keys found, those lines unparsed
    checks = load_closed_run(run, on_record=_record_checks).record_checks
    assert isinstance(checks, episodes.RecordChecks)
    assert checks.records == len(lines) - 2 - (lines[-1] == b"")  # each parsed line seen once


def test_the_doors_that_audit_at_once_do_not_walk_the_records_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = episodes._check_record

    def counting(*args: object) -> None:
        calls.append(1)
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(episodes, "_check_record", counting)
    session = open_run(SAMPLES / "faulty")
    records = sum(1 for rec in session.run.records if rec.data is not None)
    assert len(calls) == records  # once per record, while reading; none in the audit
    assert session.findings == audit(load_closed_run(SAMPLES / "faulty"))


def test_checks_of_other_records_are_not_used() -> None:
    run = load_closed_run(SAMPLES / "faulty", on_record=_record_checks)
    run.records[0].data = {"schema_version": "other"}  # a record the checks never saw
    run.records.pop()  # and one they saw, gone: the count differs, so the walk decides
    assert audit(run) == audit(_without_checks(run))
    assert any(f.code == "EV301" and f.line == 1 for f in audit(run))


def _without_checks(run: object) -> object:
    from dataclasses import replace

    return replace(run, record_checks=None)  # type: ignore[type-var]
