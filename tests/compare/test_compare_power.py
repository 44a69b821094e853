"""Sample size, minimum detectable gap, exact power and cost: every worked number of the spec."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom, norm

from evalview.compare.power import (
    cost,
    exact_power,
    independent_discordance,
    min_detectable_gap,
    n_per_arm,
    paired_n,
)


def test_spec_episodes_per_arm() -> None:
    assert n_per_arm(0.68, 0.76) == 495  # our pair
    assert n_per_arm(0.67, 0.77) == 317  # a ten-point gap around 72 %
    assert n_per_arm(0.635, 0.956) == 25  # lesson 3's repair
    assert n_per_arm(0.76, 0.68) == 495  # the direction does not matter


def test_n_per_arm_against_scipy_formula() -> None:
    k = (norm.ppf(0.995) + norm.ppf(0.9)) ** 2
    expected = math.ceil(2 * k * 0.5 * 0.5 / 0.05**2)
    assert n_per_arm(0.475, 0.525, alpha=0.01, power=0.9) == expected


@pytest.mark.parametrize(("n", "points"), [(20, 39.8), (100, 17.8), (500, 8.0), (1000, 5.6)])
def test_spec_minimum_detectable_gaps(n: int, points: float) -> None:
    assert round(100 * min_detectable_gap(n, 0.72), 1) == points


def test_minimum_gap_inverts_sample_size() -> None:
    n = n_per_arm(0.68, 0.76)
    assert min_detectable_gap(n, 0.72) <= 0.08 < min_detectable_gap(n - 1, 0.72)


def test_spec_paired_design() -> None:
    psi = independent_discordance(0.68, 0.76)
    assert round(100 * psi, 1) == 40.6
    assert paired_n(psi, 0.08) == 497
    # Replayed gusts: ψ = 8 %, the new checkpoint never loses a pair → 96 pairs (§5).
    assert paired_n(0.08, 0.08) == 96


def test_paired_refuses_gap_beyond_discordance() -> None:
    with pytest.raises(ValueError, match="discordant"):
        paired_n(0.05, 0.08)
    with pytest.raises(ValueError, match="zero"):
        paired_n(0.3, 0.0)


def test_spec_exact_power_and_widget_numbers() -> None:
    p20 = exact_power(0.68, 0.76, 20)
    assert round(100 * p20.right, 1) == 8.4
    assert round(100 * p20.wrong, 1) == 0.6
    assert round(100 * p20.more, 1) == 65.2
    assert round(100 * (p20.tie + p20.less), 1) == 34.8
    assert round(100 * exact_power(0.68, 0.76, 100).right, 1) == 24.2
    assert round(100 * exact_power(0.68, 0.76, 200).right, 1) == 43.1
    assert round(100 * exact_power(0.68, 0.76, 495).right, 1) == 80.2
    assert round(100 * exact_power(0.68, 0.76, 500).right, 1) == 80.6
    assert round(100 * exact_power(0.68, 0.76, 1000).right, 1) == 97.9


def test_exact_power_against_a_brute_force_scipy_sum() -> None:
    n, p1, p2 = 37, 0.4, 0.65
    a, b = binom.pmf(np.arange(n + 1), n, p1), binom.pmf(np.arange(n + 1), n, p2)
    crit = norm.ppf(0.975)
    right = wrong = 0.0
    for i in range(n + 1):
        for j in range(n + 1):
            s = i + j
            if s in (0, 2 * n):
                continue
            pp = s / (2 * n)
            z = (j - i) / n / math.sqrt(pp * (1 - pp) * 2 / n)
            right += a[i] * b[j] * (z > crit)
            wrong += a[i] * b[j] * (z < -crit)
    ours = exact_power(p1, p2, n)
    assert ours.right == pytest.approx(right, abs=1e-12)
    assert ours.wrong == pytest.approx(wrong, abs=1e-12)
    assert ours.more + ours.tie + ours.less == pytest.approx(1.0, abs=1e-12)


def test_exact_power_equal_arms_is_about_alpha_split() -> None:
    r = exact_power(0.5, 0.5, 400)
    assert r.right == pytest.approx(r.wrong, rel=1e-9)
    assert 0.03 < r.right + r.wrong < 0.06


def test_exact_power_degenerate_rates() -> None:
    r = exact_power(0.0, 1.0, 5)
    assert r.right == pytest.approx(1.0)
    assert exact_power(1.0, 1.0, 5).right == 0.0


def test_spec_cost() -> None:
    c = cost(495, 3)
    assert (c.trials, c.robot_hours) == (990, 49.5)
    assert round(c.robot_weeks, 2) == 1.24
    assert round(cost(500, 3).robot_hours, 1) == 50.0
    assert round(cost(500, 3).robot_weeks, 2) == 1.25
    assert round(cost(500, 1.7).robot_hours, 1) == 28.3
    assert round(cost(1000, 3).robot_hours, 1) == 100.0
    with pytest.raises(ValueError):
        cost(10, 0)


def test_bad_rates_and_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="equal"):
        n_per_arm(0.5, 0.5)
    with pytest.raises(ValueError, match="fraction"):
        n_per_arm(68, 76)
    with pytest.raises(ValueError, match="positive"):
        min_detectable_gap(0, 0.7)
    with pytest.raises(ValueError, match="positive"):
        exact_power(0.6, 0.7, 0)


def test_exact_power_pmf_matches_scipy_at_large_n() -> None:
    from evalview.compare.power import _binom_pmf

    n = 200_000
    k = np.arange(n // 2 - 2000, n // 2 + 2000)
    ours = _binom_pmf(n, 0.5)[k]
    assert ours == pytest.approx(binom.pmf(k, n, 0.5), rel=1e-9)


def test_exact_power_refuses_a_grid_too_large() -> None:
    from evalview.compare.power import EXACT_POWER_MAX_N

    with pytest.raises(ValueError, match="not computed"):
        exact_power(0.5, 0.6, EXACT_POWER_MAX_N + 1)
