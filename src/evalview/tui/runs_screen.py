"""`evalview DIR`: the Runs screen, one row per read under a folder.

Reads are found by `evalview.folder.discover` and read, audited and scored by worker processes
(`evalview.folder.parallel`, as `evalview check DIR`); rows fill in as each read arrives, under a
progress bar. Enter opens a read in the usual run screen and Escape comes back here, to the same
row; space marks up to two reads and `c` compares them; `A`, `B` and `C` mark replicate reads A, B
and BC and `x` contrasts them (`evalview.tui.runs_contrast`). The numbers are `score_run`'s
(without the seed bootstrap, which `evalview table` adds).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, ProgressBar, Static
from textual.worker import get_current_worker

from evalview.fmt import pct, points, ratio
from evalview.folder.discover import Candidate, Discovery
from evalview.folder.reads import ReadRow, ScoreOptions, row_of_item
from evalview.folder.watch import changed_under
from evalview.tui.keygate import focus_search
from evalview.tui.safe import clean
from evalview.tui.safe import esc as escape
from evalview.tui.vtable import Cell, Column, VirtualTable

#: The sort keys `s` cycles through (label, key of a RunsRow).
SORTS = ("scan order", "verdict", "read", "mean", "successes")
#: The sort a click on a column's header chooses (columns without one say what can be sorted).
HEADER_SORTS = {
    "": "scan order", "set": "scan order", "verdict": "verdict", "read": "read",
    "succ / sel": "successes", "all-T % ± SE": "mean",
}
#: The contrast sides `A`, `B` and `C` mark, in the order of `evalview contrast --a --b --bc`.
ROLES = ("A", "B", "BC")
#: The verdict filters `v` cycles through.
VERDICTS = ("all", "errors", "warnings", "clean", "unreadable")
_STRIP = " ▁▂▃▄▅▆▇█"
#: Seconds between looks at the folder's files, and how long they must be still before re-reading.
WATCH_INTERVAL = 1.0
#: Seconds between re-sorts of the table while rows arrive (and one when the last arrives).
REFILTER_S = 0.2
WATCH_SETTLE = 0.5


@dataclass
class RunsRow:
    """One entry of the folder: its scan position, where it is, and its row once read."""

    index: int
    candidate: Candidate
    row: ReadRow | None = None
    #: (scan position, row within the file): a file's named reads or a harness result's arms
    #: are appended to `entries` as they arrive, yet sort together, in file order, after it
    scan: tuple[int, int] = (-1, 0)

    def __post_init__(self) -> None:
        if self.scan == (-1, 0):
            self.scan = (self.index, 0)

    @property
    def verdict(self) -> str:
        """pending / unreadable / errors / warnings / clean."""
        r = self.row
        if r is None:
            return "pending"
        if r.status == "unreadable":
            return "unreadable"
        if r.counts["error"]:
            return "errors"
        return "warnings" if r.counts["warning"] else "clean"


def verdict_text(entry: RunsRow) -> Text:
    r, v = entry.row, entry.verdict
    if r is None:
        return Text("… reading", style="dim")
    if v == "unreadable":
        return Text("✗ unreadable", style="bold red")
    e, w = r.counts["error"], r.counts["warning"]
    if v == "errors":
        return Text(f"✗ {e} err {w} warn", style="bold red")
    if v == "warnings":
        return Text(f"⚠ {w} warn", style="bold yellow")
    return Text("✓ clean", style="bold green")


def strip_text(row: ReadRow | None, width: int) -> Text:
    """The per-task rates as one block character each (empty bar 0 %, full bar 100 %)."""
    if row is None or not row.tasks:
        return Text("")
    chars = "".join(_STRIP[round(t.rate * (len(_STRIP) - 1))] for t in row.tasks[:width])
    more = "…" if len(row.tasks) > width else ""
    return Text(chars + more, style="cyan")


def mean_text(row: ReadRow | None) -> Text:
    if row is None:
        return Text("")
    if row.status == "unreadable":
        return Text(clean(row.reason or ""), style="red")
    if row.refusals:
        return Text("refused", style="yellow")
    if row.mean is None:
        return Text("—", style="dim")
    if row.se is None:  # a harness arm: its mean over seeds (min–max is in its labels)
        return Text(f"{pct(row.mean, unit=''):>5} (arm)")
    return Text(f"{pct(row.mean, unit=''):>5} ± {points(row.se, sign=False, unit='')}")


#: What a reviewer scans first comes first (a narrow terminal scrolls the rest sideways).
COLUMNS = (
    Column("", 2),
    Column("set", 3),
    Column("verdict", 15),
    Column("read", 0, cut="path"),
    Column("succ / sel", 11, "right"),
    Column("all-T % ± SE", 13, "right"),
    Column("per task", 20),
    Column("policy", 12),
    Column("checkpoint", 15),
    Column("ft", 3, "right"),
    Column("benchmark", 15),
)


#: The last column an 80-column terminal shows without scrolling (the read's name takes the rest).
LEAD = [c.label for c in COLUMNS].index("all-T % ± SE")
#: Where the value columns per task go (lm-eval reads): after the strip of per-task rates.
VALUES_AT = [c.label for c in COLUMNS].index("per task") + 1
#: `0.7500 ± 0.0564`: a value and its stderr as `evalview table` prints them; wider names cut.
VALUE_WIDTH = 15
VALUE_NAME_MAX = 22


def value_columns(tasks: Sequence[str]) -> list[Column]:
    """One column per task (or group) a read records a value for, as the markdown table has."""
    return [Column(t, max(VALUE_WIDTH, min(len(t), VALUE_NAME_MAX)), "right") for t in tasks]


def value_cells(row: ReadRow | None, tasks: Sequence[str]) -> list[Cell]:
    """The row's recorded value ± stderr under each task (folder.table's cell text)."""
    from evalview.folder.table import value_cell  # on first use: not before the first frame

    if row is None or not row.task_values:
        return [Text("") for _ in tasks]
    texts = [value_cell(row, t) for t in tasks]
    return [Text(t, style="dim" if t == "—" else "") for t in texts]


def name_text(entry: RunsRow, above: RunsRow | None = None) -> Text:
    """The read's name; a further read or arm of the file named on the row above as `└ [arm X]`
    (at 80 columns the file's name and the arm do not both fit, and rows of one file looked
    identical once cut)."""
    r = entry.row
    if r is None:
        return Text(clean(entry.candidate.rel))
    prev = above.row if above is not None else None
    suffix = r.label.removeprefix(r.path)
    if prev is not None and prev.path == r.path and suffix and prev.label != r.label:
        return Text.assemble(("  └", "dim"), clean(suffix))
    return Text(clean(r.label))


def cells(
    entry: RunsRow, mark: str, role: str = "", above: RunsRow | None = None,
    values: Sequence[str] = (),
) -> Sequence[Cell]:
    r = entry.row
    frac = "" if r is None or r.selected is None else ratio(r.successes, r.selected)
    return (
        Text(mark, style="bold magenta"),
        Text(role, style="bold cyan"),
        verdict_text(entry),
        name_text(entry, above),
        frac,
        mean_text(r),
        strip_text(r, 19),
        *value_cells(r, values),
        Text(clean((r.policy if r else None) or "")),
        Text(clean((r.checkpoint if r else None) or "")),
        Text(clean((r.fine_tune_seed if r else None) or "")),
        Text(clean((r.benchmark_label if r else None) or "")),
    )


class RunsScreen(Screen[None]):
    """Every read under a folder; rows fill in while the workers read."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "sort", "Sort", id="runs.sort"),
        Binding("r", "reverse", "Reverse", id="runs.reverse"),
        Binding("v", "verdict", "Verdict filter", id="runs.verdict"),
        # Priority: the field has the focus before the next key (keygate.focus_search).
        Binding("slash", "search", "Filter", id="runs.search", priority=True),
        Binding("space", "mark", "Mark A/B", id="runs.mark"),
        Binding("c", "compare", "Compare A B", id="runs.compare"),
        Binding("A", "role('A')", "Set A", show=False, id="runs.set-a"),
        Binding("B", "role('B')", "Set B", show=False, id="runs.set-b"),
        Binding("C", "role('BC')", "Set BC", show=False, id="runs.set-bc"),
        Binding("x", "contrast", "Contrast sets", id="runs.contrast"),
        Binding("escape", "clear_search", "Clear filter", show=False, id="runs.clear"),
    ]

    class Found(Message):
        def __init__(
            self, found: Discovery, keep: dict[tuple[str, str], list[ReadRow]], generation: int
        ) -> None:
            super().__init__()
            self.found = found
            self.keep = keep
            self.generation = generation

    class Filled(Message):
        """The reads of entry `index` (one, or several for a file of named reads)."""

        def __init__(self, index: int, rows: list[ReadRow], generation: int) -> None:
            super().__init__()
            self.index = index
            self.rows = rows
            self.generation = generation

    class Changed(Message):
        """Files under the folder moved: still settling (`stale` None), or settled, with the
        entries whose files changed."""

        def __init__(self, stale: set[str] | None) -> None:
            super().__init__()
            self.stale = stale

    class Failed(Message):
        def __init__(self, message: str) -> None:
            super().__init__()
            self.message = message

    def __init__(self, root: Path, *, jobs: int | None = None) -> None:
        super().__init__(id="runs")
        self.root = root
        self.jobs = jobs
        self.entries: list[RunsRow] = []
        self.view: list[int] = []
        #: The tasks of the value columns shown (lm-eval reads' recorded values), in order.
        self.value_tasks: list[str] = []
        self.skipped: list[tuple[str, str]] = []
        self.truncated: str | None = None
        self.sort_key = 0
        self.descending = False
        self.verdict_filter = 0
        self.search = ""
        self.marked: list[int] = []
        #: replicate reads marked for the contrast: entry index -> "A", "B" or "BC"
        self.roles: dict[int, str] = {}
        #: entry indices marked BC (`C`): the plain-BC reads of the relative statistic
        self.bc: set[int] = set()
        self.done = False
        #: entries whose rows have not arrived yet (counted, not searched for, per row)
        self.pending = 0
        self._refilter_due = False
        self.generation = 0
        #: files under the folder are moving (watching): shown in the title until they settle
        self.changing = False
        #: True once the folder was first listed (the keys typed before it were let through)
        self._listed = False

    def compose(self) -> ComposeResult:
        yield Static(f"[bold]{escape(str(self.root))}[/]  looking for reads…", id="runs-title")
        yield ProgressBar(total=None, show_eta=False, id="runs-bar")
        yield Input(
            placeholder="filter: part of a path, policy, benchmark or checkpoint", id="runs-search"
        )
        # Up to all-T % ± SE in the first view of an 80-column terminal; the rest scroll.
        yield VirtualTable(COLUMNS, id="runs-table", lead=LEAD)
        yield Static("", id="runs-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#runs-search", Input).display = False
        self.query_one(VirtualTable).focus()
        self._scan()
        if getattr(self.app, "watching", False):
            self.set_watching(True)

    # -- loading ---------------------------------------------------------------------------

    # described, not by the repr of `keep` (Textual's default): every row of the folder
    @work(thread=True, exclusive=True, group="runs-scan", description="read the folder's reads")
    def _scan(self, keep: dict[tuple[str, str], list[ReadRow]] | None = None) -> None:
        """Discover, then read every entry not in `keep` ((path, kind) -> rows still valid)."""
        from evalview.folder.discover import FolderError, discover
        from evalview.folder.parallel import default_jobs, map_completed

        worker = get_current_worker()
        self.generation += 1
        generation = self.generation
        try:
            found = discover(self.root)
        except FolderError as exc:
            self.post_message(self.Failed(str(exc)))
            return
        kept = dict(keep or {})
        # What discovery already decided (a link, an unlistable directory) needs no worker:
        # its row is known now. 30,000 links were 30,000 round trips through the pool and as
        # many repaints of the whole table.
        for c in found.entries:
            if not c.is_read:
                row = (ReadRow(c.rel, "skipped", c.reason) if c.kind == "skipped"
                       else ReadRow(c.rel, "unreadable", c.reason))
                kept[(c.rel, c.kind)] = [row]
        self.post_message(self.Found(found, kept, generation))
        todo = [(i, c) for i, c in enumerate(found.entries) if (c.rel, c.kind) not in kept]
        items = [(str(self.root), c) for _i, c in todo]
        jobs = self.jobs or default_jobs()
        work_fn = partial(row_of_item, options=ScoreOptions(bootstrap=0))
        results = map_completed(work_fn, items, jobs, method="forkserver", local_until_ready=True)
        try:
            for k, rows in results:
                if worker.is_cancelled:
                    return
                self.post_message(self.Filled(todo[k][0], rows, generation))
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()  # stops the pool: reads not yet started are cancelled

    def on_runs_screen_found(self, message: Found) -> None:
        # The scan's entries keep their scan positions (a Filled message names one); a file's
        # further named reads are appended after them.
        self.entries = []
        extra: list[tuple[int, int, Candidate, ReadRow]] = []
        for i, c in enumerate(message.found.entries):
            kept = message.keep.get((c.rel, c.kind), [])
            self.entries.append(RunsRow(i, c, kept[0] if kept else None))
            extra += [(i, k, c, r) for k, r in enumerate(kept[1:], start=1)]
        for i, k, c, r in extra:
            self.entries.append(RunsRow(len(self.entries), c, r, scan=(i, k)))
        self.marked = []
        self.truncated = message.found.truncated
        self.skipped = [
            (e.candidate.rel, e.row.reason or "")
            for e in self.entries
            if e.row is not None and e.row.status == "skipped"
        ]
        todo = sum(1 for e in self.entries if e.row is None)
        self.pending = todo
        bar = self.query_one(ProgressBar)
        bar.update(total=max(todo, 1), progress=0)
        bar.display = todo > 0
        self.done = todo == 0
        self._refilter(keep_cursor=bool(message.keep))
        self._keys_ready()

    def _keys_ready(self) -> None:
        """The keys typed before the folder was listed act on its rows now (tui/app.py); once
        (a later scan, when watching, must not release the keys held for a read opened since)."""
        if self._listed:
            return
        self._listed = True
        ready = getattr(self.app, "keys_ready", None)
        if ready is not None:
            ready()

    def on_runs_screen_filled(self, message: Filled) -> None:
        if message.generation != self.generation or message.index >= len(self.entries):
            return  # a scan that a newer one replaced
        entry = self.entries[message.index]
        entry.row = message.rows[0]
        for k, extra in enumerate(message.rows[1:], start=1):  # a file's further reads or arms
            self.entries.append(
                RunsRow(len(self.entries), entry.candidate, extra, scan=(entry.index, k))
            )
        self.query_one(ProgressBar).advance(1)
        if entry.row.status == "skipped":
            self.skipped.append((entry.row.path, entry.row.reason or ""))
        self.pending -= 1
        if self.pending <= 0:
            self.done = True
            self.query_one(ProgressBar).display = False
            self._refilter(keep_cursor=True)
        elif not self._refilter_due:
            # Rows arrive faster than a person reads them: the table is re-sorted at most every
            # REFILTER_S (each re-sort is a pass over every entry), and once at the end.
            self._refilter_due = True
            self.set_timer(REFILTER_S, self._refilter_now)

    def _refilter_now(self) -> None:
        self._refilter_due = False
        if not self.done:
            self._refilter(keep_cursor=True)

    # -- watching (w, or evalview DIR --watch) ----------------------------------------------

    def set_watching(self, on: bool) -> None:
        if on:
            self._watch()
        else:
            self.workers.cancel_group(self, "runs-watch")
            self.changing = False
            self._title()

    @work(thread=True, exclusive=True, group="runs-watch")
    def _watch(self) -> None:
        from evalview.folder.watch import Watcher

        worker = get_current_worker()
        watcher = Watcher(self.root, settle=WATCH_SETTLE)
        while not worker.is_cancelled:
            time.sleep(WATCH_INTERVAL)
            if worker.is_cancelled:
                return
            state = watcher.poll()
            if state == "changing":
                self.post_message(self.Changed(None))
            elif state == "changed":
                stale = {
                    e.candidate.rel
                    for e in self.entries
                    if changed_under(watcher.previous, watcher.current, e.candidate.rel)
                }
                self.post_message(self.Changed(stale))

    def on_runs_screen_changed(self, message: Changed) -> None:
        if message.stale is None:
            self.changing = True
            self._title()
            return
        self.changing = False
        keep: dict[tuple[str, str], list[ReadRow]] = {}
        for e in self.entries:
            if e.row is not None and e.candidate.rel not in message.stale:
                keep.setdefault((e.candidate.rel, e.candidate.kind), []).append(e.row)
        self._scan(keep)

    def on_runs_screen_failed(self, message: Failed) -> None:
        from evalview.load.registry import formats_sentence
        from evalview.tui.loading import UnreadableScreen

        self._keys_ready()
        self.app.switch_screen(
            UnreadableScreen(
                self.root,
                message.message,
                title="This folder could not be read",
                hint="Pass a folder you may list. " + formats_sentence(),
            )
        )

    # -- the view ----------------------------------------------------------------------------

    def shows(self, entry: RunsRow) -> bool:
        if entry.row is not None and entry.row.status == "skipped":
            return False
        wanted = VERDICTS[self.verdict_filter]
        if wanted != "all" and entry.verdict != wanted:
            return False
        if self.search:
            r = entry.row
            hay = " ".join(
                x or ""
                for x in (
                    entry.candidate.rel,
                    r.policy if r else None,
                    r.benchmark_label if r else None,
                    r.checkpoint if r else None,
                    r.run_id if r else None,
                )
            ).lower()
            return self.search.lower() in hay
        return True

    def _key(self, entry: RunsRow) -> tuple[object, ...]:
        name = SORTS[self.sort_key]
        r = entry.row
        if name == "verdict":
            order = ("errors", "unreadable", "warnings", "clean", "pending")
            return (order.index(entry.verdict), entry.scan)
        if name == "read":
            return (entry.candidate.rel, entry.scan)
        if name == "mean":
            return (r is None or r.mean is None, (r.mean or 0.0) if r else 0.0, entry.scan)
        if name == "successes":
            return (r is None or r.selected is None, (r.successes or 0) if r else 0, entry.scan)
        return (entry.scan,)

    def _refilter(self, *, keep_cursor: bool) -> None:
        table = self.query_one(VirtualTable)
        current = self.current()
        view = [e.index for e in self.entries if self.shows(e)]
        view.sort(key=lambda i: self._key(self.entries[i]), reverse=self.descending)
        self.view = view
        self._value_columns(table)
        table.set_rows(len(view), self._cells, keep_cursor=keep_cursor)
        if keep_cursor and current is not None and current.index in view:
            table.move_to(view.index(current.index))
        name = SORTS[self.sort_key]
        labels = [c.label for c in table.columns]
        column = next((labels.index(h) for h, n in HEADER_SORTS.items() if n == name and h), None)
        default = name == "scan order" and not self.descending
        table.show_sorted(None if default else column, self.descending)
        self._title()

    @on(VirtualTable.HeaderClicked)
    def _header_clicked(self, event: VirtualTable.HeaderClicked) -> None:
        """A click on a header sorts by that column (again: reversed), as `s` and `r` do."""
        event.stop()
        name = HEADER_SORTS.get(event.table.columns[event.column].label)
        if name is None:
            self.notify(
                f"The reads sort by {', '.join(SORTS)}: click one of those headers, or s.",
                severity="information",
            )
            return
        key = SORTS.index(name)
        self.descending = not self.descending if key == self.sort_key else False
        self.sort_key = key
        self._refilter(keep_cursor=True)

    def _value_columns(self, table: VirtualTable) -> None:
        """A column per task any read records a value for (lm-eval), in first-seen order, as
        `evalview table` has: added as such reads arrive."""
        from evalview.folder.cells import value_tasks

        tasks = value_tasks([e.row for e in self.entries if e.row is not None])
        if tasks != self.value_tasks:
            self.value_tasks = tasks
            table.columns = [*COLUMNS[:VALUES_AT], *value_columns(tasks), *COLUMNS[VALUES_AT:]]

    def _cells(self, position: int) -> Sequence[Cell]:
        entry = self.entries[self.view[position]]
        mark = ""
        if entry.index in self.marked:
            mark = "AB"[self.marked.index(entry.index)]
        above = self.entries[self.view[position - 1]] if position else None
        return cells(entry, mark, self.role_of(entry.index), above, self.value_tasks)

    def current(self) -> RunsRow | None:
        table = self.query_one(VirtualTable)
        if not self.view or table.cursor_row >= len(self.view):
            return None
        return self.entries[self.view[table.cursor_row]]

    def _title(self) -> None:
        reads = [e for e in self.entries if not (e.row and e.row.status == "skipped")]
        read = sum(1 for e in reads if e.row is not None)
        tally = {v: sum(1 for e in reads if e.verdict == v) for v in VERDICTS[1:]}
        parts = [f"{len(reads)} reads" + ("" if self.done else f" ({read} read so far)")]
        said = {"errors": "with errors", "warnings": "with warnings only"}
        parts += [f"{n} {said.get(v, v)}" for v, n in tally.items() if n]
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped (not reads)")
        if getattr(self.app, "watching", False):
            parts.append("changing…" if self.changing else "watching")
        hint = ""
        if self.done and not reads:  # an empty screen says what would have been a read
            from evalview.load.registry import formats_sentence

            hint = "\n[dim]No read found here. " + escape(formats_sentence()) + "[/]"
        self.query_one("#runs-title", Static).update(
            f"[bold]{escape(str(self.root))}[/]  " + escape(" · ".join(parts)) + hint
        )
        shown = f"showing {len(self.view)}"
        sort = f"sorted by {SORTS[self.sort_key]}{' (reversed)' if self.descending else ''}"
        filt = VERDICTS[self.verdict_filter]
        extra = [shown, sort]
        if filt != "all":
            extra.append(f"verdict: {filt}")
        if self.search:
            extra.append(f"filter: {self.search!r}")
        if self.marked:
            extra.append(
                "marked "
                + ", ".join(
                    f"{'AB'[i]} {self.entries[m].candidate.rel}" for i, m in enumerate(self.marked)
                )
            )
        if self.roles or self.bc:
            counts = Counter(self.roles.values())
            counts["BC"] = len(self.bc)
            extra.append("contrast " + ", ".join(f"{r} {counts[r]}" for r in ROLES if counts[r]))
        if self.truncated:
            extra.append(self.truncated)
        self.query_one("#runs-status", Static).update(f"[dim]{escape(' · '.join(extra))}[/]")

    # -- actions -----------------------------------------------------------------------------

    def action_sort(self) -> None:
        self.sort_key = (self.sort_key + 1) % len(SORTS)
        self._refilter(keep_cursor=True)

    def action_reverse(self) -> None:
        self.descending = not self.descending
        self._refilter(keep_cursor=True)

    def action_verdict(self) -> None:
        self.verdict_filter = (self.verdict_filter + 1) % len(VERDICTS)
        self._refilter(keep_cursor=False)

    def action_search(self) -> None:
        box = self.query_one("#runs-search", Input)
        box.display = True
        focus_search(box)  # a `/` typed in the field is text (a read's path has them)

    @on(Input.Changed, "#runs-search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.search = event.value.strip()
        self._refilter(keep_cursor=False)

    @on(Input.Submitted, "#runs-search")
    def _search_done(self) -> None:
        self.query_one(VirtualTable).focus()

    def action_clear_search(self) -> None:
        """Escape clears the filter box and goes back to the table."""
        box = self.query_one("#runs-search", Input)
        if box.display or self.search:
            box.value = ""
            box.display = False
            self.search = ""
            self._refilter(keep_cursor=False)
        self.query_one(VirtualTable).focus()

    def action_mark(self) -> None:
        entry = self.current()
        if entry is None:
            return
        if entry.index in self.marked:
            self.marked.remove(entry.index)
        else:
            self.marked = [*self.marked, entry.index][-2:]
        self.query_one(VirtualTable).refresh()
        self._title()

    def action_compare(self) -> None:
        if len(self.marked) != 2:
            self.notify("Mark two reads with space first (A, then B).", severity="warning")
            return
        a, b = (Path(self.root, self.entries[i].candidate.rel) for i in self.marked)
        from evalview.tui.runs_compare import FolderCompareScreen

        self.app.push_screen(FolderCompareScreen(a, b))

    def action_role(self, role: str) -> None:
        """Mark the read under the cursor as a replicate of side `role`; again unmarks it.

        A and B exclude each other; BC is separate, since a side may be the BC read itself.
        """
        entry = self.current()
        if entry is None:
            return
        marks = self.bc if role == "BC" else None
        if marks is not None:
            marks.symmetric_difference_update({entry.index})
        elif self.roles.get(entry.index) == role:
            del self.roles[entry.index]
        else:
            self.roles[entry.index] = role
        self.query_one(VirtualTable).refresh()
        self._title()

    def role_of(self, index: int) -> str:
        """The marks column: A, B, BC, or A+C / B+C for a side read that is also the BC read."""
        role = self.roles.get(index, "")
        if index in self.bc:
            return f"{role}+C" if role else "BC"
        return role

    def contrast_sides(self) -> tuple[dict[str, list[tuple[str, Path]]], str | None]:
        """The marked reads as (replicate KEY, path) per side, or why they cannot be contrasted."""
        sides: dict[str, list[tuple[str, Path]]] = {role: [] for role in ROLES}
        marked = [(i, r) for i, r in self.roles.items()] + [(i, "BC") for i in self.bc]
        for index, role in sorted(marked):
            entry = self.entries[index]
            rel, r = entry.candidate.rel, entry.row
            if r is None:
                return sides, f"{rel} is still being read; wait for its row, then press x again."
            if r.status != "read" or r.read is not None:
                why = r.reason or "it is not one read evalview can contrast"
                if r.read is not None:
                    why = f"it is the named read {r.read} of a file of several reads"
                return sides, f"{rel} cannot be contrasted: {why}. Unmark it with {role[-1]}."
            if not r.fine_tune_seed:
                return sides, (
                    f"{rel} names no fine-tune seed, so it cannot be paired by training "
                    f"replicate; use `evalview contrast` with KEY=PATH."
                )
            sides[role].append((r.fine_tune_seed, Path(self.root, rel)))
        if not sides["A"] or not sides["B"]:
            return sides, (
                "Mark method A's replicate reads with A and method B's with B (and the plain-BC "
                "reads with C for the relative statistic), then press x."
            )
        return sides, None

    def action_contrast(self) -> None:
        sides, problem = self.contrast_sides()
        if problem is not None:
            self.notify(problem, title="No contrast", severity="warning")
            return
        from evalview.tui.runs_contrast import ContrastScreen

        self.app.push_screen(ContrastScreen(sides["A"], sides["B"], sides["BC"]))

    @on(VirtualTable.Selected, "#runs-table")
    def _open(self, event: VirtualTable.Selected) -> None:
        event.stop()
        entry = self.current()
        if entry is None:
            return
        if entry.row is not None and entry.row.status == "unreadable":
            self.notify(entry.row.reason or "cannot be read", title="Unreadable", severity="error")
            return
        open_read = getattr(self.app, "open_read", None)
        if open_read is not None:
            # A row still being read opens as `evalview PATH` would (the app reads it, and asks
            # which read for a file of several): Enter typed ahead is never dropped. A row of a
            # file of several named reads opens that read, as `--read KEY` does.
            read = None if entry.row is None else entry.row.read
            open_read(Path(self.root, entry.candidate.rel), read)
