"""Every key is documented (help screen and `evalview --help` of the app), and the loading screen
shows the reader's progress through a large run."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import Any

from textual.binding import Binding
from textual.widgets import ProgressBar, Static
from tui_helpers import SIZE, opened, run, wait_for

import evalview.tui
from evalview.cli.open import build_parser
from evalview.load import load_run
from evalview.tui.app import EvalViewApp
from evalview.tui.help import HelpScreen, help_text
from evalview.tui.loading import LoadingScreen
from evalview.tui.tabs import TABS
from helpers.paths import SAMPLE_RUNS

SAMPLE = SAMPLE_RUNS / "robobench-24x50"

#: Textual key names as the help writes them.
SHOWN = {
    "question_mark": "?",
    "slash": "/",
    "escape": "Esc",
    "enter": "Enter",
    "backspace": "Backspace",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "home": "Home",
    "end": "End",
}


def _bindings() -> list[tuple[str, Binding]]:
    """(class name, binding) for every binding declared by a class of evalview.tui."""
    found: list[tuple[str, Binding]] = []
    for info in pkgutil.iter_modules(evalview.tui.__path__):
        module = importlib.import_module(f"evalview.tui.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or "BINDINGS" not in cls.__dict__:
                continue
            found.extend((name, b) for b in cls.__dict__["BINDINGS"] if isinstance(b, Binding))
    return found


def _help_keys() -> set[str]:
    keys: set[str] = set()
    for line in help_text().splitlines():
        if line.startswith("| `"):
            keys.update(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return keys


def test_every_binding_has_an_id_and_a_line_of_help() -> None:
    bindings = _bindings()
    assert len(bindings) > 20  # the scan found the app's bindings
    keys = _help_keys()
    for owner, b in bindings:
        assert b.id, f"{owner}: binding {b.key!r} has no id"
        for key in b.key.split(","):
            if key.isdigit():
                assert int(key) <= 9 and "1" in keys, f"{owner}: {key}"
                continue
            assert SHOWN.get(key, key) in keys, f"{owner}: key {key!r} is not in the help"


def test_help_lists_every_tab_export_and_the_compare_screen() -> None:
    text = help_text()
    assert f"`1`–`{len(TABS)}`" in text
    for i, tab in enumerate(TABS, 1):
        assert f"{i} {tab.title}" in text
    assert "| `e` | export" in text and "Compare screen" in text


def test_open_help_names_every_tab_and_key() -> None:
    text = build_parser().format_help()
    assert f"1-{len(TABS)}" in text
    for i, tab in enumerate(TABS, 1):
        assert f"{i} {tab.title}" in text
    for key in ("ctrl+p", "export", "Compare screen", "checkpoint-inputs", "--bare-targets"):
        assert key in text
    assert "1-5" not in text


def test_help_screen_opens_and_closes() -> None:
    async def main() -> None:
        app = EvalViewApp(SAMPLE)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))

    run(main())


def test_load_progress_is_throttled_monotonic_and_ends_at_the_total() -> None:
    calls: list[tuple[int, int]] = []
    with_progress = load_run(SAMPLE, progress=lambda done, total: calls.append((done, total)))
    plain = load_run(SAMPLE)
    assert 10 <= len(calls) <= 110, len(calls)
    total = calls[0][1]
    assert total == plain.bytes_read and all(t == total for _, t in calls)
    dones = [d for d, _ in calls]
    assert dones == sorted(dones) and dones[-1] == total and dones[0] < total
    assert [r.data for r in with_progress.records] == [r.data for r in plain.records]
    assert with_progress.reading_findings == plain.reading_findings


def test_a_results_json_loads_with_a_progress_callback(tmp_path: Path) -> None:
    """Single-file inputs accept the argument too (one read, no per-byte progress)."""
    calls: list[tuple[int, int]] = []
    run_ = load_run(SAMPLE / "manifest.json", progress=lambda d, t: calls.append((d, t)))
    assert run_.kind == "closed-run" and calls[-1][0] == calls[-1][1]


def test_the_loading_screen_shows_the_reading_fraction() -> None:
    seen: list[tuple[int, float]] = []

    class Recording(EvalViewApp):
        PROGRESS_INTERVAL = 0.0  # the sample reads in milliseconds; every 5 % step is posted

        def on_eval_view_app_progress(self, message: Any) -> None:
            seen.append((message.index, message.done))
            super().on_eval_view_app_progress(message)

    async def main() -> None:
        app = Recording(SAMPLE)
        async with app.run_test(size=SIZE) as pilot:
            await opened(pilot)
            screen = LoadingScreen(SAMPLE)
            await app.push_screen(screen)
            screen.set_stage(0, "reading", 0.42)
            await pilot.pause()
            assert "reading… 42%" in str(screen.query_one("#loading-stage", Static).render())
            assert screen.query_one(ProgressBar).progress == 0.42

    run(main())
    reading = [d for i, d in seen if i == 0]
    assert any(0.0 < d < 1.0 for d in reading), seen
    assert [i for i, _ in seen] == sorted(i for i, _ in seen)


def test_the_loading_bar_repaints_at_most_once_per_interval_within_a_stage() -> None:
    """Each repaint takes the GIL from the reader: within one stage a post waits for
    PROGRESS_INTERVAL seconds (here longer than the whole read), while each new stage still shows
    at once."""
    seen: list[int] = []

    class Recording(EvalViewApp):
        PROGRESS_INTERVAL = 3600.0

        def on_eval_view_app_progress(self, message: Any) -> None:
            seen.append(message.index)
            super().on_eval_view_app_progress(message)

    async def main() -> None:
        app = Recording(SAMPLE)
        async with app.run_test(size=SIZE) as pilot:
            await opened(pilot)

    run(main())
    assert seen == sorted(set(seen)) and len(seen) >= 2, seen  # one post per stage
