"""Pilot tests: each screen shows the core's numbers, and the main journeys work by keyboard."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable, Static, TabbedContent
from tui_helpers import SIZE, opened, run, showing, wait_for, with_app

from evalview.model.run import ERROR
from evalview.session import Session, open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodeFilter, EpisodesPane
from evalview.tui.errors_view import ErrorsPane
from evalview.tui.findings_view import FindingsPane, locate_row
from evalview.tui.help import HelpScreen
from evalview.tui.record import FileScreen, RecordScreen
from evalview.tui.run_screen import RunScreen
from evalview.tui.tasks import TasksPane
from evalview.tui.vtable import VirtualTable
from helpers.paths import EXAMPLE, SAMPLE_RUNS


def _plain(content: object) -> str:
    """What a Static shows, as plain text (markup and renderables rendered)."""
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(Text.from_markup(content) if isinstance(content, str) else content)
    return console.export_text()


def _text(app: EvalViewApp, selector: str) -> str:
    return _plain(app.screen.query_one(selector, Static).content)


def _active(app: EvalViewApp) -> str:
    return app.screen.query_one(TabbedContent).active


# -- loading and header ----------------------------------------------------------------------


def test_loads_in_a_worker_and_shows_the_verdict_and_headline() -> None:
    async def main() -> None:
        app = EvalViewApp(EXAMPLE)
        async with app.run_test(size=SIZE) as pilot:
            await opened(pilot)
            session = app.session
            assert session is not None and session.scorecard is not None
            d = session.scorecard.denominators
            headline = _text(app, "#headline")
            assert f"successes / selected {d.successes} / {d.selected}" in headline
            counts = _text(app, "#counts")
            assert f"attempted {d.attempted}" in counts
            assert f"completed {d.completed}" in counts
            identity = _text(app, "#identity")
            assert session.run.identity.run_id is not None
            assert session.run.identity.run_id in identity
            assert str(session.run.identity.benchmark_name) in identity
            verdict = _text(app, "#verdict")
            warnings = session.counts["warning"]
            assert (f"{warnings} warning" in verdict) if warnings else ("clean" in verdict)

    run(main())


def test_the_bootstrap_arrives_after_the_first_paint(example_session: Session) -> None:
    async def main() -> None:
        app = EvalViewApp(EXAMPLE)
        async with app.run_test(size=SIZE) as pilot:
            await opened(pilot)
            session = app.session
            assert session is not None
            await wait_for(pilot, lambda: not session.bootstrap_pending)
            await pilot.pause()
            full = example_session.scorecard
            assert full is not None and full.aggregate.bootstrap is not None
            assert session.scorecard is not None
            assert session.scorecard.aggregate.bootstrap == full.aggregate.bootstrap
            lo, hi = full.aggregate.bootstrap
            text = _text(app, "#card-aggregate")
            assert f"{100 * lo:.1f} % – {100 * hi:.1f} %" in text
            assert "computing" not in text

    run(main())


def test_missing_path_ends_the_app_with_a_message_not_a_traceback(tmp_path: Path) -> None:
    async def main() -> None:
        app = EvalViewApp(tmp_path / "no-such-run")
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.failure is not None)
            assert app.failure is not None
            message, hint = app.failure
            assert "no-such-run" in message and "no such file" in message
            assert "manifest.json" in hint
        assert app.return_value == 2

    run(main())


def test_an_unreadable_run_opens_on_its_reading_findings(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text('{"run_id": "a", "run_id": "b"}', encoding="utf-8")

    async def main() -> None:
        app = EvalViewApp(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = await opened(pilot)
            assert screen.session.reading_failed
            assert _active(app) == "findings"
            assert "could not be read" in _text(app, "#reading-banner")
            pane = app.screen.query_one(FindingsPane)
            assert any(f.file == "manifest.json" for f in pane.findings)
            assert "error" in _text(app, "#verdict")

    run(main())


# -- overview and tasks ----------------------------------------------------------------------


def test_overview_shows_aggregate_denominators_and_protocol(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        card = example_session.scorecard
        assert card is not None and card.aggregate.mean is not None
        aggregate = _text(app, "#card-aggregate")
        assert card.aggregate.name in aggregate
        assert f"{100 * card.aggregate.mean:.1f} %" in aggregate
        assert card.aggregate.bootstrap is not None
        assert f"{100 * card.aggregate.bootstrap[0]:.1f} %" in aggregate
        denominators = _text(app, "#card-denominators")
        d = card.denominators
        assert f"{d.successes} / {d.completed}" in denominators
        protocol = _text(app, "#card-protocol")
        assert str(example_session.run.protocol.max_steps) in protocol
        errors = _text(app, "#card-errors")
        assert "infrastructure" in errors

    with_app(example_session, body)


def test_tasks_table_lists_scorecard_rows_and_sorts(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("2")
        assert _active(app) == "tasks"
        pane = app.screen.query_one(TasksPane)
        card = example_session.scorecard
        assert card is not None
        assert pane.order == [t.task for t in card.tasks]
        pane.sort_by("rate", reverse=True)
        await pilot.pause()
        rates = {t.task: t.rate for t in card.tasks}
        shown = [rates[t] for t in pane.order]
        assert shown == sorted(shown, reverse=True)
        table = pane.query_one(DataTable)
        lo, hi = card.tasks[0].wilson95
        row = table.get_row(card.tasks[0].task)
        assert f"{100 * lo:.1f} %" in str(row[2]) and f"{100 * hi:.1f} %" in str(row[2])
        await pilot.press("s")  # next column after rate: the Wilson interval
        await wait_for(pilot, lambda: pane.sort_key == "wilson")  # the key bubbles to the app
        assert pane.sort_key == "wilson"

    with_app(example_session, body)


# -- journeys --------------------------------------------------------------------------------


def test_open_task_then_episode_then_back(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("2", "down", "enter")
        await wait_for(pilot, lambda: _active(app) == "episodes")  # a worker switches the tab
        task = example_session.run.tasks[1]
        pane = app.screen.query_one(EpisodesPane)
        assert pane.filter == EpisodeFilter(task=task)
        ep = example_session.run.episodes
        assert len(pane.shown_rows) == int(np.count_nonzero(ep.task == task))
        assert all(ep.task[r] == task for r in pane.shown_rows)
        await wait_for(pilot, lambda: isinstance(app.focused, VirtualTable))
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: showing(app, RecordScreen))
        record = app.screen
        assert isinstance(record, RecordScreen)
        assert record.row == int(pane.shown_rows[1])
        where = _text(app, "#detail-where")
        assert f"line {int(ep.line[record.row])}" in where
        await pilot.press("escape")
        await wait_for(pilot, lambda: showing(app, RunScreen))
        assert _active(app) == "episodes"

    with_app(example_session, body)


def test_filters_and_search_narrow_the_episodes(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("3")
        pane = app.screen.query_one(EpisodesPane)
        ep = example_session.run.episodes
        assert len(pane.shown_rows) == len(ep)
        await pilot.press("slash", *"seed1002")
        await wait_for(pilot, lambda: pane.filter.text == "seed1002")  # Input.Changed, relayed
        assert pane.filter.text == "seed1002"
        assert list(pane.shown_rows) == [i for i in range(len(ep)) if "seed1002" in ep.ids[i]]
        pane.set_filter(EpisodeFilter(status=ERROR))
        await pilot.pause()
        assert len(pane.shown_rows) == int(np.count_nonzero(ep.status == ERROR))
        assert "status=error" in _text(app, "#episodes-status")
        pane.set_filter(EpisodeFilter(outcome="success"))
        await pilot.pause()
        assert len(pane.shown_rows) == int(np.count_nonzero(ep.success == 1))
        app.screen.query_one(VirtualTable).focus()
        await pilot.press("x")
        await wait_for(pilot, lambda: len(pane.shown_rows) == len(ep))
        assert len(pane.shown_rows) == len(ep)

    with_app(example_session, body)


def test_errors_cell_lists_its_episodes(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("4")
        matrix = app.screen.query_one(ErrorsPane).query_one("#errors-matrix", DataTable)
        card = example_session.scorecard
        assert card is not None
        # the task with the most errors, and the column of one of its categories
        task = max(card.tasks, key=lambda t: t.errors)
        category = next(iter(task.error_categories))
        matrix.focus()
        row = [t.task for t in card.tasks].index(task.task)
        column = 1 + list(card.error_categories).index(category)
        matrix.move_cursor(row=row, column=column)
        await pilot.press("enter")
        await wait_for(pilot, lambda: _active(app) == "episodes")  # a worker switches the tab
        pane = app.screen.query_one(EpisodesPane)
        ep = example_session.run.episodes
        assert len(pane.shown_rows) == task.error_categories[category]
        assert all(ep.error_category[r] == category for r in pane.shown_rows)

    with_app(example_session, body)


def test_finding_opens_its_record(faulty_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("5")
        pane = app.screen.query_one(FindingsPane)
        index = next(
            i for i, f in enumerate(pane.findings) if f.file == "episodes.jsonl" and f.line
        )
        finding = pane.findings[index]
        table = pane.query_one(VirtualTable)
        table.focus()
        table.move_to(index)
        await pilot.pause()
        explanation = _plain(pane.query_one("#rule-explanation", Static).content)
        assert finding.code in explanation
        await pilot.press("enter")
        await wait_for(pilot, lambda: showing(app, RecordScreen))
        assert isinstance(app.screen, RecordScreen)
        assert int(faulty_session.run.episodes.line[app.screen.row]) == finding.line

    with_app(faulty_session, body)


def test_finding_about_a_file_opens_the_file(faulty_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("5")
        pane = app.screen.query_one(FindingsPane)
        index = next(
            i
            for i, f in enumerate(pane.findings)
            if f.file and f.file != "episodes.jsonl" and locate_row(faulty_session, f) is None
        )
        table = pane.query_one(VirtualTable)
        table.focus()
        table.move_to(index)
        await pilot.press("enter")
        await wait_for(pilot, lambda: showing(app, FileScreen))
        assert isinstance(app.screen, FileScreen)
        assert app.screen.rel == pane.findings[index].file
        await wait_for(pilot, lambda: "reading" not in _text(app, "#detail-content"))

    with_app(faulty_session, body)


# -- affordances -----------------------------------------------------------------------------


def test_help_screen_and_quit(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: showing(app, HelpScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: showing(app, RunScreen))
        ids = {b.binding.id for b in app.screen.active_bindings.values()}
        assert {"app.quit", "app.help", "app.palette"} <= ids
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running)

    with_app(example_session, body)


def test_command_palette_jumps_to_an_episode(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        target = str(example_session.run.episodes.ids[5])
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*target)
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: showing(app, RecordScreen))
        assert isinstance(app.screen, RecordScreen)
        assert example_session.run.episodes.ids[app.screen.row] == target

    with_app(example_session, body)


def test_command_palette_jumps_to_a_task(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        task = example_session.run.tasks[2]
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*f"Task {task}")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: _active(app) == "episodes")
        assert app.screen.query_one(EpisodesPane).filter.task == task

    with_app(example_session, body)


def test_typing_q_in_the_search_box_searches_instead_of_quitting(
    example_session: Session,
) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("3", "slash", "q")
        pane = app.screen.query_one(EpisodesPane)
        await wait_for(pilot, lambda: pane.filter.text == "q")
        assert app.is_running

    with_app(example_session, body)


def test_mouse_click_moves_the_cursor_and_a_second_click_opens(
    example_session: Session,
) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("3")
        await pilot.pause()
        table = app.screen.query_one("#episodes-table", VirtualTable)
        await pilot.click(table, offset=(30, 3))  # line 0 is the header: row 2
        await wait_for(pilot, lambda: table.cursor_row == 2)
        await pilot.click(table, offset=(30, 3))
        await wait_for(pilot, lambda: showing(app, RecordScreen))
        assert isinstance(app.screen, RecordScreen)
        assert app.screen.row == 2

    with_app(example_session, body)


def test_an_unattempted_case_says_it_has_no_record() -> None:
    session = open_session(SAMPLE_RUNS / "fail-fast")
    ep = session.run.episodes
    unattempted = np.flatnonzero(ep.status == "unattempted")
    assert len(unattempted), "the fail-fast sample stops early and leaves cases unattempted"

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        assert isinstance(app.screen, RunScreen)
        app.screen.open_record(int(unattempted[0]))
        await wait_for(pilot, lambda: showing(app, RecordScreen))
        await pilot.pause()
        assert "never attempted" in _text(app, "#detail-content")

    with_app(session, body)


def test_an_80_column_terminal_keeps_the_headline_and_scrolls_tables_sideways(
    example_session: Session,
) -> None:
    async def main() -> None:
        app = EvalViewApp(example_session.path, session=example_session)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot)
            headline = app.screen.query_one("#headline", Static)
            assert headline.region.height == 1 and headline.region.y < 3
            assert _text(app, "#headline").startswith("successes / selected")
            await pilot.press("3")
            table = app.screen.query_one("#episodes-table", VirtualTable)
            await wait_for(pilot, lambda: app.focused is table)
            assert table.virtual_size.width > table.size.width
            await pilot.press("right", "right", "right")
            await wait_for(pilot, lambda: table.scroll_offset.x > 0)

    run(main())
