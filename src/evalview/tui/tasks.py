"""Tasks: per-task counts, rate and Wilson interval (drawn on one 0–100 % scale), sortable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static

from evalview.session import Session
from evalview.stats import TaskScore
from evalview.tui.bars import interval_bar
from evalview.tui.episodes import EpisodeFilter
from evalview.tui.fmt import pct
from evalview.tui.keygate import focus_search
from evalview.tui.messages import ShowEpisodes
from evalview.tui.safe import esc as escape
from evalview.tui.safe import plain
from evalview.tui.search_field import SearchField

BAR_WIDTH = 31

#: (column key, label, sort key). The bar sorts by the interval's lower bound. The rate and
#: its interval come right after the name, so an 80-column terminal shows them; the counts follow.
COLUMNS: tuple[tuple[str, str, Callable[[TaskScore], Any]], ...] = (
    ("task", "task", lambda t: t.task),
    ("rate", "rate", lambda t: t.rate),
    ("wilson", "Wilson 95 %", lambda t: t.wilson95),
    ("successes", "successes", lambda t: t.successes),
    ("selected", "selected", lambda t: t.selected),
    ("attempted", "attempted", lambda t: t.attempted),
    ("completed", "completed", lambda t: t.completed),
    ("errors", "errors", lambda t: t.errors),
    ("bar", "0 %" + " " * (BAR_WIDTH - 8) + "100 %", lambda t: t.wilson95[0]),
)
KEYS = tuple(c[0] for c in COLUMNS)


class TasksPane(Vertical):
    """One row per task of the schedule; Enter lists that task's episodes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "sort_next", "Sort", id="tasks.sort"),
        Binding("r", "reverse", "Reverse", id="tasks.reverse"),
        Binding("g", "next_group", "Group", id="tasks.group"),
        # Priority: the field has the focus before the next key (keygate.focus_search).
        Binding("slash", "search", "Search", id="tasks.search", priority=True),
    ]

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.sort_key = "task"
        self.reverse = False
        #: The task group shown (a view the read declares, LeRobot's task_group); None: all.
        self.group: str | None = None
        self.show_bar = True
        #: Lower-case text a task name must contain to be listed ("" lists every task).
        self.needle = ""

    def compose(self) -> ComposeResult:
        yield Static(id="tasks-title", classes="pane-title")
        yield SearchField(
            placeholder="search task names…  (/)", id="tasks-search", compact=True, classes="search"
        )
        yield DataTable(id="tasks-table", cursor_type="row", zebra_stripes=True)

    #: Narrower than this, the bar column goes (the Wilson interval keeps its numbers).
    BAR_MIN_WIDTH = 110

    def on_mount(self) -> None:
        self.show_bar = self.app.size.width >= self.BAR_MIN_WIDTH
        self._columns()

    def on_resize(self) -> None:
        show_bar = self.app.size.width >= self.BAR_MIN_WIDTH
        if show_bar != self.show_bar:
            self.show_bar = show_bar
            self._columns()

    def _columns(self) -> None:
        """(Re)make the columns: the bar only where the interval's numbers fit beside it."""
        tables = self.query(DataTable)
        if not tables:  # removed while it mounted (the app quit during a watched re-read)
            return
        table = tables.first()
        table.clear(columns=True)
        for key, label, _ in COLUMNS:
            if key != "bar" or self.show_bar:
                table.add_column(label, key=key)
        self._fill()

    @property
    def order(self) -> list[str]:
        """Task names in the order shown."""
        return [str(k.value) for k in self.query_one(DataTable).rows]

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        card = self.session.scorecard
        title = self.query_one("#tasks-title", Static)
        if card is None:
            reason = escape(str(self.session.score_refusal))
            title.update(f"[yellow]No per-task scores: {reason}[/]")
            return
        arrow = "▼" if self.reverse else "▲"
        label = dict((k, lbl) for k, lbl, _ in COLUMNS)[self.sort_key].strip()
        sort = dict((k, fn) for k, _, fn in COLUMNS)[self.sort_key]
        tasks = card.tasks
        views = self.session.run.views
        if self.group is not None:
            chosen = set(views[self.group])
            tasks = tuple(t for t in card.tasks if t.task in chosen)
        shown = [t for t in tasks if self.needle in t.task.lower()]
        rows = sorted(shown, key=sort, reverse=self.reverse)
        if self.group is not None:
            mean = sum(t.rate for t in tasks) / len(tasks) if tasks else None
            head = (
                f"[bold]group {escape(self.group)}[/]: {len(rows)} of {len(card.tasks)} tasks, "
                f"mean of their rates {pct(mean) if mean is not None else '—'}"
            )
        elif self.needle:
            head = f"{len(rows)} of {len(card.tasks)} tasks"
        else:
            head = f"{len(card.tasks)} tasks"
        drawn = " drawn on one 0–100 % scale" if self.show_bar else ""
        group_hint = "g next group, " if views else ""
        title.update(
            f"{head} · rate = successes / selected, Wilson 95 %{drawn} · "
            f"sorted by {label} {arrow}  [dim](s next column or click a header, r reverse, "
            f"{group_hint}Enter lists episodes)[/]"
        )
        cursor = table.cursor_row
        table.clear()
        for t in rows:
            lo, hi = t.wilson95
            table.add_row(
                plain(t.task),
                Text(pct(t.rate), justify="right", style="bold"),
                Text(f"{pct(lo)} – {pct(hi)}", justify="right"),
                _num(t.successes),
                _num(t.selected),
                _num(t.attempted),
                _num(t.completed),
                _num(t.errors, "red" if t.errors else "dim"),
                *([interval_bar(lo, hi, t.rate, BAR_WIDTH)] if self.show_bar else []),
                key=t.task,
            )
        table.move_cursor(row=min(cursor, max(len(rows) - 1, 0)))

    def sort_by(self, key: str, *, reverse: bool | None = None) -> None:
        if reverse is None:
            reverse = not self.reverse if key == self.sort_key else False
        self.sort_key, self.reverse = key, reverse
        self._fill()

    def action_sort_next(self) -> None:
        self.sort_by(KEYS[(KEYS.index(self.sort_key) + 1) % len(KEYS)], reverse=False)

    def action_reverse(self) -> None:
        self.sort_by(self.sort_key, reverse=not self.reverse)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The group key exists only for a read that declares groups (a LeRobot file)."""
        if action == "next_group":
            return bool(self.session.run.views)
        return True

    def action_next_group(self) -> None:
        """All tasks → each group in file order → all tasks."""
        names = [None, *self.session.run.views]
        self.group = names[(names.index(self.group) + 1) % len(names)]
        self._fill()

    def action_search(self) -> None:
        focus_search(self.query_one("#tasks-search", Input))

    @on(Input.Changed, "#tasks-search")
    def _search(self, event: Input.Changed) -> None:
        event.stop()
        self.needle = event.value.strip().lower()
        self._fill()

    @on(Input.Submitted, "#tasks-search")
    def _search_done(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one(DataTable).focus()

    @on(DataTable.HeaderSelected, "#tasks-table")
    def _header(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        if event.column_key.value is not None:
            self.sort_by(event.column_key.value)

    @on(DataTable.RowSelected, "#tasks-table")
    def _open(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(ShowEpisodes(EpisodeFilter(task=event.row_key.value)))


def _num(n: int, style: str = "") -> Text:
    return Text(f"{n:,}", justify="right", style=style)
