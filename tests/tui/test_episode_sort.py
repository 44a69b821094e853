"""Sorting the Episodes table: `s` steps through the columns, `r` reverses, a click on a header
sorts by it (again: reversed). Rows with nothing in the column come last either way, ties keep
the run's order, and the order is checked against plain Python sorts of the same values."""

from __future__ import annotations

import math
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import wait_for, with_app

from evalview.session import Session
from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodeFilter, EpisodesPane
from evalview.tui.vtable import VirtualTable


def _expected(values: list[Any], rows: list[int], reverse: bool) -> list[int]:
    """Python's stable sort: present values ordered (reversed on request), missing ones last,
    ties in run order."""
    present = [r for r in rows if values[r] is not None]
    missing = [r for r in rows if values[r] is None]
    if reverse:
        # a stable descending sort that still breaks ties by run order
        present = sorted(present, key=lambda r: (_neg(values[r]), r))
    else:
        present = sorted(present, key=lambda r: (values[r], r))
    return present + missing


class _Desc:
    """Orders any comparable value backwards (strings included)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Desc) -> bool:
        return bool(other.value < self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.value == other.value


def _neg(value: Any) -> Any:
    return -value if isinstance(value, int | float) else _Desc(value)


def _status_line(app: EvalViewApp) -> str:
    return str(app.screen.query_one("#episodes-status", Static).content)


def test_s_steps_to_outcome_and_r_reverses_it(faulty_session: Session) -> None:
    ep = faulty_session.run.episodes
    rows = list(range(len(ep)))
    # success first when ascending (as the column reads ✓ before ·), no outcome last
    outcome = [None if s < 0 else 1 - int(s) for s in ep.success]
    assert {v for v in outcome} >= {0, 1, None}  # the sample has all three

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("3")
        pane = app.screen.query_one(EpisodesPane)
        table = app.screen.query_one("#episodes-table", VirtualTable)
        await wait_for(pilot, lambda: app.screen.focused is table)
        await pilot.press("s", "s", "s")  # # -> episode -> status -> outcome
        await wait_for(pilot, lambda: pane.sort_column == 3)
        assert list(pane.shown_rows) == _expected(outcome, rows, reverse=False)
        assert "sorted by outcome ▲" in _status_line(app)
        assert table.sorted_by == (3, False)
        await pilot.press("r")
        await wait_for(pilot, lambda: pane.sort_reverse)
        assert list(pane.shown_rows) == _expected(outcome, rows, reverse=True)
        assert "sorted by outcome ▼" in _status_line(app)

    with_app(faulty_session, body)


def test_a_click_on_a_header_sorts_by_it_and_again_reverses(faulty_session: Session) -> None:
    ep = faulty_session.run.episodes
    rows = list(range(len(ep)))
    seeds = [None if s < 0 else int(s) for s in ep.seed]

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("3")
        pane = app.screen.query_one(EpisodesPane)
        table = app.screen.query_one("#episodes-table", VirtualTable)
        await wait_for(pilot, lambda: table.row_count == len(ep))
        seed_column = [c.label for c in table.columns].index("seed")
        x = sum(c.width + 1 for c in table.columns[:seed_column]) + 1
        await pilot.click(table, offset=(x, 0))
        await wait_for(pilot, lambda: pane.sort_column == seed_column)
        assert list(pane.shown_rows) == _expected(seeds, rows, reverse=False)
        await pilot.click(table, offset=(x, 0))
        await wait_for(pilot, lambda: pane.sort_reverse)
        assert list(pane.shown_rows) == _expected(seeds, rows, reverse=True)

    with_app(faulty_session, body)


def test_text_columns_sort_as_text_and_a_filter_keeps_the_order(faulty_session: Session) -> None:
    ep = faulty_session.run.episodes
    rows = list(range(len(ep)))
    reasons = [r if r else None for r in ep.termination_reason]

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("3")
        pane = app.screen.query_one(EpisodesPane)
        column = [c.label for c in pane.query_one(VirtualTable).columns].index("termination")
        pane.sort_by(column)
        await pilot.pause()
        assert list(pane.shown_rows) == _expected(reasons, rows, reverse=False)
        task = str(ep.task[0])
        pane.set_filter(EpisodeFilter(task=task))
        await pilot.pause()
        in_task = [r for r in rows if ep.task[r] == task]
        assert list(pane.shown_rows) == _expected(reasons, in_task, reverse=False)
        # Enter still opens the record of the row under the cursor, wherever sorting put it
        first = int(pane.shown_rows[0])
        pane.focus_row(first)
        assert int(pane.shown_rows[pane.query_one(VirtualTable).cursor_row]) == first

    with_app(faulty_session, body)


def test_run_order_reversed_and_scores_with_nan_last() -> None:
    """The `#` column reversed is the run backwards; a float column puts NaN last both ways."""
    import numpy as np

    from evalview.tui.episodes import _ranks

    values = np.array([0.5, math.nan, -1.0, 0.5, 2.0])
    rank, missing = _ranks(values)
    index = np.arange(5)
    ascending = index[np.lexsort((index, rank, missing))]
    descending = index[np.lexsort((index, -rank, missing))]
    assert ascending.tolist() == [2, 0, 3, 4, 1]
    assert descending.tolist() == [4, 0, 3, 2, 1]
    text_rank, text_missing = _ranks(np.array(["b", None, "a", "", "b"], dtype=object))
    assert text_missing.tolist() == [False, True, False, True, False]
    assert text_rank[2] < text_rank[0] == text_rank[4]

