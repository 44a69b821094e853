"""`score_run`: everything `evalview score`, the TUI and the export show about one read.

The CLI and the TUI only format a `Scorecard`; every number they show is computed here, once. A
scorecard is always computed (the TUI shows a refused read with its refusals beside the numbers);
`refusals` says whether the read may be reported at all, and `labels` what a reader must be told
next to the numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from evalview.findings import Finding, Severity
from evalview.fmt import exact
from evalview.model.facts import TEST, ReadFacts, read_facts
from evalview.model.run import EpisodeTable, Run, take_rows
from evalview.stats import policy
from evalview.stats.aggregate import ZeroSpread, all_tasks_mean, zero_spread
from evalview.stats.benchmark import (
    BenchmarkDeclaration,
    SeedSet,
    declared_cases,
    version_problem,
    version_unverified,
)
from evalview.stats.bootstrap import DEFAULT_RESAMPLES, bootstrap_interval
from evalview.stats.denominators import Denominators, Rates, count, outcomes, rates_of
from evalview.stats.errors import (
    ErroredCase,
    category_counts,
    errored_cases,
    termination_counts,
)
from evalview.stats.graded import GradedMetric, graded_metric
from evalview.stats.intervals import Interval
from evalview.stats.policy import Refusal, untagged_quality_tags
from evalview.stats.task_scores import NO_ROWS, TaskScore, rows_by_task, task_scores

if TYPE_CHECKING:
    from evalview.stats.breakdown import Breakdown, OtherScorer

#: closed-result-format: "None establishes that a client-selected schedule covers the entire
#: native benchmark." Stated with every score that has no benchmark declaration behind it.
SCHEDULE_COVERAGE_NOTE = (
    "client-selected schedule: it does not establish coverage of the entire native benchmark"
)
DECLARED_COVERAGE_NOTE = "every case the benchmark declaration lists for this seed set"


@dataclass(frozen=True, slots=True)
class Aggregate:
    """The all-T number: mean of per-task rates, its binomial SE and two 95 % intervals.

    `ci95` is mean ± 1.959964·SE clipped to [0, 1]; `bootstrap` is the seed-bootstrap percentile
    interval, None when turned off (`resamples == 0`). None everywhere when there is no task.
    """

    name: str
    tasks: int
    mean: float | None
    se: float | None
    ci95: Interval | None
    bootstrap: Interval | None
    resamples: int
    view: str | None = None
    #: the mean as an exact fraction (stats/aggregate.py): differences and means of means are
    #: computed from it, so each is rounded once where it is shown. Not output.
    exact_mean: Fraction | None = field(default=None, compare=False, repr=False)
    #: every task is 0/n or n/n: the SE and both intervals are zero by design (None otherwise)
    zero_spread: ZeroSpread | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tasks": self.tasks,
            "mean": self.mean,
            "se": self.se,
            "ci95": None if self.ci95 is None else list(self.ci95),
            "bootstrap": None if self.bootstrap is None else list(self.bootstrap),
            "bootstrap_resamples": self.resamples,
            "bootstrap_seed": 7,
            "view": self.view,
            "zero_spread": None if self.zero_spread is None else self.zero_spread.to_json(),
        }


@dataclass(frozen=True)
class Scorecard:
    """One read, scored. Fractions in [0, 1] everywhere; the views format them."""

    path: str
    run_id: str | None
    benchmark: str | None
    benchmark_version: str | None
    policy: str | None
    denominators: Denominators
    rates: Rates
    tasks: tuple[TaskScore, ...]
    aggregate: Aggregate
    error_categories: dict[str, int]
    termination_reasons: dict[str, int]
    errored: tuple[ErroredCase, ...]
    #: "test" or "development" with a benchmark declaration; None without one (not known)
    seed_set: SeedSet | None = None
    view: str | None = None
    #: declared cases absent from the run, counted as failures
    missing_cases: tuple[str, ...] = ()
    graded: GradedMetric | None = None
    labels: tuple[str, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    allow_errors: bool = False
    #: error-severity audit findings the read was scored despite (only with allow_errors)
    audit_errors: tuple[Finding, ...] = field(default=())
    #: why the read is off-protocol (scored only with allow_off_protocol, then labelled)
    off_protocol: tuple[str, ...] = ()
    #: scored against a benchmark declaration (its cases, not only the run's schedule)
    declared: bool = False
    #: each task's case outcomes (the bootstrap's input), kept so `with_bootstrap` can add the
    #: interval later without scoring again; empty when the aggregate has no mean. Not output.
    task_outcomes: tuple[npt.NDArray[np.int8], ...] = field(default=(), repr=False, compare=False)
    #: what the input format can and cannot say, and its own headline (LeRobot); None: closed run
    source: dict[str, Any] | None = None
    #: the rate by the values of a grouping (`--group-by KEY`); None when none was asked
    groups: Breakdown | None = None
    #: each repeated item's rate over its repeats (an Inspect sample's epochs); None: no repeats
    samples: Breakdown | None = None
    #: scorers that are not the outcome, with their mean and SE (Inspect's other scorers)
    other_scorers: tuple[OtherScorer, ...] = ()

    @property
    def coverage(self) -> dict[str, str]:
        """What the denominators cover: the declared benchmark, or only the selected schedule."""
        if self.declared:
            return {"basis": "benchmark-declaration", "note": DECLARED_COVERAGE_NOTE}
        return {"basis": "selected-schedule", "note": SCHEDULE_COVERAGE_NOTE}

    @property
    def refused(self) -> bool:
        return bool(self.refusals)

    @property
    def publishable(self) -> bool:
        """A test read with no refusal, no errored rollout and no audit error."""
        return (
            not self.refusals
            and not self.errored
            and not self.audit_errors
            and self.seed_set != "development"
            and not any(label.startswith(policy.NOT_PUBLISHABLE) for label in self.labels)
        )

    @property
    def pending(self) -> int:
        """Infrastructure errors awaiting a re-run."""
        return sum(1 for e in self.errored if e.pending)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "run_id": self.run_id,
            "benchmark": self.benchmark,
            "benchmark_version": self.benchmark_version,
            "policy": self.policy,
            "refused": self.refused,
            "publishable": self.publishable,
            "refusals": [r.to_json() for r in self.refusals],
            "labels": list(self.labels),
            "seed_set": self.seed_set,
            "view": self.view,
            "aggregate": self.aggregate.to_json(),
            "denominators": self.denominators.to_json(),
            "rates": self.rates.to_json(),
            "error_categories": self.error_categories,
            "pending": self.pending,
            "termination_reasons": self.termination_reasons,
            "errored": [e.to_json() for e in self.errored],
            "missing_cases": list(self.missing_cases),
            "tasks": [t.to_json() for t in self.tasks],
            "graded": None if self.graded is None else self.graded.to_json(),
            "audit_errors": [f.to_json() for f in self.audit_errors],
            "off_protocol": list(self.off_protocol),
            "coverage": self.coverage,
        } | ({} if self.source is None else {"source": self.source}) | self._extra_json()

    def _extra_json(self) -> dict[str, Any]:
        """The breakdowns a read has (absent for the formats that have none)."""
        out: dict[str, Any] = {}
        if self.groups is not None:
            out["groups"] = self.groups.to_json()
        if self.samples is not None:
            out["samples"] = self.samples.to_json()
        if self.other_scorers:
            out["other_scorers"] = [o.to_json() for o in self.other_scorers]
        return out


def score_run(
    run: Run,
    *,
    findings: Sequence[Finding],
    bootstrap: int = DEFAULT_RESAMPLES,
    benchmark: BenchmarkDeclaration | None = None,
    view: str | None = None,
    metric: str | None = None,
    allow_errors: bool = False,
    allow_off_protocol: bool = False,
    group_by: str | None = None,
) -> Scorecard:
    """Score one read under the reporting rules.

    `findings` are the audit's, computed once by the caller (`evalview.session` does it for every
    view); the scorer never audits. Errored rollouts and error-severity
    findings refuse the read unless `allow_errors`, which scores it anyway (errored cases are
    non-successes) and labels it not publishable. An off-protocol read is refused unless
    `allow_off_protocol`, which labels it OFF-PROTOCOL; a read conditioned on quality tag 0 (the
    trainer's "untagged" sentinel) is always refused. `bootstrap=0` turns the bootstrap off.
    `group_by` (or a `view` naming one of the read's groupings rather than a task subset) adds
    the rate by the values of that grouping (stats/breakdown.py).
    """
    if bootstrap < 0:
        raise ValueError(f"bootstrap resamples must be >= 0, got {bootstrap}")
    if view is not None and benchmark is None and view not in run.views \
            and view in run.groupings:
        group_by, view = view, None  # `--view category`: an Inspect sample metadata key
    # The seed set and the off-protocol marks are read where contrasts read them (one place).
    facts = read_facts(run)
    sel = _selection(run, facts, benchmark, view)
    cases, tasks, missing = sel.cases, sel.tasks, sel.missing
    errored = errored_cases(cases)
    audit_errors = tuple(f for f in findings if f.severity is Severity.ERROR)
    state = _read_state(
        run, facts, sel, errored, audit_errors, benchmark=benchmark, view=view,
        allow_errors=allow_errors, allow_off_protocol=allow_off_protocol,
    )
    task_rows = task_scores(cases, tasks, missing)
    name = view if view is not None and state.view_applied else f"all-{len(tasks)}"
    aggregate, per_task = _aggregate(cases, tasks, task_rows, name, bootstrap, view)
    state = replace(state, zero_spread=aggregate.zero_spread)
    denominators = count(cases.status, cases.success, missing=len(missing))
    from evalview.stats import breakdown as B

    groups, group_refusal = _groups(run, cases, group_by)
    return Scorecard(
        path=str(run.path),
        run_id=run.identity.run_id,
        benchmark=run.identity.benchmark_name,
        benchmark_version=run.identity.benchmark_version,
        policy=run.identity.policy_name,
        denominators=denominators,
        rates=rates_of(denominators),
        tasks=tuple(task_rows),
        aggregate=aggregate,
        error_categories=category_counts(cases),
        termination_reasons=termination_counts(cases),
        errored=errored,
        seed_set=sel.seed_set,
        view=view if state.view_applied else None,
        missing_cases=missing,
        graded=None if metric is None else graded_metric(run, cases, tuple(tasks), metric),
        labels=policy.labels(state),
        refusals=policy.refusals(state) + group_refusal,
        allow_errors=allow_errors,
        audit_errors=audit_errors if allow_errors else (),
        off_protocol=facts.off_protocol,
        declared=benchmark is not None,
        task_outcomes=per_task,
        source=(
            _source(run, denominators, task_rows, view if state.view_applied else None)
            if run.source_format
            else None
        ),
        groups=groups,
        samples=B.sample_breakdown(run, cases),
        other_scorers=B.other_scorers(run),
    )


def _groups(
    run: Run, cases: EpisodeTable, key: str | None
) -> tuple[Breakdown | None, tuple[Refusal, ...]]:
    """The breakdown by `key`, or the refusal of a key the read does not record."""
    from evalview.stats.breakdown import by_key

    if key is None:
        return None, ()
    if key not in run.groupings:
        known = ", ".join(run.groupings) or "none"
        return None, (Refusal(
            "unknown-group",
            f"{run.path}: no grouping {key!r} in this read (its groupable sample metadata keys: "
            f"{known}); --group-by takes one of them.",
        ),)
    return by_key(run, cases, key), ()


@dataclass(frozen=True, slots=True)
class _Selection:
    """The cases a read is scored over, and what choosing them found wrong."""

    cases: EpisodeTable
    tasks: tuple[str, ...]
    #: declared cases absent from the run
    missing: tuple[str, ...]
    seed_set: SeedSet | None
    version_problem: str | None = None
    seed_set_problem: str | None = None
    #: why `view` cannot be applied (None: no view asked, or a known one)
    view_problem: str | None = None


def _selection(
    run: Run, facts: ReadFacts, benchmark: BenchmarkDeclaration | None, view: str | None
) -> _Selection:
    """The declaration's cases (missing ones too) or the run's schedule, narrowed to `view` when
    the declaration or the read itself names it."""
    if benchmark is not None:
        version = version_problem(run, benchmark)
        declared = declared_cases(run, benchmark)
        sel = _Selection(
            declared.cases, declared.tasks, declared.missing, declared.seed_set,
            version_problem=version, seed_set_problem=declared.problem,
        )
    else:
        sel = _Selection(run.scheduled(), run.tasks, (), _declared_seed_set(facts))
    unknown_view = policy.view_problem(view, benchmark, tuple(run.views), tuple(run.groupings))
    if view is None or unknown_view is not None:
        return replace(sel, view_problem=unknown_view)
    # a subset the benchmark declares, or one of the read's own task groups (LeRobot)
    tasks = benchmark.subsets[view] if benchmark is not None else run.views[view]
    keep = np.isin(sel.cases.task, np.asarray(tasks, dtype=object))
    chosen = set(tasks)
    missing = tuple(m for m in sel.missing if m.rpartition("/")[0] in chosen)
    return replace(sel, cases=_take(sel.cases, keep), tasks=tasks, missing=missing)


def _read_state(
    run: Run,
    facts: ReadFacts,
    sel: _Selection,
    errored: tuple[ErroredCase, ...],
    audit_errors: tuple[Finding, ...],
    *,
    benchmark: BenchmarkDeclaration | None,
    view: str | None,
    allow_errors: bool,
    allow_off_protocol: bool,
) -> policy.ReadState:
    """Every fact the refusals and labels depend on (evalview.stats.policy decides them)."""
    return policy.ReadState(
        path=str(run.path),
        version_problem=sel.version_problem,
        seed_set_problem=sel.seed_set_problem,
        off_protocol=facts.off_protocol,
        untagged=untagged_quality_tags(run),
        view=view,
        view_problem=sel.view_problem,
        view_size_warning=(
            policy.view_size_problem(view, benchmark.subsets[view], benchmark.source)
            if view is not None and benchmark is not None and sel.view_problem is None
            else None
        ),
        version_unverified=(
            version_unverified(run, benchmark)
            if benchmark is not None and sel.version_problem is None
            else None
        ),
        seed_set=sel.seed_set,
        errored=errored,
        audit_errors=audit_errors,
        missing=sel.missing,
        has_tasks=bool(sel.tasks),
        allow_errors=allow_errors,
        allow_off_protocol=allow_off_protocol,
        group_view=view is not None and benchmark is None and sel.view_problem is None,
        records_errors=run.records_errors,
        no_cases=_no_cases(run),
    )


def _no_cases(run: Run) -> str | None:
    """Why a read with no episode at all holds none, as its reader says it (None: not such a
    read, or its reader says nothing)."""
    if len(run.episodes):
        return None
    from evalview.load.registry import no_cases_reason

    return no_cases_reason(run.kind)


def _aggregate(
    cases: EpisodeTable,
    tasks: tuple[str, ...],
    task_rows: list[TaskScore],
    name: str,
    bootstrap: int,
    view: str | None,
) -> tuple[Aggregate, tuple[npt.NDArray[np.int8], ...]]:
    """The all-T aggregate and each task's case outcomes (the bootstrap's input); no mean, and
    no outcomes, when there is no task or a task has no selected case."""
    if not task_rows or not all(t.selected > 0 for t in task_rows):
        return Aggregate(name, len(tasks), None, None, None, None, bootstrap, view), ()
    counts = ([t.successes for t in task_rows], [t.selected for t in task_rows])
    value = all_tasks_mean(*counts)
    index = rows_by_task(cases)
    rows = (index.get(t, NO_ROWS) for t in tasks)
    per_task = tuple(outcomes(cases.status[r], cases.success[r]) for r in rows)
    boot = bootstrap_interval(list(per_task), bootstrap) if bootstrap else None
    aggregate = Aggregate(
        name, len(tasks), value.mean, value.se, value.ci95, boot, bootstrap, view,
        exact_mean=value.exact_mean, zero_spread=zero_spread(*counts),
    )
    return aggregate, per_task


def with_bootstrap(card: Scorecard, resamples: int = DEFAULT_RESAMPLES) -> Scorecard:
    """`card` with the seed-bootstrap interval of `resamples` draws; nothing else is recomputed.

    The app paints a card scored with `bootstrap=0` first and adds the interval in a worker: the
    result equals `score_run(..., bootstrap=resamples)` with the same arguments.
    """
    if resamples < 0:
        raise ValueError(f"bootstrap resamples must be >= 0, got {resamples}")
    a = card.aggregate
    boot = (
        bootstrap_interval(list(card.task_outcomes), resamples)
        if resamples and a.mean is not None
        else None
    )
    return replace(card, aggregate=replace(a, bootstrap=boot, resamples=resamples))


def _source(
    run: Run, d: Any, task_rows: list[TaskScore], view: str | None = None
) -> dict[str, Any]:
    """What the input format can honestly say, and its own pooled headline next to all-T.

    A view is compared with what the input records for that view (LeRobot's per_group
    pc_success of the group), never with the whole read's number; a view the input records
    nothing for (a benchmark's subset) is compared with nothing."""
    sizes = sorted({t.selected for t in task_rows})
    recorded = (
        run.reported.get("pc_success")
        if view is None
        else run.reported_views.get(view, {}).get("pc_success")
    )
    if len(sizes) <= 1:
        why = (
            "every task has the same number of episodes, so the pooled rate and the all-T "
            "mean are the same number"
        )
    else:
        why = (
            f"tasks have {sizes[0]} to {sizes[-1]} episodes: the pooled rate weighs each "
            "episode the same (large tasks count more), the all-T mean weighs each task the same"
        )
    return {
        "format": run.source_format,
        "records_errors": run.records_errors,
        "note": "the format records no errored or unattempted episode: every denominator is "
        "the episodes recorded" if not run.records_errors else None,
        # the recorded percent as the fraction it stands for, exactly (80.75 -> 0.8075)
        "reported_pc_success": None if recorded is None else float(exact(recorded) / 100),
        # what the recorded number is of: the whole read (null view) or the view's group
        "reported_pc_success_of": None if recorded is None else (view or "read"),
        "pooled_rate": d.successes / d.selected if d.selected else None,
        "pooled_vs_all_tasks": why,
        "groups": {g: list(t) for g, t in run.views.items()},
    } | ({"native": run.native} if run.native else {})


def _declared_seed_set(facts: ReadFacts) -> SeedSet | None:
    """The seed set a run declares without a benchmark declaration (manifest seed_set, or a run
    filed under `<run>_dev`); None when nothing says (a default is not a declaration)."""
    if facts.seed_set_source.startswith("default"):
        return None
    return "test" if facts.seed_set == TEST else "development"


def _take(cases: EpisodeTable, mask: np.ndarray[Any, np.dtype[np.bool_]]) -> EpisodeTable:
    return take_rows(cases, np.flatnonzero(mask))
