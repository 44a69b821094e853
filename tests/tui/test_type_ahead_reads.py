"""Keys typed ahead through the read picker and the Runs screen are never lost (issue 25).

A file of several named reads: the keys typed while it is read pick the read on the list that
follows, open it, and the keys after Enter wait for its run screen. A folder (`evalview DIR`):
the keys typed before its reads are even listed, or while their rows are still being read,
move the cursor or filter, open the read Enter is pressed on (before its row has arrived), and
the tab number typed after lands on that read's run screen. Each again with two busy processes
on the two cores.

Every key is posted at once, as a terminal delivers a burst (`pilot.press` waits for the app
after each key, which would hide the bug). Where the test needs "before the rows", the folder's
discovery and its reads wait on events the test sets, so no timing decides what it observes.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import TabbedContent
from tui_helpers import audited, run, showing, wait_for

from evalview.tui.app import EvalViewApp
from evalview.tui.loading import LoadingScreen
from evalview.tui.run_screen import RunScreen
from evalview.tui.runs_screen import RunsScreen
from helpers.closed_runs import outcomes_for, write_run
from helpers.paths import SAMPLE_RUNS

SIZE = (150, 40)
#: Generous: under two busy processes on a shared 2-core machine.
TIMEOUT = 120.0
TWO_READS = SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json"
KEYS = {"/": ("slash", "/"), "\n": ("enter", "\r"), "↓": ("down", None)}


def burst(app: EvalViewApp, text: str) -> None:
    """Queue every key of `text` (`↓` down, newline Enter) without letting the app run between."""
    for ch in text:
        key, char = KEYS.get(ch, (ch, ch))
        app.post_message(events.Key(key, char))


def _on_tab(app: EvalViewApp, number: int) -> bool:
    """True once the run screen shows, with its `number`th tab active and mounted."""
    screen = app.screen
    if not isinstance(screen, RunScreen) or not screen.is_mounted:
        return False
    wanted = screen.tabs[number - 1].id
    return screen.query_one(TabbedContent).active == wanted and bool(
        screen.query(f"#{wanted}-pane")
    )


async def _landed(pilot: Pilot[Any], app: EvalViewApp, number: int, where: str) -> None:
    try:
        await wait_for(pilot, lambda: _on_tab(app, number), timeout=TIMEOUT)
    except AssertionError:
        active = app.screen.query(TabbedContent)
        raise AssertionError(
            f"never on tab {number} of {where}: screen {app.screen!r}, sub-title "
            f"{app.sub_title!r}, tab {[t.active for t in active.results(TabbedContent)]!r}"
        ) from None
    assert app.sub_title.endswith(where)
    # leave once the read is audited and every tab mounted (not in the middle of a mount)
    screen = app.screen
    assert isinstance(screen, RunScreen)
    await wait_for(pilot, lambda: audited(app) and screen.all_mounted, timeout=TIMEOUT)
    await pilot.pause()
    assert _on_tab(app, number)


# -- the read picker ----------------------------------------------------------------------


def _picked_while_loading() -> None:
    """`↓`, Enter, `3` typed while the file loads: the second read, opened on its third tab."""

    async def main() -> None:
        app = EvalViewApp(TWO_READS)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, LoadingScreen), timeout=TIMEOUT)
            burst(app, "↓\n3")
            await _landed(pilot, app, 3, "[eval_results_800]")
            assert app.read == "eval_results_800"
            session = app.session
            assert session is not None and session.run.identity.run_id == "eval_results_800"

    run(main())


def test_keys_typed_while_a_file_of_reads_loads_pick_open_and_switch_tab() -> None:
    _picked_while_loading()


def test_keys_typed_while_a_file_of_reads_loads_land_under_cpu_load(cpu_load: None) -> None:
    _picked_while_loading()


# -- the Runs screen ----------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "paper"
    write_run(root / "a-low", outcomes_for({"t1": (1, 4), "t2": (0, 4)}, 4))
    write_run(root / "b-high", outcomes_for({"t1": (4, 4), "t2": (3, 4)}, 4))
    write_run(root / "c-mid", outcomes_for({"t1": (2, 4), "t2": (2, 4)}, 4))
    write_run(root / "d-last", outcomes_for({"t1": (3, 4), "t2": (1, 4)}, 4))
    return root


class Gates:
    """The folder's discovery and its reads, each held until the test sets its event."""

    def __init__(self) -> None:
        self.listed = threading.Event()
        self.read = threading.Event()

    def open_all(self) -> None:
        self.listed.set()
        self.read.set()


@pytest.fixture
def gates(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gates]:
    g = Gates()
    # the modules (the package `evalview.folder` also names a function `discover`)
    listing = importlib.import_module("evalview.folder.discover")
    parallel = importlib.import_module("evalview.folder.parallel")
    real_discover, real_map = listing.discover, parallel.map_completed

    def discover(*args: Any, **kwargs: Any) -> Any:
        g.listed.wait(TIMEOUT)
        return real_discover(*args, **kwargs)

    def map_completed(*args: Any, **kwargs: Any) -> Iterator[Any]:
        g.read.wait(TIMEOUT)
        yield from real_map(*args, **kwargs)

    monkeypatch.setattr(listing, "discover", discover)
    monkeypatch.setattr(parallel, "map_completed", map_completed)
    try:
        yield g
    finally:
        g.open_all()  # the scan's thread must not outlive the test waiting


def _runs_screen(app: EvalViewApp) -> RunsScreen:
    screen = app._runs_screen()
    assert isinstance(screen, RunsScreen)
    return screen


def _typed_before_the_list(root: Path, gates: Gates) -> None:
    """`↓↓`, Enter, `3` typed before the folder is even listed: the third read (scan order),
    opened while its row is still being read, on its third tab."""

    async def main() -> None:
        app = EvalViewApp(root, jobs=1)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen), timeout=TIMEOUT)
            burst(app, "↓↓\n3")
            await pilot.pause()
            gates.listed.set()
            await _landed(pilot, app, 3, "c-mid")
            runs = _runs_screen(app)
            assert all(e.row is None for e in runs.entries), "a row arrived: the test proves less"
            gates.open_all()

    run(main())


def _filtered_while_filling(root: Path, gates: Gates) -> None:
    """`/mid`, Enter (leave the filter), Enter (open the row), `3` typed while every row is
    still being read: the filtered read, on its third tab."""

    async def main() -> None:
        app = EvalViewApp(root, jobs=1)
        async with app.run_test(size=SIZE) as pilot:
            gates.listed.set()
            await wait_for(pilot, lambda: showing(app, RunsScreen), timeout=TIMEOUT)
            runs = _runs_screen(app)
            await wait_for(pilot, lambda: len(runs.view) == 4, timeout=TIMEOUT)
            burst(app, "/mid\n\n3")
            await _landed(pilot, app, 3, "c-mid")
            assert all(e.row is None for e in runs.entries), "a row arrived: the test proves less"
            assert runs.search == "mid"
            gates.open_all()

    run(main())


def test_keys_typed_before_the_folder_is_listed_open_the_row_they_chose(
    folder: Path, gates: Gates
) -> None:
    _typed_before_the_list(folder, gates)


def test_keys_typed_before_the_folder_is_listed_land_under_cpu_load(
    folder: Path, gates: Gates, cpu_load: None
) -> None:
    _typed_before_the_list(folder, gates)


def test_a_filter_and_enter_typed_while_rows_fill_open_the_filtered_read(
    folder: Path, gates: Gates
) -> None:
    _filtered_while_filling(folder, gates)


def test_a_filter_and_enter_typed_while_rows_fill_land_under_cpu_load(
    folder: Path, gates: Gates, cpu_load: None
) -> None:
    _filtered_while_filling(folder, gates)


def test_rows_that_arrive_while_keys_wait_do_not_move_the_choice(
    folder: Path, gates: Gates
) -> None:
    """The same keys, with the reads let through as soon as the folder is listed: wherever the
    rows are when the keys are taken, Enter opens the row the keys chose."""

    async def main() -> None:
        app = EvalViewApp(folder, jobs=1)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen), timeout=TIMEOUT)
            burst(app, "↓↓\n3")
            gates.open_all()
            await _landed(pilot, app, 3, "c-mid")

    run(main())
