"""The all-T aggregate against scipy, and the graded metric and error tallies by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binom, norm
from stats_fixtures import case, make_run

from evalview.stats import score_run
from evalview.stats.aggregate import all_tasks_mean

tasks_strategy = st.lists(
    st.integers(min_value=1, max_value=60).flatmap(
        lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
    ),
    min_size=1,
    max_size=30,
)


@given(tasks_strategy)
def test_aggregate_matches_scipy_binomial_variance(tasks: list[tuple[int, int]]) -> None:
    k = [t[0] for t in tasks]
    n = [t[1] for t in tasks]
    value = all_tasks_mean(k, n)
    rates = np.array(k) / np.array(n)
    # Var(k_t/n_t) = Var(Binomial(n_t, p_t)) / n_t², independent tasks, mean over T
    var = sum(binom(nt, p).var() / nt**2 for nt, p in zip(n, rates, strict=True)) / len(n) ** 2
    assert value.mean == pytest.approx(rates.mean(), abs=1e-12)
    assert value.se == pytest.approx(math.sqrt(var), abs=1e-12)
    z = norm.ppf(0.975)
    lo, hi = value.ci95
    assert lo == pytest.approx(max(0.0, value.mean - z * value.se), abs=1e-6)
    assert hi == pytest.approx(min(1.0, value.mean + z * value.se), abs=1e-6)
    assert 0.0 <= lo <= value.mean <= hi <= 1.0


def test_aggregate_refuses_empty_tasks() -> None:
    with pytest.raises(ValueError):
        all_tasks_mean([], [])
    with pytest.raises(ValueError):
        all_tasks_mean([0], [0])


def test_graded_metric_counts_missing_values_as_missing_not_zero() -> None:
    run = make_run(
        [
            case("a", 1, success=True, score=10),
            case("a", 2, success=False, score=20),
            case("a", 3, "error", category="policy"),
            case("b", 1, success=False, score=5),
        ]
    )
    card = score_run(run, metric="score", allow_errors=True, findings=[], bootstrap=0)
    g = card.graded
    assert g is not None
    a, b = g.tasks
    assert (a.n, a.missing, a.mean) == (2, 1, 15.0)
    assert a.se == pytest.approx(np.std([10, 20], ddof=1) / math.sqrt(2))
    assert (b.n, b.mean, b.se) == (1, 5.0, None)
    assert g.mean == 10.0 and g.se is None  # one task has a single value: no SE overall
    assert card.tasks[0].rate == pytest.approx(1 / 3)  # the binary rate is unchanged


def test_error_categories_overall_and_per_task_and_termination_reasons() -> None:
    run = make_run(
        [
            case("a", 1, "error", category="infrastructure"),
            case("a", 2, "error", category="infrastructure"),
            case("b", 1, "error", category="evaluation"),
            case("b", 2, "error", category="made-up"),
            case("b", 3, success=True),
            case("b", 4, "unattempted"),
        ]
    )
    card = score_run(run, allow_errors=True, findings=[], bootstrap=0)
    assert card.error_categories == {"policy": 0, "protocol": 0, "infrastructure": 2,
                                     "evaluation": 1, "unknown": 1}
    assert card.tasks[0].error_categories == {"infrastructure": 2}
    assert card.tasks[1].error_categories == {"evaluation": 1, "unknown": 1}
    assert card.pending == 2
    assert card.termination_reasons == {"error:infrastructure": 2, "error:evaluation": 1,
                                        "error:made-up": 1, "policy:stop": 1}


def test_graded_metric_with_huge_values_never_overflows() -> None:
    """1e308 is a valid JSON number: its sum overflows a float, so the mean is computed on scaled
    values (finite here), and a result too large for a float is None, never an exception."""
    run = make_run(
        [
            case("a", 1, success=True, score=1e308),
            case("a", 2, success=False, score=1e308),
            case("b", 1, success=True, score=1e308),
            case("b", 2, success=True, score=-1e308),
        ]
    )
    card = score_run(run, metric="score", allow_errors=True, findings=[], bootstrap=0)
    g = card.graded
    assert g is not None
    a, b = g.tasks
    assert a.mean == pytest.approx(1e308) and a.se == 0.0
    assert b.mean == 0.0 and b.se == pytest.approx(1e308)
    assert g.mean == pytest.approx(0.5e308)
    assert g.se == pytest.approx(0.5e308)


def test_graded_mean_of_huge_task_means_never_overflows() -> None:
    run = make_run([case("a", 1, success=True, score=1.5e308), case("b", 1, score=1.5e308),
                    case("b", 2, score=1.7e308)])
    card = score_run(run, metric="score", allow_errors=True, findings=[], bootstrap=0)
    assert card.graded is not None
    assert card.graded.mean == pytest.approx(1.55e308)
    assert card.graded.tasks[1].se == pytest.approx(0.1e308)
