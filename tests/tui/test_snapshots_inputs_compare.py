"""SVG snapshots of the screens that are not tabs of one run: the compare screen on two reads of
one schedule (robobench-24x50 and its generated candidate read) and the checkpoint-inputs screen.

Update with `pytest tests/tui/test_snapshots_inputs_compare.py --snapshot-update`. Every path is
opened relative to a fixed working directory, so the snapshots hold no machine-specific path.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import showing, wait_for

from evalview.samples import generate_candidate_read, write_sample_runs
from evalview.session import PsrFiles
from evalview.tui.app import EvalViewApp
from evalview.tui.compare_screen import CompareApp, CompareScreen
from evalview.tui.partial_credit import CheckpointInputsScreen
from helpers.paths import REPO

SIZE = (140, 44)
SnapCompare = Callable[..., bool]
A = Path("sample_runs/robobench-24x50")
B = Path("robobench-ckpt-52000")


@pytest.fixture(scope="module")
def pair_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample (regenerated, byte-identical to the committed one) and its candidate read."""
    root = tmp_path_factory.mktemp("pair")
    write_sample_runs(root / A.parent, names=(A.name,))
    generate_candidate_read(root / B)
    return root


def _ready(screen: type[Any], *keys: str) -> Callable[[Pilot[Any]], Any]:
    """Wait for the worker to show `screen`, then press `keys`."""

    async def before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: showing(pilot.app, screen))
        await pilot.pause()
        if keys:
            await pilot.press(*keys)
        await pilot.pause()

    return before


def test_compare_on_two_reads_of_one_schedule(
    snap_compare: SnapCompare, pair_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(pair_dir)
    app = CompareApp(A, B)
    # The cursor on flip-pancake (row 22), a task the candidate significantly regressed.
    before = _ready(CompareScreen, *["down"] * 22)
    assert snap_compare(app, run_before=before, terminal_size=SIZE)


def test_checkpoint_inputs(snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    psr = Path("sample_runs/psr")
    app = EvalViewApp(
        psr / "checkpoint-inputs.json",
        psr_files=PsrFiles(psr / "bare-targets.json", psr / "catalog.json"),
    )
    assert snap_compare(app, run_before=_ready(CheckpointInputsScreen), terminal_size=SIZE)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_compare_at_both_sizes(
    snap_compare: SnapCompare,
    pair_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    size: tuple[int, int],
) -> None:
    monkeypatch.chdir(pair_dir)
    assert snap_compare(CompareApp(A, B), run_before=_ready(CompareScreen), terminal_size=size)
