"""Reconstructed PSR over a closed run's episodes (verifier message in `metrics.<message_key>`).

Per task, PSR is the mean of per-episode PSR over the task's *scored* cases: selected cases whose
episode completed with a boolean success. The other selected cases are never dropped silently and
never credited zero:

- an errored case (any category) has no verifier outcome; an infrastructure error in particular is
  pending a re-run, not a model failure (closed-result format), so crediting it 0 would be wrong,
  and crediting it anything else would be imputation;
- an unattempted case (fail-fast) likewise has no outcome.

Both are listed per task by id, the task's coverage counts them, and a task (and the run summary)
with any of them is labelled partial (`final: false`). SR is reported over the same scored cases so
it sits beside PSR on one denominator, with successes/selected beside it for the headline view.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evalview.model.run import COMPLETED, ERROR, UNATTEMPTED, Run
from evalview.psr.coverage import Coverage
from evalview.psr.parser import Checkpoint, ParseContext, PsrError
from evalview.psr.scores import Parsed, PsrOptions, method_header, parse_for_task, task_psr

TREATMENT = (
    "per task, the mean of per-episode PSR over completed episodes with a boolean success; "
    "errored and unattempted selected cases are not scored (no verifier outcome; an "
    "infrastructure error is pending, not a failure), are listed by id, and make the task and "
    "the summary partial; they are never imputed"
)


@dataclass(frozen=True, slots=True)
class EpisodePsr:
    """One selected case: its checkpoints and PSR when scored, why not otherwise."""

    episode_id: str
    task: str
    seed: int | None
    status: str
    success: bool | None
    error_category: str | None
    message: str | None
    checkpoints: tuple[Checkpoint, ...] | None
    psr: float | None
    file: str | None
    line: int | None
    note: str | None = None

    @property
    def scored(self) -> bool:
        return self.psr is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "episode_id": self.episode_id,
            "task": self.task,
            "seed": self.seed,
            "status": self.status,
            "success": self.success,
            "error_category": self.error_category,
            "message": self.message,
            "checkpoints": None
            if self.checkpoints is None
            else [c.to_json() for c in self.checkpoints],
            "psr": self.psr,
            "file": self.file,
            "line": self.line,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class RunTaskPsr:
    """A task's PSR over its scored cases, with every unscored case named."""

    task: str
    selected: int
    scored: int
    successes: int
    psr: float | None
    sr: float | None  # successes / scored
    selected_success_rate: float  # successes / selected
    errors: dict[str, tuple[str, ...]]  # category -> episode ids
    unattempted: tuple[str, ...]
    invalid: tuple[str, ...]

    @property
    def final(self) -> bool:
        return self.scored == self.selected and self.selected > 0

    def not_scored(self) -> list[str]:
        """Why cases were left out, as every view labels them (`policy error ×2`, ...)."""
        out = [f"{cat} error ×{len(ids)}" for cat, ids in self.errors.items()]
        if self.unattempted:
            out.append(f"unattempted ×{len(self.unattempted)}")
        if self.invalid:
            out.append(f"invalid ×{len(self.invalid)}")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "selected": self.selected,
            "scored": self.scored,
            "successes": self.successes,
            "PSR": self.psr,
            "SR": self.sr,
            "selected_success_rate": self.selected_success_rate,
            "final": self.final,
            "errors": {k: list(v) for k, v in self.errors.items()},
            "unattempted": list(self.unattempted),
            "invalid": list(self.invalid),
        }


@dataclass(frozen=True, slots=True)
class RunPsrReport:
    """PSR of one closed run: per episode, per task, and the mean over tasks."""

    run_path: str
    run_id: str | None
    model: str
    message_key: str
    options: PsrOptions
    episodes: tuple[EpisodePsr, ...]
    tasks: tuple[RunTaskPsr, ...]
    coverage: Coverage
    psr: float | None  # mean over tasks with at least one scored case
    sr: float | None
    selected_success_rate: float | None  # mean over tasks of successes/selected
    reading_findings: int = 0

    @property
    def status(self) -> str:
        return self.coverage.status

    def to_json(self) -> dict[str, Any]:
        return {
            **method_header(),
            "input": {
                "kind": "closed-run",
                "path": self.run_path,
                "run_id": self.run_id,
                "message_key": self.message_key,
            },
            "options": self.options.to_json(),
            "treatment": TREATMENT,
            "model": self.model,
            "reading_findings": self.reading_findings,
            "summary": {
                "split": "run",
                "title": "Run",
                "status": self.status,
                "PSR": self.psr,
                "SR": self.sr,
                "selected_success_rate": self.selected_success_rate,
                **self.coverage.to_json(),
                "partial_tasks": [t.task for t in self.tasks if t.scored and not t.final],
            },
            "tasks": [t.to_json() for t in self.tasks],
            "episodes": [e.to_json() for e in self.episodes],
        }


#: Reading findings after which the episodes were not read at all: over a bound, or
#: episodes.jsonl missing, unreadable (a FIFO, a directory) or a symlink.
_BOUND_CODES = frozenset({"EV109", "EV110"})
_UNREAD_CODES = frozenset({"EV101", "EV102", "EV108"})


def _refuse_unread(run: Run) -> None:
    """PsrError when the run's episodes could not be read: scoring what is left would report an
    "empty" read with a rate of 0 as if it were the run's, so refuse, as `check` fails it."""
    for f in run.reading_findings:
        if f.code in _BOUND_CODES or (f.code in _UNREAD_CODES and f.file == "episodes.jsonl"):
            raise PsrError(
                f"{run.path}: the run's episodes could not be read ({f.code} {f.location}: "
                f"{f.message}), so there is no partial credit to score. Fix it (see "
                "`evalview check`) and run psr again."
            )


def score_psr_run(run: Run, options: PsrOptions | None = None) -> RunPsrReport:
    """Score a closed run's selected cases. Raises PsrError on a message that must be refused."""
    opts = options or PsrOptions()
    _refuse_unread(run)
    if not run.schedule:
        raise PsrError(
            f"{run.path}: the manifest declares no selected schedule (protocol.episode_ids), so "
            "there are no cases to score. Run `evalview check` on it."
        )
    model = run.identity.policy_name or run.identity.run_id or run.path.name
    table = run.scheduled()
    #: Runs repeat a handful of messages thousands of times: parse each (task, message, success)
    #: once. Only parsed checkpoints are cached; a refusal raises on its first occurrence.
    cache: dict[tuple[str, str | None, bool], Parsed] = {}
    episodes = tuple(
        _episode(table.row(i), model, run.message_key, opts, cache) for i in range(len(table))
    )
    by_task: dict[str, list[EpisodePsr]] = {task: [] for task in run.tasks}
    for e in episodes:
        by_task.setdefault(e.task, []).append(e)
    tasks = tuple(_task(task, by_task[task]) for task in run.tasks)
    scored_tasks = [t for t in tasks if t.scored]
    missing = tuple(t.task for t in tasks if not t.scored)
    final = not missing and all(t.final for t in tasks) and bool(tasks)
    cov = Coverage(len(scored_tasks), len(tasks), missing, final)
    return RunPsrReport(
        run_path=str(run.path),
        run_id=run.identity.run_id,
        model=model,
        message_key=run.message_key,
        options=opts,
        episodes=episodes,
        tasks=tasks,
        coverage=cov,
        psr=_mean([t.psr for t in scored_tasks if t.psr is not None]),
        sr=_mean([t.sr for t in scored_tasks if t.sr is not None]),
        selected_success_rate=_mean([t.selected_success_rate for t in tasks]),
        reading_findings=len(run.reading_findings),
    )


def _episode(
    row: dict[str, Any],
    model: str,
    key: str,
    opts: PsrOptions,
    cache: dict[tuple[str, str | None, bool], Parsed],
) -> EpisodePsr:
    eid, status, success = row["id"], row["status"], row["success"]
    place = f"{row['file']}:{row['line']}" if row["file"] and row["line"] else None
    base = {
        "episode_id": eid,
        "task": row["task"],
        "seed": row["seed"],
        "status": status,
        "success": success,
        "error_category": row["error_category"],
        "message": row["message"],
        "file": row["file"],
        "line": row["line"],
    }
    if status == COMPLETED and isinstance(success, bool):
        ctx = ParseContext(
            model, row["task"], f"{place} episode {eid}" if place else f"episode {eid}"
        )
        if row["message"] is None and not success:
            raise PsrError(
                f"{ctx.describe()}: the episode failed and has no verifier message under "
                f"metrics.{key}, so its checkpoints cannot be credited. If the run keeps the "
                "message under another key, pass --message-key KEY."
            )
        memo = (row["task"], row["message"], success)
        parsed = cache.get(memo)
        if parsed is None:
            parsed = parse_for_task(row["message"], success, ctx, opts)
            if parsed.checkpoints is not None:  # a note names its episode: never share it
                cache[memo] = parsed
        return EpisodePsr(
            **base,
            checkpoints=parsed.checkpoints,
            psr=task_psr(success, parsed.checkpoints),
            note=parsed.note,
        )
    if status == ERROR:
        note = (
            f"errored ({row['error_category'] or 'no category'}): no verifier outcome; not scored"
        )
    elif status == UNATTEMPTED:
        note = "unattempted: selected but never run; not scored"
    else:
        note = "invalid record (see `evalview check`); not scored"
    return EpisodePsr(**base, checkpoints=None, psr=None, note=note)


def _task(task: str, episodes: Sequence[EpisodePsr]) -> RunTaskPsr:
    scored = [e for e in episodes if e.scored]
    successes = sum(1 for e in scored if e.success)
    errors: dict[str, list[str]] = {}
    for e in episodes:
        if e.status == ERROR:
            errors.setdefault(e.error_category or "uncategorized", []).append(e.episode_id)
    return RunTaskPsr(
        task=task,
        selected=len(episodes),
        scored=len(scored),
        successes=successes,
        psr=_mean([e.psr for e in scored if e.psr is not None]),
        sr=successes / len(scored) if scored else None,
        selected_success_rate=successes / len(episodes) if episodes else 0.0,
        errors={k: tuple(v) for k, v in errors.items()},
        unattempted=tuple(e.episode_id for e in episodes if e.status == UNATTEMPTED),
        invalid=tuple(
            e.episode_id for e in episodes if not e.scored and e.status not in (ERROR, UNATTEMPTED)
        ),
    )


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None
