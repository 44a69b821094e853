"""Hostile input, round three (issue 24), in the app: a read whose episode table cannot be built
is said on the loading screen (the app froze, q included, after "the scorer failed" on a seed of
2^64); a LeRobot seed past 64 bits opens as a finding; a folder of many links fills the Runs
screen and q leaves it (with --watch too); one hostile file among good reads is a row."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import audited, run, showing, wait_for

from evalview.tui.app import EvalViewApp
from evalview.tui.run_screen import RunScreen
from evalview.tui.runs_screen import RunsScreen
from helpers.paths import SAMPLE_RUNS

SINGLE_ENV = SAMPLE_RUNS / "lerobot" / "pusht-single-env.json"
HARNESS = SAMPLE_RUNS / "harness" / "gpu-calc-hard-equal-update-3seeds.json"
SIZE = (150, 40)


def _lerobot(path: Path, **first_episode: Any) -> Path:
    doc = json.loads(SINGLE_ENV.read_text(encoding="utf-8"))
    doc["per_episode"][0].update(first_episode)
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def test_a_table_that_cannot_be_built_is_said_on_the_loading_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The episode table of a LeRobot read is built on first use: it used to be first used on the
    UI thread, after the scorer had failed on it, and every pane raised there."""
    from evalview.load.lerobot import reader

    def broken(*_args: Any) -> Any:
        raise OverflowError("Python int too large to convert to C long")

    monkeypatch.setattr(reader, "_table", broken)
    path = _lerobot(tmp_path / "eval_info.json")

    async def main() -> None:
        app = EvalViewApp(path)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.failure is not None or not app.is_running)
            assert app.failure is not None
            assert "OverflowError" in app.failure[0] and not isinstance(app.screen, RunScreen)

    run(main())


def test_a_seed_past_64_bits_opens_as_a_finding_and_q_quits(tmp_path: Path) -> None:
    path = _lerobot(tmp_path / "eval_info.json", seed=2**64 - 1)

    async def main() -> None:
        app = EvalViewApp(path)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunScreen) and audited(app))
            screen = app.screen
            assert isinstance(screen, RunScreen)
            assert app.session is not None
            assert any(f.code == "EV701" and "seed" in f.message for f in app.session.findings)
            for tab in ("tasks", "episodes", "findings", "overview"):
                screen.show_tab(tab)
                await pilot.pause(0.05)
            await pilot.press("q")
            await wait_for(pilot, lambda: not app.is_running)

    run(main())


def _links(folder: Path, n: int) -> Path:
    folder.mkdir()
    (folder / "good.json").write_text(SINGLE_ENV.read_text(encoding="utf-8"), encoding="utf-8")
    for i in range(n):
        os.symlink("/dev/zero", folder / f"l{i:05d}.json")
    return folder


@pytest.mark.parametrize("watch", [False, True])
def test_a_folder_of_many_links_fills_the_runs_screen_and_q_quits(
    tmp_path: Path, watch: bool
) -> None:
    """Each link was a round trip through a worker and a re-sort of every row (5,000 links: a
    minute before the screen was done); with --watch, q did not end the process for as long."""
    folder = _links(tmp_path / "links", 2_000)

    async def main() -> None:
        app = EvalViewApp(folder, jobs=1, watch=watch)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen))
            screen = app.screen
            assert isinstance(screen, RunsScreen)
            await wait_for(pilot, lambda: screen.done, timeout=60)
            assert [screen.entries[i].candidate.rel for i in screen.view] == ["good.json"]
            assert len(screen.skipped) == 2_000
            await pilot.press("q")
            await wait_for(pilot, lambda: not app.is_running)

    run(main())


def test_one_hostile_file_is_a_row_among_the_reads(tmp_path: Path) -> None:
    folder = tmp_path / "reads"
    folder.mkdir()
    _lerobot(folder / "a-good.json")
    deep: Any = 0
    for _ in range(500):  # past the bound of 128 levels (json.dumps needs no more room)
        deep = [deep]
    doc = json.loads(HARNESS.read_text(encoding="utf-8"))
    doc["hardware"]["deep"] = deep
    (folder / "b-deep.json").write_text(json.dumps(doc), encoding="utf-8")
    _lerobot(folder / "c-seed.json", seed=2**64)
    rate = json.loads(HARNESS.read_text(encoding="utf-8"))
    rate["arms"][0]["success_rate"] = float("nan")
    (folder / "d-rate.json").write_text(json.dumps(rate), encoding="utf-8")
    _lerobot(folder / "z-good.json")

    async def main() -> None:
        app = EvalViewApp(folder, jobs=1)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen))
            screen = app.screen
            assert isinstance(screen, RunsScreen)
            await wait_for(pilot, lambda: screen.done, timeout=60)
            await pilot.pause()
            rows = {e.candidate.rel: e for e in screen.entries}
            assert {"a-good.json", "b-deep.json", "c-seed.json", "d-rate.json",
                    "z-good.json"} <= set(rows)
            assert rows["b-deep.json"].verdict == "unreadable"
            assert rows["a-good.json"].verdict == rows["z-good.json"].verdict != "unreadable"
            await pilot.press("q")

    run(main())
