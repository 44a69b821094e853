"""One candidate of a folder, read: is it a read (by content), what the audit says, its score.

These functions run in worker processes (`evalview.folder.parallel`), so they take and return
plain, picklable values. A candidate that is not a read (a side file, a PSR checkpoint-inputs file)
is skipped with its reason; one that cannot be read is kept with its reason; neither stops the scan.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from evalview.errors import Refused
from evalview.findings import count_by_severity
from evalview.fmt import pct_range, points
from evalview.folder.discover import Candidate
from evalview.load.bounds import MAX_BYTES
from evalview.load.errors import InputError, NotARead

if TYPE_CHECKING:
    from evalview.session import HarnessSession, Session

#: read: opened as a run; unreadable: a candidate that could not be read (the reason says why);
#: skipped: not a read (side files, links, ...), listed with the reason.
Status = Literal["read", "unreadable", "skipped"]


def open_candidate(
    path: Path, kind: str, *, quick: bool = False
) -> list[Session | HarnessSession]:
    """The reads of one candidate, each audited once, through the session as every door reads
    them (`evalview.session.open_reads`: a new format appears in folders by itself). Raises
    InputError (unreadable) or NotARead (skip it: its `short` says what it is).

    `quick` reads for the audit only (`freeze`, `lazy_table`, as `check`).
    """
    from evalview.load import ReadOptions
    from evalview.session import open_reads

    if kind == "file":
        try:
            st = os.lstat(path)
        except OSError as exc:
            raise InputError(f"{path}: cannot be read ({exc.strerror}).") from exc
        if not stat.S_ISREG(st.st_mode):
            raise NotARead(f"{path}: not a regular file", "not a regular file")
        if st.st_size > MAX_BYTES:
            raise InputError(
                f"{path}: {st.st_size / 2**20:.1f} MiB is over the {MAX_BYTES // 2**20} MiB "
                "input bound."
            )
    return open_reads(path, read=ReadOptions(freeze=quick, lazy_table=quick))


def _zero_counts() -> dict[str, int]:
    return count_by_severity([])


def check_candidate(root: str, cand: Candidate, strict: bool = False) -> list[dict[str, Any]]:
    """The single-read `check --json` document of each read of one candidate, its `path`
    relative to the folder (and `read`, the key of a named read in a file of several), plus
    `status` (read / unreadable / skipped) and, when not read, `error` or `reason`."""
    base: dict[str, Any] = {"path": cand.rel, "status": "read"}
    if cand.kind == "skipped":
        return [base | {"status": "skipped", "reason": cand.reason}]
    if cand.kind == "unreadable":
        return [_unreadable(base, cand.reason or "cannot be read", strict)]
    try:
        opened = open_candidate(Path(root, cand.rel), cand.kind, quick=True)
    except NotARead as exc:
        return [base | {"status": "skipped", "reason": exc.short}]
    except (InputError, Refused) as exc:
        return [_unreadable(base, _relative(str(exc), root), strict)]
    except Exception as exc:  # one file must not stop the folder: a bug, said on its row
        return [_unreadable(base, failed(exc), strict)]
    docs = []
    for session in opened:
        counts = session.counts
        failing = counts["error"] + (counts["warning"] if strict else 0)
        name = session.where.read
        named = {} if name is None else {"read": name}
        docs.append(
            base
            | named
            | {
                "ok": failing == 0,
                "strict": strict,
                "findings": [f.to_json() for f in session.findings],
                "counts": counts,
            }
        )
    return docs


def failed(exc: BaseException) -> str:
    """The reason on the row of a read evalview itself failed on (a bug, never the input's
    fault): the rest of the folder is still read, as the app's "the scorer failed" is shown."""
    detail = str(exc)
    detail = detail if len(detail) <= 200 else detail[:197] + "..."
    return f"evalview failed on this read ({type(exc).__name__}: {detail}); please report it"


def _unreadable(base: dict[str, Any], reason: str, strict: bool) -> dict[str, Any]:
    return base | {
        "status": "unreadable",
        "ok": False,
        "strict": strict,
        "error": reason,
        "findings": [],
        "counts": _zero_counts(),
    }


def _relative(message: str, root: str) -> str:
    """Messages name paths as given; inside a folder report they read better relative to it."""
    prefix = os.path.join(root, "")
    return message.replace(prefix, "") if prefix != "./" else message


@dataclass(frozen=True, slots=True)
class TaskCell:
    """One task of one read: k successes of n selected cases, and the Wilson 95 % interval."""

    task: str
    successes: int
    selected: int
    rate: float
    wilson95: tuple[float, float]


@dataclass(frozen=True, slots=True)
class TaskValue:
    """One task's (or group's) headline metric as the tool that wrote the read records it
    (lm-eval: `acc,none` ± its stderr over `n` documents): the paper's column per task."""

    task: str
    metric: str
    value: float
    stderr: float | None
    n: int | None
    group: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"metric": self.metric, "value": self.value, "stderr": self.stderr, "n": self.n,
                "group": self.group}


def task_values(native: dict[str, Any]) -> tuple[TaskValue, ...]:
    """Each task's first recorded metric (its headline) from a read's `native` numbers."""
    out: dict[str, TaskValue] = {}
    for r in native.get("tasks") or ():
        if not isinstance(r, dict) or r.get("task") in out or r.get("value") is None:
            continue
        se = r.get("stderr")
        out[str(r["task"])] = TaskValue(
            str(r["task"]), str(r.get("metric")), float(r["value"]),
            float(se) if isinstance(se, int | float) else None,
            r.get("n") if isinstance(r.get("n"), int) else None, bool(r.get("group")))
    return tuple(out.values())


@dataclass(frozen=True)
class ReadRow:
    """Everything the paper's table and the Runs screen show about one read (fractions in [0, 1]).

    The numbers are `score_run`'s, the ones `evalview score --json` prints for the same options.
    """

    path: str
    status: Status
    #: unreadable: why; skipped: what it is instead
    reason: str | None = None
    #: the key of this read in a file of several named reads (None: the file is one read)
    read: str | None = None
    counts: dict[str, int] = field(default_factory=_zero_counts)
    run_id: str | None = None
    benchmark: str | None = None
    benchmark_version: str | None = None
    policy: str | None = None
    checkpoint: str | None = None
    seed_set: str | None = None
    fine_tune_seed: str | None = None
    mean: float | None = None
    se: float | None = None
    bootstrap: tuple[float, float] | None = None
    successes: int | None = None
    selected: int | None = None
    labels: tuple[str, ...] = ()
    #: why the scorer refused the read (each refusal's message), empty when scored
    refusals: tuple[str, ...] = ()
    tasks: tuple[TaskCell, ...] = ()
    #: the first error-severity finding, for a one-line verdict
    first_error: str | None = None
    #: a benchmark-harness result's arm (one row per arm), else None
    arm: str | None = None
    #: an arm's min and max rate over its seeds
    spread: tuple[float, float] | None = None
    #: an arm's mean minus the reference arm's (None: it is the reference, or there is none)
    delta_vs_reference: float | None = None
    #: each task's value as the input's tool records it (lm-eval), aggregates-only reads too
    task_values: tuple[TaskValue, ...] = ()
    #: each task's case outcomes while the row's seed bootstrap is still to be computed (only a
    #: scored row whose table shows the interval); `with_bootstraps` fills `bootstrap` for every
    #: row at once and empties this. Not output.
    outcomes: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    @property
    def refused(self) -> str | None:
        """Why this row has no score (unreadable, or the scorer's refusals), or None."""
        if self.status == "unreadable":
            return self.reason
        return " ".join(self.refusals) if self.refusals else None

    @property
    def label(self) -> str:
        """How every table and screen names the row: `PATH`, `PATH [KEY]` (a named read) or
        `PATH [arm NAME]` (an arm of a benchmark-harness result)."""
        if self.read:
            return f"{self.path} [{self.read}]"
        if self.arm is not None:
            return f"{self.path} [arm {self.arm}]"
        return self.path

    @property
    def benchmark_label(self) -> str | None:
        parts = [p for p in (self.benchmark, self.benchmark_version) if p]
        return " ".join(parts) or None

    def to_json(self) -> dict[str, Any]:
        """The row of `table --format json` (contract keys first)."""
        return {
            "path": self.path,
            **({} if self.read is None else {"read": self.read}),
            "run_id": self.run_id,
            "benchmark": self.benchmark_label,
            "policy": self.policy,
            "checkpoint": self.checkpoint,
            "mean": self.mean,
            "se": self.se,
            "bootstrap": None if self.bootstrap is None else list(self.bootstrap),
            "successes": self.successes,
            "selected": self.selected,
            "labels": list(self.labels),
            "refused": self.refused,
            "seed_set": self.seed_set,
            "counts": self.counts,
            **(
                {}
                if self.arm is None
                else {
                    "arm": self.arm,
                    "min": None if self.spread is None else self.spread[0],
                    "max": None if self.spread is None else self.spread[1],
                    "delta_vs_reference": self.delta_vs_reference,
                }
            ),
            **({"task_values": {t.task: t.to_json() for t in self.task_values}}
               if self.task_values else {}),
        }


@dataclass(frozen=True, slots=True)
class ScoreOptions:
    """The `evalview score` options a folder of reads is scored with (same meaning)."""

    bootstrap: int = 10_000
    allow_errors: bool = False
    allow_off_protocol: bool = False


def row_of_candidate(root: str, cand: Candidate, options: ScoreOptions) -> list[ReadRow]:
    """Read, audit and score one candidate into its table rows, one per read (never raises on
    bad input: an unreadable or skipped candidate is one row saying so; neither does a bug on
    one read stop the folder: that read is an unreadable row saying evalview failed)."""
    try:
        return _rows_of_candidate(root, cand, options)
    except Exception as exc:
        return [ReadRow(cand.rel, "unreadable", failed(exc))]


def _rows_of_candidate(root: str, cand: Candidate, options: ScoreOptions) -> list[ReadRow]:
    if cand.kind == "skipped":
        return [ReadRow(cand.rel, "skipped", cand.reason)]
    if cand.kind == "unreadable":
        return [ReadRow(cand.rel, "unreadable", cand.reason)]
    try:
        opened = open_candidate(Path(root, cand.rel), cand.kind)
    except NotARead as exc:
        return [ReadRow(cand.rel, "skipped", exc.short)]
    except (InputError, Refused) as exc:
        return [ReadRow(cand.rel, "unreadable", _relative(str(exc), root))]
    from evalview.session import HarnessSession

    rows: list[ReadRow] = []
    for session in opened:
        if isinstance(session, HarnessSession):
            rows.extend(rows_of_harness(cand.rel, session, options))
        else:
            rows.append(row_of_run(cand.rel, session, options, read=session.where.read))
    return rows


def row_of_item(item: tuple[str, Candidate], options: ScoreOptions) -> list[ReadRow]:
    """`row_of_candidate` over a (folder, candidate) pair: the unit of work of a worker process
    (this module imports no Textual, so a worker starts fast)."""
    root, cand = item
    return row_of_candidate(root, cand, options)


def row_of_run(
    label: str, session: Session, options: ScoreOptions, *, read: str | None = None
) -> ReadRow:
    """The table row of an opened read, scored with `options` and the session's own audit."""
    from evalview.compare.reads import read_facts
    from evalview.findings import Severity
    from evalview.stats import score_run

    run, findings = session.run, session.findings
    # Scored without the bootstrap: a refused row shows no interval (none is computed for it),
    # and the others keep their outcomes for `with_bootstraps`, which draws once for all rows.
    card = score_run(
        run,
        findings=findings,
        bootstrap=0,
        allow_errors=options.allow_errors,
        allow_off_protocol=options.allow_off_protocol,
    )
    facts = read_facts(run)
    first = next((f for f in findings if f.severity is Severity.ERROR), None)
    a, d = card.aggregate, card.denominators
    refused = card.refused
    return ReadRow(
        path=label,
        status="read",
        read=read,
        counts=session.counts,
        run_id=card.run_id,
        benchmark=card.benchmark,
        benchmark_version=card.benchmark_version,
        policy=card.policy,
        checkpoint=facts.policy_version,
        seed_set=card.seed_set,
        fine_tune_seed=facts.fine_tune_seed,
        mean=None if refused else a.mean,
        se=None if refused else a.se,
        bootstrap=None,
        successes=d.successes,
        selected=d.selected,
        labels=card.labels,
        refusals=tuple(r.message for r in card.refusals),
        tasks=tuple(
            TaskCell(t.task, t.successes, t.selected, t.rate, tuple(t.wilson95))  # type: ignore[arg-type]
            for t in card.tasks
        ),
        first_error=None if first is None else f"{first.code} {first.location}",
        task_values=task_values(run.native),
        outcomes=() if refused or not options.bootstrap else card.task_outcomes,
    )


def with_bootstraps(rows: list[ReadRow], resamples: int) -> list[ReadRow]:
    """`rows` with the seed-bootstrap interval of every row that kept its outcomes (a scored row
    of a table that shows intervals), all rows' resamples drawn in one pass per task shape
    (`stats.bootstrap.bootstrap_intervals`): the same intervals as `evalview score`."""
    from dataclasses import replace

    waiting = [i for i, r in enumerate(rows) if r.outcomes]
    if not waiting or resamples <= 0:
        return [replace(r, outcomes=()) if r.outcomes else r for r in rows]
    from evalview.stats.bootstrap import bootstrap_intervals

    intervals = bootstrap_intervals([rows[i].outcomes for i in waiting], resamples)
    out = list(rows)
    for i, interval in zip(waiting, intervals, strict=True):
        out[i] = replace(rows[i], bootstrap=interval, outcomes=())
    return out


def rows_of_harness(label: str, session: HarnessSession, options: ScoreOptions) -> list[ReadRow]:
    """A benchmark-harness result in the paper's table and the Runs screen: one row per arm
    (docs/folders.md). The arm's mean over seeds is its number (no binomial SE or bootstrap: the
    harness quotes the spread over seeds, min-max, and the delta against its reference arm);
    successes / selected sum its seeds' reads, and the per-task strip is its seeds. A result
    with audit errors is refused unless `allow_errors`, as `score` does; one that does not
    validate is a single refused row."""
    from evalview.findings import Severity
    from evalview.harness.score import is_fraction, score_harness
    from evalview.stats.intervals import wilson_interval

    hf, findings = session.file, session.findings
    errors = [f for f in findings if f.severity is Severity.ERROR]
    first = None if not errors else f"{errors[0].code} {errors[0].location}"
    base = {"path": label, "status": "read", "counts": session.counts, "first_error": first}
    if hf.result is None:
        why = "not a valid BenchmarkResult (EV801): see `evalview check`"
        return [ReadRow(**base, run_id=hf.name, refusals=(why,))]  # type: ignore[arg-type]
    card = score_harness(hf.result, findings, allow_errors=options.allow_errors)
    refused = bool(card.refusals)
    refusals: tuple[str, ...] = ()
    if card.unscorable:
        refusals = card.refusals
    elif refused:
        codes = ", ".join(dict.fromkeys(f.code for f in errors))
        refusals = (
            f"{len(errors)} audit error(s) ({codes}): an inconsistent result is not scored; "
            f"see `evalview check {label}`",
        )
    rows = []
    for arm in card.arms:
        solved = sum(r.solved or 0 for r in arm.reads)
        rollouts = sum(r.rollouts for r in arm.reads)
        spread = (
            f"min–max over {len(arm.reads)} seed(s) {pct_range(arm.min, arm.max)}"
            if arm.min is not None and arm.max is not None
            else f"no mean over {len(arm.reads)} seed(s): a success_rate is not a fraction"
        )
        delta = (
            ()
            if arm.delta_vs_reference is None
            else (f"Δ vs {card.reference} {points(arm.delta_vs_reference)}",)
        )
        rows.append(
            ReadRow(
                **base,  # type: ignore[arg-type]
                arm=arm.name,
                run_id=card.name,
                benchmark="benchmark-harness",
                policy=arm.name,
                mean=None if refused else arm.mean,
                successes=solved,
                selected=rollouts,
                spread=None if arm.min is None or arm.max is None else (arm.min, arm.max),
                delta_vs_reference=arm.delta_vs_reference,
                labels=tuple(dict.fromkeys((*card.labels, *arm.labels, spread, *delta))),
                refusals=refusals,
                tasks=tuple(
                    TaskCell(
                        f"seed {r.seed}", r.solved or 0, r.rollouts,
                        r.rate if is_fraction(r.rate) else 0.0,  # a strip cell, never NaN
                        tuple(wilson_interval(r.solved or 0, r.rollouts))  # type: ignore[arg-type]
                        if r.rollouts > 0 and r.solved is not None
                        else (0.0, 1.0),
                    )
                    for r in arm.reads
                ),
            )
        )
    return rows
