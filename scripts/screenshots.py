"""Regenerate screenshots/*.svg (and *.png when headless Chromium is installed) of every screen.

    python scripts/screenshots.py                 # the bundled sample run
    python scripts/screenshots.py --run PATH      # another run
    python scripts/screenshots.py --only 13-compare   # one capture

The compare capture pairs the sample with its candidate read (`evalview.samples.candidate`),
generated into a temporary directory: two reads of one schedule, not committed.

Each capture is the real app (Textual's own SVG export) driven by the same keys a person would
press. The run is opened by a path relative to its parent, so no machine path ends up in a file.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from evalview.session import STAGES, open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodeFilter, EpisodesPane
from evalview.tui.loading import LoadingScreen
from evalview.tui.tabs import TABS

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "screenshots"
SIZE = (150, 44)
#: The small terminal every screen must still fit (header on two lines, key columns first).
NARROW = (80, 24)

Step = Callable[[Pilot[Any]], Awaitable[None]]


def keys(*pressed: str) -> Step:
    async def step(pilot: Pilot[Any]) -> None:
        await pilot.press(*pressed)

    return step


async def _errors_only(pilot: Pilot[Any]) -> None:
    await pilot.press(str(1 + [t.id for t in TABS].index("episodes")))
    pilot.app.screen.query_one(EpisodesPane).set_filter(EpisodeFilter(status="error"))


def _tab(tab_id: str) -> Step:
    return keys(str(1 + [t.id for t in TABS].index(tab_id)))


async def _loading(pilot: Pilot[Any]) -> None:
    """The loading screen as the worker shows it mid-way (the real one is gone in a second)."""
    app = pilot.app
    assert isinstance(app, EvalViewApp)
    screen = LoadingScreen(app.path)
    await app.push_screen(screen)
    screen.set_stage(0, STAGES[0], 0.6)  # 60 % of the run's bytes read


def shots() -> dict[str, list[Step]]:
    """Screenshot name -> the steps that reach it from the opened app."""
    plan: dict[str, list[Step]] = {"00-loading": [_loading]}
    for i, tab in enumerate(TABS, 1):
        plan[f"{i:02d}-{tab.id}"] = [keys(str(i))]
    n = len(TABS) + 1
    plan[f"{n:02d}-episodes-errors"] = [_errors_only]
    plan[f"{n + 1:02d}-record"] = [_tab("episodes"), keys("down", "down", "enter")]
    plan[f"{n + 2:02d}-help"] = [keys("question_mark")]
    plan[f"{n + 3:02d}-palette"] = [keys("ctrl+p"), keys(*"seed1003")]
    plan[f"{n + 4:02d}-export"] = [keys("e")]
    return plan


def narrow_shots() -> dict[str, list[Step]]:
    """The same app in an 80 x 24 terminal (NARROW): the screens whose layout changes."""
    return {
        "18-narrow-overview": [keys("1")],
        "19-narrow-tasks": [_tab("tasks")],
        "20-narrow-episodes-errors": [_errors_only],
        "21-narrow-record": [_tab("episodes"), keys("down", "down", "enter")],
    }


async def capture_loaded(
    app: App[Any], name: str, ready: type[Screen[Any]], steps: list[Step]
) -> Path:
    """An app that loads in its own worker (checkpoint inputs, compare), once `ready` shows."""
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            if isinstance(app.screen, ready):
                break
            await pilot.pause(0.05)
        await pilot.pause(0.3)
        for step in steps:
            await step(pilot)
            await pilot.pause(0.3)
        path = OUT / f"{name}.svg"
        app.save_screenshot(path.name, path=str(OUT))
    return path


def other_inputs() -> dict[str, tuple[Callable[[], App[Any]], type[Screen[Any]], list[Step]]]:
    """Screens that are not tabs of one run: `evalview inputs.json`, `evalview A B`
    (paths relative to the repository, so the captures hold no machine path)."""
    from evalview.session import PsrFiles
    from evalview.tui.compare_screen import CompareApp, CompareScreen
    from evalview.tui.harness_screen import HarnessScreen
    from evalview.tui.partial_credit import CheckpointInputsScreen
    from evalview.tui.read_picker import ReadPickerScreen
    from evalview.tui.run_screen import RunScreen
    from evalview.tui.runs_screen import RunsScreen

    async def all_read(pilot: Pilot[Any]) -> None:
        screen = pilot.app.screen
        for _ in range(600):
            if isinstance(screen, RunsScreen) and screen.done:
                return
            await pilot.pause(0.05)

    async def contrasted(pilot: Pilot[Any]) -> None:
        """planner-a's three replicates marked A, planner-b's B, then `x` and its result."""
        from evalview.tui.runs_contrast import ContrastScreen
        from evalview.tui.vtable import VirtualTable

        screen = pilot.app.screen
        assert isinstance(screen, RunsScreen)
        rels = [screen.entries[i].candidate.rel for i in screen.view]
        for method in "ab":
            for seed in (1, 2, 3):
                rel = f"planner-{method}/ft-seed-{seed}"
                screen.query_one(VirtualTable).move_to(rels.index(rel))
                await pilot.pause()
                await pilot.press(method.upper())
        await pilot.press("x")
        for _ in range(600):
            shown = pilot.app.screen
            if isinstance(shown, ContrastScreen) and "…" not in str(
                shown.query_one("#contrast-body").render()
            ):
                return
            await pilot.pause(0.05)

    psr = Path("sample_runs/psr")
    lerobot = Path("sample_runs/lerobot")
    return {
        "12-checkpoint-inputs": (
            lambda: EvalViewApp(
                psr / "checkpoint-inputs.json",
                psr_files=PsrFiles(psr / "bare-targets.json", psr / "catalog.json"),
            ),
            CheckpointInputsScreen,
            [],
        ),
        # The cursor on hang-mug, a task B significantly improved: its 2×2 table below.
        "13-compare": (lambda: CompareApp(*COMPARE_PAIR), CompareScreen, [keys(*["down"] * 7)]),
        # Benchmark-harness results (their own app): the single-seed file's Arms tab, and the
        # undeclared difference marked on the Controls tab.
        "14-harness-arms": (
            lambda: _harness("gpu-calc-hard-single-seed.json"), HarnessScreen, []
        ),
        "15-harness-controls": (
            lambda: _harness("gpu-calc-hard-undeclared-difference.json"),
            HarnessScreen,
            [keys("3")],
        ),
        # miniVERL's published RecoveryBench result (schema 3): the Recovery tab.
        "24-harness-recovery": (
            lambda: EvalViewApp(
                Path("tests/fixtures/miniverl/recoverybench-v1-equal-wall-time.json")
            ),
            HarnessScreen,
            [keys("5")],
        ),
        # A LeRobot eval_info.json: the Tasks tab on one group (g cycles the task groups).
        "16-lerobot-tasks": (
            lambda: EvalViewApp(lerobot / "smolvla-libero-40k.json"),
            RunScreen,
            [keys("2"), keys("g", "g", "g", "g")],
        ),
        # A file of several named reads asks which one to open.
        "17-lerobot-reads": (
            lambda: EvalViewApp(lerobot / "libero10-two-reads.json"), ReadPickerScreen, []
        ),
        # `evalview sample_runs/`: every read of the folder, the cursor on a replicate.
        "22-runs": (
            lambda: EvalViewApp(Path("sample_runs"), jobs=1),
            RunsScreen,
            [all_read, keys("down", "down", "down")],
        ),
        # `evalview sample_runs/replicates`: the two methods' replicates marked A and B, then `x`.
        "23-runs-contrast": (
            lambda: EvalViewApp(Path("sample_runs/replicates"), jobs=1),
            RunsScreen,
            [all_read, contrasted],
        ),
    }


def _harness(name: str) -> App[Any]:
    """`evalview sample_runs/harness/NAME`: the one app, which shows the Harness screen."""
    return EvalViewApp(Path("sample_runs/harness") / name)


#: The compare capture's two reads, relative to the directory `candidate_pair` fills.
COMPARE_PAIR = (Path("sample_runs/robobench-24x50"), Path("robobench-ckpt-52000"))


def candidate_pair(where: Path) -> None:
    """The sample and its candidate read (not committed) under `where`, named as COMPARE_PAIR.

    The sample is regenerated rather than linked (byte-identical to the committed copy, a test
    checks it), so both reads open by relative paths and no machine path reaches the capture.
    """
    from evalview.samples import generate_candidate_read, write_sample_runs

    write_sample_runs(where / COMPARE_PAIR[0].parent, names=(COMPARE_PAIR[0].name,))
    generate_candidate_read(where / COMPARE_PAIR[1])


async def capture(
    run: Path, name: str, steps: list[Step], size: tuple[int, int] = SIZE
) -> Path:
    session = open_session(run)
    app = EvalViewApp(run, session=session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for step in steps:
            await step(pilot)
            await pilot.pause(0.3)
        await pilot.pause(0.3)
        path = OUT / f"{name}.svg"
        app.save_screenshot(path.name, path=str(OUT))
    return path


def to_png(svg: Path, size: tuple[int, int] = SIZE) -> bool:
    """Rasterize with headless Chromium if present (Debian's `chromium` package)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return False
    width, height = size[0] * 10 + 40, size[1] * 21 + 90
    result = subprocess.run(
        [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--screenshot={svg.with_suffix('.png')}", f"--window-size={width},{height}",
            svg.resolve().as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    return result.returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, default=None)
    parser.add_argument("--no-png", action="store_true", help="write the SVGs only")
    parser.add_argument(
        "--only", action="append", metavar="NAME",
        help="capture only this screenshot (e.g. 13-compare); repeatable",
    )
    args = parser.parse_args(argv)
    wanted = set(args.only) if args.only else None
    if args.run is None:
        from evalview.samples import bundled_sample_path

        args.run = bundled_sample_path()
    run = args.run.resolve()
    OUT.mkdir(exist_ok=True)
    os.chdir(run.parent)
    for name, steps in shots().items():
        if wanted is None or name in wanted:
            report(asyncio.run(capture(Path(run.name), name, steps)), png=not args.no_png)
    for name, steps in narrow_shots().items():
        if wanted is None or name in wanted:
            svg = asyncio.run(capture(Path(run.name), name, steps, NARROW))
            report(svg, png=not args.no_png, size=NARROW)
    for name, (make, ready, steps) in other_inputs().items():
        if wanted is not None and name not in wanted:
            continue
        with tempfile.TemporaryDirectory(prefix="evalview-shots-") as tmp:
            if name == "13-compare":
                candidate_pair(Path(tmp))
                os.chdir(tmp)
            else:
                os.chdir(ROOT)
            report(asyncio.run(capture_loaded(make(), name, ready, steps)), png=not args.no_png)
            os.chdir(ROOT)  # leave the temporary directory before it is removed
    return 0


def report(svg: Path, *, png: bool, size: tuple[int, int] = SIZE) -> None:
    note = "" if not png else (" + png" if to_png(svg, size) else " (no png: chromium missing)")
    print(f"{svg.relative_to(ROOT)}{note}")


if __name__ == "__main__":
    sys.exit(main())
