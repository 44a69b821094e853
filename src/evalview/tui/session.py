"""What the app shows, built by the headless core off the UI thread.

The TUI computes nothing of its own: a `Session` holds the core's objects (the `Run`, the audit's
findings, the `Scorecard`) and the screens only format them. `open_session` runs in a worker and
reports its stage, so a large run shows progress instead of a frozen frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from evalview.findings import Finding, Severity, count_by_severity
from evalview.model.run import Run

if TYPE_CHECKING:
    from evalview.stats import Scorecard

#: The stages of opening a run, in order, for the progress bar.
STAGES = ("reading", "auditing", "scoring")

Progress = Callable[[int, str], None]


@dataclass
class Session:
    """One opened run and everything the core said about it."""

    path: Path
    run: Run
    findings: list[Finding]
    scorecard: Scorecard | None = None
    #: Why the scorer refused (or failed on) this run; shown where the numbers would be.
    score_refusal: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    #: True while the seed bootstrap is still being computed (the card has no interval yet).
    bootstrap_pending: bool = False

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = count_by_severity(self.findings)

    @property
    def reading_failed(self) -> bool:
        """True when the reader itself reported errors (EV1xx): the run is not fully read."""
        return any(
            f.severity is Severity.ERROR and f.code.startswith("EV1") for f in self.findings
        )

    @property
    def verdict(self) -> tuple[str, str]:
        """(style name, text) for the always-visible audit verdict."""
        e, w = self.counts.get("error", 0), self.counts.get("warning", 0)
        if e:
            return "error", f"✗ {e} error{'s' * (e != 1)}, {w} warning{'s' * (w != 1)}"
        if w:
            return "warning", f"⚠ {w} warning{'s' * (w != 1)}"
        return "success", "✓ clean"


def open_session(
    path: Path, progress: Progress | None = None, *, defer_bootstrap: bool = False
) -> Session:
    """Load, audit and score `path`. Raises InputError when it cannot be read as a run at all.

    With `defer_bootstrap` the card is scored without the seed bootstrap (the slow part: about
    0.8 s for 10,000 cases) so the app can paint; `finish_bootstrap` then gives the full card.
    """
    from evalview.audit import audit
    from evalview.load import load_run

    def step(i: int) -> None:
        if progress is not None:
            progress(i, STAGES[i])

    step(0)
    run = load_run(path)
    step(1)
    findings = audit(run)
    step(2)
    scorecard, refusal = score(run, findings, bootstrap=0 if defer_bootstrap else None)
    return Session(
        path=path,
        run=run,
        findings=findings,
        scorecard=scorecard,
        score_refusal=refusal,
        bootstrap_pending=defer_bootstrap and scorecard is not None,
    )


def finish_bootstrap(session: Session) -> tuple[Scorecard | None, str | None]:
    """The full scorecard, with the bootstrap `evalview score` computes by default."""
    return score(session.run, session.findings)


def score(
    run: Run, findings: list[Finding], *, bootstrap: int | None = None
) -> tuple[Scorecard | None, str | None]:
    """The scorecard (refusals live inside it), or why the scorer failed outright.

    The scorer always returns a card, refused or not; an exception here is a bug in the core, and
    the app still shows the findings with the reason in place of the numbers.
    """
    from evalview.stats import score_run

    try:
        if bootstrap is None:
            return score_run(run, findings=findings), None
        return score_run(run, findings=findings, bootstrap=bootstrap), None
    except Exception as exc:
        return None, f"the scorer failed ({type(exc).__name__}: {exc})"
