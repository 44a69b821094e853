"""The app on benchmark-harness results, driven as a person would (pilot): the one app, whose
loading worker reads the file and shows the Harness screen, as it shows a run's screen."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable, Static, TabbedContent
from tui_helpers import showing

from evalview.harness.audit import SINGLE_SEED_LABEL
from evalview.tui.app import EvalViewApp
from evalview.tui.harness_screen import HarnessScreen
from helpers.paths import SAMPLE_RUNS

SAMPLES = SAMPLE_RUNS / "harness"


def _app(name: str) -> EvalViewApp:
    return EvalViewApp(SAMPLES / name)


async def _opened(pilot: Pilot[Any]) -> HarnessScreen:
    """Wait until the loading worker has shown the Harness screen."""
    await _until(pilot, lambda: showing(pilot.app, HarnessScreen))
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, HarnessScreen)
    return screen


async def _until(pilot: Pilot[Any], cond: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait for `cond`: a key reaches the app's bindings after bubbling up from the focused
    widget, over several turns of the loop, which `press` does not always wait out."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        assert loop.time() < end, f"condition not met within {timeout} s"
        await pilot.pause(0.05)


def _cells(table: DataTable[Any], column: str) -> list[str]:
    return [str(table.get_cell(row, column)) for row in table.rows]


def test_single_seed_arms_tab_labels_every_row() -> None:
    async def main() -> None:
        app = _app("gpu-calc-hard-single-seed.json")
        async with app.run_test(size=(150, 40)) as pilot:
            await _opened(pilot)
            header = _header(app)
            assert SINGLE_SEED_LABEL in header and "4 warnings" in header
            table = app.screen.query_one("#arms-table", DataTable)
            assert table.row_count == 10  # 5 arms + 5 reads
            assert set(_cells(table, "label")) == {SINGLE_SEED_LABEL}
            rates = _cells(table, "rate")
            assert rates[0] == "25.0 %" and rates[1] == "25.0 %"
            wilson = _cells(table, "min–max · Wilson")
            assert wilson[1] == "14.9–38.8 %"  # 12 / 48, the read under cold-start-only
            measured = app.screen.query_one("#measured-table", DataTable)
            assert set(_cells(measured, "label")) == {SINGLE_SEED_LABEL}

    asyncio.run(main())


def test_keys_switch_tabs_and_findings_list_every_finding() -> None:
    async def main() -> None:
        app = _app("gpu-calc-hard-single-seed.json")
        async with app.run_test(size=(150, 40)) as pilot:
            await _opened(pilot)
            await pilot.press("4")
            await _until(pilot, lambda: app.screen.query_one(TabbedContent).active == "findings")
            table = app.screen.query_one("#findings-table", DataTable)
            codes = _cells(table, "code")
            assert sorted(codes) == ["EV804", "EV807", "EV811", "EV811", "EV811"]
            await pilot.press("2")
            await _until(pilot, lambda: app.screen.query_one(TabbedContent).active == "measured")
            caveat = str(app.screen.query_one("#measured-caveat", Static).render())
            assert "measured, not matched" in caveat

    asyncio.run(main())


def test_controls_mark_the_undeclared_difference() -> None:
    async def main() -> None:
        app = _app("gpu-calc-hard-undeclared-difference.json")
        async with app.run_test(size=(150, 40)) as pilot:
            await _opened(pilot)
            await pilot.press("3")
            text = str(app.screen.query_one("#controls-text", Static).render())
            line = next(x for x in text.splitlines() if "train.rollouts_per_cycle" in x)
            assert "not in allowed_differences" in line
            assert "allowed differences  run.mode, train.cycles" in text
            header = _header(app)
            assert "refused" in header and "2 errors" in header

    asyncio.run(main())


def test_three_seed_contrasts_are_paired() -> None:
    async def main() -> None:
        app = _app("gpu-calc-hard-equal-update-3seeds.json")
        async with app.run_test(size=(150, 40)) as pilot:
            await _opened(pilot)
            text = str(app.screen.query_one("#arms-contrasts", Static).render())
            assert text.count("paired, n_seeds=3") == 4 and "no claim" not in text
            table = app.screen.query_one("#arms-table", DataTable)
            assert table.row_count == 5 + 15
            assert "label" not in [str(c.label) for c in table.columns.values()]

    asyncio.run(main())


def test_evalview_path_opens_the_one_app_on_a_harness_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`evalview FILE` starts the same app for a harness result as for a run (no second app)."""
    from evalview.cli.open import main

    opened: list[Path] = []

    def fake_run(self: EvalViewApp) -> int:
        opened.append(self.path)
        return 0

    monkeypatch.setattr(EvalViewApp, "run", fake_run)
    path = SAMPLES / "cpu-toy-calc-equal-update-v2.json"
    assert main([str(path)]) == 0
    assert opened == [path]


def test_help_and_quit_are_the_apps_own_keys_on_a_harness_result() -> None:
    """`?` shows the help over the Harness screen (it did nothing in the harness's own app), and
    `q` quits, as on a run."""
    from evalview.tui.help import HelpScreen

    async def main() -> None:
        app = _app("gpu-calc-hard-single-seed.json")
        async with app.run_test(size=(150, 40)) as pilot:
            await _opened(pilot)
            assert app.harness is not None and app.harness.counts["warning"] == 4
            await pilot.press("question_mark")
            await _until(pilot, lambda: showing(app, HelpScreen))
            await pilot.press("escape")
            await _until(pilot, lambda: showing(app, HarnessScreen))
            await pilot.press("q")
            await _until(pilot, lambda: not app.is_running)

    asyncio.run(main())


def _export_in_app(name: str, dest: Path) -> tuple[str | None, str, bool, Path | None]:
    """Open `name` in the harness app, press `e`, type `dest`, Enter: the dialog's outcome, its
    status text, whether it offered a metrics field, and the index.html it would open."""
    from textual.widgets import Input

    from evalview.tui.export_screen import ExportScreen

    async def main() -> tuple[str | None, str, bool, Path | None]:
        app = _app(name)
        async with app.run_test(size=(150, 40)) as pilot:
            await _opened(pilot)
            await pilot.press("e")
            await _until(pilot, lambda: showing(app, ExportScreen))
            screen = app.screen
            assert isinstance(screen, ExportScreen)
            field = screen.query_one("#export-dest", Input)
            field.value = str(dest)
            field.focus()
            await pilot.press("enter")
            await _until(pilot, lambda: screen.outcome is not None)
            status = str(screen.query_one("#export-status", Static).render())
            metrics = bool(screen.query("#export-metrics"))
            return screen.outcome, status, metrics, screen.index_html

    return asyncio.run(main())


def test_key_e_exports_the_harness_result_as_evalview_export_does(tmp_path: Path) -> None:
    """`e` opens the export dialog (no metrics field: a harness result has no episodes); Enter
    writes the same sanitized result.json and index.html as `evalview export`, and the dialog
    says what it wrote and keeps the single-seed label."""
    dest = tmp_path / "published"
    outcome, status, metrics, index = _export_in_app("gpu-calc-hard-single-seed.json", dest)
    assert outcome == "ok" and not metrics and index == dest / "index.html"
    assert "benchmark-harness result" in status and SINGLE_SEED_LABEL in status
    text = (dest / "result.json").read_text()
    doc = json.loads(text)
    assert doc["format"] == "evalview.harness-result/v1"
    assert SINGLE_SEED_LABEL in doc["labels"] and "/home/" not in text
    assert (dest / "index.html").is_file()


def test_key_e_refuses_a_harness_result_with_audit_errors(tmp_path: Path) -> None:
    dest = tmp_path / "published"
    outcome, status, _metrics, index = _export_in_app(
        "gpu-calc-hard-undeclared-difference.json", dest
    )
    assert outcome == "refused" and index is None
    assert "Refused" in status and "Nothing was written" in status
    assert not dest.exists()


def test_the_header_stays_on_top_at_80_by_24() -> None:
    """The file, verdict and refusal lines are the first lines on screen (they were scrolled
    past, above the tab bar), on every tab."""

    async def main() -> None:
        app = _app("gpu-calc-hard-undeclared-difference.json")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _opened(pilot)
            for key in ("1", "4", "3", "1"):
                await pilot.press(key)
                await pilot.pause()
                header = screen.query_one("#harness-header")
                assert header.region.y == 0 and header.region.height >= 3
                assert screen.scroll_y == 0
            text = _header(app)
            assert "refused" in text and "2 errors" in text
            verdict = screen.query_one("#verdict", Static)  # one line, boxed beside the name
            assert verdict.region.height == 1 and verdict.region.y == 0
            assert "2 errors, 0 warnings" in str(verdict.render())

    asyncio.run(main())


def test_a_recoverybench_result_has_its_recovery_tab_and_header_line() -> None:
    """Schema 3: the budget view, its overshoot and validity stay in the header; `5` shows
    strict success beside recovery after error, each read's stop and overshoot."""
    from helpers.paths import MINIVERL

    async def main() -> None:
        app = EvalViewApp(MINIVERL / "recoverybench-v1-equal-selected-tokens.json")
        async with app.run_test(size=(160, 48)) as pilot:
            await _opened(pilot)
            header = _header(app)
            assert "budget view equal_selected_training_tokens" in header
            assert "max overshoot 646 selected_training_tokens" in header and "valid" in header
            await pilot.press("5")
            await _until(pilot, lambda: app.screen.query_one(TabbedContent).active == "recovery")
            table = app.screen.query_one("#recovery-table", DataTable)
            assert table.row_count == 12  # 3 arms + 9 reads
            assert _cells(table, "recovery")[:2] == ["1.8 %", "0.0 %"]
            stops = _cells(table, "stop (kind actual/target)")
            assert "selected_training_tokens 6675/6224" in stops
            assert _cells(table, "overshoot")[0] == "max 646"
            text = str(app.screen.query_one("#recovery-text", Static).render())
            assert "kind=selected_training_tokens, target=6224" in text

    asyncio.run(main())


def test_key_5_on_an_older_result_says_there_is_no_recovery_tab() -> None:
    async def main() -> None:
        app = _app("gpu-calc-hard-single-seed.json")
        async with app.run_test(size=(150, 40)) as pilot:
            await _opened(pilot)
            assert not app.screen.query("#recovery")
            await pilot.press("5")
            await pilot.pause()
            assert app.screen.query_one(TabbedContent).active == "arms"

    asyncio.run(main())


def _header(app: App[object]) -> str:
    """The harness header's text: its identity, verdict and lines, as one string."""
    return " ".join(str(w.render()) for w in app.screen.query("#harness-header Static"))
