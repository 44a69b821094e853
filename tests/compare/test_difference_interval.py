"""The interval for rate_B − rate_A: Newcombe's hybrid score (1998, method 10) and the paired
score interval (Newcombe 1998b, method 10), against published numbers and statsmodels."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.proportion import confint_proportions_2indep

from evalview.compare.difference import HYBRID, PAIRED, newcombe_hybrid, newcombe_paired

#: Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10 (as the issue gives it):
#: (k_B, n_B, k_A, n_A) → difference, [lower, upper]
TABLE_II = [
    ((56, 70, 48, 80), 0.2000, (0.0524, 0.3339)),
    ((9, 10, 3, 10), 0.6000, (0.1705, 0.8090)),
    ((6, 7, 2, 7), 0.5714, (0.0582, 0.8062)),
    ((5, 56, 0, 29), 0.0893, (-0.0381, 0.1926)),
]


@pytest.mark.parametrize(("counts", "diff", "interval"), TABLE_II)
def test_hybrid_matches_newcombe_table_ii(
    counts: tuple[int, int, int, int], diff: float, interval: tuple[float, float]
) -> None:
    got = newcombe_hybrid(*counts)
    assert got.method == HYBRID
    assert round(got.difference, 4) == diff
    assert tuple(round(x, 4) for x in got.interval) == interval


@given(
    st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
)
def test_hybrid_agrees_with_statsmodels(b: tuple[int, int], a: tuple[int, int]) -> None:
    lo, hi = confint_proportions_2indep(b[0], b[1], a[0], a[1], method="newcomb")
    got = newcombe_hybrid(b[0], b[1], a[0], a[1])
    # statsmodels uses z = 1.959963985, evalview 1.959964: equal to far below display precision
    assert got.interval[0] == pytest.approx(max(-1.0, lo), abs=1e-6)
    assert got.interval[1] == pytest.approx(min(1.0, hi), abs=1e-6)


def test_paired_matches_fagerland_example() -> None:
    """Fagerland, Lydersen & Laake (2017) §8, Cavo et al. (2012): table [[59, 6], [16, 80]]
    (rows: the first rate; columns: the second) gives −0.0621 (−0.1186 to −0.0046)."""
    got = newcombe_paired(both=59, only_b=6, only_a=16, neither=80)
    assert got.method == PAIRED
    assert round(got.difference, 4) == -0.0621
    assert tuple(round(x, 4) for x in got.interval) == (-0.1186, -0.0046)


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_paired_interval_holds_its_estimate_and_stays_in_bounds(
    both: int, only_a: int, only_b: int, neither: int
) -> None:
    if both + only_a + only_b + neither == 0:
        return
    got = newcombe_paired(both, only_a, only_b, neither)
    lo, hi = got.interval
    assert -1.0 <= lo <= got.difference + 1e-12 <= hi + 2e-12 <= 1.0 + 2e-12


def test_paired_without_correlation_is_the_hybrid_over_n() -> None:
    """ad − bc within [0, n/2] sets φ = 0: square-and-add of the two Wilson intervals over n."""
    both, only_a, only_b, neither = 5, 5, 5, 5  # ad − bc = 0
    n = 20
    paired = newcombe_paired(both, only_a, only_b, neither)
    hybrid = newcombe_hybrid(both + only_b, n, both + only_a, n)
    assert paired.interval == pytest.approx(hybrid.interval, abs=1e-15)


def test_positive_correlation_narrows_the_interval() -> None:
    """Pairs that mostly agree (the point of pairing) give a narrower interval than independent
    reads with the same two rates."""
    paired = newcombe_paired(both=30, only_a=2, only_b=8, neither=10)
    hybrid = newcombe_hybrid(38, 50, 32, 50)
    assert paired.interval[1] - paired.interval[0] < hybrid.interval[1] - hybrid.interval[0]
