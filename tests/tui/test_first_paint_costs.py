"""What the app does on the way to the run screen and no more (issue 25: the run screen within 2x
the floor). Each test fails on the code before its change:

- the cyclic collector stays paused from the read's request until the screen that shows it is
  painted, and comes back on whatever happens to the read (shown, listed, failed, left);
- the evalview theme is in the stylesheet from the start, so no stylesheet is parsed twice;
- the footer's checks do not import the Runs screen for a read opened from the command line.
"""

from __future__ import annotations

import gc
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from tui_helpers import FAULTY, SIZE, audited, run, showing, wait_for

import evalview.session
from evalview.session import Audited, Session
from evalview.tui.app import EvalViewApp
from evalview.tui.run_screen import RunScreen
from evalview.tui.runs_screen import RunsScreen
from evalview.tui.theme import EVALVIEW_THEME
from helpers.paths import EXAMPLE, SAMPLE_RUNS

TWO_READS = SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json"


@pytest.fixture(autouse=True)
def collector_back_on() -> Iterator[None]:
    """The collector is process-wide: whatever a failing test left, the next starts with it on."""
    assert gc.isenabled()
    yield
    gc.enable()


class Watched(EvalViewApp):
    """Notes whether the collector was on when the loaded read reached the UI thread."""

    collector_at_loaded: bool | None = None

    async def on_eval_view_app_loaded(self, message: EvalViewApp.Loaded) -> None:
        self.collector_at_loaded = gc.isenabled()
        await super().on_eval_view_app_loaded(message)


def test_the_collector_is_paused_from_the_read_to_the_run_screens_first_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Paused while the run is read and until its screen is painted (before, the loading worker
    paused it for the read alone, and the run screen was composed with it on); back on after the
    paint; still paused by the audit worker for the audit that follows."""
    during_audit: list[bool] = []
    real = evalview.session.finish_audit

    def audit(session: Session) -> Audited:
        during_audit.append(gc.isenabled())
        return real(session)

    monkeypatch.setattr(evalview.session, "finish_audit", audit)

    async def main() -> None:
        app = Watched(FAULTY)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunScreen) and audited(app))
            await pilot.pause()
            assert app.collector_at_loaded is False, "the run screen was composed with it on"
            assert gc.isenabled(), "not back on after the run screen was painted"
            assert during_audit == [False], "the audit ran with the collector on"

    run(main())
    assert gc.isenabled()


def test_the_collector_comes_back_when_a_read_fails(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("not a run\n")

    async def main(path: Path) -> None:
        app = EvalViewApp(path)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.failure is not None or not app.is_running)
            await pilot.pause()
            assert gc.isenabled()

    run(main(bad))
    assert gc.isenabled()


def test_the_collector_comes_back_while_the_reads_of_a_file_are_listed() -> None:
    """A file of several reads: the list waits for the reviewer, with the collector on; the read
    picked is then held again until its own screen is painted."""
    from evalview.tui.read_picker import ReadPickerScreen

    async def main() -> None:
        app = Watched(TWO_READS)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, ReadPickerScreen))
            await pilot.pause()
            assert gc.isenabled(), "paused while the list waits for the reviewer"
            await pilot.press("enter")
            await wait_for(pilot, lambda: showing(app, RunScreen) and audited(app))
            await pilot.pause()
            assert app.collector_at_loaded is False
            assert gc.isenabled()

    run(main())


def test_the_collector_comes_back_when_the_reviewer_leaves_a_read(tmp_path: Path) -> None:
    """Escape while a read of the Runs screen loads: back on at once (the read's terminal
    message never shows a screen)."""
    folder = tmp_path / "runs"
    folder.mkdir()
    shutil.copytree(FAULTY, folder / "faulty")
    hold = threading.Event()
    real = evalview.session.open_input

    def slow_open(*args: Any, **kwargs: Any) -> Any:
        hold.wait(30)
        return real(*args, **kwargs)

    async def main() -> None:
        app = EvalViewApp(folder)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen))
            evalview.session.open_input = slow_open
            try:
                app.open_read(folder / "faulty")
                await pilot.pause()
                assert not gc.isenabled(), "the read is loading: paused"
                app.action_back_to_runs()
                assert gc.isenabled()
            finally:
                hold.set()
                evalview.session.open_input = real
            await pilot.pause(0.2)
            assert gc.isenabled()

    run(main())


def test_the_stylesheet_is_parsed_once_with_the_evalview_theme(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Setting the theme once the app ran re-parsed every stylesheet read so far (and emptied the
    parse cache); now the app starts with it. The screens look the same (the snapshot tests), and
    the theme is the app's, with its classes and variables."""
    reparses: list[int] = []
    real = Stylesheet.reparse

    def counted(self: Stylesheet) -> None:
        reparses.append(1)
        real(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)

    async def main() -> None:
        app = EvalViewApp(FAULTY)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunScreen))
            await pilot.pause()
            assert not reparses, "a stylesheet was parsed again on the way to the run screen"
            assert app.theme == EVALVIEW_THEME.name
            assert app.current_theme is EVALVIEW_THEME
            assert {"-theme-evalview", "-dark-mode"} <= set(app.classes)
            assert "-light-mode" not in app.classes
            assert app.screen.styles.background == Color.parse(EVALVIEW_THEME.background or "")

    run(main())


def test_opening_a_read_never_imports_the_runs_screen() -> None:
    """The footer asks `check_action` about Escape (back to the Runs screen) at every refresh;
    that imported the Runs screen and folder reading on the UI thread while a run loaded. In a
    fresh interpreter, so `sys.modules` says what the app imported."""
    code = (
        "import asyncio, json, sys\n"
        "from pathlib import Path\n"
        "from evalview.tui.app import EvalViewApp\n"
        "async def main():\n"
        f"    app = EvalViewApp(Path({str(EXAMPLE)!r}))\n"
        "    async with app.run_test(size=(140, 40)) as pilot:\n"
        "        for _ in range(600):\n"
        "            if type(app.screen).__name__ == 'RunScreen' and app.screen.is_mounted:\n"
        "                break\n"
        "            await pilot.pause(0.05)\n"
        "        await pilot.pause(0.2)\n"
        "        print(type(app.screen).__name__)\n"
        "asyncio.run(main())\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    ).stdout.splitlines()
    assert out[-2] == "RunScreen"
    loaded = set(json.loads(out[-1]))
    assert "evalview.tui.run_screen" in loaded  # the probe sees what the app imported
    assert "evalview.tui.runs_screen" not in loaded
