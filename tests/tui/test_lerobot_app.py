"""The app on a LeRobot eval_info.json: the same tabs, groups as views, reward columns."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import SIZE, opened, run, showing

from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodesPane
from evalview.tui.tasks import TasksPane
from evalview.tui.vtable import VirtualTable
from helpers.paths import SAMPLE_RUNS

SAMPLE = SAMPLE_RUNS / "lerobot" / "smolvla-libero-40k.json"


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


def test_a_file_of_several_reads_asks_which_one_then_opens_it() -> None:
    from textual.widgets import OptionList

    from evalview.tui.read_picker import ReadPickerScreen

    path = SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json"

    async def main() -> None:
        app = EvalViewApp(path)
        async with app.run_test(size=SIZE) as pilot:
            from tui_helpers import wait_for

            await wait_for(pilot, lambda: showing(app, ReadPickerScreen))
            options = app.screen.query_one(OptionList)
            assert options.option_count == 2
            assert "eval_results_400" in str(options.get_option_at_index(0).prompt)
            await wait_for(pilot, lambda: app.focused is options)
            await pilot.press("down", "enter")
            screen = await opened(pilot)
            assert screen.session.run.identity.run_id == "eval_results_800"
            assert app.read == "eval_results_800"

    run(main())


def test_leaving_as_the_read_picker_is_pushed_is_not_a_traceback() -> None:
    """The app ending just as the picker is pushed (it failed a test that way, under load):
    the picker then mounts with no children, and a query of them in `on_mount` raised."""
    from evalview.tui.read_picker import ReadPickerScreen

    path = SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json"

    async def main() -> None:
        app = EvalViewApp(path, read="eval_results_400")
        async with app.run_test(size=SIZE) as pilot:
            await opened(pilot)
            app.push_screen(ReadPickerScreen(path, ["a", "b"], {"a": "1", "b": "2"}))
            app.exit(0)
        assert app.return_value == 0

    run(main())


def test_read_key_opens_that_read_directly() -> None:
    path = SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json"

    async def main() -> None:
        app = EvalViewApp(path, read="eval_results_400")
        async with app.run_test(size=SIZE) as pilot:
            screen = await opened(pilot)
            assert screen.session.run.identity.run_id == "eval_results_400"

    run(main())


def test_two_lerobot_files_open_the_compare_screen() -> None:
    from textual.widgets import DataTable

    from evalview.tui.compare_screen import CompareApp, CompareScreen

    lr = SAMPLE_RUNS / "lerobot"

    async def main() -> None:
        app = CompareApp(lr / "smolvla-libero-20k.json", lr / "smolvla-libero-40k.json")
        async with app.run_test(size=SIZE) as pilot:
            from tui_helpers import wait_for

            await wait_for(pilot, lambda: showing(app, CompareScreen))
            table = app.screen.query_one(DataTable)
            await wait_for(pilot, lambda: table.row_count > 0)
            assert table.row_count == 41  # 40 tasks and all pairs
            assert str(table.get_row_at(0)[0]).startswith("libero_spatial/0")

    run(main())


def test_two_reads_of_one_file_are_compared_from_the_picker() -> None:
    """space marks A then B, c compares: the same comparison as `evalview compare FILE FILE
    --read-a K --read-b K`; Escape goes back to the list, whose Enter still opens a read."""
    from textual.widgets import OptionList
    from tui_helpers import wait_for

    from evalview.load import read_input, select_run
    from evalview.tui.read_picker import ReadPickerScreen
    from evalview.tui.runs_compare import ReadsCompare
    from helpers.compare import compare_runs

    path = SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json"
    reading = read_input(path)
    expected = compare_runs(
        select_run(reading, "eval_results_400"),
        select_run(reading, "eval_results_800"),
        label_a="a",
        label_b="b",
    )

    async def main() -> None:
        app = EvalViewApp(path)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, ReadPickerScreen))
            picker = app.screen
            assert isinstance(picker, ReadPickerScreen)
            options = picker.query_one(OptionList)
            await wait_for(pilot, lambda: app.focused is options)
            await pilot.press("c")  # nothing marked: a warning, no screen
            await pilot.pause()
            assert app.screen is picker
            await pilot.press("space", "down", "space")
            await wait_for(pilot, lambda: picker.marked == ["eval_results_400", "eval_results_800"])
            assert str(options.get_option_at_index(0).prompt).startswith("A ")
            assert str(options.get_option_at_index(1).prompt).startswith("B ")
            await pilot.press("c")
            await wait_for(pilot, lambda: showing(app, ReadsCompare))
            shown = app.screen.comparison  # type: ignore[attr-defined]
            assert shown.a.label == f"{path} [eval_results_400]"
            assert shown.b.label == f"{path} [eval_results_800]"
            assert [t.task for t in shown.tasks] == [t.task for t in expected.tasks]
            assert [(t.pairs, t.only_a, t.only_b) for t in shown.tasks] == [
                (t.pairs, t.only_a, t.only_b) for t in expected.tasks
            ]
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is picker)
            await pilot.press("enter")  # the cursor is still on B
            screen = await opened(pilot)
            assert screen.session.run.identity.run_id == "eval_results_800"

    run(main())
