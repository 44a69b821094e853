"""The Wilson bar: one 0–100 % scale for every task, readable without colour."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from evalview.tui.bars import interval_bar


def test_interval_and_estimate_sit_where_the_numbers_say() -> None:
    bar = interval_bar(0.25, 0.75, 0.5, width=21).plain
    assert len(bar) == 21
    assert bar[10] == "●"  # 0.5 of 20 cells
    assert bar[5:10] == "━" * 5 and bar[11:16] == "━" * 5  # 0.25..0.75 -> cells 5..15
    assert set(bar[:5]) == {"·"} and set(bar[16:]) == {"·"}


def test_zero_of_n_still_shows_its_interval() -> None:
    bar = interval_bar(0.0, 0.071, 0.0, width=31).plain
    assert bar[0] == "●" and bar[1:3] == "━━" and bar[3] == "·"


@given(
    st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.integers(min_value=3, max_value=80)
)
def test_bar_has_its_width_and_one_estimate(lo: float, hi: float, p: float, width: int) -> None:
    lo, hi = min(lo, hi), max(lo, hi)
    bar = interval_bar(lo, hi, p, width=width).plain
    assert len(bar) == width
    assert bar.count("●") == 1
