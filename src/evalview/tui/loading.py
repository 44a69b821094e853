"""The screen before a run is open: progress while the worker reads it.

A path given on the command line that is not a run ends the app with a message on stderr
(`cli/open.py`), as a missing path does. A read opened from the Runs screen that cannot be read
shows `UnreadableScreen`, whose Escape goes back to the Runs screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
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
        # One line of fixed size (evalview.tcss): no layout pass, only a repaint of the line.
        self.query_one("#loading-stage", Static).update(f"{stage}…{within}", layout=False)


class UnreadableScreen(Screen[None]):
    """The path could not be read as a run at all: say why and what to do, never a traceback."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "leave", "Quit", id="unreadable.quit")
    ]

    def __init__(
        self,
        path: Path,
        message: str,
        *,
        exit_code: int = 2,
        title: str = "This run could not be opened",
        hint: str | None = None,
    ) -> None:
        super().__init__(id="unreadable")
        if hint is None:  # what evalview reads, from the reader registry's declarations
            from evalview.load.registry import formats_sentence

            hint = formats_sentence() + " `evalview check PATH` prints the same message."
        self.path = path
        self.message = message
        self.exit_code = exit_code
        self.title_text = title
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Middle(), Center(), Vertical(id="unreadable-box"):
            yield Static(f"[bold red]✗ {escape(self.title_text)}[/]", id="unreadable-title")
            yield Static(escape(self.message), id="unreadable-message")
            yield Static(f"[dim]{escape(self.hint)}[/]")
        yield Footer()

    def action_leave(self) -> None:
        """Quit with the CLI's exit code (2 unreadable, 1 refused); opened from the Runs
        screen, go back to it instead."""
        back = getattr(self.app, "action_back_to_runs", None)
        stack = self.app.screen_stack
        if back is not None and any(type(s).__name__ == "RunsScreen" for s in stack):
            back()
            return
        self.app.exit(self.exit_code)
