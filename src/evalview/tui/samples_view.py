"""Samples: an Inspect log's per-sample intervals over epochs, its rates by a sample metadata key,
and its other scorers' mean and SE.

Every number is `evalview.stats.breakdown`'s, the one `score --json` prints as `samples`,
`groups` (`--group-by KEY`) and `other_scorers`: the pane only lays them out. The groups table
shows one key at a time (`g` takes the next; the first categorical key to begin with); the
samples table sorts (`s`, `r`, a header click) and searches (`/`) as the Tasks tab does, and
Enter on a row lists its sample-epochs in Episodes.
"""

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
from evalview.stats.breakdown import Breakdown, by_key, default_group_key, group_keys
from evalview.tui.bars import interval_bar
from evalview.tui.episodes import EpisodeFilter
from evalview.tui.fmt import pct, pct_range
from evalview.tui.keygate import focus_search
from evalview.tui.messages import ShowEpisodes
from evalview.tui.safe import clean, plain
from evalview.tui.safe import esc as escape
from evalview.tui.search_field import SearchField
from evalview.tui.vtable import middle_cut

#: Narrower than this, the bar goes (the Wilson interval keeps its numbers).
BAR_MIN_WIDTH = 110
BAR_WIDTH = 31
#: The sample id column in the narrow layout (cut in the middle beyond it).
NARROW_ID = 24


def _natural(name: str) -> tuple[int, int, str]:
    """Numeric sample ids in number order (2 before 10), the others after, as text."""
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


#: (column key, label, sort key) of both tables; the bar sorts by the interval's lower bound.
COLUMNS: tuple[tuple[str, str, Callable[[TaskScore], Any]], ...] = (
    ("name", "sample", lambda t: _natural(t.task)),
    ("fraction", "succ / sel", lambda t: (t.successes, t.selected)),
    ("rate", "rate", lambda t: t.rate),
    ("wilson", "Wilson 95 %", lambda t: t.wilson95),
    ("errors", "errors", lambda t: t.errors),
    ("bar", "bar", lambda t: t.wilson95[0]),
)
KEYS = tuple(c[0] for c in COLUMNS)
SORT = {k: fn for k, _, fn in COLUMNS}


class SamplesPane(Vertical):
    """Other scorers on top, the groups by one metadata key, then every sample's interval."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g", "next_key", "Group by", id="samples.group_by"),
        Binding("s", "sort_next", "Sort", id="samples.sort"),
        Binding("r", "reverse", "Reverse", id="samples.reverse"),
        # Priority: the field has the focus before the next key (keygate.focus_search).
        Binding("slash", "search", "Search", id="samples.search", priority=True),
    ]

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        run = session.run
        #: The metadata key the groups table shows (None: no grouping).
        self.key: str | None = default_group_key(run)
        self.sort_key = "name"
        self.reverse = False
        #: Lower-case text a sample id must contain to be listed ("" lists every sample).
        self.needle = ""
        self.show_bar = True
        self._cases = run.scheduled()
        self._groups_cache: dict[str, Breakdown] = {}

    # -- what is shown (the same objects `score --json` prints) --------------------------------

    @property
    def samples(self) -> Breakdown | None:
        """Each sample's successes / epochs and Wilson 95 % (None: one epoch, or no card)."""
        card = self.session.scorecard
        return None if card is None else card.samples

    @property
    def groups(self) -> Breakdown | None:
        """The breakdown by the chosen key (`score --group-by KEY`'s `groups`)."""
        if self.key is None:
            return None
        if self.key not in self._groups_cache:
            self._groups_cache[self.key] = by_key(self.session.run, self._cases, self.key)
        return self._groups_cache[self.key]

    def numbers(self) -> dict[str, Any]:
        """What the pane shows, as `score --json --group-by KEY` writes it (the contract test
        compares the two)."""
        card = self.session.scorecard
        samples, groups = self.samples, self.groups
        return {
            "samples": None if samples is None else samples.to_json(),
            "groups": None if groups is None else groups.to_json(),
            "other_scorers": [] if card is None else [o.to_json() for o in card.other_scorers],
        }

    # -- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="samples-scorers", classes="pane-title")
        yield Static(id="samples-groups-title", classes="pane-title")
        yield DataTable(id="samples-groups", cursor_type="row", zebra_stripes=True)
        yield Static(id="samples-list-title", classes="pane-title")
        yield SearchField(
            placeholder="search sample ids…  (/)", id="samples-search", compact=True,
            classes="search",
        )
        yield DataTable(id="samples-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        if not self.children:  # mounted as its screen or the app closed: never composed
            return
        self.show_bar = self.app.size.width >= BAR_MIN_WIDTH
        self._fill_scorers()
        self._fill_groups()
        self._fill_samples()

    def on_resize(self) -> None:
        bar = self.app.size.width >= BAR_MIN_WIDTH
        if bar != self.show_bar:
            self.show_bar = bar
            self._fill_groups()
            self._fill_samples()

    def _fill_scorers(self) -> None:
        card = self.session.scorecard
        box = self.query_one("#samples-scorers", Static)
        if card is None:
            box.update(f"[yellow]No scores: {escape(str(self.session.score_refusal))}[/]")
            return
        lines = [
            f"other scorer [b]{escape(o.name)}[/b]: {escape(o.words())}"
            for o in card.other_scorers
        ]
        box.update("\n".join(lines))
        box.display = bool(lines)

    def _columns(self, table: DataTable[Any], name: str, fraction: str = "succ / sel") -> None:
        table.clear(columns=True)
        for key, label, _ in COLUMNS:
            if key == "bar":
                if self.show_bar:
                    table.add_column("0 %" + " " * (BAR_WIDTH - 8) + "100 %", key=key)
            else:
                shown = {"name": name, "fraction": fraction}.get(key, label)
                table.add_column(shown, key=key)

    def _cells(self, t: TaskScore, *, cut: bool) -> list[Text]:
        lo, hi = t.wilson95
        name = clean(t.task)
        return [
            plain(middle_cut(name, NARROW_ID) if cut and not self.show_bar else name),
            Text(f"{t.successes:,} / {t.selected:,}", justify="right"),
            Text(pct(t.rate), justify="right", style="bold"),
            Text(pct_range(lo, hi), justify="right"),
            Text(f"{t.errors:,}", justify="right", style="red" if t.errors else "dim"),
            *([interval_bar(lo, hi, t.rate, BAR_WIDTH)] if self.show_bar else []),
        ]

    def _fill_groups(self) -> None:
        title = self.query_one("#samples-groups-title", Static)
        table = self.query_one("#samples-groups", DataTable)
        keys = group_keys(self.session.run)
        b = self.groups
        if b is None:
            if table.has_focus:  # never leave the focus on a hidden table (it would move on to
                # the search field, which would take the next `g` as text)
                rest = self.query_one("#samples-table", DataTable)
                self.screen.set_focus(rest if rest.display else None)
            table.display = False
            title.update(
                "No sample metadata key to group by (text, integer or boolean values, at most "
                "100 of them)."
                if not keys
                else f"No grouping  [dim](g: by {escape(keys[0])})[/]"
            )
            return
        table.display = True
        others = " → ".join(keys) + " → none"
        if self.show_bar:
            title.update(
                f"by [b]{escape(b.key)}[/b] ({escape(b.means)}): succ / sel, rate and Wilson 95 % "
                f"over selected sample-epochs (errored and unattempted count as not a success)  "
                f"[dim](g next key: {escape(others)}; Enter lists its episodes)[/]"
            )
        else:  # 80 columns: the same facts in two lines, so the samples keep their room
            title.update(
                f"by [b]{escape(b.key)}[/b]: rate and Wilson 95 % over selected sample-epochs, "
                f"errored ones not a success  [dim](g next key: {escape(others)})[/]"
            )
        self._columns(table, b.key)
        for t in b.rows:
            table.add_row(*self._cells(t, cut=False), key=t.task)

    def _fill_samples(self) -> None:
        title = self.query_one("#samples-list-title", Static)
        table = self.query_one("#samples-table", DataTable)
        search = self.query_one("#samples-search", Input)
        b = self.samples
        if b is None:
            table.display = search.display = False
            why = (escape(str(self.session.score_refusal)) if self.session.scorecard is None
                   else "each sample ran once (one epoch): no interval per sample; its outcome "
                   "is in Episodes")
            title.update(f"Per sample: {why}.")
            return
        rows = b.rows
        every = sum(1 for t in rows if t.selected and t.successes == t.selected)
        none = sum(1 for t in rows if t.successes == 0)
        shown = [t for t in rows if self.needle in t.task.lower()]
        ordered = sorted(shown, key=SORT[self.sort_key], reverse=self.reverse)
        label = dict((k, lbl) for k, lbl, _ in COLUMNS)[self.sort_key]
        arrow = "▼" if self.reverse else "▲"
        count = f"{len(shown):,} of {len(rows):,}" if self.needle else f"{len(rows):,}"
        if not self.show_bar:  # 80 columns: two lines
            title.update(
                f"per sample: {count} samples, Wilson 95 % over its epochs; all a success "
                f"{every:,}, none {none:,}, mixed {len(rows) - every - none:,} · by {label} "
                f"{arrow}  [dim](s r sort, / search)[/]"
            )
        else:
            title.update(
                f"per sample: {count} samples, each over its epochs (successes / epochs, "
                f"Wilson 95 %); every epoch a success in {every:,}, none in {none:,}, mixed in "
                f"{len(rows) - every - none:,} · sorted by {label} {arrow}  "
                "[dim](s next column or click a header, r reverse, / search, Enter lists its "
                "epochs)[/]"
            )
        if len(table.columns) != len(COLUMNS) - (not self.show_bar):
            self._columns(table, "sample", "succ / epochs")
        cursor = table.cursor_row
        table.clear()
        for t in ordered:
            table.add_row(*self._cells(t, cut=True), key=t.task)
        table.move_cursor(row=min(cursor, max(len(ordered) - 1, 0)))

    @property
    def order(self) -> list[str]:
        """Sample ids in the order shown."""
        return [str(k.value) for k in self.query_one("#samples-table", DataTable).rows]

    # -- actions -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`g` only where there is a key to group by; sort and search only with samples."""
        if action == "next_key":
            return bool(group_keys(self.session.run))
        if action in ("sort_next", "reverse", "search"):
            return self.samples is not None
        return True

    def action_next_key(self) -> None:
        """Each categorical key in turn, then none, then the first again."""
        names: list[str | None] = [*group_keys(self.session.run), None]
        self.key = names[(names.index(self.key) + 1) % len(names)]
        self._fill_groups()

    def set_key(self, key: str | None) -> None:
        """Show the groups by `key` (one of the read's keys, or None)."""
        if key is not None and key not in group_keys(self.session.run):
            raise ValueError(f"no grouping {key!r}")
        self.key = key
        self._fill_groups()

    def sort_by(self, key: str, *, reverse: bool | None = None) -> None:
        if key == "bar" and not self.show_bar:
            key = "wilson"
        if reverse is None:
            reverse = not self.reverse if key == self.sort_key else False
        self.sort_key, self.reverse = key, reverse
        self._fill_samples()

    def action_sort_next(self) -> None:
        keys = KEYS if self.show_bar else KEYS[:-1]
        now = keys.index(self.sort_key) if self.sort_key in keys else -1
        self.sort_by(keys[(now + 1) % len(keys)], reverse=False)

    def action_reverse(self) -> None:
        self.sort_by(self.sort_key, reverse=not self.reverse)

    def action_search(self) -> None:
        focus_search(self.query_one("#samples-search", Input))

    @on(Input.Changed, "#samples-search")
    def _search(self, event: Input.Changed) -> None:
        event.stop()
        self.needle = event.value.strip().lower()
        self._fill_samples()

    @on(Input.Submitted, "#samples-search")
    def _search_done(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#samples-table", DataTable).focus()

    @on(DataTable.HeaderSelected, "#samples-table")
    def _header(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        if event.column_key.value is not None:
            self.sort_by(event.column_key.value)

    @on(DataTable.RowSelected, "#samples-table")
    def _open_sample(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            sample = event.row_key.value
            self._show(self.session.run.repeats, sample, f"sample {sample}")

    @on(DataTable.RowSelected, "#samples-groups")
    def _open_group(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None and self.key is not None:
            value = event.row_key.value
            self._show(self.session.run.groupings[self.key], value, f"{self.key} {value}",
                       missing=value)

    def _show(self, of: dict[str, str], value: str, name: str, *,
              missing: str | None = None) -> None:
        """List in Episodes the selected episodes whose `of` value is `value` (an episode
        without one belongs to the `(no value)` group)."""
        from evalview.stats.breakdown import NO_VALUE

        ids = self.session.run.episodes.ids.tolist()
        scheduled = self.session.run.episodes.in_schedule.tolist()
        want_missing = missing == NO_VALUE
        rows = tuple(
            i for i, (eid, sel) in enumerate(zip(ids, scheduled, strict=True))
            if sel and (of.get(str(eid)) == value or (want_missing and str(eid) not in of))
        )
        self.post_message(ShowEpisodes(EpisodeFilter(rows=rows, group=name)))
