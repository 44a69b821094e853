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

from evalview.session import PairedReads
from evalview.tui.compare_screen import CompareScreen, ReadHeadline
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
        def __init__(self, paired: PairedReads | None, problem: str | None) -> None:
            super().__init__()
            self.paired = paired
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
        from evalview.errors import InputError, Refused
        from evalview.model.address import Address
        from evalview.session import pair_addresses

        try:
            paired = pair_addresses(
                Address(self.a, self.read_a), Address(self.b, self.read_b)
            )
        except (InputError, Refused) as exc:
            self.post_message(self.Done(None, str(exc)))
        else:
            self.post_message(self.Done(paired, None))

    def on_folder_compare_screen_done(self, message: Done) -> None:
        if message.paired is not None:
            paired = message.paired
            self.app.switch_screen(self.RESULT(paired.comparison, ReadHeadline.pair(paired)))
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
