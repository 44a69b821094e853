"""Per-task PSR, split means and the other summary metrics, on the spec's worked numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from psr_rows import WORKED, row

from evalview.psr import PsrError, PsrOptions, score_inputs
from evalview.psr.inputs import parse_checkpoint_inputs
from evalview.psr.scores import METHOD_ID, CheckpointReport, task_psr

PATH = Path("inputs.json")


def score(doc: dict[str, Any], options: PsrOptions | None = None) -> CheckpointReport:
    return score_inputs(parse_checkpoint_inputs(PATH, doc), options)


def test_worked_example_53_33_and_76_67_with_sr_50() -> None:
    report = score(WORKED)
    model = report.model("example-model")
    failed, succeeded = model.tasks
    assert [c.credit for c in failed.checkpoints or ()] == pytest.approx([0.6, 0.0, 1.0])
    assert failed.psr == pytest.approx(0.5333, abs=5e-5)
    assert round(100 * failed.psr, 2) == 53.33
    assert succeeded.psr == 1.0
    main = model.summary("main")
    assert round(100 * (main.psr or 0), 2) == 76.67
    assert main.sr == 0.5
    doc = report.to_json()
    assert doc["method"] == METHOD_ID == "checkpoint_fraction_v1"
    assert doc["label"] == "reconstructed PSR"
    assert doc["historical_implementation_reproduced"] is False
    summary = doc["models"][0]["summaries"]["main"]
    assert 0.0 <= summary["PSR"] <= 1.0 and summary["SR"] == 0.5
    assert doc["models"][0]["tasks"][0]["checkpoints"][0]["credit"] == 0.6


def test_success_scores_one_even_with_missing_or_odd_checkpoints() -> None:
    report = score(
        {"m": [row("task_01_a", success=True, message="still building the hut, almost done")]}
    )
    (t,) = report.model("m").tasks
    assert t.psr == 1.0
    assert t.checkpoints is None and t.note is not None and "not parsed" in t.note


def test_failed_task_with_unparsable_message_is_refused() -> None:
    with pytest.raises(PsrError, match=r"'m', task 'task_01_a' \(row 1\)"):
        score({"m": [row("task_01_a", success=False, message="still building the hut")]})


def test_tasks_weigh_equally_not_checkpoints() -> None:
    # Task A: 1 checkpoint credited 0; task B: 4 checkpoints credited 1,1,1,0.
    report = score(
        {
            "m": [
                row("task_a", success=False, message="Door: False"),
                row("task_b", success=False, message="A: True, B: True, C: True, D: False"),
            ]
        }
    )
    main = report.model("m").summary("main")
    assert main.psr == pytest.approx((0.0 + 0.75) / 2)  # pooling would give 3/5 = 0.6


def test_splits_are_separate_and_union_is_extra() -> None:
    report = score(
        {
            "m": [
                row("task_a", success=True, message="Door: True"),
                row("task_a_v1", success=False, message="Door: False"),
                row("task_a_v2", success=False, message="Logs: 1/2"),
                row("task_b_v2", success=True, message="Logs: 2/2"),
            ]
        }
    )
    m = report.model("m")
    assert m.summary("main").psr == 1.0
    assert m.summary("augmented_v1").psr == 0.0
    assert m.summary("augmented_v2").psr == pytest.approx(0.75)
    assert m.summary("augmented").psr == pytest.approx((0.0 + 0.5 + 1.0) / 3)
    assert m.summary("augmented_v2").coverage.scored == 2


def test_cce_failed_at_zero_rounded_and_rounds_chats_means() -> None:
    report = score(
        {
            "m": [
                row("task_a", success=True, message="D: True", CCE=0.123456, rounds=10, chats=4),
                row("task_b", success=False, message="D: False", CCE=0.0, rounds=30, chats=9),
                row("task_c", success=True, message="D: True", CCE=0.5, rounds=20, chats=5),
            ]
        }
    )
    main = report.model("m").summary("main")
    assert report.model("m").tasks[0].cce == 0.1235  # four decimals, as saved
    assert main.cce == pytest.approx((0.1235 + 0.0 + 0.5) / 3)  # failed task counts at 0
    assert main.rounds == pytest.approx(20.0)
    assert main.chats == pytest.approx(6.0)
    assert main.sr == pytest.approx(2 / 3)


def test_empty_split_has_no_means() -> None:
    report = score(WORKED)
    v1 = report.model("example-model").summary("augmented_v1")
    assert v1.psr is None and v1.sr is None and v1.coverage.scored == 0
    assert v1.status == "empty"


def test_task_psr_rejects_failed_without_checkpoints() -> None:
    with pytest.raises(ValueError):
        task_psr(False, ())


def test_pending_cce_is_not_a_zero_and_makes_the_split_partial() -> None:
    # The spec: "A judge/API failure is a pending score, not a model failure or a zero CCE."
    # `"CCE": null` on a successful row says the judge has not answered.
    report = score(
        {
            "m": [
                row("task_a", success=True, message="D: True", CCE=0.8),
                row("task_b", success=True, message="D: True", CCE=None),
                row("task_c", success=False, message="D: False", CCE=0.0),
            ]
        },
        PsrOptions(catalog={"main": ("task_a", "task_b", "task_c")}),
    )
    m = report.model("m")
    pending = m.tasks[1]
    assert pending.cce is None and pending.note is not None and "pending" in pending.note
    assert pending.psr == 1.0 and pending.success  # not a model failure
    main = m.summary("main")
    assert main.cce == pytest.approx((0.8 + 0.0) / 2)  # a zero would give 0.8 / 3
    assert main.sr == pytest.approx(2 / 3) and main.psr == pytest.approx(2 / 3)
    assert main.coverage.missing_tasks == () and not main.coverage.final
    assert main.status == "partial"
    doc = report.to_json()["models"][0]
    assert doc["summaries"]["main"]["cce_pending_tasks"] == ["task_b"]
    assert doc["summaries"]["main"]["cce_scored"] == 2
    assert doc["summaries"]["main"]["final"] is False
    assert doc["tasks"][1]["CCE"] is None


def test_null_cce_of_a_failed_task_is_zero_by_definition() -> None:
    report = score({"m": [row("task_a", success=False, message="D: False", CCE=None)]})
    (t,) = report.model("m").tasks
    assert t.cce == 0.0
    assert report.model("m").summary("main").cce_pending_tasks == ()


def test_all_cce_saved_keeps_a_complete_split_final() -> None:
    report = score(
        {"m": [row("task_a", success=True, message="D: True", CCE=0.25)]},
        PsrOptions(catalog={"main": ("task_a",)}),
    )
    main = report.model("m").summary("main")
    assert main.coverage.final and main.status == "final" and main.cce == 0.25
