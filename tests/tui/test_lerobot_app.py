"""The app on a LeRobot eval_info.json: the same tabs, groups as views, reward columns."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import REPO, SIZE, opened, run

from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodesPane
from evalview.tui.tasks import TasksPane
from evalview.tui.vtable import VirtualTable

SAMPLE = REPO / "sample_runs" / "lerobot" / "smolvla-libero-40k.json"


def _plain(content: object) -> str:
    console = Console(width=240, record=True, file=io.StringIO(), color_system=None)
    console.print(Text.from_markup(content) if isinstance(content, str) else content)
    return console.export_text()


def test_tasks_cycle_through_the_groups_and_episodes_show_rewards() -> None:
    async def main() -> None:
        app = EvalViewApp(SAMPLE)
        async with app.run_test(size=SIZE) as pilot:
            screen = await opened(pilot)
            assert screen is not None
            await pilot.press("2")
            pane = app.screen.query_one(TasksPane)
            assert len(pane.order) == 40 and pane.order[0].startswith("libero_")
            await pilot.press("g")
            await pilot.pause()
            assert pane.group == "libero_spatial"
            assert pane.order == [f"libero_spatial/{i}" for i in range(10)]
            title = _plain(app.screen.query_one("#tasks-title", Static).content)
            assert "group libero_spatial: 10 of 40 tasks" in title
            for _ in range(4):
                await pilot.press("g")
            await pilot.pause()
            assert pane.group is None and len(pane.order) == 40
            await pilot.press("3")
            await pilot.pause()
            episodes = app.screen.query_one(EpisodesPane)
            table = episodes.query_one(VirtualTable)
            names = [c.label for c in table.columns]
            assert "sum reward" in names and "max reward" in names

    run(main())


def test_a_closed_run_has_no_group_key(example_session: Any) -> None:
    from tui_helpers import with_app

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("2")
        pane = app.screen.query_one(TasksPane)
        assert pane.check_action("next_group", ()) is False
        before = list(pane.order)
        await pilot.press("g")
        await pilot.pause()
        assert pane.order == before and pane.group is None

    with_app(example_session, body)
