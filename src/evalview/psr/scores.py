"""Per-task PSR and the split summaries (SR, CCE, Rounds, Chats) of checkpoint inputs.

Each checkpoint weighs equally within its task and each task equally within its split; checkpoints
are never pooled across tasks, so a task with more checkpoints gets no more weight.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from evalview.psr.coverage import Coverage, coverage, reject_unexpected
from evalview.psr.inputs import SPLIT_TITLES, SPLITS, CheckpointInputs, InputRow
from evalview.psr.parser import (
    DEFAULT_UPPER_BOUND_LABELS,
    BareTargets,
    Checkpoint,
    ParseContext,
    PsrError,
    parse_message,
)

METHOD_ID = "checkpoint_fraction_v1"
METHOD_LABEL = "reconstructed PSR"
#: Not cross-validated against the unavailable historical PSR program (the spec's boundary).
HISTORICAL_IMPLEMENTATION_REPRODUCED = False
#: The union of the augmented splits is reported too, after v1 and v2 (never instead of them).
AUGMENTED_UNION = "augmented"
CCE_DECIMALS = 4


@dataclass(frozen=True, slots=True)
class PsrOptions:
    """How messages are read and what the splits should contain."""

    upper_bound_labels: frozenset[str] = DEFAULT_UPPER_BOUND_LABELS
    bare_targets: BareTargets | None = None
    #: Expected tasks per split; None (or a split absent from it) means unknown.
    catalog: Mapping[str, Sequence[str]] | None = None
    catalog_source: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "upper_bound_labels": sorted(self.upper_bound_labels),
            "bare_targets": None if self.bare_targets is None else self.bare_targets.to_json(),
            "catalog": self.catalog_source,
        }


@dataclass(frozen=True, slots=True)
class Parsed:
    """A message's checkpoints, or why a successful task's message was not needed."""

    checkpoints: tuple[Checkpoint, ...] | None
    note: str | None = None


def parse_for_task(
    message: str | None, success: bool, ctx: ParseContext, options: PsrOptions
) -> Parsed:
    """Parse a failed task's message strictly. A successful task scores 1 whatever its message
    says, so a message that does not parse there is recorded, not an error."""
    if message is None:
        if success:
            return Parsed(None, "no verifier message; not needed, the verifier reports success")
        raise PsrError(
            f"{ctx.describe()}: the task failed and has no verifier message, so its checkpoints "
            "cannot be credited."
        )
    try:
        cps = parse_message(
            message,
            ctx,
            upper_bound_labels=options.upper_bound_labels,
            bare_targets=options.bare_targets,
        )
    except PsrError as exc:
        if not success:
            raise
        return Parsed(None, f"message not parsed ({exc}); not needed, the verifier reports success")
    return Parsed(cps)


def task_psr(success: bool, checkpoints: Sequence[Checkpoint] | None) -> float:
    """1 on verifier success, else the mean checkpoint credit."""
    if success:
        return 1.0
    if not checkpoints:
        raise ValueError("a failed task needs at least one checkpoint")
    return math.fsum(c.credit for c in checkpoints) / len(checkpoints)


@dataclass(frozen=True, slots=True)
class TaskScore:
    """One row of checkpoint inputs, scored."""

    task: str
    stage: str
    split: str
    row: int
    success: bool
    message: str
    checkpoints: tuple[Checkpoint, ...] | None
    psr: float
    #: As saved, rounded to four decimals; 0 for a failed task; None while the judge is pending.
    cce: float | None
    rounds: float
    chats: float
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "stage": self.stage,
            "split": self.split,
            "row": self.row,
            "success": self.success,
            "message": self.message,
            "checkpoints": None
            if self.checkpoints is None
            else [c.to_json() for c in self.checkpoints],
            "psr": self.psr,
            "CCE": self.cce,
            "rounds": _whole(self.rounds),
            "chats": _whole(self.chats),
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class SplitSummary:
    """Means over the scored tasks of one split; `coverage.final` says whether that is all.

    CCE is the mean over the tasks whose CCE is saved; tasks whose judge score is pending are
    listed in `cce_pending_tasks` and make the summary partial (never averaged in as zero).
    """

    split: str
    coverage: Coverage
    psr: float | None
    sr: float | None
    cce: float | None
    rounds: float | None
    chats: float | None
    cce_pending_tasks: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return SPLIT_TITLES.get(self.split, self.split)

    @property
    def status(self) -> str:
        return self.coverage.status

    def to_json(self) -> dict[str, Any]:
        return {
            "split": self.split,
            "title": self.title,
            "status": self.status,
            "PSR": self.psr,
            "SR": self.sr,
            "CCE": self.cce,
            "rounds": self.rounds,
            "chats": self.chats,
            "cce_scored": self.coverage.scored - len(self.cce_pending_tasks),
            "cce_pending_tasks": list(self.cce_pending_tasks),
            **self.coverage.to_json(),
        }


def summarize(
    split: str, tasks: Sequence[TaskScore], expected: Sequence[str] | None
) -> SplitSummary:
    cov = coverage([t.task for t in tasks], expected)
    pending = tuple(t.task for t in tasks if t.cce is None)
    if pending and cov.final:
        # Every task is scored but some CCE is not: the split is not finished until it is.
        cov = replace(cov, final=False)
    return SplitSummary(
        split,
        cov,
        psr=_mean([t.psr for t in tasks]),
        sr=_mean([1.0 if t.success else 0.0 for t in tasks]),
        cce=_mean([t.cce for t in tasks if t.cce is not None]),
        rounds=_mean([t.rounds for t in tasks]),
        chats=_mean([t.chats for t in tasks]),
        cce_pending_tasks=pending,
    )


@dataclass(frozen=True, slots=True)
class ModelScores:
    model: str
    tasks: tuple[TaskScore, ...]
    summaries: tuple[SplitSummary, ...]

    def summary(self, split: str) -> SplitSummary:
        return next(s for s in self.summaries if s.split == split)

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "summaries": {s.split: s.to_json() for s in self.summaries},
            "tasks": [t.to_json() for t in self.tasks],
        }


@dataclass(frozen=True, slots=True)
class CheckpointReport:
    """The full report of a checkpoint-inputs file: what `evalview psr` writes and prints."""

    input_path: Path
    options: PsrOptions
    models: tuple[ModelScores, ...] = field(default=())

    def model(self, name: str) -> ModelScores:
        return next(m for m in self.models if m.model == name)

    def to_json(self) -> dict[str, Any]:
        return {
            **method_header(),
            "input": {"kind": "checkpoint-inputs", "path": str(self.input_path)},
            "options": self.options.to_json(),
            "splits": [*SPLITS, AUGMENTED_UNION],
            "models": [m.to_json() for m in self.models],
        }


def method_header() -> dict[str, Any]:
    """The keys every PSR report starts with, so no reader mistakes it for the historical PSR."""
    return {
        "method": METHOD_ID,
        "label": METHOD_LABEL,
        "historical_implementation_reproduced": HISTORICAL_IMPLEMENTATION_REPRODUCED,
    }


def score_row(row: InputRow, options: PsrOptions) -> TaskScore:
    ctx = ParseContext(row.model, row.task, f"row {row.row}")
    parsed = parse_for_task(row.message, row.success, ctx, options)
    return TaskScore(
        task=row.task,
        stage=row.stage,
        split=row.split,
        row=row.row,
        success=row.success,
        message=row.message,
        checkpoints=parsed.checkpoints,
        psr=task_psr(row.success, parsed.checkpoints),
        cce=_saved_cce(row),
        rounds=row.rounds,
        chats=row.chats,
        note=_join(parsed.note, PENDING_CCE_NOTE if row.cce is None else None),
    )


def score_inputs(inputs: CheckpointInputs, options: PsrOptions | None = None) -> CheckpointReport:
    """Score every row of every model. Raises PsrError on the first row that must be refused."""
    opts = options or PsrOptions()
    catalog = opts.catalog or {}
    source = opts.catalog_source or "(catalog)"
    models = []
    for model, rows in inputs.models.items():
        scored = tuple(score_row(r, opts) for r in rows)
        summaries = []
        for split in SPLITS:
            in_split = [t for t in scored if t.split == split]
            reject_unexpected(
                (t.task for t in in_split),
                catalog.get(split),
                model=model,
                split=split,
                source=source,
            )
            summaries.append(summarize(split, in_split, catalog.get(split)))
        union = [t for t in scored if t.split in ("augmented_v1", "augmented_v2")]
        both = (
            [*catalog["augmented_v1"], *catalog["augmented_v2"]]
            if "augmented_v1" in catalog and "augmented_v2" in catalog
            else None
        )
        summaries.append(summarize(AUGMENTED_UNION, union, both))
        models.append(ModelScores(model, scored, tuple(summaries)))
    return CheckpointReport(inputs.path, opts, tuple(models))


PENDING_CCE_NOTE = (
    "CCE pending: the judge has not scored this successful task (a pending score, not a zero)"
)


def _saved_cce(row: InputRow) -> float | None:
    """Four decimals, as the CCE script saves it; 0 for a failed task; None while pending."""
    if not row.success:
        return 0.0
    return None if row.cce is None else round(row.cce, CCE_DECIMALS)


def _join(*notes: str | None) -> str | None:
    kept = [n for n in notes if n]
    return "; ".join(kept) if kept else None


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _whole(x: float) -> float:
    return int(x) if x.is_integer() else x
