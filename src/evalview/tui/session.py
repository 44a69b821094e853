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

from evalview.findings import Finding, Severity, audit_verdict, count_by_severity
from evalview.model.run import Run

if TYPE_CHECKING:
    from evalview.psr import CheckpointReport, PsrOptions, RunPsrReport
    from evalview.stats import Scorecard

#: The stages of opening a run, in order, for the progress bar.
STAGES = ("reading", "auditing", "scoring")

#: (stage index, stage name, fraction of that stage done in [0, 1]).
Progress = Callable[[int, str, float], None]

#: Names `load_run` reads as part of a closed run, never as a single-file input.
_RUN_FILES = ("manifest.json", "episodes.jsonl", "status.json", "summary.json")


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
    #: Reconstructed PSR of the run (computed in the loading worker, never on the UI thread),
    #: or why there is none.
    psr: RunPsrReport | None = None
    psr_refusal: str | None = None
    #: True until the worker has computed `psr` (deferred with the bootstrap, after the first
    #: paint); `psr_options` is what it will use.
    psr_pending: bool = False
    psr_options: PsrOptions | None = None

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
        return audit_verdict(self.counts)


@dataclass(frozen=True, slots=True)
class PsrFiles:
    """The partial-credit side files `evalview PATH` accepts (as `evalview psr` does)."""

    bare_targets: Path | None = None
    catalog: Path | None = None

    def options(self) -> PsrOptions:
        """Read the files (in the loading worker); InputError or PsrError name the bad one."""
        from evalview.psr import PsrOptions, load_bare_targets, load_catalog

        bare = self.bare_targets
        return PsrOptions(
            bare_targets=None if bare is None else load_bare_targets(bare),
            catalog=None if self.catalog is None else load_catalog(self.catalog),
            catalog_source=None if self.catalog is None else str(self.catalog),
        )


def open_session(
    path: Path,
    progress: Progress | None = None,
    *,
    defer_bootstrap: bool = False,
    psr_options: PsrOptions | None = None,
) -> Session:
    """Load, audit and score `path`. Raises InputError when it cannot be read as a run at all.

    With `defer_bootstrap` the card is scored without the seed bootstrap (the slow part: about
    0.8 s for 10,000 cases) so the app can paint; `finish_bootstrap` then gives the full card.
    The partial-credit report is computed here too (with `defer_bootstrap`, by the app's second
    worker via `finish_partial_credit`, 0.1-0.2 s later), never on the UI thread.
    """
    from evalview.audit import audit
    from evalview.load import load_run

    def step(i: int, done: float = 0.0) -> None:
        if progress is not None:
            progress(i, STAGES[i], done)

    def reading(done: int, total: int) -> None:
        step(0, done / total if total else 1.0)

    step(0)
    run = load_run(path, progress=reading if progress is not None else None)
    step(1)
    findings = audit(run)
    step(2)
    scorecard, refusal = score(run, findings, bootstrap=0 if defer_bootstrap else None)
    psr, psr_refusal = (None, None) if defer_bootstrap else partial_credit(run, psr_options)
    return Session(
        path=path,
        run=run,
        findings=findings,
        scorecard=scorecard,
        score_refusal=refusal,
        bootstrap_pending=defer_bootstrap and scorecard is not None,
        psr=psr,
        psr_refusal=psr_refusal,
        psr_pending=defer_bootstrap,
        psr_options=psr_options,
    )


def open_input(
    path: Path,
    progress: Progress | None = None,
    *,
    defer_bootstrap: bool = False,
    psr_files: PsrFiles | None = None,
) -> Session | CheckpointReport:
    """What `evalview PATH` opens: a run's `Session`, or the scored report of a PSR
    checkpoint-inputs JSON. Raises InputError (unreadable, exit 2) or PsrError (refused, exit 1),
    with the same messages as `evalview psr`.
    """
    from evalview.psr import PsrError, score_inputs
    from evalview.psr.inputs import parse_checkpoint_inputs

    files = psr_files or PsrFiles()
    options = files.options()
    inputs = _checkpoint_inputs(path)
    if inputs is None:
        if files.catalog is not None:
            raise PsrError(
                f"{path}: --catalog applies to checkpoint-inputs files; a closed run's manifest "
                "schedule already declares its tasks."
            )
        return open_session(
            path, progress, defer_bootstrap=defer_bootstrap, psr_options=options
        )
    if progress is not None:
        progress(2, STAGES[2], 0.0)
    return score_inputs(parse_checkpoint_inputs(path, inputs), options)


def _checkpoint_inputs(path: Path) -> object | None:
    """The parsed JSON when `path` is a checkpoint-inputs file, else None (load_run decides, and
    words the error, for everything else)."""
    from evalview.load import InputError
    from evalview.psr.inputs import looks_like_checkpoint_inputs, read_json_file

    if path.name in _RUN_FILES or not path.is_file():
        return None
    try:
        value = read_json_file(path, "input")
    except InputError:
        return None
    return value if looks_like_checkpoint_inputs(value) else None


def partial_credit(
    run: Run, options: PsrOptions | None = None
) -> tuple[RunPsrReport | None, str | None]:
    """The run's reconstructed PSR, or why it has none (a refusal, or a bug in the core)."""
    from evalview.psr import PsrError, score_run

    if run.kind != "closed-run":
        return None, (
            f"{run.path.name} is an exported result, which publishes outcomes but not the "
            "verifier messages partial credit is read from. Open the closed run it came from."
        )
    try:
        return score_run(run, options), None
    except PsrError as exc:
        return None, str(exc)
    except Exception as exc:
        return None, f"partial credit failed ({type(exc).__name__}: {exc})"


def finish_partial_credit(session: Session) -> tuple[RunPsrReport | None, str | None]:
    """The deferred partial-credit report (in a worker thread)."""
    return partial_credit(session.run, session.psr_options)


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
