"""The screen before a run is open: progress while the worker reads it.

A path that is not a run ends the app with a message on stderr (`cli/open.py`), as a missing
path does, rather than a screen whose keys have nothing to act on.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static

from evalview.fmt import STAGES
from evalview.tui.safe import esc as escape


class LoadingScreen(Screen[None]):
    """Shown at once; the worker moves the bar through reading, auditing and scoring."""

    def __init__(self, path: Path) -> None:
        super().__init__(id="loading")
        self.path = path

    def compose(self) -> ComposeResult:
        with Middle(), Center(), Vertical(id="loading-box"):
            yield Static(f"Opening [bold]{escape(str(self.path))}[/]", id="loading-title")
            yield ProgressBar(total=len(STAGES), show_eta=False, id="loading-bar")
            yield Static("starting…", id="loading-stage")
        yield Footer()

    def set_stage(self, index: int, stage: str, done: float = 0.0) -> None:
        """Stage `index` of STAGES, `done` (0–1) of the way through it (reading reports bytes)."""
        self.query_one(ProgressBar).update(progress=index + min(max(done, 0.0), 1.0))
        within = f" {done:.0%}" if 0.0 < done < 1.0 else ""
        self.query_one("#loading-stage", Static).update(f"{stage}…{within}")
