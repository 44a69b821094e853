"""At 80 × 24 every screen of a run shows what it is for without sideways scrolling (issue 23):
the header keeps the checkpoint, Tasks shows completed, errors and the Wilson strip, Partial
credit shows `50 / 50` whole, compare shows more than four task rows. Checked on the composed
screen (what the terminal shows), and on each table's width against its own."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable
from tui_helpers import opened, run, screen_lines, wait_for

from evalview.tui.app import EvalViewApp
from evalview.tui.compare_screen import CompareApp, CompareScreen
from evalview.tui.help import HelpScreen
from helpers.paths import SAMPLE_RUNS

SMALL = (80, 24)
BUNDLED = SAMPLE_RUNS / "robobench-24x50"


def _fits(table: DataTable[object]) -> bool:
    """No sideways scroll: the table's content is no wider than the table."""
    return table.virtual_size.width <= table.scrollable_content_region.width


def test_a_run_at_80_by_24() -> None:
    async def main() -> None:
        app = EvalViewApp(BUNDLED)
        async with app.run_test(size=SMALL) as pilot:
            await opened(pilot)
            session = app.session
            assert session is not None
            ident = session.run.identity
            lines = screen_lines(app)
            assert ident.policy_version and ident.policy_version in lines[0], lines[0]
            assert "warning" in lines[0]  # the verdict beside it
            assert str(BUNDLED) not in "\n".join(lines)  # no absolute path on the Overview

            await pilot.press("2")
            table = app.screen.query_one("#tasks-table", DataTable)
            await wait_for(pilot, lambda: table.row_count > 0 and table.size.width > 0)
            await pilot.pause()
            assert _fits(table), (table.virtual_size.width, table.size.width)
            shown = "\n".join(screen_lines(app))
            assert "compl." in shown and "err." in shown and "●" in shown  # counts and strip
            assert "arrange-cups" in shown and "28 / 50" in shown

            await pilot.press("6")
            psr = app.screen.query_one("#psr-tasks", DataTable)
            await wait_for(pilot, lambda: psr.row_count > 0 and psr.size.width > 0)
            await pilot.pause()
            assert _fits(psr), (psr.virtual_size.width, psr.size.width)
            row = next(ln for ln in screen_lines(app) if ln.startswith(" pick-red-cube "))
            assert row.count("50 / 50") == 2, row

    run(main())


def test_compare_at_80_by_24() -> None:
    a = SAMPLE_RUNS / "lerobot" / "smolvla-libero-20k.json"
    b = SAMPLE_RUNS / "lerobot" / "smolvla-libero-40k.json"

    async def main() -> None:
        app = CompareApp(Path(a), Path(b))
        async with app.run_test(size=SMALL) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen)
                           and app.screen.is_mounted)
            table = app.screen.query_one("#compare-table", DataTable)
            await wait_for(pilot, lambda: table.row_count > 0)
            await pilot.pause()
            # the counts fit; the two Wilson bars after them scroll sideways, by design
            header = next(ln for ln in screen_lines(app) if ln.startswith(" task "))
            assert header.split()[-2:] == ["A", "won"], header
            rows = [ln for ln in screen_lines(app) if ln.startswith(" libero_")]
            assert len(rows) >= 7, rows
            title = " ".join(" ".join(screen_lines(app)[:2]).split())
            assert "rates over the pairs both completed" in title, title
            await pilot.press("question_mark")  # `?` did nothing on `evalview A B` (issue 23)
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            # opened at the compare section: its heading on screen, not the top of the page
            await wait_for(pilot, lambda: any("Compare screen" in ln for ln in screen_lines(app)))
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen))

    run(main())


def test_a_harness_file_at_80_by_24() -> None:
    """Every arm's numbers without sideways scroll: Δ and the range beside the rate (the bars,
    which pushed them off screen, are drawn from 110 columns)."""
    from evalview.tui.harness_screen import HarnessScreen

    async def main() -> None:
        app = EvalViewApp(SAMPLE_RUNS / "harness" / "gpu-calc-hard-single-seed.json")
        async with app.run_test(size=SMALL) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, HarnessScreen))
            await pilot.pause()
            lines = screen_lines(app)
            assert "gpu-calc-hard-single-seed" in lines[0] and "warning" in lines[0]
            row = next(ln for ln in lines if ln.startswith(" opd-raw-teacher "))
            assert "43.8 %" in row and "pt" in row and "43.8–43.8 %" in row, row
            seed = lines[lines.index(row) + 1]
            assert "21 / 48" in seed and "30.7–57.7 %" in seed, seed

    run(main())


def test_seven_tabs_fit_an_80_column_bar_and_grow_back() -> None:
    """An Inspect log has a Samples tab: at 80 columns the bar scrolled `1 Overview` out of
    sight once a later tab was active (the tmux walk found it); short titles keep all seven."""
    inspect_log = SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval"

    async def main() -> None:
        app = EvalViewApp(inspect_log)
        async with app.run_test(size=SMALL) as pilot:
            await opened(pilot)
            await pilot.press("7")
            await pilot.pause()
            bar = next(ln for ln in screen_lines(app) if "2 Tasks" in ln)
            for label in ("1 Overview", "5 Findings", "6 Partial", "7 Samples"):
                assert label in bar, bar
            await pilot.resize_terminal(160, 40)
            await pilot.pause()
            bar = next(ln for ln in screen_lines(app) if "2 Tasks" in ln)
            assert "6 Partial credit" in bar and "7 Samples" in bar, bar

    run(main())
