"""Keys typed before the run screen exists are never lost (issue 25): typed while the loading
screen shows, or the moment the run screen replaces it, they land where they would have landed
had the reviewer waited. On the benchmark's 10,000-episode run (reading it takes seconds), and
again with two busy processes competing for the cores.

Every key is posted at once, as a terminal delivers a burst (`pilot.press` waits for the app
after each key, which would hide the bug).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, TabbedContent
from tui_helpers import SIZE, run, showing, wait_for

from evalview.samples import generate_closed_run
from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodesPane
from evalview.tui.loading import LoadingScreen
from evalview.tui.run_screen import RunScreen

NAMES = {"/": "slash"}
#: Generous: the 10,000-episode read under two busy processes on a shared 2-core machine.
TIMEOUT = 120.0


@pytest.fixture(scope="module")
def big_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """bench/gen_big_run.py's run: 10,000 episodes, ~50 MB."""
    return generate_closed_run(
        tmp_path_factory.mktemp("big") / "big-run",
        tasks=50,
        seeds=200,
        rng_seed=10_000,
        run_id="robobench-bench-10k",
    )


def burst(app: EvalViewApp, text: str) -> None:
    """Queue every key of `text` without letting the app run in between."""
    for ch in text:
        app.post_message(events.Key(NAMES.get(ch, ch), ch))


async def _until(pilot: Pilot[Any], cond: Callable[[], bool]) -> None:
    await wait_for(pilot, cond, timeout=TIMEOUT)


def _typed_into_search(app: EvalViewApp, needle: str) -> None:
    """The end state of `3/<needle>`: Episodes active, its search holds `needle`, filtered
    (`seed1042`: 50 of the 10,000 rows; `seed1` would match them all and prove nothing)."""
    screen = app.screen
    assert isinstance(screen, RunScreen), f"on {screen!r}, not the run screen"
    assert screen.query_one(TabbedContent).active == "episodes"
    field = screen.query_one("#f-text", Input)
    assert field.value == needle
    assert app.focused is field
    pane = screen.query_one(EpisodesPane)
    assert pane.filter.text == needle
    ids = pane.session.run.episodes.ids
    expected = [i for i in range(len(ids)) if needle in str(ids[i])]
    assert 0 < len(expected) < len(ids)
    assert [int(r) for r in pane.shown_rows] == expected


async def _searched(pilot: Pilot[Any], app: EvalViewApp, needle: str) -> None:
    def landed() -> bool:
        screen = app.screen
        if not isinstance(screen, RunScreen) or not screen.query("#f-text"):
            return False
        pane = screen.query_one(EpisodesPane)
        return screen.query_one("#f-text", Input).value == needle and pane.filter.text == needle

    try:
        await _until(pilot, landed)
    except AssertionError:
        field = app.screen.query("#f-text")
        raise AssertionError(
            f"the search never read {needle!r}: screen {app.screen!r}, focus {app.focused!r}, "
            f"field {[f.value for f in field.results(Input)]!r}"
        ) from None
    await pilot.pause()
    _typed_into_search(app, needle)


def _while_loading(big_run: Path) -> None:
    async def main() -> None:
        app = EvalViewApp(big_run)
        async with app.run_test(size=SIZE) as pilot:
            await _until(pilot, lambda: showing(app, LoadingScreen))
            burst(app, "3/seed1042")
            assert app.session is None, "the run loaded before the keys were typed"
            await _searched(pilot, app, "seed1042")

    run(main())


def test_keys_typed_while_loading_land_in_the_episodes_search(big_run: Path) -> None:
    _while_loading(big_run)


def test_keys_typed_while_loading_land_under_cpu_load(big_run: Path, cpu_load: None) -> None:
    _while_loading(big_run)


def test_keys_typed_as_the_run_screen_appears_land_in_the_episodes_search(big_run: Path) -> None:
    """The burst goes in the moment the run screen becomes the current screen, before it has
    mounted anything (it was `/seed1` on the Overview: `e` opened the export dialog)."""

    async def main() -> None:
        app = EvalViewApp(big_run)
        async with app.run_test(size=SIZE) as pilot:
            while not isinstance(app.screen, RunScreen):
                await pilot.pause(0.005)
            burst(app, "3/seed1042")
            await _searched(pilot, app, "seed1042")

    run(main())


def test_q_while_loading_quits_at_once(big_run: Path) -> None:
    """Quitting does not wait for the read: `q` with nothing typed before it passes the gate."""

    async def main() -> None:
        app = EvalViewApp(big_run)
        async with app.run_test(size=SIZE) as pilot:
            await _until(pilot, lambda: showing(app, LoadingScreen))
            burst(app, "q")
            await _until(pilot, lambda: not app.is_running)
            assert app.session is None

    run(main())
