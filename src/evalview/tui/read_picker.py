"""Which read to open, when a file holds several named reads (a LeRobot `eval_info.json` kept as
`{"eval_results_400": {...}, "eval_results_800": {...}}`). Keyboard first: arrows and Enter."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from evalview.tui.safe import esc as escape
from evalview.tui.safe import plain


class ReadPickerScreen(Screen[str]):
    """Lists the reads of one file; dismisses with the chosen read's key."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "leave", "Quit", id="reads.quit"),
        Binding("space", "mark", "Mark A/B", id="reads.mark"),
        Binding("c", "compare", "Compare A, B", id="reads.compare"),
    ]
    #: The list has the focus when the screen shows. Not a query in `on_mount`: the app leaving
    #: just as the picker is pushed mounts it with no children, and the query raised NoMatches.
    AUTO_FOCUS = "#read-picker-list"

    def __init__(self, path: Path, names: list[str], summaries: dict[str, str]) -> None:
        super().__init__(id="read-picker")
        self.path = path
        self.names = names
        self.summaries = summaries
        #: The reads marked for a comparison, A first (at most two; a third mark drops A).
        self.marked: list[str] = []

    def compose(self) -> ComposeResult:
        with Middle(), Center(), Vertical(id="read-picker-box"):
            yield Static(
                f"[bold]{escape(self.path.name)}[/] holds {len(self.names)} named reads: "
                "choose one to open (↑ ↓, Enter).",
                id="read-picker-title",
            )
            yield OptionList(
                *(Option(self._prompt(name), id=name) for name in self.names),
                id="read-picker-list",
            )
            yield Static(
                "[dim]To compare two of them: space marks A, then B; c compares "
                "(evalview compare FILE FILE --read-a KEY --read-b KEY for a script).[/]"
            )
        yield Footer()

    @on(OptionList.OptionSelected, "#read-picker-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.dismiss(event.option.id)

    def action_leave(self) -> None:
        self.app.exit(0)

    def _prompt(self, name: str) -> Text:
        role = "AB"[self.marked.index(name)] if name in self.marked else " "
        line = plain(f"{name}  ·  {self.summaries.get(name, '')}")
        return Text.assemble((f"{role} ", "bold"), line)

    def action_mark(self) -> None:
        """Mark the highlighted read as A, then B; again on a marked read unmarks it."""
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        name = self.names[options.highlighted]
        if name in self.marked:
            self.marked.remove(name)
        else:
            self.marked = [*self.marked, name][-2:]
        for other in self.names:
            options.replace_option_prompt(other, self._prompt(other))

    def action_compare(self) -> None:
        if len(self.marked) != 2:
            self.notify("Mark two reads with space first (A, then B).", severity="warning")
            return
        from evalview.tui.runs_compare import ReadsCompareScreen

        a, b = self.marked
        self.app.push_screen(ReadsCompareScreen(self.path, self.path, read_a=a, read_b=b))
