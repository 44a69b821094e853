"""One number, one rounding (issue 22): every percent and point is rounded by `evalview.fmt`, half
to even on the exact value, once.

The oracle is Python's `decimal` module (ROUND_HALF_EVEN on a 60-digit quotient), an
implementation independent of the integer arithmetic in `fmt.fixed`.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from evalview.fmt import exact, fixed, pct, pct_range, points
from evalview.stats.aggregate import all_tasks_mean
from helpers.paths import REPO

#: A real file's 40 tasks × 10 episodes, 323 successes: the float mean of the per-task rates is
#: 0.8074999999999999 and the pooled rate 323 / 400 is 0.8075 (issue 22).
TASKS_323_OF_400 = [8, 10, 9, 9, 8, 7, 6, 9, 8, 8, 10, 10, 9, 7, 9, 8, 7, 10, 7, 7,
                    7, 7, 8, 10, 9, 8, 9, 9, 7, 10, 7, 7, 7, 9, 7, 4, 9, 8, 8, 7]


def _oracle(value: Fraction, digits: int) -> str:
    with localcontext() as ctx:
        ctx.prec = 60
        quotient = Decimal(value.numerator) / Decimal(value.denominator)
        return str(quotient.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN))


@given(st.integers(-10**6, 10**6), st.integers(1, 10**5), st.integers(0, 4))
def test_fixed_rounds_half_to_even_like_decimal(k: int, n: int, digits: int) -> None:
    value = Fraction(k, n)
    assert fixed(value, digits) == _oracle(value, digits)


@given(st.integers(0, 10**4), st.integers(1, 10**4))
def test_a_rate_reads_the_same_as_a_float_and_as_a_fraction(k: int, n: int) -> None:
    """k / n in float (correctly rounded) and as the exact fraction give one text."""
    k = min(k, n)
    assert pct(k / n) == pct(Fraction(k, n)) == _oracle(Fraction(100 * k, n), 1) + " %"
    assert pct(k / n, 2) == pct(Fraction(k, n), 2)


def test_ties_go_to_the_even_digit() -> None:
    assert pct(Fraction(1, 400)) == "0.2 %"  # 0.25 %: 2 is even
    assert pct(Fraction(3, 400)) == "0.8 %"  # 0.75 %
    assert pct(0.0025) == "0.2 %" and pct(0.0035) == "0.4 %"
    assert points(Fraction(3, 16)) == "+18.8 pt"  # 18.75
    assert points(Fraction(-1, 400)) == "-0.2 pt"
    assert fixed(2.5, 0) == "2" and fixed(3.5, 0) == "4"


def test_a_float_stands_for_its_shortest_decimal() -> None:
    assert exact(0.8075) == Fraction(323, 400)
    assert exact(0.1) == Fraction(1, 10)
    # the float tail of a sum is a different decimal, so it rounds the other way: the cure is
    # to compute the mean exactly, not to round harder
    assert pct(0.8074999999999999) == "80.7 %"


def test_signs_units_and_missing_values() -> None:
    assert points(0.0) == "+0.0 pt" and points(-0.0004) == "-0.0 pt"
    assert points(0.017, sign=False) == "1.7 pt"
    assert points(0.0125, unit="") == "+1.2"
    assert pct(None) == points(None) == pct_range(None, 0.5) == "—"
    assert pct(0.5, unit="") == "50.0"
    assert pct_range(0.648, 0.72) == "64.8–72.0 %"
    assert fixed(math.nan) == "nan"


def test_the_all_t_mean_and_the_pooled_rate_are_one_number() -> None:
    """Issue 22: `323 / 400 = 80.8 %` and then `all-40 … 80.7 %`, for one number."""
    n = [10] * len(TASKS_323_OF_400)
    assert sum(TASKS_323_OF_400) == 323
    # the float arithmetic the mean used to be computed with
    assert math.fsum(k / 10 for k in TASKS_323_OF_400) / 40 == 0.8074999999999999
    value = all_tasks_mean(TASKS_323_OF_400, n)
    assert value.exact_mean == Fraction(323, 400)
    assert value.mean == 0.8075 == 323 / 400
    assert pct(value.mean) == pct(323 / 400) == "80.8 %"


def test_the_harness_delta_and_its_replicate_contrast_round_alike() -> None:
    """Issue 22: `+18.7 pt` in the Δ column and `+18.75 pt` in the replicate contrast, from
    0.18749999999999994; exactly, 0.1875 reads +18.8 and +18.75."""
    from evalview.session import open_harness, score_harness_session

    session = open_harness(REPO / "sample_runs/harness/gpu-calc-hard-equal-update-3seeds.json")
    assert session is not None
    card = score_harness_session(session)
    row = next(a for a in card.arms if a.name == "opd-raw-teacher")
    assert row.delta_vs_reference == 0.1875
    assert row.contrast is not None and row.contrast.mean == 0.1875
    assert points(row.delta_vs_reference) == "+18.8 pt"
    assert "+18.75 pt over cold-start-only" in row.contrast.statement()
