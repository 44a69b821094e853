"""Episodes: every row of the run's episode table, filterable, each openable to its record.

Filtering is numpy masks over the `EpisodeTable` columns and the table renders only what is on
screen, so 10,000 episodes filter and scroll without a stall.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Select, Static

from evalview.model.run import COMPLETED, ERROR, ERROR_CATEGORIES, INVALID, UNATTEMPTED
from evalview.session import Session
from evalview.tui.clipboard import copy_to_clipboard
from evalview.tui.fmt import count_text
from evalview.tui.keygate import focus_search
from evalview.tui.safe import esc, plain
from evalview.tui.search_field import SearchField
from evalview.tui.vtable import Column, VirtualTable

STATUSES = (COMPLETED, ERROR, UNATTEMPTED, INVALID)
#: The scorer's key for an errored record whose category is missing or not one of the four.
UNKNOWN_CATEGORY = "unknown"
OUTCOMES = ("success", "failure", "none")

_STATUS_STYLE = {COMPLETED: "", ERROR: "bold red", UNATTEMPTED: "yellow", INVALID: "bold magenta"}

def columns(session: Session) -> tuple[Column, ...]:
    """The episode table's columns, the id and task ones as wide as the run needs (capped).

    The id, status, outcome and error come first, so an 80-column terminal shows what each
    episode did; task, seed and the rest follow (the id usually names them already).
    """
    ep = session.run.episodes

    def widest(values: Any, least: int, most: int) -> int:
        return min(max([least, *(len(str(v)) for v in values)]), most)

    rewards = tuple(Column(name.replace("_", " "), 10, "right") for name in _rewards(session))
    return (
        Column("#", 5, "right"),
        Column("episode", widest(ep.ids, 8, 40)),
        *COLUMNS[2:4],
        *rewards,
        COLUMNS[4],
        Column("task", widest(session.run.tasks, 6, 28)),
        *COLUMNS[6:],
    )


#: Per-episode reward columns a format records (LeRobot's sum_reward and max_reward), in order.
REWARD_COLUMNS = ("sum_reward", "max_reward")


def _rewards(session: Session) -> tuple[str, ...]:
    return tuple(name for name in REWARD_COLUMNS if name in session.run.columns)


def _reward(value: float) -> Text:
    return Text("—", style="dim") if value != value else Text(f"{value:.4g}")


#: `#` is the row's place in the run (schedule order; a record's file line is in its record).
COLUMNS = (
    Column("#", 5, "right"),
    Column("episode", 24),
    Column("status", 11),
    Column("outcome", 9),
    Column("error", 14),
    Column("task", 14),
    Column("seed", 6, "right"),
    Column("error type", 18),
    Column("termination", 22),
    Column("message (verifier, or the error's)"),
)


@dataclass(frozen=True, slots=True)
class EpisodeFilter:
    """What the Episodes table is narrowed to; None means any."""

    task: str | None = None
    status: str | None = None
    category: str | None = None
    outcome: str | None = None
    termination: str | None = None
    text: str = ""
    #: Exactly these episode rows (a grouped finding's episodes), named by `group`.
    rows: tuple[int, ...] | None = None
    group: str = ""

    def describe(self) -> str:
        parts = [
            f"{k}={v}"
            for k, v in (
                ("task", self.task),
                ("status", self.status),
                ("error", self.category),
                ("outcome", self.outcome),
                ("termination", self.termination),
            )
            if v is not None
        ]
        if self.rows is not None:
            parts.insert(0, self.group or f"{len(self.rows)} chosen episodes")
        if self.text:
            parts.append(f"“{self.text}”")
        return ", ".join(parts) or "all episodes"


def filter_rows(session: Session, f: EpisodeFilter, haystack: list[str]) -> npt.NDArray[np.intp]:
    """Indices of the episode rows that pass `f`, in table order."""
    ep = session.run.episodes
    mask = np.ones(len(ep), dtype=np.bool_)
    if f.task is not None:
        mask &= ep.task == f.task
    if f.status is not None:
        mask &= ep.status == f.status
    if f.category == UNKNOWN_CATEGORY:
        mask &= (ep.status == ERROR) & ~np.isin(ep.error_category, list(ERROR_CATEGORIES))
    elif f.category is not None:
        mask &= ep.error_category == f.category
    if f.termination is not None:
        mask &= ep.termination_reason == f.termination
    if f.rows is not None:
        chosen = np.zeros(len(ep), dtype=np.bool_)
        chosen[np.asarray(f.rows, dtype=np.intp)] = True
        mask &= chosen
    if f.outcome == "success":
        mask &= ep.success == 1
    elif f.outcome == "failure":
        mask &= ep.success == 0
    elif f.outcome == "none":
        mask &= ep.success < 0
    if f.text:
        needle = f.text.lower()
        idx = np.flatnonzero(mask)
        keep = np.fromiter((needle in haystack[i] for i in idx), dtype=np.bool_, count=len(idx))
        return idx[keep]
    return np.flatnonzero(mask)


def _haystack(session: Session) -> list[str]:
    ep = session.run.episodes
    cols = (ep.ids, ep.task, ep.error_type, ep.termination_reason, ep.message)
    return [
        " ".join(str(c[i]) for c in cols if c[i] is not None).lower() for i in range(len(ep))
    ]


def _ranks(values: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]:
    """Sortable ranks of a column and where it holds nothing (NaN, None or empty text)."""
    if values.dtype.kind == "f":
        missing = np.isnan(values)
        return np.where(missing, 0.0, values), missing
    text = np.array(["" if v is None else str(v) for v in values], dtype=object)
    missing = text == ""
    _, rank = np.unique(text.astype(str), return_inverse=True)
    return rank.astype(np.int64), missing


def _options(values: Any) -> list[tuple[Text, str]]:
    """Select options whose labels show the value literally (a task name is run data)."""
    return [(plain(v), str(v)) for v in values]


class EpisodesPane(Vertical):
    """Filter bar, the virtual table, and a one-line status of what is shown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: the app runs it as soon as it takes `/` from its queue, so the focus is on
        # the search field before it forwards the next key. A plain binding runs only after
        # the key has bubbled back up from the table, and the keys typed right after `/` were
        # already sent to the table (and lost). A focused Input still gets `/` as text: Textual
        # drops bindings on keys the focused widget consumes.
        Binding("slash", "search", "Search", id="episodes.search", priority=True),
        # Enter in the search field moves to the table at once (priority, same reason), so a
        # key typed right after it reaches the table, not the field.
        Binding("enter", "leave_search", show=False, priority=True, id="episodes.leave_search"),
        Binding("x", "clear_filters", "Clear filters", id="episodes.clear"),
        Binding("c", "copy", "Copy id", id="episodes.copy"),
        Binding("s", "sort_next", "Sort", id="episodes.sort"),
        # Not in the footer: at 80 columns it would push out Quit and Help; the status line
        # names it once the rows are sorted, and the help lists it.
        Binding("r", "reverse", "Reverse", show=False, id="episodes.reverse"),
    ]

    class OpenRecord(Message):
        """Ask the app to show the full record of episode row `row`."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.filter = EpisodeFilter()
        self._haystack = _haystack(session)
        self._index: npt.NDArray[np.intp] = np.arange(len(session.run.episodes), dtype=np.intp)
        self._syncing = False
        self._rewards = _rewards(session)
        self._columns = columns(session)
        #: The column the rows are sorted by (0, `#`, is the run's own order) and its direction.
        self.sort_column = 0
        self.sort_reverse = False
        self._sort_keys: dict[int, tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]] = {}

    def compose(self) -> ComposeResult:
        ep = self.session.run.episodes
        present_status = [s for s in STATUSES if np.any(ep.status == s)]
        with Horizontal(id="episode-filters", classes="filters"):
            yield Select(_options(self.session.run.tasks), prompt="task", id="f-task", compact=True)
            yield Select(_options(present_status), prompt="status", id="f-status", compact=True)
            yield Select(
                _options((*ERROR_CATEGORIES, UNKNOWN_CATEGORY)),
                prompt="error category",
                id="f-category",
                compact=True,
            )
            yield Select(_options(OUTCOMES), prompt="outcome", id="f-outcome", compact=True)
            yield SearchField(
                placeholder="search id, message, reason…  (/)", id="f-text", compact=True
            )
        yield VirtualTable(self._columns, id="episodes-table")
        yield Static(id="episodes-status", classes="status-line")

    def on_mount(self) -> None:
        if not self.children:  # mounted as its screen or the app closed: never composed
            return
        self._refresh_rows()

    # -- filtering ---------------------------------------------------------------------------

    def set_filter(self, f: EpisodeFilter) -> None:
        """Show the rows that pass `f` and make the controls say so."""
        self.filter = f
        self._syncing = True
        try:
            for wid, value in (
                ("#f-task", f.task),
                ("#f-status", f.status),
                ("#f-category", f.category),
                ("#f-outcome", f.outcome),
            ):
                select: Select[str] = self.query_one(wid, Select)
                select.value = Select.NULL if value is None else value
            self.query_one("#f-text", Input).value = f.text
        finally:
            self._syncing = False
        self._refresh_rows()

    def _refresh_rows(self) -> None:
        self._index = self._sorted(filter_rows(self.session, self.filter, self._haystack))
        table = self.query_one(VirtualTable)
        table.set_rows(len(self._index), self._render_row)
        sorted_by = self.sort_column != 0 or self.sort_reverse
        table.show_sorted(self.sort_column if sorted_by else None, self.sort_reverse)
        total = len(self.session.run.episodes)
        shown = len(self._index)
        label = self._columns[self.sort_column].label.split(" (")[0]
        order = f" · sorted by {label} {'▼' if self.sort_reverse else '▲'}" if sorted_by else ""
        hints = [h for h, on in (("x clears filters", self.filter != EpisodeFilter()),
                                 ("r reverses", sorted_by)) if on]
        self.query_one("#episodes-status", Static).update(
            f"{count_text(shown, 'episode')} of {total:,} · {esc(self.filter.describe())}"
            + esc(order)
            + (f"   [dim]({', '.join(hints)})[/]" if hints else "")
        )

    # -- sorting -----------------------------------------------------------------------------

    def sort_by(self, column: int, *, reverse: bool | None = None) -> None:
        """Sort the listed rows by `column` (a click on its header again reverses it)."""
        if reverse is None:
            reverse = not self.sort_reverse if column == self.sort_column else False
        self.sort_column, self.sort_reverse = column, reverse
        self._refresh_rows()

    def action_sort_next(self) -> None:
        self.sort_by((self.sort_column + 1) % len(self._columns), reverse=False)

    def action_reverse(self) -> None:
        self.sort_by(self.sort_column, reverse=not self.sort_reverse)

    @on(VirtualTable.HeaderClicked, "#episodes-table")
    def _header_clicked(self, event: VirtualTable.HeaderClicked) -> None:
        event.stop()
        self.sort_by(event.column)

    def _sorted(self, index: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """`index` (rows in run order) in the chosen order: rows with nothing in the column
        last in either direction, ties in run order."""
        if self.sort_column == 0:
            return index[::-1].copy() if self.sort_reverse else index
        rank, missing = self._sort_key(self.sort_column)
        key = -rank[index] if self.sort_reverse else rank[index]
        return index[np.lexsort((index, key, missing[index]))]

    def _sort_key(self, column: int) -> tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]:
        """(rank, missing) over every episode row for `column`, computed once per column."""
        if column not in self._sort_keys:
            self._sort_keys[column] = _ranks(self._column_values(column))
        return self._sort_keys[column]

    def _column_values(self, column: int) -> npt.NDArray[Any]:
        """What column `column` shows, for every episode row (numbers as numbers)."""
        ep = self.session.run.episodes
        label = self._columns[column].label
        rewards = {name.replace("_", " "): name for name in self._rewards}
        if label in rewards:
            return np.asarray(self.session.run.columns[rewards[label]], dtype=np.float64)
        match label:
            case "episode":
                return ep.ids
            case "status":
                return ep.status
            case "outcome":  # success first when ascending; no outcome counts as missing
                return np.where(ep.success < 0, np.nan, 1.0 - ep.success)
            case "error":
                return ep.error_category
            case "task":
                return ep.task
            case "seed":
                return np.where(ep.seed < 0, np.nan, ep.seed.astype(np.float64))
            case "error type":
                return ep.error_type
            case "termination":
                return ep.termination_reason
        # the message column: the text shown (an errored row shows its error's message)
        shown = [
            self._message(r, str(ep.status[r])).plain for r in range(len(ep))
        ]
        out = np.empty(len(shown), dtype=object)
        out[:] = shown
        return out

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        if self._syncing or event.select.id is None:
            return
        value = None if event.value is Select.NULL else str(event.value)
        f = self.filter
        match event.select.id:
            case "f-task":
                f = replace(f, task=value)
            case "f-status":
                f = replace(f, status=value)
            case "f-category":
                f = replace(f, category=value)
            case "f-outcome":
                f = replace(f, outcome=value)
        self.filter = f
        self._refresh_rows()

    @on(Input.Changed, "#f-text")
    def _text_changed(self, event: Input.Changed) -> None:
        if self._syncing:
            return
        self.filter = replace(self.filter, text=event.value.strip())
        self._refresh_rows()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_search":  # only in the search field; elsewhere Enter is the table's
            focused = self.screen.focused
            return focused is not None and focused.id == "f-text"
        return True

    def action_leave_search(self) -> None:
        self.screen.set_focus(self.query_one(VirtualTable))

    def action_search(self) -> None:
        focus_search(self.query_one("#f-text", Input))

    def action_clear_filters(self) -> None:
        self.set_filter(EpisodeFilter())

    def action_copy(self) -> None:
        """Copy the highlighted episode's id (to paste into a report or a re-run list)."""
        table = self.query_one(VirtualTable)
        if len(self._index):
            row = int(self._index[table.cursor_row])
            copy_to_clipboard(self.app, str(self.session.run.episodes.ids[row]), "episode id")

    # -- rows --------------------------------------------------------------------------------

    @property
    def shown_rows(self) -> npt.NDArray[np.intp]:
        """Episode-table row indices currently listed, in order."""
        return self._index

    def focus_row(self, row: int) -> bool:
        """Move the cursor to episode-table row `row` if it is listed."""
        where = np.flatnonzero(self._index == row)
        if not len(where):
            return False
        table = self.query_one(VirtualTable)
        table.move_to(int(where[0]))
        table.focus()
        return True

    def _render_row(self, i: int) -> list[str | Text]:
        ep = self.session.run.episodes
        r = int(self._index[i])
        status = str(ep.status[r])
        success = int(ep.success[r])
        outcome = (
            Text("✓ success", style="green")
            if success == 1
            else Text("· failure")
            if success == 0
            else Text("—", style="dim")
        )
        in_schedule = bool(ep.in_schedule[r])
        number = Text(str(r + 1)) if in_schedule else Text("stray", style="bold magenta")
        seed = int(ep.seed[r])
        rewards = [_reward(float(self.session.run.columns[c][r])) for c in self._rewards]
        return [
            number,
            str(ep.ids[r]),
            Text(status, style=_STATUS_STYLE.get(status, "")),
            outcome,
            *rewards,
            Text(str(ep.error_category[r] or ""), style="red"),
            str(ep.task[r]),
            "" if seed < 0 else str(seed),
            Text(str(ep.error_type[r] or ""), style="red"),
            str(ep.termination_reason[r] or ""),
            self._message(r, status),
        ]

    def _message(self, r: int, status: str) -> Text:
        """The verifier message; for an errored episode, its error message (from the record,
        read only for the rows on screen)."""
        ep = self.session.run.episodes
        if status == ERROR:
            error_message = self._error_message(r)
            if error_message:
                return Text(error_message, style="red")
        return Text(str(ep.message[r] or ""), style="dim")

    def _error_message(self, r: int) -> str | None:
        index = int(self.session.run.episodes.record_index[r])
        if index < 0:
            return None
        data = self.session.run.records[index].data
        error = data.get("error") if isinstance(data, dict) else None
        message = error.get("message") if isinstance(error, dict) else None
        return message if isinstance(message, str) else None

    @on(VirtualTable.Selected, "#episodes-table")
    def _open(self, event: VirtualTable.Selected) -> None:
        event.stop()
        self.post_message(self.OpenRecord(int(self._index[event.index])))
