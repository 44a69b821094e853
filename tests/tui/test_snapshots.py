"""SVG snapshots of the main screens on the example run (update: pytest --snapshot-update).

The example is opened by a relative path from its parent directory, so the snapshots hold no
machine-specific absolute path.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from evalview.session import open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.episodes import EpisodeFilter, EpisodesPane
from helpers.paths import EXAMPLE

SIZE = (130, 36)
SnapCompare = Callable[..., bool]


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> EvalViewApp:
    monkeypatch.chdir(EXAMPLE.parent)
    session = open_session(type(EXAMPLE)(EXAMPLE.name))
    assert not os.path.isabs(session.path)
    return EvalViewApp(session.path, session=session)


def test_overview(snap_compare: SnapCompare, app: EvalViewApp) -> None:
    assert snap_compare(app, terminal_size=SIZE)


def test_tasks(snap_compare: SnapCompare, app: EvalViewApp) -> None:
    assert snap_compare(app, press=["2"], terminal_size=SIZE)


def test_episodes_filtered_to_errors(snap_compare: SnapCompare, app: EvalViewApp) -> None:
    async def narrow(pilot: Pilot[Any]) -> None:
        await pilot.press("3")
        pilot.app.screen.query_one(EpisodesPane).set_filter(EpisodeFilter(status="error"))
        await pilot.pause()

    assert snap_compare(app, run_before=narrow, terminal_size=SIZE)


def test_findings(snap_compare: SnapCompare, app: EvalViewApp) -> None:
    assert snap_compare(app, press=["5"], terminal_size=SIZE)


def test_record(snap_compare: SnapCompare, app: EvalViewApp) -> None:
    assert snap_compare(app, press=["3", "down", "enter"], terminal_size=SIZE)


#: The narrow terminal every screen must fit (issue 16) and a roomy one.
SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(
    "keys",
    [["1"], ["2"], ["3"], ["5"], ["3", "down", "enter"]],
    ids=["overview", "tasks", "episodes", "findings", "record"],
)
def test_at_both_sizes(
    snap_compare: SnapCompare, app: EvalViewApp, keys: list[str], size: str
) -> None:
    assert snap_compare(app, press=keys, terminal_size=SIZES[size])
