"""The epoch reducer `mean` keeps Inspect's `statistics.mean` exactly on its fast path."""

from __future__ import annotations

import statistics

from hypothesis import given
from hypothesis import strategies as st

from evalview.load.inspect_ai.values import _mean

INTEGRAL = st.integers(min_value=-(2**40), max_value=2**40).map(float)
ANY = st.floats(allow_nan=False, allow_infinity=False, width=64, min_value=-1e12, max_value=1e12)


@given(st.lists(INTEGRAL, min_size=1, max_size=50))
def test_integer_valued_epochs_reduce_as_statistics_mean(values: list[float]) -> None:
    assert _mean(values) == statistics.mean(values)


@given(st.lists(st.sampled_from([0.0, 1.0]), min_size=1, max_size=50))
def test_zero_one_epochs_reduce_as_statistics_mean(values: list[float]) -> None:
    assert _mean(values) == statistics.mean(values)


@given(st.lists(ANY, min_size=1, max_size=20))
def test_other_values_go_to_statistics_mean(values: list[float]) -> None:
    assert _mean(values) == statistics.mean(values)
