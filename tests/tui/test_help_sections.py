"""`?` opens the help at the keys of the screen it was pressed on (issue 23: one help on every
screen; a harness file's or a folder's keys were pages below the run's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_helpers import run, screen_lines, wait_for

from evalview.tui.app import EvalViewApp
from evalview.tui.harness_screen import HarnessScreen
from evalview.tui.help import HelpScreen
from evalview.tui.run_screen import RunScreen
from evalview.tui.runs_screen import RunsScreen
from helpers.paths import SAMPLE_RUNS

CASES = {
    "run": (SAMPLE_RUNS / "robobench-24x50", RunScreen, "evalview keys"),
    "harness": (
        SAMPLE_RUNS / "harness" / "gpu-calc-hard-single-seed.json", HarnessScreen,
        "Benchmark-harness result",
    ),
    "folder": (SAMPLE_RUNS / "replicates", RunsScreen, "Runs screen"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_help_opens_at_the_screens_keys(case: str) -> None:
    path, kind, heading = CASES[case]

    async def main(p: Path = path) -> None:
        app = EvalViewApp(p, jobs=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, kind))
            await pilot.pause(0.3)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            await wait_for(pilot, lambda: any(heading in ln for ln in screen_lines(app)[:8]))
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, kind))

    run(main())
