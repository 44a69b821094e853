"""No key traps the reviewer: a tab key never leaves the focus in a hidden pane's search box, and
Escape always leaves a search box (issue: pressing 2 then 1 sent every later key, `q` and `?`
included, into Tasks' search field; only ctrl+q got out)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, TabbedContent
from tui_helpers import opened, run, wait_for

from evalview.tui.app import EvalViewApp
from helpers.paths import EXAMPLE


def _active(screen: Any) -> str:
    return str(screen.query_one(TabbedContent).active)


@pytest.mark.parametrize("first", ["2", "3", "4", "5", "6"])
def test_a_tab_key_then_1_shows_the_overview_with_no_search_box_focused(first: str) -> None:
    async def main() -> None:
        app = EvalViewApp(EXAMPLE)
        async with app.run_test(size=(140, 40)) as pilot:
            screen = await opened(pilot)
            await pilot.press(first)
            await wait_for(pilot, lambda: _active(screen) != "overview")
            await pilot.pause(0.2)
            await pilot.press("1")
            await wait_for(pilot, lambda: _active(screen) == "overview")
            await pilot.pause(0.3)
            assert _active(screen) == "overview"
            assert not isinstance(app.focused, Input)
            await pilot.press("question_mark")  # keys still reach the app
            await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen")

    run(main())


@pytest.mark.parametrize(
    ("tab", "field", "table"),
    [
        ("2", "#tasks-search", "#tasks-table"),
        ("3", "#f-text", "#episodes-table"),
        ("5", "#findings-search", "#findings-table"),
    ],
)
def test_escape_leaves_a_search_box_for_its_table_keeping_the_text(
    tab: str, field: str, table: str
) -> None:
    async def main() -> None:
        app = EvalViewApp(EXAMPLE)
        async with app.run_test(size=(140, 40)) as pilot:
            screen = await opened(pilot)
            await pilot.press(tab)
            await pilot.pause(0.2)
            await pilot.press("slash")
            box = screen.query_one(field, Input)
            await wait_for(pilot, lambda: app.focused is box)
            await pilot.press("x")
            await wait_for(pilot, lambda: box.value == "x")
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.focused is screen.query_one(table))
            assert box.value == "x"
            await pilot.press("1")
            await wait_for(pilot, lambda: _active(screen) == "overview")

    run(main())
