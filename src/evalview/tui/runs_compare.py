"""Comparing two reads marked on the Runs screen: pair them in a worker, then the compare screen.

Escape (or q on the message) goes back to the Runs screen; nothing here ends the app.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

from evalview.compare.paired import Comparison
from evalview.tui.compare_screen import CompareScreen
from evalview.tui.safe import esc as escape


class RunsCompare(CompareScreen):
    """The compare screen, with Escape back to the Runs screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace", "app.pop_screen", "Back to runs", id="runs-compare.back"),
    ]


class FolderCompareScreen(Screen[None]):
    """`Pairing A with B…`, then the comparison (or why the two cannot be compared)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back to runs", id="folder-compare.back"),
    ]

    class Done(Message):
        def __init__(self, comparison: Comparison | None, problem: str | None) -> None:
            super().__init__()
            self.comparison = comparison
            self.problem = problem

    def __init__(self, a: Path, b: Path) -> None:
        super().__init__(id="folder-compare")
        self.a, self.b = a, b

    def compose(self) -> ComposeResult:
        yield Static(f"Pairing {escape(str(self.a))} with {escape(str(self.b))}…", id="pairing")
        yield Footer()

    def on_mount(self) -> None:
        self._work()

    @work(thread=True, exclusive=True, group="folder-compare")
    def _work(self) -> None:
        from evalview.compare.paired import compare_runs
        from evalview.compare.reads import Refused
        from evalview.load import InputError, load_run

        try:
            result = compare_runs(
                load_run(self.a), load_run(self.b), label_a=str(self.a), label_b=str(self.b)
            )
        except (InputError, Refused) as exc:
            self.post_message(self.Done(None, str(exc)))
        else:
            self.post_message(self.Done(result, None))

    def on_folder_compare_screen_done(self, message: Done) -> None:
        if message.comparison is not None:
            self.app.switch_screen(RunsCompare(message.comparison))
        else:
            self.query_one("#pairing", Static).update(
                "[bold red]✗ These two reads cannot be compared[/]\n\n"
                f"{escape(message.problem or '')}\n\n[dim]Escape goes back to the runs.[/]"
            )
