"""The only road from an input to findings and numbers: address → reading → audit → score.

Every door takes it: `check`, `check DIR`, `table`, `score`, `compare`, `contrast`, `export`,
`psr`, the app, the Runs screen and watch. An input is addressed by one value (`Address`: path,
read name, side files), read and parsed once (`read_address`), and each of its reads audited
once by the whole audit (`audit_read`: the reopened result.json's re-audit included); what it
holds (episode reads, a harness's arms, PSR checkpoint inputs) is the reader's declaration, not a
switch here. The scorer takes the audit's findings and never audits on its own; adding the seed
bootstrap later (`finish_bootstrap`) recomputes nothing else.

The app may paint before the audit: `open_input(..., defer_audit=True)` gives a read scored
without its findings (`findings_pending`; its verdict says "auditing…"), and `finish_audit`
then audits it and scores it again with the findings, so every number and refusal it ends with
is the one the commands print.

Headless: never imports Textual.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalview.findings import Finding, Severity, audit_verdict, count_by_severity, sort_findings
from evalview.fmt import STAGES as _STAGES
from evalview.fmt import fixed
from evalview.load import InputError, ReadOptions, Source, read_input, select_run
from evalview.model.address import Address

if TYPE_CHECKING:
    from evalview.compare.contrast import Contrast
    from evalview.compare.paired import Comparison
    from evalview.harness.score import HarnessScore
    from evalview.load.reader import Reading, RecordHook
    from evalview.model.harness_file import HarnessFile
    from evalview.model.run import Run
    from evalview.psr import CheckpointReport, PsrOptions, RunPsrReport
    from evalview.stats import BenchmarkDeclaration, Scorecard

#: The stages of opening a run, in order, for the progress bar (defined in evalview.fmt).
STAGES = _STAGES

#: The verdict of a read shown before its audit has run: (style name, text).
AUDIT_PENDING = ("pending", "… auditing")

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
    #: a grouping of the episodes (an Inspect sample metadata key) to break the rate down by
    group_by: str | None = None


#: What `evalview export` scores: errored cases stay in the denominators as non-successes, and an
#: off-protocol read is exported labelled OFF-PROTOCOL (the audit's errors refuse it earlier).
EXPORT_SCORING = ScoreOptions(allow_errors=True, allow_off_protocol=True)


class OpenedRead:
    """What every opened read answers, whatever its format (an episode read's `Session`, a
    harness result's `HarnessSession`): where it is, its audit's counts and the one verdict, so
    a door that only audits never asks which it has."""

    path: Path
    findings: list[Finding]
    counts: dict[str, int]
    address: Address | None

    def _complete(self) -> None:
        if not self.counts:
            self.counts = count_by_severity(self.findings)
        if self.address is None:
            self.address = Address(self.path)

    @property
    def where(self) -> Address:
        """The address, always set once built (`_complete` defaults it to the lone read)."""
        assert self.address is not None
        return self.address

    #: True while the audit has not run yet (the app paints first): no verdict to show.
    findings_pending: bool = False

    @property
    def verdict(self) -> tuple[str, str]:
        """(style name, text) for the always-visible audit verdict, the same for every format;
        ("pending", "auditing…") until the audit has run."""
        if self.findings_pending:
            return AUDIT_PENDING
        return audit_verdict(self.counts)


@dataclass
class Session(OpenedRead):
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
    #: where it was opened from (path, read name, side files): export, watch and compare
    #: re-enter through it; defaults to the lone read at `path`
    address: Address | None = None
    #: True until `finish_audit` has run: `findings` is empty and `scorecard` was scored
    #: without them (its numbers are final; its refusals may still gain "audit-errors").
    findings_pending: bool = False

    def __post_init__(self) -> None:
        self._complete()

    @property
    def reading_failed(self) -> bool:
        """True when the reader itself reported errors (EV1xx): the run is not fully read.
        Known before the audit: those findings are the reader's (`run.reading_findings`)."""
        found = self.run.reading_findings if self.findings_pending else self.findings
        return any(f.severity is Severity.ERROR and f.code.startswith("EV1") for f in found)



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


def read_address(
    address: Address | Source,
    options: ReadOptions | None = None,
    progress: Progress | None = None,
) -> Reading:
    """The one read and parse of an input, by the first reader (by priority) that knows it."""
    _step(progress, 0)
    return read_input(address if isinstance(address, Source) else Source(address.path),
                      _with_progress(options or ReadOptions(), progress))


def open_reads(
    path: str | Path | Address | Source,
    *,
    name: str | None = None,
    read: ReadOptions | None = None,
    progress: Progress | None = None,
) -> list[Session | HarnessSession]:
    """Every read of an input, each audited once: one `Session` per episode read (every key of
    a file of several named reads, or the one `name` picks), or the `HarnessSession` of a
    benchmark-harness result. NotARead (an InputError, exit 2) for an input that holds no read
    (PSR checkpoint inputs: `evalview psr` reads those), InputError when it cannot be read."""
    address, source = _address_and_source(path, name)
    reading = read_address(source, checking_records(read), progress)
    return reads_of(reading, address, progress)


def reads_of(
    reading: Reading, address: Address, progress: Progress | None = None
) -> list[Session | HarnessSession]:
    """The audited reads of a reading already read (the app keeps it while the user picks)."""
    from evalview.load.registry import holds_of

    if holds_of(reading.format) == "arms":
        if address.read is not None:
            raise InputError(
                f"{address.path}: a benchmark-harness result holds arms x seeds, no named reads; "
                f"drop --read {address.read}."
            )
        _step(progress, 1)
        return [_harness_session(address, reading.payload)]
    if address.read is not None or len(reading.runs) <= 1:
        # the one read (select_run raises NotARead for a reading of none, naming what it is)
        return [_audited(address, select_run(reading, address.read), progress)]
    return [_audited(address.with_read(r.name), r.run, progress) for r in reading.runs]


def open_one(
    path: str | Path | Address | Source,
    *,
    name: str | None = None,
    read: ReadOptions | None = None,
    progress: Progress | None = None,
) -> Session | HarnessSession:
    """The one read at `path`: a harness result's session, or the episode read `name` picks
    (InputError when the file holds several and no name says which). Only that read is
    audited (`export`, and each side of `compare`)."""
    address, source = _address_and_source(path, name)
    return reads_of(read_address(source, checking_records(read), progress), address, progress)[0]


def open_run(
    path: str | Path | Address | Source,
    *,
    read: ReadOptions | None = None,
    name: str | None = None,
    progress: Progress | None = None,
) -> Session:
    """The one episode read at `path` (or the one called `name`), audited, not yet scored.

    InputError (exit 2) when it holds several reads and no name says which, or no episode read
    at all (a harness result's arms: `open_reads` gives those).
    """
    address, source = _address_and_source(path, name)
    reading = read_address(source, checking_records(read), progress)
    from evalview.load.errors import NotARead
    from evalview.load.registry import holds_of, reader_named

    if holds_of(reading.format) == "arms":  # refused before its audit: no harness work done
        reader = reader_named(reading.format)
        noun = reader.described if reader is not None else reading.format
        raise NotARead(f"{address.path}: " + _NOT_EPISODES.format(noun=noun))
    return _audited(address, select_run(reading, address.read), progress)


_NOT_EPISODES = (
    "{noun}, which holds arms x seeds, not an episode read: `evalview check`, `score`, "
    "`compare`, `export`, `table` and the app read it as such."
)


def _address_and_source(
    path: str | Path | Address | Source, name: str | None
) -> tuple[Address, Source]:
    if isinstance(path, Source):
        return Address(path.path, name), path
    address = Address.of(path, name)
    return address, Source(address.path)


def checking_records(options: ReadOptions | None) -> ReadOptions:
    """`options` whose closed-run reader runs the audit's per-record checks as it parses (these
    doors audit each read at once; see audit.checks.episodes.RecordChecks)."""
    options = options or ReadOptions()
    return options if options.on_record is not None else replace(options, on_record=_record_checks)


def _record_checks(documents: dict[str, dict[str, Any] | None]) -> RecordHook:
    from evalview.audit.checks.episodes import RecordChecks  # only for a closed run

    return RecordChecks(documents)


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


def _audited(
    address: Address, run: Run, progress: Progress | None, *, defer: bool = False
) -> Session:
    """The read's session, audited (or, with `defer`, marked for `finish_audit`)."""
    if defer:
        return Session(
            path=address.path, run=run, findings=[], address=address, findings_pending=True
        )
    _step(progress, 1)
    return Session(path=address.path, run=run, findings=audit_read(run), address=address)


@dataclass(frozen=True)
class Audited:
    """What `finish_audit` found: the findings, their counts and the card scored with them
    (as `_for_the_app` scores it: without the bootstrap when that is still to come)."""

    findings: list[Finding]
    counts: dict[str, int]
    scorecard: Scorecard | None
    score_refusal: str | None


def finish_audit(session: Session) -> Audited:
    """Audit a read opened with `defer_audit` and score it again with the findings (in a worker
    thread): the refusals and labels depend on the audit's errors, the numbers do not, so the
    card shown before is replaced by this one, the one `evalview score` would give."""
    findings = audit_read(session.run)
    card, refusal = score(
        session.run, findings, bootstrap=0 if session.bootstrap_pending else None
    )
    return Audited(findings, count_by_severity(findings), card, refusal)


def apply_audit(session: Session, audited: Audited) -> None:
    """Put the audit's results into the session (on the thread that owns it)."""
    session.findings, session.counts = audited.findings, audited.counts
    session.scorecard, session.score_refusal = audited.scorecard, audited.score_refusal
    session.findings_pending = False


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

    The scorer always returns a card; `card.refusals` say whether it may be reported. A refused
    card carries no bootstrap: every door that scores through here (`score`, `export`) reports no
    number for a refused read, so its 10,000 resamples would be computed only to be thrown away.
    The card is scored without it and `with_bootstrap` adds it (the same interval, the refusals
    never depend on it).
    """
    from evalview.stats import score_run, with_bootstrap
    from evalview.stats.bootstrap import DEFAULT_RESAMPLES

    o = options or ScoreOptions()
    card = score_run(
        session.run,
        findings=session.findings,
        bootstrap=0,
        benchmark=o.benchmark,
        view=o.view,
        metric=o.metric,
        allow_errors=o.allow_errors,
        allow_off_protocol=o.allow_off_protocol,
        group_by=o.group_by,
    )
    resamples = DEFAULT_RESAMPLES if o.bootstrap is None else o.bootstrap
    return card if card.refused or not resamples else with_bootstrap(card, resamples)


def open_session(
    path: Path | Address,
    progress: Progress | None = None,
    *,
    defer_bootstrap: bool = False,
    psr_options: PsrOptions | None = None,
) -> Session:
    """Load, audit and score one episode read for the app (`path` may name a read). Raises
    InputError when it cannot be read as one.

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
    # The episode table (built on first use by some readers) is built here, in the loading
    # worker: should building it fail, the app says so on its loading screen, instead of every
    # pane raising on the UI thread after "the scorer failed" (the app froze, q included).
    _ = session.run.episodes
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


@dataclass(frozen=True)
class NamedReads:
    """A file of several named reads, read once, waiting for the user to pick one (the app asks
    over its loading screen; `open_named` then audits the one picked without reading again)."""

    address: Address
    reading: Reading
    #: read key -> one line about it, in file order
    summaries: dict[str, str]


def open_input(
    path: Path | Address,
    progress: Progress | None = None,
    *,
    defer_bootstrap: bool = False,
    defer_audit: bool = False,
    psr_files: PsrFiles | None = None,
    read: str | None = None,
) -> Session | HarnessSession | CheckpointReport | NamedReads:
    """What `evalview PATH` opens, from one read of the input: a run's `Session` (scored for the
    app), a harness result's `HarnessSession`, the scored report of PSR checkpoint inputs, or the
    `NamedReads` of a file of several reads when no `read` says which. Raises InputError
    (unreadable, exit 2) or PsrError (refused, exit 1), with the same messages as the commands.
    With `defer_audit` a run's session comes back not yet audited (`finish_audit` audits it).
    """
    address = Address.of(path, read)
    if psr_files is not None:
        address = replace(address, bare_targets=psr_files.bare_targets, catalog=psr_files.catalog)
    files = PsrFiles(address.bare_targets, address.catalog)
    options = files.options()
    reading = read_address(address, progress=progress)
    from evalview.load.registry import holds_of

    holds = holds_of(reading.format)
    if holds != "checkpoint-inputs" and files.catalog is not None:
        from evalview.psr import PsrError

        raise PsrError(
            f"{address.path}: --catalog applies to checkpoint-inputs files; a closed run's "
            "manifest schedule already declares its tasks."
        )
    if holds == "checkpoint-inputs":
        from evalview.psr import score_inputs
        from evalview.psr.inputs import parse_checkpoint_inputs

        _step(progress, 2)
        return score_inputs(parse_checkpoint_inputs(address.path, reading.payload), options)
    if holds == "episodes" and address.read is None and len(reading.runs) > 1:
        return NamedReads(address, reading, _summaries(reading))
    return open_named(
        reading, address, progress, defer_bootstrap=defer_bootstrap, defer_audit=defer_audit,
        psr=options,
    )


def open_named(
    reading: Reading,
    address: Address,
    progress: Progress | None = None,
    *,
    defer_bootstrap: bool = False,
    defer_audit: bool = False,
    psr: PsrOptions | None = None,
) -> Session | HarnessSession:
    """The app's read of `address` from a reading already read: audited (unless `defer_audit`:
    an episode read is then scored first and audited by `finish_audit`) and scored."""
    from evalview.load.registry import holds_of

    if defer_audit and holds_of(reading.format) == "episodes" and (
        address.read is not None or len(reading.runs) <= 1
    ):
        opened: Session | HarnessSession = _audited(
            address, select_run(reading, address.read), progress, defer=True
        )
    else:
        opened = reads_of(reading, address, progress)[0]
    if isinstance(opened, HarnessSession):
        return opened
    if psr is None and address.has_side_files:
        psr = PsrFiles(address.bare_targets, address.catalog).options()
    return _for_the_app(opened, progress, defer_bootstrap, psr)


def _summaries(reading: Reading) -> dict[str, str]:
    out = {}
    for r in reading.runs:
        run = r.run
        recorded = run.reported.get("pc_success")
        head = f"{len(run.views) or 1} group(s), {len(run.schedule):,} episodes"
        out[str(r.name)] = head + (
            f", pc_success {fixed(recorded)} %" if recorded is not None else ""
        )
    return out


def partial_credit(
    run: Run, options: PsrOptions | None = None
) -> tuple[RunPsrReport | None, str | None]:
    """The run's reconstructed PSR, or why it has none (a refusal, or a bug in the core)."""
    why = no_partial_credit(run.kind, run.path)
    if why is not None:
        return None, why
    from evalview.psr import PsrError, score_psr_run

    try:
        return score_psr_run(run, options), None
    except PsrError as exc:
        return None, str(exc)
    except Exception as exc:
        return None, f"partial credit failed ({type(exc).__name__}: {exc})"


def no_partial_credit(fmt: str, path: Path) -> str | None:
    """Why a read of format `fmt` gives no partial credit (its reader's declaration), or None:
    the app's Partial credit tab and `evalview psr` say the same words."""
    from evalview.load.registry import reader_named

    reader = reader_named(fmt)
    if reader is None or reader.no_partial_credit is None:
        return None
    return f"{path.name} is {reader.no_partial_credit}"


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
class HarnessSession(OpenedRead):
    """An opened benchmark-harness result, audited once (`evalview.harness`)."""

    path: Path
    file: HarnessFile
    findings: list[Finding]
    counts: dict[str, int] = field(default_factory=dict)
    address: Address | None = None

    def __post_init__(self) -> None:
        self._complete()


def _harness_session(address: Address, hf: HarnessFile) -> HarnessSession:
    from evalview.harness.audit import audit_harness

    return HarnessSession(address.path, hf, audit_harness(hf), address=address)


def open_harness(path: str | Path | Source) -> HarnessSession | None:
    """The benchmark-harness result at `path`, audited; None when it is another format. For
    callers that want a harness session only; the doors take `open_reads`, which gives either."""
    from evalview.load.harness_result import READER

    source = path if isinstance(path, Source) else Source(path)
    if not source.exists or not READER.detect(source):
        return None
    opened = open_reads(source)
    return opened[0] if isinstance(opened[0], HarnessSession) else None


def score_harness_session(session: HarnessSession, *, allow_errors: bool = False
                          ) -> HarnessScore | None:
    """The harness score with the session's findings (None for a file that does not validate;
    its EV801 findings say why). With audit errors it is refused unless `allow_errors`."""
    from evalview.harness.score import score_harness

    result = session.file.result
    if result is None:
        return None
    return score_harness(result, session.findings, allow_errors=allow_errors)


# -- two reads: compared through their sessions (the whole audit of each, done once) ---------


def compare_sessions(
    a: Session,
    b: Session,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    allow_off_protocol: bool = False,
    allow_errors: bool = False,
    allow_mismatch: bool = False,
    group_by: str | None = None,
) -> Comparison:
    """Pair B against A by episode, with each read's own audit (a read with audit errors is
    refused, as `score` refuses it); labels are the addresses (`FILE [KEY]`). `allow_mismatch`:
    compare reads whose declared pairing (an Inspect log's task, dataset, sample ids) differs,
    labelled NOT MATCHED."""
    from evalview.compare.paired import compare_runs

    return compare_runs(
        a.run,
        b.run,
        findings=(a.findings, b.findings),
        label_a=a.where.label,
        label_b=b.where.label,
        alpha=alpha,
        power=power,
        allow_off_protocol=allow_off_protocol,
        allow_errors=allow_errors,
        allow_mismatch=allow_mismatch,
        group_by=group_by,
    )


@dataclass
class UnauditedRead:
    """An episode read opened but not yet audited: `compare` audits a side only when its
    refusals reach it (`audited`, once), so in one process a comparison A refuses never pays for
    B's audit. (When B is read in a forked child, cli/compare_sides.py, the child audits B
    beside A's read: CPU on the other core, no wall time.)"""

    address: Address
    run: Run
    _session: Session | None = None

    def audited(self) -> Session:
        """The read's `Session`, its whole audit computed on the first call only."""
        if self._session is None:
            self._session = Session(
                path=self.address.path, run=self.run, findings=audit_read(self.run),
                address=self.address,
            )
        return self._session

    def findings(self) -> list[Finding]:
        return self.audited().findings


def open_unaudited(
    path: str | Path | Address | Source,
    *,
    name: str | None = None,
    read: ReadOptions | None = None,
) -> UnauditedRead | HarnessSession:
    """`open_one` without the episode read's audit (a harness result's session, audited, as
    `open_one` gives it): for `compare`, which audits each side when it needs its findings."""
    address, source = _address_and_source(path, name)
    reading = read_address(source, read)
    from evalview.load.registry import holds_of

    if holds_of(reading.format) == "arms":
        harness = reads_of(reading, address)[0]
        assert isinstance(harness, HarnessSession)
        return harness
    return UnauditedRead(address, select_run(reading, address.read))


def compare_unaudited(
    a: UnauditedRead,
    b: UnauditedRead,
    *,
    allow_off_protocol: bool = False,
    allow_errors: bool = False,
    allow_mismatch: bool = False,
    group_by: str | None = None,
) -> Comparison:
    """`compare_sessions` of two reads audited on demand, each at most once."""
    from evalview.compare.paired import compare_runs

    return compare_runs(
        a.run,
        b.run,
        findings=(a.findings, b.findings),
        label_a=a.address.label,
        label_b=b.address.label,
        allow_off_protocol=allow_off_protocol,
        allow_errors=allow_errors,
        allow_mismatch=allow_mismatch,
        group_by=group_by,
    )


@dataclass(frozen=True)
class PairedReads:
    """Two reads opened, audited and paired: the comparison and both sessions (whose verdict and
    `successes / selected` every compare screen keeps in its header)."""

    comparison: Comparison
    a: Session
    b: Session


def pair_addresses(
    a: Address,
    b: Address,
    *,
    allow_off_protocol: bool = False,
    allow_errors: bool = False,
) -> PairedReads:
    """Open both reads (one read and one audit each) and pair them: `evalview A B`, the Runs
    screen's and the read picker's compare all come through here, as `evalview compare` does."""
    sa, sb = open_run(a), open_run(b)
    comparison = compare_sessions(
        sa, sb, allow_off_protocol=allow_off_protocol, allow_errors=allow_errors
    )
    return PairedReads(comparison, sa, sb)


def contrast_addresses(
    a: list[tuple[str, Address]],
    b: list[tuple[str, Address]],
    *,
    bc: list[tuple[str, Address]] | None = None,
    relative: bool = False,
    allow_off_protocol: bool = False,
    allow_errors: bool = False,
) -> Contrast:
    """Contrast side A against side B by replicate KEY, each address opened and audited once
    however many sides name it (`contrast`, and the Runs screen's contrast)."""
    from evalview.compare.contrast import contrast_runs

    sessions: dict[Address, Session] = {}
    loaded = []
    for side in (a, b, bc or []):
        items = []
        for key, address in side:
            if address not in sessions:
                sessions[address] = open_run(address)
            items.append((key, sessions[address].run, address.label))
        loaded.append(items)
    findings = {id(s.run): s.findings for s in sessions.values()}
    return contrast_runs(
        loaded[0],
        loaded[1],
        bc=loaded[2] or None,
        relative=relative,
        allow_off_protocol=allow_off_protocol,
        allow_errors=allow_errors,
        findings_of=lambda run: findings[id(run)],
    )


@dataclass(frozen=True, slots=True)
class Headline:
    """One read's audit verdict and `successes / selected`: what every screen's header keeps."""

    verdict_kind: str
    verdict: str
    successes: int
    selected: int


def headline(session: Session) -> Headline:
    """From the session's own audit and card (scored without the bootstrap when not yet scored)."""
    kind, verdict = session.verdict
    card = session.scorecard
    if card is None:
        card = score_session(session, ScoreOptions(bootstrap=0))
    d = card.denominators
    return Headline(kind, verdict, d.successes, d.selected)
