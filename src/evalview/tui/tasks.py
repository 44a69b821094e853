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
from evalview.tui.fmt import pct, pct_range
from evalview.tui.keygate import focus_search
from evalview.tui.messages import ShowEpisodes
from evalview.tui.safe import clean, plain
from evalview.tui.safe import esc as escape
from evalview.tui.search_field import SearchField
from evalview.tui.vtable import middle_cut

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
    ("bar", "0 %" + " " * (BAR_WIDTH - 8) + "100 %", lambda t: t.wilson95[0]),  # wide label
)
KEYS = tuple(c[0] for c in COLUMNS)

#: Below BAR_MIN_WIDTH columns: successes over selected in one column, attempted left out (it is
#: completed + errors), short labels, the Wilson interval without its % signs, and the bar in
#: whatever room is left (when at least NARROW_BAR_MIN cells), so 80 columns need no sideways
#: scroll. The title spells the short labels out.
NARROW_LABELS = {
    "task": "task", "rate": "rate", "wilson": "Wilson 95 %", "successes": "succ / sel",
    "completed": "compl.", "errors": "err.",
}
NARROW_BAR_MIN = 10
#: Cells a DataTable column takes beyond its content (its padding on each side).
_PAD = 2
#: The vertical scrollbar.
_CHROME = 2


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
        #: The 80-column layout (NARROW_LABELS); below BAR_MIN_WIDTH columns.
        self.narrow = False
        #: Cells of the bar and of the task name column in the narrow layout (0: no bar).
        self.bar_width = BAR_WIDTH
        self.task_width = 0
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
        if not self.children:  # mounted as its screen or the app closed: never composed
            return
        self._layout(self.app.size.width)
        self._columns()

    def on_resize(self) -> None:
        if self._layout(self.app.size.width):
            self._columns()

    def _layout(self, width: int) -> bool:
        """Choose the wide or the narrow layout for a terminal `width` cells wide; True when the
        columns must be remade."""
        before = (self.narrow, self.show_bar, self.bar_width, self.task_width)
        self.narrow = width < self.BAR_MIN_WIDTH
        if not self.narrow:
            self.show_bar, self.bar_width, self.task_width = True, BAR_WIDTH, 0
        else:
            card = self.session.scorecard
            tasks = card.tasks if card is not None else ()
            fixed = sum(w + _PAD for w in _narrow_widths(tasks).values())
            longest = max((len(t.task) for t in tasks), default=4)
            room = width - _CHROME - fixed - _PAD
            # The bar gets what the names leave, when it can be drawn; the names never go
            # below 12 cells (cut in the middle, the full name is in the Episodes title).
            self.task_width = max(12, min(longest, room - NARROW_BAR_MIN - _PAD))
            bar = room - self.task_width - _PAD
            self.show_bar = bar >= NARROW_BAR_MIN
            self.bar_width = bar if self.show_bar else 0
        return before != (self.narrow, self.show_bar, self.bar_width, self.task_width)

    def _columns(self) -> None:
        """(Re)make the columns: the bar only where the interval's numbers fit beside it."""
        tables = self.query(DataTable)
        if not tables:  # removed while it mounted (the app quit during a watched re-read)
            return
        table = tables.first()
        table.clear(columns=True)
        for key, label, _ in COLUMNS:
            if key == "bar":
                if self.show_bar:
                    table.add_column(_bar_label(self.bar_width), key=key)
            elif not self.narrow:
                table.add_column(label, key=key)
            elif key in NARROW_LABELS:
                table.add_column(NARROW_LABELS[key], key=key)
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
        if self.narrow:
            drawn = " · succ / sel, compl., err.: successes / selected, completed, errors"
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
            if self.narrow:
                table.add_row(*self._narrow_cells(t), key=t.task)
                continue
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

    def _narrow_cells(self, t: TaskScore) -> list[Text]:
        lo, hi = t.wilson95
        return [
            plain(middle_cut(clean(t.task), self.task_width)),
            Text(pct(t.rate), justify="right", style="bold"),
            Text(_interval(lo, hi), justify="right"),
            Text(f"{t.successes:,} / {t.selected:,}", justify="right"),
            _num(t.completed),
            _num(t.errors, "red" if t.errors else "dim"),
            *([interval_bar(lo, hi, t.rate, self.bar_width)] if self.show_bar else []),
        ]

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


def _interval(lo: float, hi: float) -> str:
    """`42.3–68.8`: the interval in percent without its signs (the column says Wilson 95 %)."""
    return pct_range(lo, hi, unit="")


def _narrow_widths(tasks: tuple[TaskScore, ...]) -> dict[str, int]:
    """The content width of each narrow column but the task name and the bar."""
    def widest(label: str, values: list[str]) -> int:
        return max([len(label), *(len(v) for v in values)])

    return {
        "rate": widest("rate", [pct(t.rate) for t in tasks]),
        "wilson": widest(NARROW_LABELS["wilson"], [_interval(*t.wilson95) for t in tasks]),
        "fraction": widest(
            NARROW_LABELS["successes"], [f"{t.successes:,} / {t.selected:,}" for t in tasks]
        ),
        "completed": widest(NARROW_LABELS["completed"], [f"{t.completed:,}" for t in tasks]),
        "errors": widest(NARROW_LABELS["errors"], [f"{t.errors:,}" for t in tasks]),
    }


def _bar_label(width: int) -> str:
    """`0 %` and `100 %` at the bar's ends (`0` and `100` when the bar is short)."""
    if width >= 12:
        return "0 %" + " " * (width - 8) + "100 %"
    return "0" + " " * max(width - 4, 1) + "100"
