"""Errors: error category × task counts and termination reasons; a cell lists its episodes."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from evalview.model.run import ERROR
from evalview.session import Session
from evalview.tui.episodes import EpisodeFilter
from evalview.tui.messages import ShowEpisodes
from evalview.tui.safe import esc as escape
from evalview.tui.safe import plain

TOTAL = "total"
#: The scorer's key for an attempted record with no termination reason.
NO_REASON = "(none)"


class ErrorsPane(Vertical):
    """Two tables over the selected cases, both from the scorecard: where errors fall, how
    episodes ended."""

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session

    def compose(self) -> ComposeResult:
        card = self.session.scorecard
        if card is None:
            reason = escape(str(self.session.score_refusal))
            yield Static(f"[yellow]No counts: {reason}[/]", classes="pane-title")
            return
        pending = card.pending
        yield Static(
            "Errors by category and task over the selected cases"
            + (f"  [yellow]{pending} infrastructure error(s) pending a re-run[/]" * bool(pending))
            + "  [dim](Enter on a cell lists its episodes)[/]",
            classes="pane-title",
        )
        with Horizontal(id="errors-split"):
            with Vertical(id="errors-left"):
                yield DataTable(id="errors-matrix", cursor_type="cell", zebra_stripes=True)
            with Vertical(id="errors-right"):
                yield Static("Termination reasons (attempted cases)", classes="pane-title")
                yield DataTable(id="termination-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        card = self.session.scorecard
        if card is None:
            return
        tables = self.query("#errors-matrix").results(DataTable)
        matrix = next(tables, None)
        if matrix is None:
            # The screen was replaced (a --watch re-read) while this pane was being mounted:
            # its children were never composed and nothing is left to fill.
            return
        categories = list(card.error_categories)
        matrix.add_column("task", key="task")
        for cat in categories:
            matrix.add_column(plain(cat), key=cat)
        matrix.add_column(TOTAL, key=TOTAL)
        for t in card.tasks:
            matrix.add_row(
                plain(t.task),
                *(_count(t.error_categories.get(c, 0)) for c in categories),
                _count(t.errors),
                key=t.task,
            )
        matrix.add_row(
            Text("all tasks", style="bold"),
            *(_count(card.error_categories[c], bold=True) for c in categories),
            _count(card.denominators.errors, bold=True),
            key=TOTAL,
        )
        term = self.query_one("#termination-table", DataTable)
        term.add_column("reason", key="reason")
        term.add_column("episodes", key="n")
        for reason, n in card.termination_reasons.items():
            term.add_row(plain(reason), Text(f"{n:,}", justify="right"), key=reason)

    @on(DataTable.CellSelected, "#errors-matrix")
    def _cell(self, event: DataTable.CellSelected) -> None:
        event.stop()
        row = event.cell_key.row_key.value
        col = event.cell_key.column_key.value
        task = None if row == TOTAL else row
        category = None if col in ("task", TOTAL) else col
        self.post_message(ShowEpisodes(EpisodeFilter(task=task, status=ERROR, category=category)))

    @on(DataTable.RowSelected, "#termination-table")
    def _reason(self, event: DataTable.RowSelected) -> None:
        event.stop()
        reason = event.row_key.value
        if reason is None or reason == NO_REASON:
            return
        self.post_message(ShowEpisodes(EpisodeFilter(termination=reason)))


def _count(n: int, *, bold: bool = False) -> Text:
    style = ("bold " if bold else "") + ("red" if n else "dim")
    return Text(f"{n:,}" if n else "·", style=style, justify="right")
