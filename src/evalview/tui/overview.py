"""Overview: the denominators, the all-T aggregate with its uncertainty, errors, the protocol."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from evalview.session import Session
from evalview.stats import Scorecard
from evalview.tui.fmt import SEVERITY_MARK, SEVERITY_STYLE, pct, points, share
from evalview.tui.safe import clean, plain
from evalview.tui.words import app_words


def _grid() -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    return grid


def denominators_card(card: Scorecard) -> RenderableType:
    d, r = card.denominators, card.rates
    grid = _grid()
    grid.add_row("selected", Text(f"{d.selected:,}", style="bold"))
    grid.add_row("attempted", f"{d.attempted:,}")
    grid.add_row("completed", f"{d.completed:,}")
    grid.add_row("errors", Text(f"{d.errors:,}", style="red" if d.errors else ""))
    grid.add_row("unattempted", Text(f"{d.unattempted:,}", style="yellow" if d.unattempted else ""))
    if d.invalid:
        grid.add_row("invalid status", Text(f"{d.invalid:,}", style="magenta"))
    if d.missing:
        grid.add_row("missing (declared)", Text(f"{d.missing:,}", style="yellow"))
    grid.add_row("successes", f"{d.successes:,}")
    grid.add_row("", "")
    grid.add_row("successes / selected", Text(share(d.successes, d.selected), style="bold"))
    grid.add_row("successes / attempted", share(d.successes, d.attempted))
    grid.add_row("successes / completed", share(d.successes, d.completed))
    _ = r  # the rates are the shares above; kept for symmetry with `score --json`
    return grid


#: Said where the card's verdict (publishable or refused) will be while the audit runs.
AUDIT_PENDING_LINE = "… auditing: whether this read may be reported is known once the audit is in"


def aggregate_card(
    card: Scorecard, *, bootstrap_pending: bool = False, audit_pending: bool = False
) -> RenderableType:
    """The aggregate, its uncertainty, labels and refusals. With `audit_pending` the card was
    scored without the audit's findings: its refusals so far stand (they do not depend on the
    audit), but "publishable" cannot be said yet, and the audit may add a refusal."""
    a = card.aggregate
    grid = _grid()
    grid.add_row("aggregate", Text(f"{a.name} (mean of {a.tasks} per-task rates)", style="bold"))
    if a.mean is None:
        grid.add_row("value", Text("— (some task has no selected case)", style="yellow"))
    else:
        se = f" ± {points(a.se, sign=False)} SE" if a.se is not None else ""
        value = Text(f"{pct(a.mean)}{se}", style="bold")
        # an SE of 0 from tasks that are all 0/n or n/n is the design, not precision: said here,
        # beside the number (the label below says why; the pooled Wilson interval is honest)
        zero = " (zero width, by design)" if a.zero_spread is not None else ""
        if zero:
            value.append("  zero by design, not precision", style="bold yellow")
        grid.add_row("value", value)
        if a.ci95 is not None:
            grid.add_row(
                "95 % (± 1.96 SE)",
                Text(f"{pct(a.ci95[0])} – {pct(a.ci95[1])}").append(zero, style="yellow"),
            )
        if a.bootstrap is not None:
            grid.add_row(
                "95 % seed bootstrap",
                Text(
                    f"{pct(a.bootstrap[0])} – {pct(a.bootstrap[1])}  "
                    f"(B = {a.resamples:,}, random.Random(7))"
                ).append(zero, style="yellow"),
            )
        elif bootstrap_pending:
            grid.add_row("95 % seed bootstrap", Text("computing… (B = 10,000)", style="dim"))
        else:
            grid.add_row("seed bootstrap", Text("off", style="dim"))
        if a.zero_spread is not None:
            lo, hi = a.zero_spread.pooled_wilson95
            grid.add_row(
                "95 % Wilson, pooled",
                Text(f"{pct(lo)} – {pct(hi)}", style="bold").append(
                    f"  ({a.zero_spread.selected:,} episodes)", style="dim"
                ),
            )
    parts: list[RenderableType] = [grid]
    for label in card.labels:
        parts.append(Text(f"⚠ {clean(app_words(label))}", style="yellow"))
    for refusal in card.refusals:
        # The rules name the read (they also judge several at once); here the header names it,
        # and its absolute path (a cache directory for the bundled sample) says nothing.
        message = refusal.message.removeprefix(f"{card.path}: ")
        parts.append(Text(f"✗ not reportable: {clean(app_words(message))}", style="red"))
    if audit_pending:
        parts.append(Text(AUDIT_PENDING_LINE, style="dim"))
    elif card.publishable:
        parts.append(Text("✓ publishable read", style="green"))
    return Group(*parts)


def errors_card(card: Scorecard) -> RenderableType:
    grid = _grid()
    for cat, n in card.error_categories.items():
        if cat == "infrastructure" and n:
            grid.add_row(
                plain(cat), Text(f"{n:,}  pending a re-run, not a failure", style="yellow")
            )
        else:
            grid.add_row(plain(cat), Text(f"{n:,}", style="red" if n else "dim"))
    return grid


def protocol_card(session: Session) -> RenderableType:
    run = session.run
    p = run.protocol

    def show(v: object) -> Text:
        """A manifest value as plain text: a Rich table would read a string as markup."""
        return plain("—" if v is None else ("yes" if v is True else "no" if v is False else v))

    grid = _grid()
    grid.add_row("episodes selected", f"{len(run.schedule):,}")
    if run.kind == "closed-run":
        grid.add_row("records in episodes.jsonl", f"{len(run.records):,}")
    elif run.source_format is not None:  # another tool's results file (LeRobot eval_info.json)
        grid.add_row("read from", plain(f"{run.path.name}: {run.source_format}"))
    else:  # an exported result.json carries outcomes, not the records
        grid.add_row("read from", plain(f"exported {run.path.name} (outcomes only, no records)"))
    grid.add_row("max steps", show(p.max_steps))
    grid.add_row("max policy calls", show(p.max_policy_calls))
    grid.add_row("replan interval", show(p.replan_interval))
    grid.add_row("fail-fast", show(p.fail_fast))
    ident = run.identity
    grid.add_row("protocol version", show(ident.protocol_version))
    grid.add_row("source revision", show(ident.source_revision))
    return grid


def audit_card(session: Session) -> RenderableType:
    if session.findings_pending:
        return Text("… auditing", style="dim")
    grid = _grid()
    for sev in ("error", "warning", "info"):
        n = session.counts.get(sev, 0)
        grid.add_row(
            Text(f"{SEVERITY_MARK[sev]} {'info' if sev == 'info' else sev + 's'}"),
            Text(f"{n:,}", style=SEVERITY_STYLE[sev] if n else "dim"),
        )
    return grid


class OverviewPane(VerticalScroll):
    """Cards in two columns; each card's text comes straight from the scorecard."""

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session

    def compose(self) -> ComposeResult:
        card = self.session.scorecard
        with Horizontal(classes="cards"):
            with Vertical(classes="card-column"):
                if card is None:
                    yield _card("Scores", plain(self.session.score_refusal, style="yellow"))
                else:
                    yield _card("Aggregate", self._aggregate(card), id="card-aggregate")
                    yield _card("Denominators", denominators_card(card), id="card-denominators")
            with Vertical(classes="card-column"):
                if card is not None:
                    yield _card("Error categories", errors_card(card), id="card-errors")
                yield _card("Protocol", protocol_card(self.session), id="card-protocol")
                yield _card("Audit", audit_card(self.session), id="card-audit")

    def _aggregate(self, card: Scorecard) -> RenderableType:
        s = self.session
        return aggregate_card(
            card, bootstrap_pending=s.bootstrap_pending, audit_pending=s.findings_pending
        )

    def audit_updated(self) -> None:
        """The audit landed: its counts, and the card scored with its findings."""
        for static in self.query("#card-audit").results(Static):
            static.update(audit_card(self.session))
        self.scores_updated()

    def scores_updated(self) -> None:
        card = self.session.scorecard
        # Not composed yet (the bootstrap can finish first on a busy machine): compose reads the
        # session's card, which is already the full one, so there is nothing to update.
        if card is not None:
            for static in self.query("#card-aggregate").results(Static):
                static.update(self._aggregate(card))
            for static in self.query("#card-denominators").results(Static):
                static.update(denominators_card(card))


def _card(title: str, body: RenderableType, *, id: str | None = None) -> Static:
    static = Static(body, classes="card", id=id)
    static.border_title = title
    return static
