"""`evalview A B`: the compare screen, per-task rates of two reads side by side.

It displays `evalview.compare.paired.Comparison` and computes nothing of its own beyond layout:
per task the two rates with Wilson bars on one 0–100 % scale, the difference marked by the
McNemar verdict (mid-p), and for the selected task its 2×2 McNemar table, its p-values (mid-p,
exact, adjusted for the per-task family) and the power line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from evalview.compare.paired import Comparison, PairedCounts
from evalview.compare.power import min_detectable_gap
from evalview.tui.bars import interval_bar
from evalview.tui.fmt import pct, points
from evalview.tui.safe import clean
from evalview.tui.safe import esc as escape
from evalview.tui.theme import EVALVIEW_THEME
from evalview.tui.vtable import middle_cut, path_cut

if TYPE_CHECKING:
    from evalview.session import PairedReads, Session

BAR_WIDTH = 20


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{pct(x):>7}"


def _diff_text(t: PairedCounts) -> Text:
    """The difference, marked by the verdict: ▲ B significantly better, ▼ A, · not significant."""
    if t.difference is None:
        return Text("—", style="dim")
    value = points(t.difference)
    if t.verdict.code == "b_better":
        return Text(f"▲ {value}", style=_verdict_style(t))
    if t.verdict.code == "a_better":
        return Text(f"▼ {value}", style=_verdict_style(t))
    return Text(f"· {value}", style="dim")


def _verdict_style(t: PairedCounts) -> str:
    return {"b_better": "bold green", "a_better": "bold red"}.get(t.verdict.code, "")


def _bar(t: PairedCounts, side: str) -> Text:
    interval = t.wilson(side)
    rate = t.rate_a if side == "a" else t.rate_b
    if interval is None:
        return Text("·" * BAR_WIDTH, style="dim")
    return interval_bar(interval[0], interval[1], rate, BAR_WIDTH)


def tally_line(c: Comparison) -> str:
    """How many tasks went each way: the pooled verdict alone hides moves that cancel out."""
    codes = [t.verdict.code for t in c.tasks]
    n_b, n_a = codes.count("b_better"), codes.count("a_better")
    rest = len(codes) - n_b - n_a
    line = (
        f"[bold]tasks[/] [green]B better on {n_b}[/], [red]A better on {n_a}[/], "
        f"no significant difference on {rest} [dim](mid-p McNemar per task, α = {c.alpha:g})[/]"
    )
    family = [t for t in c.tasks if t.adjusted is not None]
    if family:
        holm_b = sum(t.verdict.code == "b_better" and t.adjusted.holm_rejects
                     for t in family if t.adjusted)
        holm_a = sum(t.verdict.code == "a_better" and t.adjusted.holm_rejects
                     for t in family if t.adjusted)
        line += (
            f"; after Holm's correction for {len(family)} tasks: B on {holm_b}, A on {holm_a} "
            "[dim](all pairs is the primary verdict)[/]"
        )
    return line


def left_out_line(c: Comparison) -> str | None:
    """Pairs the tests left out, by side and reason (an error is pending, not a failure)."""
    if not c.overall.excluded:
        return None
    left = ", ".join(f"{k} {v}" for k, v in sorted(c.overall.excluded.items()))
    return f"[bold]left out[/] of the tests, not failures: {escape(left)}"


def mcnemar_table(t: PairedCounts) -> str:
    """The 2×2 table of the selected task, with the discordant cells named b and c."""
    def cell(n: int, tag: str = "") -> str:
        return f"{n}{tag}".rjust(14)

    adjusted = (
        ""
        if t.adjusted is None
        else f"adjusted for the {t.adjusted.family} per-task tests: Holm p = "
        f"{t.adjusted.holm:.3g}, Benjamini–Hochberg p = {t.adjusted.benjamini_hochberg:.3g}\n"
    )
    return (
        f"[bold]{escape(t.task)}[/]: {t.pairs} pairs completed by both reads\n"
        f"{'':12}{'B success':>14}{'B failure':>14}\n"
        f"{'A success':12}{cell(t.both)}{cell(t.only_a, ' (c)')}\n"
        f"{'A failure':12}{cell(t.only_b, ' (b)')}{cell(t.neither)}\n"
        f"McNemar mid-p = {t.mcnemar_midp:.3g} (exact p = {t.mcnemar_p:.3g})   pooled z-test "
        f"p = {t.z_p:.3g}\n"
        f"{adjusted}"
        f"{difference_line(t)}\n"
        f"{escape(t.verdict.text)}"
        + (
            "\n[yellow]left out (not failures): "
            + escape(", ".join(f"{k} {v}" for k, v in sorted(t.excluded.items())))
            + "[/]"
            if t.excluded
            else ""
        )
    )


def difference_line(t: PairedCounts) -> str:
    """B − A with its 95 % interval, as `compare --json` gives it (`difference_ci95`): the
    verdict's p-value alone does not say how large the gap may be."""
    ci = t.difference_interval()
    if ci is None:
        return "B − A: no completed pair"
    lo, hi = ci.interval
    line = (
        f"B − A {points(ci.difference)}, 95 % interval {points(lo, unit='')} to {points(hi)} "
        "[dim](Newcombe, paired by episode)[/]"
    )
    if t.underpowered:
        line += (
            f" [yellow]underpowered: {t.pairs:,} pairs, the gap seen needs "
            f"{t.resolve_paired:,}[/]"
        )
    return line


def power_line(t: PairedCounts, power: float) -> str:
    """What n pairs can resolve, and what would resolve the gap seen."""
    if not t.pairs:
        return "power: no completed pair"
    pbar = ((t.rate_a or 0.0) + (t.rate_b or 0.0)) / 2
    gap = (
        f"at {t.pairs} pairs the smallest gap resolved at {pct(power, 0)} power is "
        f"{points(min_detectable_gap(t.pairs, pbar, power=power), sign=False, unit='')} points "
        "(unpaired)"
        if 0 < pbar < 1
        else f"at {t.pairs} pairs every outcome is the same"
    )
    if t.resolve_paired is None or t.resolve_unpaired is None:
        return f"power: {gap}; the observed gap is 0"
    return (
        f"power: {gap}; the observed gap needs {t.resolve_paired:,} pairs paired, "
        f"{t.resolve_unpaired:,} episodes per read unpaired"
    )


@dataclass(frozen=True, slots=True)
class ReadHeadline:
    """One read's audit verdict and `successes / selected`: the header every screen keeps."""

    label: str
    checkpoint: str | None
    verdict_kind: str
    verdict: str
    successes: int
    selected: int

    @classmethod
    def of(cls, session: Session, label: str, checkpoint: str | None) -> ReadHeadline:
        """The session's own verdict and counts (no bootstrap: the header needs the counts)."""
        from evalview.session import headline

        h = headline(session)
        return cls(label, checkpoint, h.verdict_kind, h.verdict, h.successes, h.selected)

    @classmethod
    def pair(cls, paired: PairedReads) -> tuple[ReadHeadline, ReadHeadline] | None:
        """Both sides' headlines; None if the scorer fails (the comparison still shows)."""
        c = paired.comparison
        try:
            return (
                cls.of(paired.a, c.a.label, c.a.checkpoint),
                cls.of(paired.b, c.b.label, c.b.checkpoint),
            )
        except Exception:
            return None

    def line(self, side: str, width: int = 160) -> Text:
        """`A <read> <checkpoint>  <verdict>  successes / selected k / n  p %`: the read's name
        first, cut in its middle to what `width` leaves (at 80 columns both sides' names were
        cut from the right and looked alike), so A and B are told apart before the numbers."""
        text = Text(no_wrap=True, overflow="ellipsis")
        rate = _pct(self.successes / self.selected if self.selected else None).strip()
        counts = f"{self.successes:,} / {self.selected:,}"
        tail = f"  {self.verdict}  successes / selected {counts}  {rate}"
        ckpt = f" {clean(self.checkpoint)}" if self.checkpoint else ""
        room = max(width - 4 - len(side) - cell_len(tail) - cell_len(ckpt), 16)
        text.append(f"{side} ", style="bold")
        text.append(_name_in(clean(self.label), room))
        text.append(ckpt, style="dim")
        text.append("  ")
        text.append(self.verdict, style=_VERDICT_STYLE.get(self.verdict_kind, ""))
        text.append("  successes / selected ", style="dim")
        text.append(counts, style="bold")
        text.append(f"  {rate}", style="bold")
        return text


def _name_in(label: str, room: int) -> str:
    """The read's name in `room` cells: whole; else its file name (and `[read]`) without the
    folders; else that cut in its middle. The file name is what tells A from B."""
    if cell_len(label) <= room:
        return label
    path, sep, read = label.partition(" [")
    short = "…/" + path.rsplit("/", 1)[-1] + sep + read
    if cell_len(short) <= room:
        return short
    if sep and cell_len(sep + read) + 1 <= room:  # a named read: its key whole, the file cut
        name = path.rsplit("/", 1)[-1]
        return middle_cut(name, room - cell_len(sep + read)) + sep + read
    return path_cut(short, room)


_VERDICT_STYLE = {"error": "bold red", "warning": "bold yellow", "success": "bold green"}


class CompareScreen(Screen[None]):
    """Tasks side by side; moving the cursor shows that task's McNemar table and power line."""

    DEFAULT_CSS = """
    #compare-title { height: auto; padding: 0 1; background: $panel; }
    #compare-reads { height: 2; padding: 0 1; background: $panel; text-wrap: nowrap;
                     text-overflow: ellipsis; }
    #compare-head { height: auto; padding: 0 1; }
    #compare-table { height: 1fr; }
    #compare-detail { height: auto; padding: 0 1; border-top: solid $primary; }
    /* A short terminal keeps room for the table: the head and the detail scroll instead. */
    .-short #compare-head { max-height: 3; overflow-y: auto; }
    .-short #compare-detail { max-height: 7; overflow-y: auto; }
    """
    #: Unscoped, so the app's `.-short` class can reach these rules.
    SCOPED_CSS = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit", id="compare.quit"),
        Binding("question_mark", "help", "Help", id="compare.help"),
    ]

    def __init__(
        self, comparison: Comparison, headlines: tuple[ReadHeadline, ReadHeadline] | None = None
    ) -> None:
        super().__init__(id="compare")
        self.comparison = comparison
        self.headlines = headlines
        self.rows: list[PairedCounts] = [*comparison.tasks, comparison.overall]

    def compose(self) -> ComposeResult:
        # A title line rather than Textual's Header: its icon (⭘) is missing from common terminal
        # fonts and showed as a box in the corner.
        yield Static(
            "[b]Compare[/] B against A · paired by episode id · rates over the pairs both "
            "completed · p: mid-p McNemar · [dim]↑↓ a task's table below[/]",
            id="compare-title",
        )
        c = self.comparison
        if self.headlines is not None:
            reads = self._reads_text()
            yield Static(reads, id="compare-reads")
            head = []
        else:
            head = [
                f"[bold]A[/] {escape(c.a.label)} [dim]{escape(c.a.checkpoint or '')}[/]   "
                f"[bold]B[/] {escape(c.b.label)} [dim]{escape(c.b.checkpoint or '')}[/]"
            ]
        head += [
            f"[bold]all pairs[/] {escape(c.overall.verdict.text)}",
            tally_line(c),
        ]
        if c.sample_level is not None:  # samples repeated over epochs (Inspect)
            head.append(f"[bold]sample level[/] {escape(c.sample_level.text)}")
        head.extend(  # a metric with no success per document (lm-eval's BLEU, F1)
            f"[bold]graded[/] {escape(gp.task)}{escape(f' {gp.metric}' if gp.metric else '')}: "
            f"{escape(gp.text)} [dim](paired bootstrap over documents, not McNemar)[/]"
            for gp in c.graded
        )
        left_out = left_out_line(c)
        if left_out is not None:
            head.append(left_out)
        if c.labels:  # OFF-PROTOCOL, [development seeds]: the rules say the read carries them
            head.insert(0, f"[bold yellow]{escape(' '.join(c.labels))}[/]")
        if c.only_in_a or c.only_in_b:
            head.append(
                f"[yellow]{len(c.only_in_a)} episode(s) only in A, {len(c.only_in_b)} only in B "
                "(not paired)[/]"
            )
        head.extend(f"[yellow]note:[/] {escape(n)}" for n in c.notes)
        yield Static("\n".join(head), id="compare-head")
        yield DataTable(id="compare-table", cursor_type="row", zebra_stripes=True)
        with Vertical(id="compare-detail"):
            yield Static(id="compare-mcnemar")
            yield Static(id="compare-power")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # The key numbers first (an 80-column terminal shows them all); the bars scroll sideways.
        table.add_columns(
            "task", "A", "B", "B − A", "p", "pairs", "B won", "A won",
            "A Wilson 95 %", "B Wilson 95 %",
        )
        for t in self.rows:
            table.add_row(
                Text(clean(t.task), style="bold" if t is self.comparison.overall else ""),
                _pct(t.rate_a), _pct(t.rate_b),
                _diff_text(t),
                Text(f"{t.mcnemar_midp:.3g}", justify="right", style=_verdict_style(t)),
                Text(f"{t.pairs:,}", justify="right"),
                Text(f"{t.only_b:,}", justify="right"), Text(f"{t.only_a:,}", justify="right"),
                _bar(t, "a"), _bar(t, "b"),
                key=t.task,
            )
        self.show_detail(0)
        table.focus()

    def _reads_text(self) -> Text:
        assert self.headlines is not None
        a, b = self.headlines
        width = self.app.size.width
        return Text("\n", no_wrap=True, overflow="ellipsis").join(
            [a.line("A", width), b.line("B", width)]
        )

    def on_resize(self) -> None:
        if self.headlines is not None:
            for reads in self.query("#compare-reads").results(Static):
                reads.update(self._reads_text())

    def action_help(self) -> None:
        """The app's one help page (keys of every screen, compare's among them)."""
        from evalview.tui.help import HelpScreen

        self.app.push_screen(HelpScreen.for_screen(self))

    def show_detail(self, index: int) -> None:
        """The 2×2 table and power line of row `index`. A highlight can still be queued while
        the screen is torn down (quitting right after opening): then there is nothing to fill."""
        t = self.rows[index]
        for mcnemar in self.query("#compare-mcnemar").results(Static):
            mcnemar.update(mcnemar_table(t))
        for power in self.query("#compare-power").results(Static):
            power.update(escape(power_line(t, self.comparison.power)))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if 0 <= event.cursor_row < len(self.rows):
            self.show_detail(event.cursor_row)


class MessageScreen(Screen[None]):
    """A refusal or an unreadable read: the message, and q to leave with its exit code."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "app.quit", "Quit", id="compare-message.quit")
    ]

    def __init__(self, title: str, message: str) -> None:
        super().__init__(id="compare-message")
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        yield Static(f"[bold red]✗ {escape(self.title_text)}[/]\n\n{escape(self.message)}")
        yield Footer()


class CompareApp(App[int]):
    """Loads both reads and pairs them in a worker, then shows the compare screen."""

    TITLE = "evalview compare"
    #: The app's stylesheet, so help, footer and panels look as they do in `evalview PATH`.
    CSS_PATH = Path(__file__).with_name("evalview.tcss")
    #: Below 36 rows the head and the detail are capped (`.-short` in CompareScreen's CSS).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]  # noqa: RUF012 (Textual's API)

    class Done(Message):
        def __init__(
            self,
            comparison: Comparison | None,
            problem: tuple[str, str, int] | None,
            headlines: tuple[ReadHeadline, ReadHeadline] | None = None,
        ):
            super().__init__()
            self.comparison = comparison
            self.problem = problem
            self.headlines = headlines

    def __init__(self, a: Path, b: Path, *, allow_off_protocol: bool = False) -> None:
        super().__init__()
        self.a, self.b = a, b
        self.allow_off_protocol = allow_off_protocol
        self.exit_code = 0
        #: Why a read could not be opened (exit 2): `run_compare` prints it after the app ends.
        self.failure: str | None = None

    def on_mount(self) -> None:
        self.register_theme(EVALVIEW_THEME)
        self.theme = EVALVIEW_THEME.name
        self.sub_title = f"{self.a}  vs  {self.b}"
        self._work()

    def compose(self) -> ComposeResult:
        yield Static(f"Pairing {escape(str(self.a))} with {escape(str(self.b))}…", id="pairing")

    @work(thread=True, exclusive=True)
    def _work(self) -> None:
        from evalview.errors import InputError, Refused
        from evalview.model.address import Address
        from evalview.session import pair_addresses

        try:
            paired = pair_addresses(
                Address.of(self.a),
                Address.of(self.b),
                allow_off_protocol=self.allow_off_protocol,
                # the app shows such a comparison labelled not publishable, errored pairs listed
                allow_errors=True,
            )
        except InputError as exc:
            self.post_message(self.Done(None, ("A read could not be opened", str(exc), 2)))
        except Refused as exc:
            self.post_message(self.Done(None, ("The reads cannot be compared", str(exc), 1)))
        else:
            self.post_message(self.Done(paired.comparison, None, ReadHeadline.pair(paired)))

    def on_compare_app_done(self, message: Done) -> None:
        if message.comparison is not None:
            self.push_screen(CompareScreen(message.comparison, message.headlines))
        elif message.problem is not None:
            title, text, code = message.problem
            self.exit_code = code
            if code == 2:  # not a run at all: the terminal gets the message, as for one path
                self.failure = text
                self.exit(code)
                return
            self.push_screen(MessageScreen(title, text))

    def action_quit(self) -> None:  # type: ignore[override]
        self.exit(self.exit_code)


def run_compare(
    a: Path,
    b: Path,
    *,
    allow_off_protocol: bool = False,
    unreadable: Callable[[str], object] | None = None,
) -> int:
    """`evalview A B`: 0 after a comparison, 1 refused, 2 unreadable (as `evalview compare`).
    A read that is not a run ends the app, and `unreadable` gets its message once the terminal
    is restored (the command prints it on stderr, as `evalview PATH` does with one path); a
    refusal stays on screen (it explains which flag would allow it)."""
    app = CompareApp(a, b, allow_off_protocol=allow_off_protocol)
    result = app.run()
    if app.failure is not None and unreadable is not None:
        unreadable(app.failure)
    return 0 if result is None else int(result)
