"""Scoring a harness result: the harness's own per-arm table, and the uncertainty it leaves out.

The table is what `BenchmarkResult.aggregate()` prints (mean, min and max success rate over seeds,
the seed count, optimizer steps) plus each arm's delta over the cold-start-only reference row and
the measured-not-matched quantities beside it. Added here, because the harness computes no
intervals: each (arm, seed) read's Wilson 95 % interval of solved / rollouts (greedy decoding,
one trajectory per task, so rollouts = tasks), and, where an arm shares three or more seeds with
the reference, a replicate contrast (per-seed differences, their mean and sample SD) as the
reporting rules define it; below three shared seeds the contrast is descriptive and claims
nothing. A single-seed file never gets a claim and carries SINGLE_SEED_LABEL beside every number.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from evalview.findings import Finding
from evalview.fmt import exact, fixed
from evalview.harness.audit import REFERENCE_ARM, SINGLE_SEED_LABEL, declared_diff, solved_count
from evalview.model.harness_plain import ArmResult, BenchmarkResult
from evalview.rules import DUPLICATE_KEY
from evalview.stats.intervals import Interval, wilson_interval

#: A claim needs at least this many shared seeds (reporting rules: three replicate pairs).
MIN_SEEDS_FOR_CLAIM = 3

#: Quantities the harness measures because they cannot be matched by construction, in the
#: spec's order: (key, label, unit).
MEASURED: tuple[tuple[str, str, str], ...] = (
    ("generated_tokens_per_task", "generated tokens / task", "tokens"),
    ("tokens_per_solved_task", "tokens / solved task", "tokens"),
    ("selected_training_tokens_total", "selected training tokens", "positions"),
    ("teacher_queried_position_ratio", "teacher-queried position ratio", "fraction"),
    ("cache_current_bytes", "cache bytes (current)", "bytes"),
    ("cache_bytes_written_total", "cache bytes written", "bytes"),
    ("cache_compression_ratio", "cache compression", "ratio"),
    ("peak_allocated_bytes", "peak allocated", "bytes"),
    ("peak_reserved_bytes", "peak reserved", "bytes"),
    ("train_seconds", "train s", "seconds"),
    ("evaluation_seconds", "evaluation s", "seconds"),
    ("wall_seconds", "wall s", "seconds"),
)

#: The harness's load-bearing caveat, kept beside the table wherever it is shown or exported.
MEASURED_NOT_MATCHED = (
    "budget_axis optimizer_steps means equal optimizer updates, not equal compute. Quantities "
    "that cannot be matched by construction are measured, not matched: student generated tokens "
    "(per task, per solved task), selected training positions, the teacher-queried position "
    "ratio (not teacher compute: the teacher still runs a full forward pass), teacher-cache "
    "bytes and compression, peak CUDA memory, and train, evaluation and wall time. Quote the "
    "table with them."
)


@dataclass(frozen=True, slots=True)
class Read:
    """One (arm, seed) evaluation: solved / rollouts and its Wilson 95 % interval."""

    arm: str
    seed: int
    run_id: str
    optimizer_steps: int
    rollouts: int
    solved: int | None
    rate: float
    wilson95: Interval | None
    measured: dict[str, float | int | None]
    labels: tuple[str, ...] = ()
    recovery: RecoveryRead | None = None

    @property
    def exact_rate(self) -> Fraction:
        """solved / rollouts as a fraction where the count is known, else the recorded rate as
        the decimal the file wrote: means and differences of rates are exact, rounded once
        where they are shown (0.8125 − 0.625 is 0.1875, not 0.18749999999999994)."""
        if self.solved is not None and self.rollouts > 0:
            return Fraction(self.solved, self.rollouts)
        return exact(self.rate)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "seed": self.seed,
            "run_id": self.run_id,
            "optimizer_steps": self.optimizer_steps,
            "rollouts": self.rollouts,
            "solved": self.solved,
            "rate": self.rate,
            "wilson95": None if self.wilson95 is None else list(self.wilson95),
            "measured": dict(self.measured),
            "labels": list(self.labels),
        }
        if self.recovery is not None:
            doc |= self.recovery.to_json()
        return doc


@dataclass(frozen=True, slots=True)
class RecoveryRead:
    """What a schema-3 (RecoveryBench) read records beside its success: the strict success,
    the recovery after a tool error, where the run stopped and by how much it overshot its
    budget (a token or time view stops at the first optimizer boundary at or past its target,
    so the overshoot is part of the budget the arm got)."""

    strict_task_success_rate: float | None
    recovery_after_error_rate: float | None
    stop_criterion: dict[str, Any] | None
    overshoot: dict[str, Any]
    recovery_metrics: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "strict_task_success_rate": self.strict_task_success_rate,
            "recovery_after_error_rate": self.recovery_after_error_rate,
            "stop_criterion": self.stop_criterion,
            "overshoot": dict(self.overshoot),
            "recovery_metrics": dict(self.recovery_metrics),
        }

    @property
    def overshoot_value(self) -> float | None:
        value = self.overshoot.get("value")
        return _finite_or_none(value)


def _finite_or_none(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


@dataclass(frozen=True, slots=True)
class Difference:
    seed: int
    difference: float  # arm rate - reference rate, a fraction
    eval_se: float  # sqrt(se_a^2 + se_b^2), binomial SEs of the two reads


@dataclass(frozen=True, slots=True)
class ReplicateContrast:
    """An arm against the reference, paired by seed (the harness's replicate)."""

    reference: str
    differences: tuple[Difference, ...]
    mean: float
    sd: float | None
    single_seed: bool

    @property
    def n(self) -> int:
        return len(self.differences)

    @property
    def claim(self) -> bool:
        return self.n >= MIN_SEEDS_FOR_CLAIM and not self.single_seed

    @property
    def label(self) -> str:
        return f"{'paired' if self.claim else 'descriptive'}, n_seeds={self.n}"

    def statement(self) -> str:
        if not self.claim:
            return (f"no claim: {self.n} shared seed(s) with {self.reference}; a claim needs "
                    f"at least {MIN_SEEDS_FOR_CLAIM}")
        sd = "" if self.sd is None else f", sample SD {fixed(100 * exact(self.sd), 2)} pt"
        return (f"{fixed(100 * exact(self.mean), 2, sign=True)} pt over {self.reference} "
                f"across {self.n} seeds{sd}")

    def to_json(self) -> dict[str, Any]:
        return {
            "reference": self.reference,
            "label": self.label,
            "claim": self.claim,
            "statement": self.statement(),
            "n_seeds": self.n,
            "mean": self.mean,
            "sd": self.sd,
            "differences": [
                {"seed": d.seed, "difference": d.difference, "eval_se": d.eval_se}
                for d in self.differences
            ],
        }


@dataclass(frozen=True, slots=True)
class ArmRow:
    """One row of the per-arm table."""

    name: str
    mode: str
    objective: str
    reads: tuple[Read, ...]
    #: over seeds; None when a seed's success_rate is not a fraction (NaN, 1.5: audit errors)
    mean: float | None
    min: float | None
    max: float | None
    optimizer_steps: int
    delta_vs_reference: float | None
    is_reference: bool
    measured: dict[str, float | int | None]
    contrast: ReplicateContrast | None
    labels: tuple[str, ...]

    @property
    def recovery_after_error_mean(self) -> float | None:
        """Mean over seeds of recovery after a tool error; None unless every seed records it
        (an unrecorded rate is never read as zero)."""
        values = [r.recovery.recovery_after_error_rate if r.recovery else None
                  for r in self.reads]
        nums = [v for v in values if v is not None]
        return statistics.fmean(nums) if nums and len(nums) == len(values) else None

    @property
    def overshoot_max(self) -> float | None:
        values = [r.recovery.overshoot_value for r in self.reads if r.recovery]
        nums = [v for v in values if v is not None]
        return max(nums) if nums else None

    @property
    def seeds(self) -> list[int]:
        return [r.seed for r in self.reads]

    @property
    def steps_vary(self) -> bool:
        return len({r.optimizer_steps for r in self.reads}) > 1

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mode": self.mode,
            "objective": self.objective,
            "seeds": len(self.reads),
            "seed_list": self.seeds,
            "mean": self.mean,
            "min": self.min,
            "max": self.max,
            "optimizer_steps": self.optimizer_steps,
            "optimizer_steps_by_seed": {str(r.seed): r.optimizer_steps for r in self.reads},
            "delta_vs_reference": self.delta_vs_reference,
            "is_reference": self.is_reference,
            "measured": dict(self.measured),
            "replicate_contrast": None if self.contrast is None else self.contrast.to_json(),
            "labels": list(self.labels),
            "reads": [r.to_json() for r in self.reads],
        } | ({} if not any(r.recovery for r in self.reads) else {
            "recovery_after_error_mean": self.recovery_after_error_mean,
            "overshoot_max": self.overshoot_max,
        })


@dataclass(frozen=True)
class HarnessScore:
    """Everything `score`, the Arms tab and the export show for one harness file."""

    name: str
    schema_version: int
    arms: tuple[ArmRow, ...]
    seeds: tuple[int, ...]
    single_seed: bool
    reference: str | None
    budget_axis: str | None
    labels: tuple[str, ...]
    findings: tuple[Finding, ...] = ()
    refusals: tuple[str, ...] = ()
    #: refused whatever --allow-errors says (a repeated key: the file's values are not known)
    unscorable: bool = False
    caveat: str = MEASURED_NOT_MATCHED
    identity: dict[str, Any] = field(default_factory=dict)
    controls: dict[str, Any] = field(default_factory=dict)
    #: Schema 3 only (None before): the budget view, its stop criterion and overshoot, the
    #: recovery metrics' provenance, the invalidation status and the preregistration.
    recovery: dict[str, Any] | None = None

    @property
    def invalidated(self) -> bool:
        status = (self.recovery or {}).get("invalidation_status")
        return isinstance(status, dict) and status.get("valid") is not True

    @property
    def refused(self) -> bool:
        return bool(self.refusals)

    def to_json(self) -> dict[str, Any]:
        counts = {"error": 0, "warning": 0, "info": 0}
        for f in self.findings:
            counts[f.severity.value] += 1
        return {
            "format": "miniverl-benchmark-result",
            "name": self.name,
            "schema_version": self.schema_version,
            "refused": self.refused,
            "refusals": list(self.refusals),
            "arms": [a.to_json() for a in self.arms],
            "seeds": list(self.seeds),
            "single_seed": self.single_seed,
            "reference": self.reference,
            "budget_axis": self.budget_axis,
            "labels": list(self.labels),
            "caveat": self.caveat,
            "identity": dict(self.identity),
            "controls": dict(self.controls),
            "findings": [f.to_json() for f in self.findings],
            "counts": counts,
        } | ({} if self.recovery is None else {"recovery": dict(self.recovery)})


def _read(arm: ArmResult, labels: tuple[str, ...], recovery: bool = False) -> Read:
    solved = solved_count(arm)
    wilson = None if solved is None else wilson_interval(solved, arm.tasks)
    measured = {key: _num(getattr(arm, key)) for key, _label, _unit in MEASURED}
    return Read(arm.name, arm.seed, arm.run_id, arm.optimizer_steps, arm.tasks, solved,
                arm.success_rate, wilson, measured, labels,
                _recovery_read(arm) if recovery else None)


def _recovery_read(arm: ArmResult) -> RecoveryRead:
    return RecoveryRead(
        strict_task_success_rate=_finite_or_none(arm.strict_task_success_rate),
        recovery_after_error_rate=_finite_or_none(
            arm.recovery_metrics.get("recovery_after_error_rate")),
        stop_criterion=arm.stop_criterion,
        overshoot=arm.overshoot,
        recovery_metrics=arm.recovery_metrics,
    )


#: The file-level schema-3 fields `score` shows (in this order).
RECOVERY_FIELDS = ("budget_view", "stop_criterion", "overshoot", "recovery_metrics",
                   "invalidation_status", "preregistration_sha", "hypothesis_ids",
                   "result_analysis_version")


def caveat_for(budget_axis: str | None) -> str:
    """The measured-not-matched caveat, its first sentence worded for the file's budget axis."""
    if budget_axis in (None, "optimizer_steps"):
        return MEASURED_NOT_MATCHED
    rest = MEASURED_NOT_MATCHED.split(". ", 1)[1]
    return (f"budget_axis {budget_axis}: each arm stops at the first optimizer boundary at or "
            "past the view's target, or at its cycle cap (see each arm's stop), so the overshoot "
            "is part of the budget it got. " + rest)


def _num(value: float | int | None) -> float | int | None:
    """Non-finite numbers (EV809) are shown as missing, never as a value."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _mean_or_none(values: list[float | int | None]) -> float | int | None:
    if not values or any(v is None for v in values):
        return None
    nums = [v for v in values if v is not None]
    mean = sum(nums) / len(nums)
    return mean


def is_fraction(rate: float) -> bool:
    """A success rate arithmetic may use: finite and in [0, 1]. Any other (NaN, Infinity, 1.5,
    -0.1: EV809 or EV813, audit errors) is shown as recorded but never averaged or differenced."""
    return math.isfinite(rate) and 0.0 <= rate <= 1.0


def _se(rate: float, n: int) -> float:
    return math.sqrt(rate * (1 - rate) / n) if n > 0 and is_fraction(rate) else math.nan


def _spread(reads: tuple[Read, ...]) -> tuple[Fraction | None, float | None, float | None]:
    """(exact mean, min, max) over seeds; None for all three when a rate is not a fraction."""
    if not all(is_fraction(r.rate) for r in reads):
        return None, None, None
    rates = [r.rate for r in reads]
    return exact_mean(r.exact_rate for r in reads), min(rates), max(rates)


def exact_mean(values: Iterable[Fraction]) -> Fraction:
    """The mean of exact rates (or differences), exact."""
    items = list(values)
    return sum(items, Fraction(0)) / len(items)


def seed_differences(reads: tuple[Read, ...], ref: tuple[Read, ...]) -> list[tuple[int, Fraction]]:
    """(seed, rate − reference rate) over the seeds both arms ran, exact."""
    by_seed = {r.seed: r for r in ref}
    return [(r.seed, r.exact_rate - by_seed[r.seed].exact_rate) for r in reads if r.seed in by_seed]


def _contrast(reads: tuple[Read, ...], ref: tuple[Read, ...], reference: str,
              single_seed: bool) -> ReplicateContrast | None:
    if not all(is_fraction(r.rate) for r in (*reads, *ref)):
        return None  # no claim and no description from a rate that is not a fraction
    by_seed = {r.seed: r for r in ref}
    exact_diffs = seed_differences(reads, ref)
    diffs = tuple(
        Difference(seed, float(d),
                   math.sqrt(_se(r.rate, r.rollouts) ** 2
                             + _se(by_seed[seed].rate, by_seed[seed].rollouts) ** 2))
        for (seed, d), r in zip(exact_diffs, (r for r in reads if r.seed in by_seed), strict=True)
    )
    if not diffs:
        return None
    values = [d for _, d in exact_diffs]
    sd = float(statistics.stdev(values)) if len(values) >= 2 else None
    return ReplicateContrast(reference, diffs, float(exact_mean(values)), sd, single_seed)


def score_harness(
    result: BenchmarkResult, findings: list[Finding] | None = None, *, allow_errors: bool = False
) -> HarnessScore:
    """Score a validated result. With error findings (and no `allow_errors`) it is refused."""
    findings = list(findings or [])
    single = result.single_seed
    file_labels: list[str] = []
    if single:
        file_labels.append(SINGLE_SEED_LABEL)
    errors = [f for f in findings if f.severity.value == "error"]
    refusals: tuple[str, ...] = ()
    repeated = [f for f in errors if f.code == DUPLICATE_KEY.code]
    if repeated:
        # Not an inconsistency to score past: which value the file holds depends on the reader
        # (the closed-run and LeRobot readers refuse such a line or file outright).
        refusals = tuple(
            f"{f.code} {f.message}: JSON readers disagree on which value wins, so the file is "
            "no result to score (--allow-errors does not apply); keep one value per key"
            for f in repeated)
    elif errors and not allow_errors:
        refusals = tuple(f"{f.code} {f.message}" for f in errors)
    elif errors:
        file_labels.append(
            f"not a publishable result ({len(errors)} audit error(s); scored with --allow-errors)"
        )
    grouped: dict[str, list[ArmResult]] = {}
    for arm in result.arms:
        grouped.setdefault(arm.name, []).append(arm)
    reference = REFERENCE_ARM if REFERENCE_ARM in grouped else None
    if reference is None and len(grouped) > 1:
        file_labels.append(f"no {REFERENCE_ARM} arm: no delta quoted (never a delta over zero)")
    if result.schema_version == 1:
        file_labels.append("schema 1 (preserved legacy result)")
    status = result.invalidation_status
    if result.recovery and not (isinstance(status, dict) and status.get("valid") is True
                                and status.get("reasons") == []):
        file_labels.append(f"invalidated result (invalidation_status {status}): do not quote")
    reads_of = {}
    for name, arms in grouped.items():
        arm_labels = (SINGLE_SEED_LABEL,) if single or len(arms) == 1 else ()
        reads_of[name] = tuple(_read(a, arm_labels, result.recovery) for a in arms)
    ref_mean = None
    if reference is not None:
        ref_mean = _spread(reads_of[reference])[0]
    rows = []
    for name, arms in grouped.items():
        reads = reads_of[name]
        mean, low, high = _spread(reads)
        is_ref = name == reference
        contrast = None
        if reference is not None and not is_ref:
            contrast = _contrast(reads, reads_of[reference], reference, single)
        rows.append(ArmRow(
            name=name,
            mode=arms[0].mode,
            objective=arms[0].objective,
            reads=reads,
            mean=None if mean is None else float(mean),
            min=low,
            max=high,
            optimizer_steps=arms[0].optimizer_steps,
            delta_vs_reference=(None if ref_mean is None or mean is None or is_ref
                                else float(mean - ref_mean)),
            is_reference=is_ref,
            measured={key: _mean_or_none([r.measured[key] for r in reads])
                      for key, _l, _u in MEASURED},
            contrast=contrast,
            labels=reads[0].labels,
        ))
    hw = result.hardware
    return HarnessScore(
        name=result.name,
        schema_version=result.schema_version,
        arms=tuple(rows),
        seeds=tuple(result.seeds),
        single_seed=single,
        reference=reference,
        budget_axis=result.budget_axis,
        labels=tuple(file_labels),
        findings=tuple(findings),
        refusals=refusals,
        unscorable=bool(repeated),
        caveat=caveat_for(result.budget_axis),
        recovery=({k: getattr(result, k) for k in RECOVERY_FIELDS} if result.recovery
                  else None),
        identity={
            "name": result.name,
            "description": result.description,
            "miniverl_version": result.miniverl_version,
            "git_commit": result.git_commit,
            "created_at": result.created_at,
            "notes": result.notes,
            "hardware": hw,
            "software": result.software,
        },
        controls={
            "budget_axis": result.budget_axis,
            "allowed_differences": result.controlled.get("allowed_differences"),
            "cold_start_cycles": (result.cold_start or {}).get("cycles"),
            "declared_differences": {
                name: [_diff_row(r) for r in declared_diff(arms[0])]
                for name, arms in grouped.items()
            },
        },
    )


def _diff_row(row: dict[str, Any]) -> dict[str, Any]:
    return {"path": row.get("path"), "common": row.get("common"), "arm": row.get("arm")}


def measured_text(key: str, value: float | int | None) -> str:
    """A measured quantity in its unit; None (null in the file) is a dash, never 0."""
    if value is None:
        return "—"
    if "bytes" in key:
        return f"{value / 2**20:,.1f} MiB"
    if key.endswith("_seconds"):
        return f"{value:,.1f}"
    if key.endswith("_ratio"):
        return f"{value:.3f}" if key != "cache_compression_ratio" else f"{value:,.1f}×"
    if key == "selected_training_tokens_total":
        return f"{value:,.0f}"
    return f"{value:,.1f}"
