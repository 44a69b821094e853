"""One road from a path to the numbers: path → `Run` → findings → `Scorecard`, built once.

Every view uses it: `evalview check` and `score` (`open_run`, `score_session`), the export
(`evalview.report.export`), and the app (`open_input`, `open_session`, which run in a worker and
report their stage, so a large run shows progress instead of a frozen frame). The run is read
once, audited once, and scored with those findings (the scorer never audits on its own); adding
the seed bootstrap later (`finish_bootstrap`) recomputes nothing else.

Headless: never imports Textual.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from evalview.findings import Finding, Severity, audit_verdict, count_by_severity, sort_findings
from evalview.fmt import STAGES as _STAGES
from evalview.load import InputError, ReadOptions, Source, read_input, select_run
from evalview.load.checkpoint_inputs import FORMAT as CHECKPOINT_INPUTS
from evalview.model.run import Run

if TYPE_CHECKING:
    from evalview.harness.score import HarnessScore
    from evalview.model.harness_file import HarnessFile
    from evalview.psr import CheckpointReport, PsrOptions, RunPsrReport
    from evalview.stats import BenchmarkDeclaration, Scorecard

#: The stages of opening a run, in order, for the progress bar (defined in evalview.fmt).
STAGES = _STAGES

#: (stage index, stage name, fraction of that stage done in [0, 1]).
Progress = Callable[[int, str, float], None]


@dataclass(frozen=True, slots=True)
class ScoreOptions:
    """How to score a read (the options of `evalview score`; the defaults are its defaults)."""

    #: seed-bootstrap resamples; None: the scorer's default (10,000); 0: off
    bootstrap: int | None = None
    benchmark: BenchmarkDeclaration | None = None
    view: str | None = None
    metric: str | None = None
    allow_errors: bool = False
    allow_off_protocol: bool = False


#: What `evalview export` scores: errored cases stay in the denominators as non-successes, and an
#: off-protocol read is exported labelled OFF-PROTOCOL (the audit's errors refuse it earlier).
EXPORT_SCORING = ScoreOptions(allow_errors=True, allow_off_protocol=True)


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

    def options(self) -> PsrOptions | None:
        """Read the files (in the loading worker); InputError or PsrError name the bad one.
        None when neither is given: the defaults, without importing the PSR core before the
        run screen (it is needed only after it, by the partial-credit worker)."""
        if self.bare_targets is None and self.catalog is None:
            return None
        from evalview.psr import PsrOptions, load_bare_targets, load_catalog

        bare = self.bare_targets
        return PsrOptions(
            bare_targets=None if bare is None else load_bare_targets(bare),
            catalog=None if self.catalog is None else load_catalog(self.catalog),
            catalog_source=None if self.catalog is None else str(self.catalog),
        )


def open_run(
    path: str | Path | Source,
    *,
    read: ReadOptions | None = None,
    name: str | None = None,
    progress: Progress | None = None,
) -> Session:
    """Read and audit `path` (no score yet). InputError (exit 2) when it cannot be read as a run.

    `read`: reading options (`freeze`, `lazy_table` for short-lived commands; `message_key`).
    `name`: which read of a file of several named reads. `progress`: the stages, for a loading bar.
    """
    from evalview.load.registry import load_run

    source = path if isinstance(path, Source) else Source(path)
    options = _with_progress(read or ReadOptions(), progress)
    _step(progress, 0)
    if name is None:
        run = load_run(
            source.path,
            message_key=options.message_key,
            freeze=options.freeze,
            lazy_table=options.lazy_table,
            progress=options.progress,
            on_read=options.on_read,
        )
    else:
        run = select_run(read_input(source, options), name)
    return _audited(source.path, run, progress)


def _step(progress: Progress | None, i: int, done: float = 0.0) -> None:
    if progress is not None:
        progress(i, STAGES[i], done)


def _with_progress(options: ReadOptions, progress: Progress | None) -> ReadOptions:
    """`options` whose reader reports its bytes as the fraction of the "reading" stage."""
    if progress is None:
        return options

    def reading(done: int, total: int) -> None:
        _step(progress, 0, done / total if total else 1.0)

    return replace(options, progress=reading)


def _audited(path: Path, run: Run, progress: Progress | None) -> Session:
    _step(progress, 1)
    return Session(path=path, run=run, findings=audit_read(run))


def audit_read(run: Run) -> list[Finding]:
    """The audit's findings, and for a reopened result.json every recorded number that its own
    episodes do not give (EV9xx): such a file is audited, not trusted."""
    from evalview.audit import audit

    findings = audit(run)
    if run.published is None:  # not a result.json: `check` imports no scorer (numpy, pydantic)
        return findings
    from evalview.stats.reaudit import recompute_findings

    return sort_findings(findings + recompute_findings(run))


def score_session(session: Session, options: ScoreOptions | None = None) -> Scorecard:
    """Score the session's run with the findings already in it (the audit does not run again).

    The scorer always returns a card; `card.refusals` say whether it may be reported.
    """
    from evalview.stats import score_run
    from evalview.stats.bootstrap import DEFAULT_RESAMPLES

    o = options or ScoreOptions()
    return score_run(
        session.run,
        findings=session.findings,
        bootstrap=DEFAULT_RESAMPLES if o.bootstrap is None else o.bootstrap,
        benchmark=o.benchmark,
        view=o.view,
        metric=o.metric,
        allow_errors=o.allow_errors,
        allow_off_protocol=o.allow_off_protocol,
    )


def open_session(
    path: Path,
    progress: Progress | None = None,
    *,
    defer_bootstrap: bool = False,
    psr_options: PsrOptions | None = None,
) -> Session:
    """Load, audit and score `path` for the app. Raises InputError when it cannot be read as a
    run at all.

    With `defer_bootstrap` the card is scored without the seed bootstrap (the slow part: about
    0.8 s for 10,000 cases) so the app can paint; `finish_bootstrap` then adds the interval to
    that card. The partial-credit report is computed here too (with `defer_bootstrap`, by the
    app's second worker via `finish_partial_credit`, 0.1-0.2 s later), never on the UI thread.
    """
    return _for_the_app(
        open_run(path, progress=progress), progress, defer_bootstrap, psr_options
    )


def _for_the_app(
    session: Session,
    progress: Progress | None,
    defer_bootstrap: bool,
    psr_options: PsrOptions | None,
) -> Session:
    """Score the audited session (and its partial credit unless deferred), as the app shows it."""
    _step(progress, 2)
    scorecard, refusal = score(
        session.run, session.findings, bootstrap=0 if defer_bootstrap else None
    )
    psr, psr_refusal = (
        (None, None) if defer_bootstrap else partial_credit(session.run, psr_options)
    )
    session.scorecard, session.score_refusal = scorecard, refusal
    session.bootstrap_pending = defer_bootstrap and scorecard is not None
    session.psr, session.psr_refusal = psr, psr_refusal
    session.psr_pending = defer_bootstrap
    session.psr_options = psr_options
    return session


def open_input(
    path: Path,
    progress: Progress | None = None,
    *,
    defer_bootstrap: bool = False,
    psr_files: PsrFiles | None = None,
    read: str | None = None,
) -> Session | CheckpointReport:
    """What `evalview PATH` opens: a run's `Session`, or the scored report of a PSR
    checkpoint-inputs JSON. Raises InputError (unreadable, exit 2) or PsrError (refused, exit 1),
    with the same messages as `evalview psr`. The input is read once, by the reader registry.
    `read`: which read of a file of several named reads (LeRobot).
    """
    files = psr_files or PsrFiles()
    options = files.options()
    source = Source(path)
    inputs = _is_checkpoint_inputs(source)
    if not inputs and files.catalog is not None:
        from evalview.psr import PsrError

        raise PsrError(
            f"{path}: --catalog applies to checkpoint-inputs files; a closed run's manifest "
            "schedule already declares its tasks."
        )
    if inputs:
        reading = read_input(source)
        if reading.format == CHECKPOINT_INPUTS:
            from evalview.psr import score_inputs
            from evalview.psr.inputs import parse_checkpoint_inputs

            _step(progress, 2)
            return score_inputs(parse_checkpoint_inputs(path, reading.payload), options)
    session = open_run(source, progress=progress, name=read)
    return _for_the_app(session, progress, defer_bootstrap, options)


def open_reads(
    path: str | Path | Source, *, name: str | None = None, read: ReadOptions | None = None
) -> list[tuple[str | None, Session]]:
    """Every read at `path`, audited, as (name, Session): one per key of a file of several named
    reads (LeRobot), else the one read (name None). `name` picks one read. InputError as
    `open_run`."""
    source = path if isinstance(path, Source) else Source(path)
    if name is not None:
        return [(name, open_run(source, read=read, name=name))]
    if source.is_dir or not source.exists:
        return [(None, open_run(source, read=read))]
    reading = read_input(source, read or ReadOptions())
    if len(reading.runs) > 1:
        return [(r.name, _audited(source.path, r.run, None)) for r in reading.runs]
    if len(reading.runs) == 1:
        return [(None, _audited(source.path, reading.runs[0].run, None))]
    return [(None, open_run(source, read=read))]  # words why it is not a run


def named_reads(path: Path) -> dict[str, str]:
    """The reads of a file of several named reads (LeRobot), key → one line about it; {} when
    the file holds one read or is something else (opening it then says what is wrong)."""
    source = Source(path)
    try:
        if source.is_dir or not source.exists:
            return {}
        reading = read_input(source)
    except Exception:  # the loader words the problem when the run is opened
        return {}
    if len(reading.runs) < 2:
        return {}
    out = {}
    for r in reading.runs:
        run = r.run
        recorded = run.reported.get("pc_success")
        head = f"{len(run.views) or 1} group(s), {len(run.schedule):,} episodes"
        out[str(r.name)] = head + (
            f", pc_success {recorded:.1f} %" if recorded is not None else ""
        )
    return out


def _is_checkpoint_inputs(source: Source) -> bool:
    """True when the registry will read `source` as PSR checkpoint inputs (decided before the
    loading bar shows a "reading" stage, which such a small file does not have)."""
    from evalview.load import checkpoint_inputs, closed_run

    try:
        return checkpoint_inputs.READER.detect(source) and not closed_run.READER.detect(source)
    except InputError:
        return False  # unreadable: the registry words the error when the run is read


def partial_credit(
    run: Run, options: PsrOptions | None = None
) -> tuple[RunPsrReport | None, str | None]:
    """The run's reconstructed PSR, or why it has none (a refusal, or a bug in the core)."""
    from evalview.psr import PsrError, score_psr_run

    if run.kind == "lerobot":
        return None, (
            f"{run.path.name} is a LeRobot eval_info.json: it records each episode's success, "
            "not the verifier checkpoint messages partial credit is read from."
        )
    if run.kind != "closed-run":
        return None, (
            f"{run.path.name} is an exported result, which publishes outcomes but not the "
            "verifier messages partial credit is read from. Open the closed run it came from."
        )
    try:
        return score_psr_run(run, options), None
    except PsrError as exc:
        return None, str(exc)
    except Exception as exc:
        return None, f"partial credit failed ({type(exc).__name__}: {exc})"


def finish_partial_credit(session: Session) -> tuple[RunPsrReport | None, str | None]:
    """The deferred partial-credit report (in a worker thread)."""
    return partial_credit(session.run, session.psr_options)


def finish_bootstrap(session: Session) -> tuple[Scorecard | None, str | None]:
    """The full scorecard: the session's card with the seed bootstrap `evalview score` computes
    by default added to it (nothing else is recomputed)."""
    from evalview.stats import with_bootstrap
    from evalview.stats.bootstrap import DEFAULT_RESAMPLES

    if session.scorecard is None:
        return score(session.run, session.findings)
    try:
        return with_bootstrap(session.scorecard, DEFAULT_RESAMPLES), None
    except Exception as exc:
        return None, f"the scorer failed ({type(exc).__name__}: {exc})"


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


# -- benchmark-harness results (arms x seeds: no Run, their own audit and score) ---------------


@dataclass
class HarnessSession:
    """An opened benchmark-harness result, audited once (`evalview.harness`)."""

    path: Path
    file: HarnessFile
    findings: list[Finding]
    counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = count_by_severity(self.findings)


def open_harness(path: str | Path | Source) -> HarnessSession | None:
    """The benchmark-harness result at `path`, read by the registry and audited; None when the
    path is another format (or missing: `open_run` words that). InputError when it is a
    harness file that cannot be read as JSON at all."""
    from evalview.load.harness_result import FORMAT, READER

    source = path if isinstance(path, Source) else Source(path)
    if not source.exists or not READER.detect(source):
        return None
    from evalview.harness.audit import audit_harness

    reading = read_input(source)
    if reading.format != FORMAT:
        return None
    hf: HarnessFile = reading.payload
    return HarnessSession(source.path, hf, audit_harness(hf))


def score_harness_session(session: HarnessSession, *, allow_errors: bool = False
                          ) -> HarnessScore | None:
    """The harness score with the session's findings (None for a file that does not validate;
    its EV801 findings say why). With audit errors it is refused unless `allow_errors`."""
    from evalview.harness.score import score_harness

    result = session.file.result
    if result is None:
        return None
    return score_harness(result, session.findings, allow_errors=allow_errors)

