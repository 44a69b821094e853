"""The worked numbers of evaluation-statistics.txt not already pinned by the module tests.

Each assertion names its section; together with test_compare_power.py, test_compare_hypothesis_tests
.py and tests/stats/test_intervals.py every number the spec derives is checked (the traceability
table is docs/spec-coverage-psr-stats.md). Bench-only numbers (progress scores, matched starts) are
listed there as not derivable.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom, norm

from evalview.compare.hypothesis_tests import mcnemar_exact, z_power, z_quantile
from evalview.compare.power import (
    ExactPairedPower,
    cost,
    exact_paired_power,
    independent_discordance,
    n_per_arm,
    non_overlap_n_per_arm,
    paired_n,
)
from evalview.stats.intervals import clopper_pearson_interval, normal_interval, wilson_interval

Z_BETA = 0.8416


def test_s2_spread_of_one_rate_and_of_a_difference() -> None:
    # §2: "10.0 points at p = 0.72 and n = 20, halved by four times the trials".
    sd = math.sqrt(0.72 * 0.28 / 20)
    assert round(100 * sd, 1) == 10.0
    assert math.sqrt(0.72 * 0.28 / 80) == pytest.approx(sd / 2)
    # Interview prompt to §1/§3: the difference of two counts of 20 scatters by about 14.2 points.
    assert round(100 * math.sqrt(2 * 0.72 * 0.28 / 20), 1) == 14.2


def test_s2_the_normal_interval_leaves_the_unit_range_and_collapses() -> None:
    # §2: at 19 of 20 the (unclipped) normal interval ends above 100 %; at 20 of 20 zero width.
    p = 19 / 20
    assert p + 1.959964 * math.sqrt(p * (1 - p) / 20) > 1.0
    assert normal_interval(20, 20) == (1.0, 1.0)
    # Clopper–Pearson is the widest of the three at 15, 19 and 20 of 20.
    for k in (15, 19, 20):
        lo_cp, hi_cp = clopper_pearson_interval(k, 20)
        for lo, hi in (wilson_interval(k, 20), normal_interval(k, 20)):
            assert hi_cp - lo_cp > hi - lo


def _coverage(interval: object, n: int, p: float) -> float:
    ks = np.arange(n + 1)
    pmf = binom.pmf(ks, n, p)
    ivs = [interval(int(k), n) for k in ks]  # type: ignore[operator]
    return float(sum(w for w, (lo, hi) in zip(pmf, ivs, strict=True) if lo <= p <= hi))


@pytest.mark.parametrize(
    ("interval", "percent"),
    [(normal_interval, 89.6), (wilson_interval, 95.3), (clopper_pearson_interval, 97.5)],
)
def test_s2_average_coverage_at_n_20(interval: object, percent: float) -> None:
    # §2: "Averaged over true rates from 0.5 to 0.95, a nominal 95 % interval at n = 20 covers the
    # truth in 89.6 % (normal), 95.3 % (Wilson) and 97.5 % (Clopper–Pearson)". The average is
    # over the rates 0.50, 0.51, ..., 0.95 (a finer grid gives 89.8 / 95.4 / 97.6).
    grid = np.linspace(0.5, 0.95, 46)
    mean = float(np.mean([_coverage(interval, 20, float(p)) for p in grid]))
    assert round(100 * mean, 1) == percent


def test_s3_the_constant_and_the_critical_values() -> None:
    # §3: z_β = 0.8416 at 80 % power, n = 15.7 p̄(1 − p̄)/Δ².
    assert round(z_power(0.8), 4) == Z_BETA
    assert round(z_quantile(0.05), 2) == 1.96
    assert round(2 * (z_quantile(0.05) + z_power(0.8)) ** 2, 1) == 15.7


def test_s3_non_overlap_needs_1_66_times_the_trials() -> None:
    # §3: "Non-overlap is valid and strict ... it needs 1.66 times the trials of the test".
    za, zb = norm.ppf(0.975), norm.ppf(0.8)
    ratio = ((2 * za + math.sqrt(2) * zb) / (math.sqrt(2) * (za + zb))) ** 2
    assert round(ratio, 2) == 1.66
    # Through the public sizes: for a small gap (where rounding up is negligible) the
    # non-overlap rule's episodes per arm are that ratio times the z-test's.
    big_test, big_apart = n_per_arm(0.5, 0.502), non_overlap_n_per_arm(0.5, 0.502)
    assert big_apart / big_test == pytest.approx(ratio, rel=1e-4)
    n_test, n_apart = n_per_arm(0.68, 0.76), non_overlap_n_per_arm(0.68, 0.76)
    assert (n_test, n_apart) == (495, 823)
    assert round(n_apart / n_test, 2) == 1.66


def test_s3_non_overlap_size_has_the_stated_power_by_simulation() -> None:
    # At the non-overlap n, two normal-approximation intervals are apart in ~80 % of evaluations.
    n = non_overlap_n_per_arm(0.68, 0.76)
    rng = np.random.default_rng(3)
    k1 = rng.binomial(n, 0.68, 40_000) / n
    k2 = rng.binomial(n, 0.76, 40_000) / n
    half1 = 1.959964 * np.sqrt(k1 * (1 - k1) / n)
    half2 = 1.959964 * np.sqrt(k2 * (1 - k2) / n)
    apart = float(np.mean(k2 - half2 > k1 + half1))
    assert 0.77 < apart < 0.83


def test_s4_the_price() -> None:
    # §4: 990 trials, 49.5 robot-hours, 1.24 robot-weeks for our pair at 3 minutes a trial.
    c = cost(n_per_arm(0.68, 0.76), 3)
    assert (c.trials, c.robot_hours, round(c.robot_weeks, 2)) == (990, 49.5, 1.24)
    # Two checkpoints of 20 demonstrations each: 40 runs, 2.0 robot-hours, so 24.8 times.
    training_hours = 40 * 3 / 60
    assert training_hours == 2.0
    assert round(c.robot_hours / training_hours, 1) == 24.8
    # Six honest comparisons: 297 robot-hours, 7.4 robot-weeks.
    assert 6 * c.robot_hours == 297.0
    assert round(6 * c.robot_weeks, 1) == 7.4
    # At AutoEval's 1.7 minutes the 990 trials still take 28 hours (28.3 for 500 per arm).
    assert round(cost(495, 1.7).robot_hours) == 28
    assert round(cost(500, 1.7).robot_hours, 1) == 28.3
    # The widget at 500: 25.0 trials for every training run.
    assert cost(500, 3).trials / 40 == 25.0


def test_s5_mcnemar_worked_example_and_the_smallest_decisive_count() -> None:
    # §5: p = 2 × (1 + 10 + 45)/1024 = 0.109 for b = 8, c = 2.
    r = mcnemar_exact(8, 2)
    assert r.p_value == 2 * (1 + 10 + 45) / 1024
    assert round(r.p_value, 3) == 0.109
    # "the exact test needs at least 6" discordant pairs to reject at 5 %.
    assert mcnemar_exact(6, 0).p_value < 0.05 <= mcnemar_exact(5, 0).p_value


def test_s5_paired_sizes_and_the_5_2_times() -> None:
    psi = independent_discordance(0.68, 0.76)
    assert round(100 * psi, 1) == 40.6
    assert paired_n(psi, 0.08) == 497
    assert abs(497 - 495) / 495 < 0.005  # "within half a percent of §3's 495"
    assert paired_n(0.08, 0.08) == 96
    assert round(paired_n(psi, 0.08) / paired_n(0.08, 0.08), 1) == 5.2
    # "at ψ = 8 %, twenty pairs hold 1.6 on average"
    assert round(20 * 0.08, 1) == 1.6


@pytest.mark.parametrize(("n", "percent"), [(20, 0.4), (100, 82.0)])
def test_s5_same_gust_pairs_exact_power(n: int, percent: float) -> None:
    # §5: 20 same-gust pairs reach the right verdict in 0.4 %, 100 in 82.0 % (ψ = Δ = 8 %).
    r = exact_paired_power(0.08, 0.08, n)
    assert round(100 * r.right, 1) == percent
    assert r.wrong == 0.0  # the new checkpoint never loses a pair


def test_exact_paired_power_against_a_brute_force_multinomial_sum() -> None:
    n, psi, delta = 30, 0.3, 0.1
    pb, pc = (psi + delta) / 2, (psi - delta) / 2
    right = wrong = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            w = (
                math.comb(n, b) * math.comb(n - b, c)
                * pb**b * pc**c * (1 - psi) ** (n - b - c)
            )
            if mcnemar_exact(b, c).p_value < 0.05:
                if b > c:
                    right += w
                else:
                    wrong += w
    ours = exact_paired_power(psi, delta, n)
    assert ours.right == pytest.approx(right, abs=1e-12)
    assert ours.wrong == pytest.approx(wrong, abs=1e-12)


def test_exact_paired_power_edges_and_refusals() -> None:
    assert exact_paired_power(0.0, 0.0, 50) == ExactPairedPower(0.0, 0.0)
    even = exact_paired_power(0.4, 0.0, 200)
    assert even.right == pytest.approx(even.wrong) and 0.0 < even.right < 0.025
    with pytest.raises(ValueError, match="discordant"):
        exact_paired_power(0.05, 0.08, 20)
    with pytest.raises(ValueError, match="positive"):
        exact_paired_power(0.3, 0.1, 0)
    with pytest.raises(ValueError, match="not computed"):
        exact_paired_power(0.3, 0.1, 10**6)
