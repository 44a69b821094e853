"""The TUI's export dialog (key `e` and the palette): a prompt, then success or refusal."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from evalview.session import open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.export_screen import ExportScreen, default_destination
from evalview.tui.run_screen import RunScreen
from helpers.paths import EXAMPLE


async def _wait(pilot: Pilot[Any], cond: Callable[[], bool], timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        assert loop.time() < end, "condition not met in time"
        await pilot.pause(0.05)


def _showing_export(app: EvalViewApp) -> bool:
    """The dialog is current and mounted: a pushed screen is current before it composes."""
    return isinstance(app.screen, ExportScreen) and app.screen.is_mounted


def _status(screen: ExportScreen) -> str:
    return str(screen.query_one("#export-status", Static).render())


def _drive(run: Path, body: Callable[[Pilot[Any], EvalViewApp], Any]) -> None:
    session = open_session(run)

    async def main() -> None:
        app = EvalViewApp(session.path, session=session)
        async with app.run_test(size=(140, 45)) as pilot:
            await _wait(pilot, lambda: isinstance(app.screen, RunScreen))
            await body(pilot, app)

    asyncio.run(main())


def test_key_e_exports_to_the_typed_destination(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import webbrowser

    run = Path(shutil.copytree(EXAMPLE, tmp_path / "run"))
    (tmp_path / "papers").mkdir()
    dest = tmp_path / "papers" / "published"
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("e")
        await _wait(pilot, lambda: _showing_export(app))
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        field = screen.query_one("#export-dest", Input)
        assert field.value == str(default_destination(run))
        field.value = ""
        await pilot.click("#export-dest")
        await _wait(pilot, lambda: field.has_focus)
        await pilot.press(*str(dest))  # typed, including the letter e
        await _wait(pilot, lambda: field.value == str(dest))
        screen.query_one("#export-metrics", Input).value = "score"
        await pilot.press("enter")
        await _wait(pilot, lambda: screen.outcome is not None)
        assert screen.outcome == "ok"
        text = _status(screen)
        assert "Exported" in text and "4/12 successes / selected" in text
        # The same wording as `evalview export` (report/export_summary.py builds both).
        flat = " ".join(text.split())
        assert "1 infrastructure error(s) pending a re-run are shown as a warning" in flat
        assert "--metric score: 4 of 12 episode(s) have no numeric or boolean value" in flat
        assert (dest / "result.json").is_file() and (dest / "index.html").is_file()
        assert f"wrote {dest / 'index.html'}" in text.replace("\n", "")
        assert not opened
        await pilot.press("o")  # the page opens in the browser
        await _wait(pilot, lambda: bool(opened))
        assert opened == [(dest / "index.html").resolve().as_uri()]
        await pilot.press("escape")
        await _wait(pilot, lambda: isinstance(app.screen, RunScreen))
        await pilot.press("e")  # the next proposal is under the directory chosen this time
        await _wait(pilot, lambda: _showing_export(app))
        proposal = app.screen.query_one("#export-dest", Input).value
        assert proposal == str(dest.parent / "run-export"), proposal

    _drive(run, body)


def test_refusal_is_shown_and_nothing_is_written(tmp_path: Path) -> None:
    run = Path(shutil.copytree(EXAMPLE, tmp_path / "run"))

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("e")
        await _wait(pilot, lambda: _showing_export(app))
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        screen.query_one("#export-dest", Input).value = str(run / "inside")
        await pilot.click("#export-go")
        await _wait(pilot, lambda: screen.outcome is not None)
        assert screen.outcome == "refused"
        text = _status(screen)
        assert "Refused" in text and "inside the run" in text and "Nothing was written" in text
        assert "--output-dir" not in text and "Choose a destination outside it" in text
        assert not (run / "inside").exists()

    _drive(run, body)


def test_palette_opens_the_export_dialog(tmp_path: Path) -> None:
    run = Path(shutil.copytree(EXAMPLE, tmp_path / "run"))

    async def body(pilot: Pilot[Any], app: EvalViewApp) -> None:
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"export result")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await _wait(pilot, lambda: _showing_export(app))

    _drive(run, body)


def test_the_proposal_is_beside_the_run_then_where_the_reviewer_exported_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: the dialog proposed the current directory (a checkout). Now: beside the input's
    folder, named after the input; once the reviewer exported somewhere, under that directory;
    a bundled sample (checkout or cache) under the home directory; never inside the run."""
    from evalview.report.destination import proposed_destination, remember_export_dir

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    runs = tmp_path / "runs"
    run = runs / "run"
    run.mkdir(parents=True)
    assert proposed_destination(run) == runs / "run-export"
    (runs / "run-export").mkdir()
    assert proposed_destination(run) == runs / "run-export-2"
    lerobot = runs / "lerobot"
    lerobot.mkdir()
    (lerobot / "smolvla-40k.json").write_text("{}")
    (lerobot / "eval_info.json").write_text("{}")
    assert proposed_destination(lerobot / "smolvla-40k.json") == runs / "smolvla-40k-export"
    assert proposed_destination(lerobot / "eval_info.json") == runs / "lerobot-export"
    assert proposed_destination(run, bundled=runs) == home / "run-export"
    chosen = tmp_path / "papers"
    chosen.mkdir()
    remember_export_dir(chosen / "first-export")
    assert proposed_destination(run) == chosen / "run-export"
    assert proposed_destination(run, bundled=runs) == chosen / "run-export"
    remember_export_dir(run / "inside-export")  # a choice inside this run is not reused for it
    assert proposed_destination(run) == runs / "run-export-2"
    chosen.rmdir()
    remember_export_dir(chosen / "x")  # a directory since removed is forgotten
    assert proposed_destination(run) == runs / "run-export-2"
