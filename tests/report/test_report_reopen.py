"""An exported result.json reopens as a Run whose numbers are the published ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_runs import EXAMPLE, hostile_run

from evalview.audit import audit
from evalview.cli import main
from evalview.load import InputError, load_run
from evalview.report.export import export_run
from evalview.stats import score_run

NUMBERS = ("aggregate", "denominators", "rates", "error_categories", "pending", "tasks")


def _numbers(card_json: dict[str, object]) -> dict[str, object]:
    return {k: card_json[k] for k in NUMBERS}


@pytest.mark.parametrize("source", ["example", "hostile"])
def test_round_trip_gives_the_same_numbers(tmp_path: Path, source: str) -> None:
    run_dir = EXAMPLE if source == "example" else hostile_run(tmp_path / "run")
    export_run(run_dir, tmp_path / "out", bootstrap=1000, metrics=["score"])
    original = load_run(run_dir)
    reopened = load_run(tmp_path / "out" / "result.json")
    assert reopened.kind == "result-json"
    assert reopened.identity.run_id == original.identity.run_id
    assert reopened.schedule == original.schedule
    a = score_run(original, findings=audit(original), bootstrap=1000, allow_errors=True)
    b = score_run(reopened, findings=audit(reopened), bootstrap=1000, allow_errors=True)
    a, b = a.to_json(), b.to_json()
    assert _numbers(a) == _numbers(b)
    # The published warnings come back as the reopened run's findings, and nothing else.
    assert [(f.code, f.message) for f in audit(reopened)] == [
        (f.code, f.message) for f in audit(original) if f.severity.value == "warning"
    ]
    # Scores travel in the table (graded metric views read them).
    assert list(reopened.scheduled().ids) == list(original.scheduled().ids)
    orig_scores = [s for s, st in zip(original.scheduled().score, original.scheduled().status,
                                      strict=True) if st == "completed"]
    new_scores = [s for s, st in zip(reopened.scheduled().score, reopened.scheduled().status,
                                     strict=True) if st == "completed"]
    assert orig_scores == new_scores


def test_score_and_check_read_an_exported_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export_run(EXAMPLE, tmp_path / "out", bootstrap=0)
    capsys.readouterr()
    assert main(["score", str(tmp_path / "out" / "result.json"), "--allow-errors",
                 "--bootstrap", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["denominators"]["selected"] == 12 and doc["denominators"]["successes"] == 4
    assert main(["check", str(tmp_path / "out" / "result.json")]) == 0


def test_a_reopened_result_can_be_exported_again(tmp_path: Path) -> None:
    export_run(EXAMPLE, tmp_path / "out", bootstrap=0)
    again = export_run(tmp_path / "out" / "result.json", tmp_path / "again", bootstrap=0)
    first = json.loads((tmp_path / "out" / "result.json").read_text())
    second = json.loads((tmp_path / "again" / "result.json").read_text())
    for key in ("counts", "rates", "tasks", "error_categories", "episodes", "audit_warnings"):
        assert first[key] == second[key], key
    assert again.result.run_id == "run-1"
    with pytest.raises(Exception, match="inside the run"):
        export_run(tmp_path / "out" / "result.json", tmp_path / "out" / "x")


def test_a_tampered_result_is_an_input_error(tmp_path: Path) -> None:
    export_run(EXAMPLE, tmp_path / "out", bootstrap=0)
    path = tmp_path / "out" / "result.json"
    doc = json.loads(path.read_text())
    doc["rates"]["success_rate"] = 1.5
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match=r"rates\.success_rate"):
        load_run(path)
    path.write_text(path.read_text().replace('"run_id"', '"run_id": "x", "run_id"', 1))
    with pytest.raises(InputError, match="twice"):
        load_run(path)


def test_other_json_is_not_taken_for_a_result(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"schema_version": "something-else/v1"}')
    with pytest.raises(InputError, match="valid JSON, but of no format evalview reads"):
        load_run(other)
