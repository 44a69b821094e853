"""The app takes the session's road with the read's whole address: a named read (`--read KEY`)
is exported and watched as that read, and a single-file input is read and parsed once."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

import evalview.tui.app as app_module
from evalview.load.source import Source
from evalview.tui.app import EvalViewApp
from evalview.tui.export_screen import ExportScreen
from evalview.tui.run_screen import RunScreen
from helpers.paths import SAMPLE_RUNS

TWO_READS = SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json"


async def _wait(pilot: Pilot[Any], cond: Callable[[], bool], timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        assert loop.time() < end, "condition not met in time"
        await pilot.pause(0.05)


def _copy(tmp_path: Path) -> Path:
    """The file in a folder of its own (an export is refused inside the input's folder)."""
    (tmp_path / "in").mkdir()
    return Path(shutil.copy(TWO_READS, tmp_path / "in" / "eval_info.json"))


def test_the_apps_export_of_a_named_read_exports_that_read(tmp_path: Path) -> None:
    """It was refused ("holds 2 named reads; say which one"); `evalview export --read` worked."""
    path, dest = _copy(tmp_path), tmp_path / "published"

    async def main() -> None:
        app = EvalViewApp(path, read="eval_results_800")
        async with app.run_test(size=(140, 45)) as pilot:
            await _wait(pilot, lambda: isinstance(app.screen, RunScreen))
            await pilot.press("e")
            await _wait(pilot, lambda: isinstance(app.screen, ExportScreen))
            screen = app.screen
            assert isinstance(screen, ExportScreen)
            await _wait(pilot, lambda: screen.is_mounted)
            field = screen.query_one("#export-dest", Input)
            field.value = str(dest)
            field.focus()
            await pilot.press("enter")
            await _wait(pilot, lambda: screen.outcome is not None)
            assert screen.outcome == "ok"

    asyncio.run(main())
    doc = json.loads((dest / "result.json").read_text())
    assert doc["run_id"] == "eval_results_800"
    assert doc["source_format"] == "lerobot-eval/eval_info.json"


def test_watching_a_named_read_rereads_that_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--watch` re-read the path alone and failed on a file of several reads."""
    monkeypatch.setattr(app_module, "WATCH_INTERVAL", 0.1)
    monkeypatch.setattr(app_module, "WATCH_SETTLE", 0.2)
    path = _copy(tmp_path)

    async def main() -> None:
        app = EvalViewApp(path, read="eval_results_400", watch=True)
        async with app.run_test(size=(140, 45)) as pilot:
            # the run screen paints before the audit: compare findings once it is in
            await _wait(pilot, lambda: isinstance(app.screen, RunScreen) and app.session is not None
                        and not app.session.findings_pending)
            before = app.session
            assert before is not None and before.where.read == "eval_results_400"
            doc = json.loads(path.read_text())
            doc["a key of your own"] = 1  # a change the reader notes (EV7xx), not a new read
            path.write_text(json.dumps(doc))
            await _wait(pilot, lambda: app.session is not before)
            after = app.session
            assert after is not None and after.where.read == "eval_results_400"
            assert after.run.identity.run_id == "eval_results_400"
            assert len(after.findings) == len(before.findings) + 1
            # the re-read screen finishes mounting before the pilot leaves
            await _wait(pilot, lambda: isinstance(app.screen, RunScreen)
                        and app.screen.session is after and app.screen.all_mounted)

    asyncio.run(main())


def _sources_opened(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    made: list[Path] = []
    original = Source.__init__

    def counting(self: Source, path: Any, *args: Any, **kwargs: Any) -> None:
        made.append(Path(path))
        original(self, path, *args, **kwargs)

    monkeypatch.setattr(Source, "__init__", counting)
    return made


@pytest.mark.parametrize(
    ("name", "read"),
    [
        ("lerobot/smolvla-libero-40k.json", None),
        ("lerobot/libero10-two-reads.json", "eval_results_400"),
        ("harness/gpu-calc-hard-single-seed.json", None),
    ],
)
def test_the_app_reads_a_single_file_input_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, read: str | None
) -> None:
    """Three `Source`s (three reads and parses) became one, as the command line has."""
    path = Path(shutil.copy(SAMPLE_RUNS / name, tmp_path / Path(name).name))
    made = _sources_opened(monkeypatch)

    async def main() -> None:
        app = EvalViewApp(path, read=read)
        async with app.run_test(size=(140, 45)) as pilot:
            await _wait(pilot, lambda: app.session is not None or app.harness is not None)
            await pilot.pause()

    asyncio.run(main())
    assert made == [path]


def test_picking_a_named_read_does_not_read_the_file_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import OptionList

    from evalview.tui.read_picker import ReadPickerScreen

    path = _copy(tmp_path)
    made = _sources_opened(monkeypatch)

    async def main() -> None:
        app = EvalViewApp(path)
        async with app.run_test(size=(140, 45)) as pilot:
            await _wait(pilot, lambda: isinstance(app.screen, ReadPickerScreen))
            picker = app.screen
            await _wait(pilot, lambda: picker.is_mounted)
            picker.query_one(OptionList).focus()
            await pilot.press("down", "enter")
            await _wait(pilot, lambda: isinstance(app.screen, RunScreen))
            assert app.session is not None
            assert app.session.where.read == "eval_results_800"

    asyncio.run(main())
    assert made == [path]
