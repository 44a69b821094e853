"""score_run on built runs and on the example run: denominators, refusals, labels, JSON."""

from __future__ import annotations

import orjson
import pytest
from stats_fixtures import binary_run, case, make_run

from evalview.findings import Finding, Severity
from evalview.load import load_run
from evalview.stats import Scorecard, score_run, wilson_interval
from helpers.paths import EXAMPLE


def test_the_format_spec_denominator_example() -> None:
    # One success, one infrastructure error, one fail-fast-unattempted case.
    run = make_run(
        [
            case("t", 1, success=True),
            case("t", 2, "error", category="infrastructure"),
            case("t", 3, "unattempted"),
        ]
    )
    card = score_run(run, allow_errors=True, findings=[], bootstrap=0)
    d = card.denominators
    assert (d.selected, d.attempted, d.completed, d.errors, d.successes, d.unattempted) == (
        3, 2, 1, 1, 1, 1,
    )
    assert card.rates.selected_success_rate == pytest.approx(1 / 3)
    assert card.rates.attempt_success_rate == pytest.approx(1 / 2)
    assert card.rates.success_rate == 1.0
    assert card.pending == 1
    assert card.errored[0].pending and "pending" in card.errored[0].describe()
    assert "failure" not in card.errored[0].describe().replace("not a failure", "")
    # the per-task rate is over the selected cases, not the completed one
    assert card.tasks[0].rate == pytest.approx(1 / 3)
    assert card.tasks[0].wilson95 == wilson_interval(1, 3)


def test_errored_rollouts_are_refused_naming_each_one() -> None:
    run = make_run(
        [
            case("t", 1, success=True),
            case("t", 2, "error", category="infrastructure"),
            case("u", 1, "error", category="policy"),
        ]
    )
    card = score_run(run, findings=[], bootstrap=0)
    assert card.refused and not card.publishable
    (refusal,) = card.refusals
    assert refusal.code == "errored-rollouts"
    assert any("t/seed2" in d and "infrastructure" in d and "pending" in d for d in refusal.details)
    assert any("u/seed1" in d and "policy error" in d and "episodes.jsonl:3" in d
               for d in refusal.details)


def test_allow_errors_scores_errors_as_non_successes_and_labels_it() -> None:
    run = make_run([case("t", 1, success=True), case("t", 2, "error", category="policy")])
    card = score_run(run, allow_errors=True, findings=[], bootstrap=0)
    assert not card.refused and not card.publishable
    assert card.aggregate.mean == 0.5
    assert any(label.startswith("not a publishable read") for label in card.labels)


def test_audit_errors_refuse_unless_allowed() -> None:
    run = binary_run({"a": (1, 2)})
    err = Finding("EV501", Severity.ERROR, "summary disagrees", file="summary.json")
    warn = Finding("EV601", Severity.WARNING, "single replicate")
    assert [r.code for r in score_run(run, findings=[err, warn], bootstrap=0).refusals] == [
        "audit-errors"
    ]
    assert not score_run(run, findings=[warn], bootstrap=0).refused
    allowed = score_run(run, findings=[err], allow_errors=True, bootstrap=0)
    assert not allowed.refused and not allowed.publishable
    assert allowed.audit_errors == (err,)


def test_aggregate_is_the_mean_of_task_rates_not_the_pooled_rate() -> None:
    run = binary_run({"a": (10, 10), "b": (0, 40)})
    card = score_run(run, findings=[], bootstrap=0)
    assert card.aggregate.name == "all-2"
    assert card.aggregate.mean == 0.5  # pooled would be 10/50
    assert card.rates.selected_success_rate == pytest.approx(0.2)
    assert card.aggregate.se == 0.0  # both tasks at the floor/ceiling add no spread
    assert card.aggregate.bootstrap is None and card.aggregate.resamples == 0


def test_example_run_by_hand() -> None:
    card = score_run(load_run(EXAMPLE), allow_errors=True, findings=[])
    d = card.denominators
    # 12 selected, all attempted, 8 completed, 4 errors, 4 successes (summary.json agrees)
    assert (d.selected, d.attempted, d.completed, d.errors, d.successes, d.unattempted) == (
        12, 12, 8, 4, 4, 0,
    )
    assert card.rates.selected_success_rate == pytest.approx(4 / 12)
    assert card.rates.attempt_success_rate == pytest.approx(4 / 12)
    assert card.rates.success_rate == pytest.approx(4 / 8)
    by_task = {t.task: t for t in card.tasks}
    # task-00: 0/4 (one evaluation error); task-01: 1/4 (infra + policy errors); task-02: 3/4
    assert [(t.successes, t.selected, t.errors) for t in card.tasks] == [(0, 4, 1), (1, 4, 2),
                                                                          (3, 4, 1)]
    assert by_task["task-01"].error_categories == {"policy": 1, "infrastructure": 1}
    mean = (0 + 0.25 + 0.75) / 3
    se = ((0.25 * 0.75 / 4 + 0.75 * 0.25 / 4) ** 0.5) / 3
    assert card.aggregate.mean == pytest.approx(mean)
    assert card.aggregate.se == pytest.approx(se)
    assert card.aggregate.ci95 == pytest.approx((mean - 1.959964 * se, mean + 1.959964 * se))
    assert card.error_categories == {"policy": 1, "protocol": 1, "infrastructure": 1,
                                     "evaluation": 1}
    assert card.termination_reasons["policy:stop"] == 4
    assert card.termination_reasons["environment:truncated"] == 4
    assert card.pending == 1
    lo, hi = card.aggregate.bootstrap or (None, None)
    assert lo is not None and hi is not None and 0 <= lo <= mean <= hi <= 1


def test_example_run_is_refused_without_allow_errors() -> None:
    card = score_run(load_run(EXAMPLE), findings=[], bootstrap=0)
    assert card.refused
    assert {d.split(":")[0] for d in card.refusals[0].details} == {
        "task-00/seed1003", "task-01/seed1000", "task-01/seed1001", "task-02/seed1002",
    }


def test_json_shape_has_the_design_keys_and_fractions() -> None:
    card: Scorecard = score_run(binary_run({"a": (3, 5), "b": (5, 5)}), findings=[])
    doc = orjson.loads(orjson.dumps(card.to_json()))
    assert set(doc["aggregate"]) >= {"name", "tasks", "mean", "se", "ci95", "bootstrap"}
    assert set(doc["denominators"]) >= {
        "selected", "attempted", "completed", "errors", "successes", "unattempted",
    }
    assert set(doc["rates"]) == {"selected_success_rate", "attempt_success_rate", "success_rate"}
    for row in doc["tasks"]:
        assert set(row) >= {"task", "selected", "attempted", "completed", "errors", "successes",
                            "rate", "wilson95"}
        assert 0 <= row["wilson95"][0] <= row["rate"] <= row["wilson95"][1] <= 1
    assert doc["aggregate"]["mean"] == pytest.approx(0.8)
    assert all(0 <= x <= 1 for x in doc["aggregate"]["ci95"] + doc["aggregate"]["bootstrap"])


def test_audit_refusal_details_name_the_place_once() -> None:
    """Audit messages mostly begin with their place; the refusal detail must not repeat it."""
    run = binary_run({"a": (1, 2)})
    placed = Finding("EV323", Severity.ERROR, "episodes.jsonl:6 (a/seed1): out of order",
                     file="episodes.jsonl", line=6, episode_id="a/seed1")
    bare = Finding("EV501", Severity.ERROR, "summary disagrees", file="summary.json")
    (refusal,) = score_run(run, findings=[placed, bare], bootstrap=0).refusals
    assert refusal.details == (
        "EV323 episodes.jsonl:6 (a/seed1): out of order",
        "EV501 summary.json: summary disagrees",
    )
