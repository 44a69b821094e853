"""Keys typed at full speed are never lost: all of them are queued before the app handles the first.

`pilot.press` waits for the app after every key, so it cannot show the bug these tests pin: the
keys typed right after `/` (or after a tab key whose pane was still being mounted) went to the
widget that had the focus before, and `e` in a search then opened the export dialog. Here every
key is posted to the app at once, as a terminal delivers a burst.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, TabbedContent
from tui_helpers import SIZE, opened, run, showing, wait_for, with_app

from evalview.session import Session
from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodesPane
from evalview.tui.run_screen import RunScreen
from helpers.paths import EXAMPLE

NAMES = {"/": "slash"}


def burst(app: EvalViewApp, text: str) -> None:
    """Queue every key of `text` without letting the app run in between."""
    for ch in text:
        app.post_message(events.Key(NAMES.get(ch, ch), ch))


def ids_containing(run: Path, needle: str) -> list[str]:
    lines = (run / "episodes.jsonl").read_text(encoding="utf-8").splitlines()
    return [i for i in (json.loads(line)["episode"]["id"] for line in lines) if needle in i]


def shown_ids(pane: EpisodesPane) -> list[str]:
    ids = pane.session.run.episodes.ids
    return [str(ids[int(r)]) for r in pane.shown_rows]


async def searched(pilot: Pilot[Any], app: EvalViewApp, needle: str) -> EpisodesPane:
    """Wait until the search field holds `needle`; fail naming where the keys went instead."""

    def landed() -> bool:
        screen = app.screen
        return isinstance(screen, RunScreen) and any(
            i.value == needle for i in screen.query("#f-text").results(Input)
        )

    try:
        await wait_for(pilot, landed)
    except AssertionError:
        raise AssertionError(
            f"the search never read {needle!r}: screen {app.screen!r}, focus {app.focused!r}"
        ) from None
    pane = app.screen.query_one(EpisodesPane)
    await wait_for(pilot, lambda: pane.filter.text == needle)
    return pane


def test_a_search_typed_right_after_slash_filters_the_table(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("3")
        burst(app, "/seed1002")
        pane = await searched(pilot, app, "seed1002")
        assert shown_ids(pane) == ids_containing(EXAMPLE, "seed1002")
        assert app.focused is app.screen.query_one("#f-text", Input)

    with_app(example_session, body)


def test_a_tab_key_then_a_search_in_one_burst(example_session: Session) -> None:
    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        burst(app, "3/seed1001")  # from the Overview: the tab, then the search, no pause
        pane = await searched(pilot, app, "seed1001")
        assert app.screen.query_one(TabbedContent).active == "episodes"
        assert shown_ids(pane) == ids_containing(EXAMPLE, "seed1001")

    with_app(example_session, body)


def test_keys_typed_while_the_episodes_pane_is_mounted_wait_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Right after the run screen replaces the loading screen no pane but the first is
    mounted: `3` must hold the following keys until the Episodes pane can take them."""
    # The other panes mount in the background a fraction of a second after the first frame;
    # here only once the keys are typed, so "not mounted yet" holds on a fast machine too.
    mount_rest = RunScreen._mount_rest

    async def not_yet(self: RunScreen) -> None:
        pass

    monkeypatch.setattr(RunScreen, "_mount_rest", not_yet)

    async def main() -> None:
        app = EvalViewApp(EXAMPLE)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunScreen))
            screen = app.screen
            assert isinstance(screen, RunScreen) and not screen.all_mounted
            burst(app, "3/task-01")
            pane = await searched(pilot, app, "task-01")
            assert shown_ids(pane) == ids_containing(EXAMPLE, "task-01")
            screen.call_later(mount_rest, screen)
            await opened(pilot)
            burst(app, "/x")  # the search field still has the focus: `/` and `x` are text
            await wait_for(pilot, lambda: pane.filter.text == "task-01/x")
            assert shown_ids(pane) == []

    run(main())


@pytest.mark.parametrize(("tab", "field_id"), [("2", "#tasks-search"), ("5", "#findings-search")])
def test_a_search_typed_right_after_slash_in_the_tasks_and_findings_tabs(
    faulty_session: Session, tab: str, field_id: str
) -> None:
    """The same burst in the Tasks and Findings tabs: `/` then the text, no pause. A `/` typed
    in the field is text."""

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press(tab)
        burst(app, "/ev2/")
        field = app.screen.query_one(field_id, Input)
        await wait_for(pilot, lambda: field.value == "ev2/")

    with_app(faulty_session, body)


def test_a_find_typed_right_after_slash_in_the_record(example_session: Session) -> None:
    """The record's find bar (issue 23, seen by the tmux walk): `/zqz` typed at once used to lose
    its first keys to the record, and a `q` among them quit the app."""
    from evalview.tui.record import RecordScreen

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("3")
        screen = app.screen
        assert isinstance(screen, RunScreen)
        screen.open_record(0)
        await wait_for(pilot, lambda: showing(app, RecordScreen))
        record = app.screen
        await pilot.pause()
        burst(app, "/zqz")
        find = record.query_one("#detail-find", Input)
        await wait_for(pilot, lambda: find.value == "zqz")
        assert app.screen is record and app.is_running

    with_app(example_session, body)
