"""A reviewer's day (issue 16): the header on every screen, a reopened result.json, the Findings
and Episodes tabs that lead somewhere, copying out, scoring a refused read anyway."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets import Input, Static
from tui_helpers import FAULTY, opened, run, showing, wait_for

from evalview.psr.coverage import Coverage
from evalview.report.export import export_run
from evalview.session import Session, open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodesPane
from evalview.tui.findings_view import FindingsPane, message_after_place
from evalview.tui.partial_credit import coverage_cell
from evalview.tui.record import FileScreen, RecordScreen
from evalview.tui.tasks import TasksPane
from helpers.paths import SAMPLE_RUNS

SAMPLE = SAMPLE_RUNS / "robobench-24x50"


def _plain(widget: Static) -> str:
    """What a Static shows, as plain text (markup and renderables rendered)."""
    content = widget.content
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(Text.from_markup(content) if isinstance(content, str) else content)
    return console.export_text()


def _header(app: EvalViewApp) -> tuple[str, str, str]:
    screen = app.screen
    return tuple(  # type: ignore[return-value]
        _plain(screen.query_one(f"#{part}", Static)) for part in ("verdict", "headline", "counts")
    )


def test_coverage_says_its_status_once() -> None:
    assert coverage_cell(Coverage(3, 4, ("t4",), final=False)) == "3/4 partial"
    assert coverage_cell(Coverage(4, 4, (), final=True)) == "4/4 final"
    assert coverage_cell(Coverage(3, None, None, final=False)) == "3/? partial"


def test_enter_on_a_reopened_result_json_shows_the_published_episode(tmp_path: Path) -> None:
    """Exported, reopened: a completed row opens its published fields, not `never attempted`."""
    out = tmp_path / "R"
    export_run(SAMPLE, out, bootstrap=0)
    session = open_session(out / "result.json")
    ep = session.run.episodes
    done = int(np.flatnonzero(ep.success == 1)[0])

    async def main() -> None:
        app = EvalViewApp(session.path, session=session)
        async with app.run_test(size=(140, 40)) as pilot:
            await opened(pilot)
            app.screen.open_record(done)  # type: ignore[attr-defined]
            await wait_for(pilot, lambda: showing(app, RecordScreen))
            await pilot.pause()
            body = _plain(app.screen.query_one("#detail-content", Static))
            where = _plain(app.screen.query_one("#detail-where", Static))
            assert "never attempted" not in body
            assert f'"id": "{ep.ids[done]}"' in body and '"success": true' in body
            assert "published in result.json" in where
            verdict, headline, _ = _header(app)
            assert headline.startswith("successes / selected") and verdict

    run(main())


def test_record_and_file_screens_keep_the_header(faulty_session: Session) -> None:
    async def main() -> None:
        app = EvalViewApp(faulty_session.path, session=faulty_session)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot)
            card = faulty_session.scorecard
            assert card is not None
            d = card.denominators
            app.screen.open_record(0)  # type: ignore[attr-defined]
            await wait_for(pilot, lambda: showing(app, RecordScreen))
            await pilot.pause()
            verdict, headline, counts = _header(app)
            assert "error" in verdict
            assert f"{d.successes:,} / {d.selected:,}" in headline
            assert f"unattempted {d.unattempted}" in counts
            # 80 columns: headline and counts on lines of their own, both fully visible
            top = app.screen.query_one("#headline", Static).region
            below = app.screen.query_one("#counts", Static).region
            assert below.y == top.y + 1 and below.right <= 80
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, RecordScreen))
            await app.push_screen(FileScreen(faulty_session, "manifest.json"))
            await pilot.pause()
            assert "error" in _header(app)[0]

    run(main())


def test_findings_message_drops_the_place_and_a_group_lists_all_its_episodes(
    tmp_path: Path,
) -> None:
    session = open_session(SAMPLE)
    grouped = next(f for f in session.findings if f.code == "EV603")
    assert not message_after_place(grouped).startswith(grouped.location)

    async def main() -> None:
        app = EvalViewApp(session.path, session=session)
        async with app.run_test(size=(140, 40)) as pilot:
            screen = await opened(pilot)
            pane = app.screen.query_one(FindingsPane)
            pane.open_finding(grouped)
            episodes = app.screen.query_one(EpisodesPane)
            await wait_for(pilot, lambda: episodes.filter.rows is not None)
            await pilot.pause()
            shown = episodes.shown_rows
            ep = session.run.episodes
            assert len(shown) == 15  # the message's count, not just its first episode
            assert all(ep.status[r] == "error" for r in shown)
            assert all(ep.error_category[r] != "infrastructure" for r in shown)
            status = _plain(app.screen.query_one("#episodes-status", Static))
            assert "the 15 episodes of EV603" in status
            # the errored rows show their error type and message in the table
            cells = [str(c) for c in episodes._render_row(0)]
            r = int(shown[0])
            assert str(ep.error_type[r]) in cells
            assert screen is not None

    run(main())


def test_a_manifest_finding_opens_the_file_at_its_key(faulty_session: Session) -> None:
    finding = next(f for f in faulty_session.findings if f.code == "EV212")

    async def main() -> None:
        app = EvalViewApp(faulty_session.path, session=faulty_session)
        async with app.run_test(size=(140, 40)) as pilot:
            await opened(pilot)
            app.screen.query_one(FindingsPane).open_finding(finding)
            await wait_for(pilot, lambda: showing(app, FileScreen))
            await pilot.pause()
            content = app.screen.query_one("#detail-content", Static)
            await wait_for(pilot, lambda: "lines" in _plain(content))
            lines = (FAULTY / "manifest.json").read_text().splitlines()
            at = next(i for i, line in enumerate(lines, 1) if '"openai_api_key"' in line)
            assert at > 1
            title = _plain(app.screen.query_one("#detail-title", Static))
            assert "method.configuration.openai_api_key" in title
            assert f"–{min(at + 15, len(lines))} of" in _plain(content)

    run(main())


def test_search_findings_and_tasks_and_find_in_a_record(faulty_session: Session) -> None:
    async def main() -> None:
        app = EvalViewApp(faulty_session.path, session=faulty_session)
        async with app.run_test(size=(140, 40)) as pilot:
            await opened(pilot)
            await pilot.press("5", "slash")
            await wait_for(pilot, lambda: isinstance(app.focused, Input))
            await pilot.press(*"EV212")
            pane = app.screen.query_one(FindingsPane)
            await wait_for(pilot, lambda: len(pane.findings) == 1)
            assert pane.findings[0].code == "EV212"
            await pilot.press("enter", "c")  # back to the table, copy the finding
            await wait_for(pilot, lambda: app.clipboard.startswith("EV212 "))
            assert app.clipboard.startswith("EV212 error manifest.json: `method.configuration")
            await pilot.press("2", "slash")
            tasks = app.screen.query_one(TasksPane)
            # `/` reaches the pane's binding after bubbling up from the table: type once the
            # search field has the focus, as a person does after seeing it
            await wait_for(pilot, lambda: isinstance(app.focused, Input))
            task = faulty_session.run.tasks[0]
            await pilot.press(*task)
            await wait_for(pilot, lambda: tasks.order == [task])
            app.screen.open_record(0)  # type: ignore[attr-defined]
            await wait_for(pilot, lambda: showing(app, RecordScreen))
            record = app.screen
            assert isinstance(record, RecordScreen)
            await pilot.pause()
            await pilot.press("slash")
            await wait_for(pilot, lambda: isinstance(app.focused, Input))
            await pilot.press(*"status")
            find_title = record.query_one("#detail-title", Static)
            # every letter typed is a search (and a new title): wait for the whole word's
            await wait_for(pilot, lambda: bool(record.matches) and "“status”" in _plain(find_title))
            title = _plain(find_title)
            assert "match" in title and "“status”" in title
            assert record.query_one("#detail-find", Input).display
            await pilot.press("escape")  # closes the find bar; the record stays (issue 23)
            await wait_for(pilot, lambda: not record.query_one("#detail-find", Input).display)
            assert app.screen is record and not isinstance(app.focused, Input)
            await pilot.press("escape")  # a second Escape leaves the record
            await wait_for(pilot, lambda: not isinstance(app.screen, RecordScreen))
            app.screen.open_record(0)  # type: ignore[attr-defined]
            await wait_for(pilot, lambda: showing(app, RecordScreen))
            await pilot.pause()
            await pilot.press("c")
            assert record.json_text is not None
            shown = app.screen
            assert isinstance(shown, RecordScreen)
            await wait_for(pilot, lambda: app.clipboard == shown.json_text)
            assert app.clipboard.lstrip().startswith("{")

    run(main())


def test_copy_an_episode_id(example_session: Session) -> None:
    async def main() -> None:
        app = EvalViewApp(example_session.path, session=example_session)
        async with app.run_test(size=(140, 40)) as pilot:
            await opened(pilot)
            await pilot.press("3")
            episodes = app.screen.query_one(EpisodesPane)
            await wait_for(pilot, lambda: app.focused is not None)
            await pilot.press("down", "c")
            row = int(episodes.shown_rows[1])
            copied = str(example_session.run.episodes.ids[row])
            await wait_for(pilot, lambda: app.clipboard == copied)

    run(main())


def test_a_refused_read_is_scored_anyway_with_a_key(tmp_path: Path) -> None:
    """`a` scores errors as non-successes, labelled; the app never tells the user a CLI flag."""
    run_dir = Path(shutil.copytree(SAMPLE, tmp_path / "run"))
    session = open_session(run_dir)
    assert session.scorecard is not None and session.scorecard.refusals

    async def main() -> None:
        app = EvalViewApp(session.path, session=session)
        async with app.run_test(size=(140, 40)) as pilot:
            await opened(pilot)
            card = _plain(app.screen.query_one("#card-aggregate", Static))
            assert "press a to score them as non-successes" in card
            assert "--allow-errors" not in card
            await pilot.press("a")
            await wait_for(
                pilot,
                lambda: session.scorecard is not None and session.scorecard.allow_errors,
            )
            await pilot.pause()
            card = _plain(app.screen.query_one("#card-aggregate", Static))
            assert "not a publishable read" in card and "not reportable" not in card
            assert "--allow-errors" not in card
            assert not app.check_action("allow_errors", ())

    run(main())


def test_no_color_turns_the_app_monochrome(
    monkeypatch: pytest.MonkeyPatch, example_session: Session
) -> None:
    """Textual's own NO_COLOR support (a monochrome line filter) applies to the app."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert EvalViewApp(example_session.path, session=example_session).no_color
    monkeypatch.delenv("NO_COLOR")
    assert not EvalViewApp(example_session.path, session=example_session).no_color
