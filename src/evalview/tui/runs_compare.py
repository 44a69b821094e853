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
from evalview.model.run import Run
from evalview.tui.compare_screen import CompareScreen
from evalview.tui.safe import esc as escape


class RunsCompare(CompareScreen):
    """The compare screen, with Escape back to the Runs screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace", "app.pop_screen", "Back to runs", id="runs-compare.back"),
    ]


class ReadsCompare(CompareScreen):
    """The compare screen, with Escape back to the list of a file's named reads."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace", "app.pop_screen", "Back to reads", id="reads-compare.back"),
    ]


class FolderCompareScreen(Screen[None]):
    """`Pairing A with B…`, then the comparison (or why the two cannot be compared).

    `read_a` / `read_b` name a read of a file of several named reads (LeRobot), as
    `evalview compare --read-a/--read-b` does; the labels then say which (`FILE [KEY]`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back to runs", id="folder-compare.back"),
    ]
    #: What the comparison is shown in (its Escape goes back to where this screen came from).
    RESULT: ClassVar[type[CompareScreen]] = RunsCompare
    BACK_TO = "the runs"

    class Done(Message):
        def __init__(self, comparison: Comparison | None, problem: str | None) -> None:
            super().__init__()
            self.comparison = comparison
            self.problem = problem

    def __init__(
        self, a: Path, b: Path, *, read_a: str | None = None, read_b: str | None = None
    ) -> None:
        super().__init__(id="folder-compare")
        self.a, self.b = a, b
        self.read_a, self.read_b = read_a, read_b
        self.label_a = str(a) if read_a is None else f"{a} [{read_a}]"
        self.label_b = str(b) if read_b is None else f"{b} [{read_b}]"

    def compose(self) -> ComposeResult:
        yield Static(
            f"Pairing {escape(self.label_a)} with {escape(self.label_b)}…", id="pairing"
        )
        yield Footer()

    def on_mount(self) -> None:
        self._work()

    @work(thread=True, exclusive=True, group="folder-compare")
    def _work(self) -> None:
        from evalview.compare.paired import compare_runs
        from evalview.compare.reads import Refused
        from evalview.load import InputError, load_run, read_input, select_run

        def load(path: Path, name: str | None) -> Run:
            return load_run(path) if name is None else select_run(read_input(path), name)

        try:
            result = compare_runs(
                load(self.a, self.read_a),
                load(self.b, self.read_b),
                label_a=self.label_a,
                label_b=self.label_b,
            )
        except (InputError, Refused) as exc:
            self.post_message(self.Done(None, str(exc)))
        else:
            self.post_message(self.Done(result, None))

    def on_folder_compare_screen_done(self, message: Done) -> None:
        if message.comparison is not None:
            self.app.switch_screen(self.RESULT(message.comparison))
        else:
            self.query_one("#pairing", Static).update(
                "[bold red]✗ These two reads cannot be compared[/]\n\n"
                f"{escape(message.problem or '')}\n\n[dim]Escape goes back to {self.BACK_TO}.[/]"
            )


class ReadsCompareScreen(FolderCompareScreen):
    """Two named reads of one file, marked in the read picker; Escape goes back to it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back to reads", id="reads-pairing.back"),
    ]
    RESULT = ReadsCompare
    BACK_TO = "the reads"
