"""Watching (`--watch`, `w`): fixing a record makes its finding disappear from the open read; the
Runs screen picks up a new read and re-reads a changed one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import audited, run, showing, wait_for

import evalview.tui.app as app_module
import evalview.tui.runs_screen as runs_module
from evalview.tui.app import EvalViewApp
from evalview.tui.run_screen import RunScreen
from evalview.tui.runs_screen import RunsScreen
from helpers.closed_runs import outcomes_for, write_run


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Look often and settle fast, so a test waits a fraction of a second per change."""
    monkeypatch.setattr(app_module, "WATCH_INTERVAL", 0.1)
    monkeypatch.setattr(app_module, "WATCH_SETTLE", 0.2)
    monkeypatch.setattr(runs_module, "WATCH_INTERVAL", 0.1)
    monkeypatch.setattr(runs_module, "WATCH_SETTLE", 0.2)


def _break_summary(root: Path, delta: int) -> None:
    path = root / "summary.json"
    summary = json.loads(path.read_text())
    summary["successes"] += delta
    path.write_text(json.dumps(summary))


def test_fixing_a_record_makes_its_finding_disappear(tmp_path: Path) -> None:
    root = write_run(tmp_path / "run", outcomes_for({"t": (1, 3)}, 3))
    _break_summary(root, 1)  # the summary claims one success too many: an error finding

    async def main() -> None:
        app = EvalViewApp(root, watch=True)
        async with app.run_test(size=(140, 36)) as pilot:
            await wait_for(pilot, lambda: showing(pilot.app, RunScreen) and audited(app))
            assert app.session is not None and app.session.counts["error"] >= 1
            before = app.session
            _break_summary(root, -1)  # the reviewer fixes the file
            await wait_for(pilot, lambda: app.session is not before)
            assert app.session is not None and app.session.counts["error"] == 0
            assert isinstance(app.screen, RunScreen) and app.screen.session is app.session
            await pilot.press("w")  # stop watching: a further change is not re-read
            await wait_for(pilot, lambda: not app.watching)
            shown = app.session
            _break_summary(root, 1)
            await pilot.pause(0.8)
            assert app.session is shown

    run(main())


def test_the_runs_screen_picks_up_new_and_changed_reads(tmp_path: Path) -> None:
    folder = tmp_path / "paper"
    first = write_run(folder / "a", outcomes_for({"t": (1, 3)}, 3))

    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        assert [e.candidate.rel for e in screen.entries] == ["a"]
        write_run(folder / "b", outcomes_for({"t": (2, 3)}, 3))
        await wait_for(
            pilot, lambda: [e.candidate.rel for e in screen.entries] == ["a", "b"] and screen.done
        )
        assert screen.entries[1].row is not None and screen.entries[1].row.successes == 2
        kept = screen.entries[1].row
        _break_summary(first, 1)
        await wait_for(pilot, lambda: screen.done and screen.entries[0].verdict == "errors")
        assert screen.entries[1].row is kept  # the unchanged read was not read again

    async def main() -> None:
        app = EvalViewApp(folder, jobs=1, watch=True)
        async with app.run_test(size=(150, 30)) as pilot:
            await wait_for(pilot, lambda: showing(pilot.app, RunsScreen))
            screen = pilot.app.screen
            assert isinstance(screen, RunsScreen)
            await wait_for(pilot, lambda: screen.done)
            await body(pilot, screen)

    run(main())
