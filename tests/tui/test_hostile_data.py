"""A run whose ids, names and messages carry markup, control characters and wide text must show
them literally on every tab and screen, never crash, and never run an action they name."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input
from tui_helpers import opened, run, showing, wait_for

from evalview.session import Session, open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodeFilter, EpisodesPane
from evalview.tui.help import HelpScreen
from evalview.tui.record import RecordScreen
from evalview.tui.run_screen import RunScreen
from evalview.tui.safe import clean, clean_block, esc, plain
from helpers.hostile_run import (
    ERROR_TYPE,
    MESSAGE,
    POLICY,
    RUN_ID,
    TASKS,
    TERMINATION,
    visible,
    write_hostile_run,
)

#: Wide enough that a table's flexible column shows a tag after the markup before it.
SIZE = (260, 50)
#: What must never reach the terminal from the data.
FORBIDDEN = ("\x1b[31m", "\x1b[0m", "\u202e", "\x07", "\x08", "\x0b", "\x7f", "\x9b")


@pytest.fixture(scope="module")
def hostile_session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    return open_session(write_hostile_run(tmp_path_factory.mktemp("hostile") / "run"))


def screen_text(app: EvalViewApp) -> str:
    """Every character the current screen paints, as the terminal would receive it (unstyled)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
        safe_box=False,
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text(styles=False)


def assert_safe(app: EvalViewApp, *expected: str) -> str:
    text = screen_text(app)
    for bad in FORBIDDEN:
        assert bad not in text, f"{bad!r} reached the screen"
    for want in expected:
        assert want in text, f"{want!r} not shown literally"
    return text


def with_hostile(session: Session, body: Any) -> None:
    async def main() -> None:
        app = EvalViewApp(session.path, session=session)
        async with app.run_test(size=SIZE) as pilot:
            await opened(pilot)
            await body(pilot, app)
            assert app.is_running, "a hostile value ran an action (the app quit)"

    run(main())


async def show(pilot: Pilot[Any], app: EvalViewApp, tab: str) -> None:
    screen = app.screen
    assert isinstance(screen, RunScreen)
    screen.show_tab(tab)
    await pilot.pause(0.2)


# -- the helpers -------------------------------------------------------------------------------


def test_clean_block_keeps_newlines_and_tabs_as_layout() -> None:
    assert clean_block('{\n\t"a": "\x1b[1m\u202e"\n}') == '{\n\t"a": "␛[1m\ufffd"\n}'


def test_clean_keeps_length_and_shows_controls() -> None:
    raw = "a\x1b[31mb\u202ec\n\t\x9b漢🤖"
    out = clean(raw)
    assert len(out) == len(raw)
    assert out == "a␛[31mb\ufffdc␊␉\ufffd漢🤖"


@pytest.mark.parametrize(
    "raw", ["[bold]x[/]", "[/]", "\\[", "[", "\\", "a\\\\[b]", "[$accent]v", "[@click=app.quit]q"]
)
def test_esc_round_trips_through_textual_markup(raw: str) -> None:
    from textual.content import Content

    assert Content.from_markup(esc(raw)).plain.replace("\u200b", "") == raw
    assert Content.from_markup(f"[bold]{esc(raw)}[/]").plain.replace("\u200b", "") == raw
    assert plain(raw).plain == raw


# -- every tab ---------------------------------------------------------------------------------


def test_overview_and_header_show_hostile_names_literally(hostile_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await show(pilot, app, "overview")
        assert_safe(app, visible("POLICY"), visible("RUNID"))

    with_hostile(hostile_session, body)


def test_tasks_tab(hostile_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await show(pilot, app, "tasks")
        assert_safe(app, visible("TASKA"), visible("TASKB"))

    with_hostile(hostile_session, body)


def test_episodes_tab_filters_and_search(hostile_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await show(pilot, app, "episodes")
        assert_safe(app, "[bold]TASKA[/]", "[bold]VERIFIER[/]")
        pane = app.screen.query_one(EpisodesPane)
        for f in (
            EpisodeFilter(task=TASKS["task-00"]),
            EpisodeFilter(task=TASKS["task-02"]),
            EpisodeFilter(termination=TERMINATION),
            EpisodeFilter(status="error", category="infrastructure"),
        ):
            pane.set_filter(f)
            await pilot.pause()
            assert len(pane.shown_rows) > 0, f
            assert_safe(app)
        pane.set_filter(EpisodeFilter(task=TASKS["task-00"]))
        await pilot.pause()
        assert_safe(app, visible("TASKA"))  # the status line names the filter literally
        pane.set_filter(EpisodeFilter())
        await pilot.press("slash")
        await pilot.press(*"[/] [link=")
        await pilot.pause()
        assert app.screen.query_one("#f-text", Input).value == "[/] [link="
        assert len(pane.shown_rows) == len(hostile_session.run.episodes)
        assert_safe(app, "“[/] [link=”")
        # the task select lists the hostile names literally
        await pilot.press("escape")
        app.screen.query_one("#f-task").focus()
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert_safe(app, "[bold]TASKB[/]")

    with_hostile(hostile_session, body)


def test_errors_tab(hostile_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await show(pilot, app, "errors")
        assert_safe(app, "[bold]TASKA[/]", "[bold]TERMREASON[/]")

    with_hostile(hostile_session, body)


def test_findings_tab(hostile_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await show(pilot, app, "findings")
        assert_safe(app, "[bold]TASKA[/]")
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert_safe(app)

    with_hostile(hostile_session, body)


def test_partial_credit_tab(hostile_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await show(pilot, app, "partial-credit")
        await wait_for(pilot, lambda: not hostile_session.psr_pending)
        await pilot.pause(0.2)
        assert_safe(app)

    with_hostile(hostile_session, body)


def test_every_record_opens_and_shows_its_values_literally(hostile_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        for row in range(len(hostile_session.run.episodes)):
            app.show_episode(row)
            await wait_for(pilot, lambda: showing(app, RecordScreen))
            await pilot.pause(0.2)
            text = assert_safe(app)
            assert "[bold]" in text
            assert re.search(r'\b2 +"schema_version"', text), "the JSON is not one key a line"
            await pilot.press("escape")
            await wait_for(pilot, lambda: showing(app, RunScreen))
        app.show_episode(4)  # an errored record: its error type and message
        await wait_for(pilot, lambda: showing(app, RecordScreen))
        await pilot.pause(0.2)
        assert_safe(app, "[bold]ERRTYPE[/]", "[bold]VERIFIER[/]")

    with_hostile(hostile_session, body)


def test_clicking_a_hostile_click_tag_does_not_quit(hostile_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        for tab in ("overview", "tasks", "episodes", "errors", "findings"):
            await show(pilot, app, tab)
            lines = screen_text(app).splitlines()
            for y, line in enumerate(lines):
                x = line.find("@click=app.quit]Q")
                if x >= 0:
                    await pilot.click(offset=(x + len("@click=app.quit]"), y))
                    await pilot.pause()
                    assert app.is_running, f"clicking on {tab} line {y} quit the app"
                    if not isinstance(app.screen, RunScreen):
                        await pilot.press("escape")
                        await pilot.pause()

    with_hostile(hostile_session, body)


def test_help_palette_and_export(hostile_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: showing(app, HelpScreen))
        assert_safe(app)
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"TASKB")
        await pilot.pause(0.5)
        assert_safe(app, "[bold]TASKB[/]")
        await pilot.press("enter")
        await wait_for(pilot, lambda: showing(app, RunScreen))
        await pilot.pause(0.2)
        assert app.screen.query_one(EpisodesPane).filter.task == TASKS["task-01"]
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"seed1001")
        await pilot.pause(0.5)
        assert_safe(app, "[bold]EPISODE[/]")
        await pilot.press("enter")
        await wait_for(pilot, lambda: showing(app, RecordScreen))
        assert isinstance(app.screen, RecordScreen)
        assert "/seed1001 " in str(hostile_session.run.episodes.ids[app.screen.row])
        assert_safe(app, "[bold]EPISODE[/]")  # the record's title line
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause(0.3)
        assert_safe(app)

    with_hostile(hostile_session, body)


def test_hostile_run_loads_through_the_worker(tmp_path: Path) -> None:
    path = write_hostile_run(tmp_path / "run")

    async def main() -> None:
        app = EvalViewApp(path)
        async with app.run_test(size=SIZE) as pilot:
            await opened(pilot)
            assert_safe(app, visible("POLICY"))
            for tab in ("tasks", "episodes", "errors", "findings", "partial-credit"):
                await show(pilot, app, tab)
                assert_safe(app)
            assert app.is_running

    run(main())


def test_values_used_by_the_run_are_the_hostile_ones(hostile_session: Session) -> None:
    """Guard the fixture: the run really carries the hostile values the tests look for."""
    run_ = hostile_session.run
    assert set(run_.tasks) == set(TASKS.values())
    assert ERROR_TYPE in set(run_.episodes.error_type)
    assert run_.identity.policy_name == POLICY


# -- the compare screen, the checkpoint-inputs screen, the unreadable message ----------------


def test_compare_screen_shows_hostile_task_names_literally(tmp_path: Path) -> None:
    from textual.widgets import DataTable

    from evalview.tui.compare_screen import CompareApp, CompareScreen
    from helpers.closed_runs import write_run

    task = TASKS["task-00"]
    outcomes = {f"{task}/seed{1000 + i}": "s" if i < 5 else "f" for i in range(10)}
    a = write_run(tmp_path / "a", outcomes)
    b = write_run(tmp_path / "b", {k: "s" for k in outcomes}, manifest={"run_id": RUN_ID})

    async def main() -> None:
        app = CompareApp(a, b)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, CompareScreen))
            await pilot.pause(0.2)
            assert app.screen.query_one(DataTable).row_count == 2
            assert_safe(app, "[bold]TASKA[/]")  # the table row and the McNemar title
            assert app.is_running

    run(main())


def test_checkpoint_inputs_screen_shows_hostile_rows_literally(tmp_path: Path) -> None:
    from evalview.tui.partial_credit import CheckpointInputsScreen

    row = {
        "stage": "main",
        "task": TASKS["task-01"],
        "success": False,
        "message": "Logs: 3/5, Kills: 0/3",
        "CCE": 0.0,
        "rounds": 3,
        "chats": 1,
    }
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps({POLICY: [row, {**row, "task": TASKS["task-00"]}]}))
    # a verifier message evalview psr refuses: the refusal quotes it
    refused = tmp_path / "refused.json"
    refused.write_text(json.dumps({POLICY: [{**row, "message": MESSAGE}]}))

    async def main() -> None:
        app = EvalViewApp(inputs)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, CheckpointInputsScreen))
            await pilot.pause(0.3)
            assert_safe(app, "[bold]POLICY[/]", "[bold]TASKB[/]")
            assert app.is_running
        app = EvalViewApp(refused)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.failure is not None)
        assert app.return_value == 1 and app.failure is not None
        assert "[bold]VERIFIER[/]" in app.failure[0]  # quoted as is; the CLI prints it escaped

    run(main())


def test_an_unreadable_file_names_itself_literally(tmp_path: Path) -> None:
    bad = tmp_path / "[bold]x[／] \\[ [@click=app.quit]y"
    bad.mkdir()
    (bad / "manifest.json").write_text("{")

    async def main() -> None:
        app = EvalViewApp(bad)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(
                pilot, lambda: app.failure is not None or isinstance(app.screen, RunScreen)
            )
            await pilot.pause(0.2)
            if app.failure is None:
                assert_safe(app, "[@click=app.quit]y")
                assert app.is_running

    run(main())
