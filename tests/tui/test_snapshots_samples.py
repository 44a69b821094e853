"""SVG snapshots of the Samples tab of an Inspect log (the generated os_agent task, model A):
the groups by its first metadata key and each sample's Wilson interval over its epochs.

Update with `pytest tests/tui/test_snapshots_samples.py --snapshot-update`. The log is opened by
a path relative to the repository, so the snapshots hold no machine-specific path.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import opened

from evalview.session import open_session
from evalview.tui.app import EvalViewApp
from helpers.paths import REPO

SnapCompare = Callable[..., bool]
LOG = Path("sample_runs/inspect/os-agent-model-a.eval")


async def _samples(pilot: Pilot[Any]) -> None:
    screen = await opened(pilot)
    await pilot.press(str(len(screen.tabs)))
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_samples_tab(
    snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.chdir(REPO)
    session = open_session(LOG)
    app = EvalViewApp(session.path, session=session)
    assert snap_compare(app, run_before=_samples, terminal_size=size)
