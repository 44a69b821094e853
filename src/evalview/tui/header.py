"""The header: who and what was evaluated, the headline with its denominators, the verdict.

It sits above every tab, so the audit verdict and `successes / selected` are always in view.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from evalview.session import Session
from evalview.tui.fmt import pct
from evalview.tui.safe import clean


def identity_text(session: Session) -> Text:
    ident = session.run.identity
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(clean(ident.run_id or session.path.name), style="bold")
    bench = " ".join(x for x in (ident.benchmark_name, ident.benchmark_version) if x)
    text.append("  benchmark ", style="dim")
    text.append(clean(bench or "unknown"))
    policy = " ".join(x for x in (ident.policy_name, ident.policy_version) if x)
    text.append("  policy ", style="dim")
    text.append(clean(policy or "unknown"))
    return text


def headline_text(session: Session) -> Text:
    """`successes / selected` first and largest; attempted and completed beside it, labelled."""
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
    text.append("   attempted ", style="dim")
    text.append(f"{d.attempted:,}")
    text.append("   completed ", style="dim")
    text.append(f"{d.completed:,}")
    text.append("   errors ", style="dim")
    text.append(f"{d.errors:,}", style="red" if d.errors else "")
    text.append("   unattempted ", style="dim")
    text.append(f"{d.unattempted:,}", style="yellow" if d.unattempted else "")
    return text


class RunHeader(Horizontal):
    """Identity and headline on the left, the audit verdict boxed on the right."""

    def __init__(self, session: Session) -> None:
        super().__init__(id="run-header")
        self.session = session

    def compose(self) -> ComposeResult:
        kind, verdict = self.session.verdict
        with Vertical(id="run-identity"):
            yield Static(identity_text(self.session), id="identity")
            yield Static(headline_text(self.session), id="headline")
        yield Static(verdict, id="verdict", classes=f"verdict-{kind}")
