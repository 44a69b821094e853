"""The header: who and what was evaluated, the headline with its denominators, the verdict.

It sits above every screen of a run (tabs, record, file), so the audit verdict and
`successes / selected` are always in view. Below 110 columns the counts go on a line of their
own (`.-narrow` in evalview.tcss), so an 80-column terminal still shows every number.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from evalview.session import Session
from evalview.tui.fmt import pct
from evalview.tui.safe import clean


def identity_text(session: Session, *, labelled: bool = True) -> Text:
    """Run, policy with its checkpoint, benchmark: in the order a reviewer tells reads apart, so
    a narrow terminal cuts the benchmark (also on the Overview) before the checkpoint. Unlabelled
    (below 110 columns) the parts are separated by `·` and the words `policy`, `benchmark` go."""
    ident = session.run.identity
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(clean(ident.run_id or session.path.name), style="bold")
    policy = " ".join(x for x in (ident.policy_name, ident.policy_version) if x)
    bench = " ".join(x for x in (ident.benchmark_name, ident.benchmark_version) if x)
    for label, value in (("policy", policy), ("benchmark", bench)):
        text.append(f"  {label} " if labelled else " · ", style="dim")
        text.append(clean(value or ("unknown" if labelled else f"{label} unknown")))
    return text


def headline_text(session: Session) -> Text:
    """`successes / selected` first and largest (or why there is no score)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    card = session.scorecard
    if card is None:
        text.append("no score: ", style="bold yellow")
        text.append(clean(session.score_refusal or "the run could not be scored"))
        return text
    d = card.denominators
    text.append("successes / selected ", style="dim")
    text.append(f"{d.successes:,} / {d.selected:,}", style="bold")
    text.append(f"  {pct(card.rates.selected_success_rate)}", style="bold")
    return text


def counts_text(session: Session) -> Text:
    """Attempted, completed, errors and unattempted, labelled: the headline's other denominators."""
    text = Text(no_wrap=True, overflow="ellipsis")
    card = session.scorecard
    if card is None:
        return text
    d = card.denominators
    for i, (label, n, style) in enumerate(
        (
            ("attempted", d.attempted, ""),
            ("completed", d.completed, ""),
            ("errors", d.errors, "red" if d.errors else ""),
            ("unattempted", d.unattempted, "yellow" if d.unattempted else ""),
        )
    ):
        text.append(f"{'   ' if i else ''}{label} ", style="dim")
        text.append(f"{n:,}", style=style)
    return text


class RunHeader(Vertical):
    """Identity with the audit verdict boxed on its right; below, the headline and its counts."""

    def __init__(self, session: Session) -> None:
        super().__init__(id="run-header")
        self.session = session

    def compose(self) -> ComposeResult:
        kind, verdict = self.session.verdict
        with Horizontal(id="header-top"):
            yield Static(identity_text(self.session), id="identity", classes="identity-wide")
            yield Static(
                identity_text(self.session, labelled=False), id="identity-short",
                classes="identity-narrow",
            )
            yield Static(verdict, id="verdict", classes=f"verdict-{kind}")
        with Horizontal(id="header-numbers"):
            yield Static(headline_text(self.session), id="headline")
            yield Static(counts_text(self.session), id="counts")

    def audit_updated(self) -> None:
        """The audit landed after the header was drawn: its verdict replaces "auditing…" (the
        numbers below it do not depend on the audit)."""
        kind, verdict = self.session.verdict
        for static in self.query("#verdict").results(Static):
            static.set_classes(f"verdict-{kind}")
            static.update(verdict)
        for static in self.query("#headline").results(Static):
            static.update(headline_text(self.session))
