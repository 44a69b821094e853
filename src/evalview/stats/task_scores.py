"""Each task's counts, rate and Wilson interval over its selected cases: what the scorecard
and the breakdowns by a grouping key (stats/breakdown.py) both tabulate, so neither imports the
other for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from evalview.model.run import ERROR, EpisodeTable, take_rows
from evalview.stats.denominators import Denominators, count
from evalview.stats.errors import category_counts
from evalview.stats.intervals import Interval, wilson_interval


@dataclass(frozen=True, slots=True)
class TaskScore:
    """One task's counts over its selected cases, its rate over them, its Wilson 95 % interval.

    The counts are the task's `Denominators` (held, not copied field by field); the properties
    below name them as the views and `to_json` read them.
    """

    task: str
    counts: Denominators
    #: successes / selected (errored and unattempted cases are not successes)
    rate: float
    wilson95: Interval
    error_categories: dict[str, int]

    @property
    def selected(self) -> int:
        return self.counts.selected

    @property
    def attempted(self) -> int:
        return self.counts.attempted

    @property
    def completed(self) -> int:
        return self.counts.completed

    @property
    def errors(self) -> int:
        return self.counts.errors

    @property
    def successes(self) -> int:
        return self.counts.successes

    @property
    def unattempted(self) -> int:
        return self.counts.unattempted

    @property
    def missing(self) -> int:
        """Declared cases of this task absent from the run (counted as failures)."""
        return self.counts.missing

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "selected": self.selected,
            "attempted": self.attempted,
            "completed": self.completed,
            "errors": self.errors,
            "successes": self.successes,
            "unattempted": self.unattempted,
            "missing": self.missing,
            "rate": self.rate,
            "wilson95": list(self.wilson95),
            "error_categories": self.error_categories,
        }


def rows_by_task(cases: EpisodeTable) -> dict[Any, npt.NDArray[np.intp]]:
    """Each task's row indexes, from one pass over the column: a mask per task costs a pass
    per task, and 10,000 tasks of 10 episodes took minutes that way."""
    groups: dict[Any, list[int]] = {}
    for i, task in enumerate(cases.task.tolist()):
        groups.setdefault(task, []).append(i)
    return {t: np.asarray(ix, dtype=np.intp) for t, ix in groups.items()}


#: The row indexes of a task with no rows.
NO_ROWS: npt.NDArray[np.intp] = np.empty(0, dtype=np.intp)


def task_scores(
    cases: EpisodeTable, tasks: Sequence[str], missing: Sequence[str]
) -> list[TaskScore]:
    """Each task's counts, rate and Wilson interval over its selected cases (in `tasks` order)."""
    missing_by_task: dict[str, int] = {}
    for m in missing:
        t = m.rpartition("/")[0]
        missing_by_task[t] = missing_by_task.get(t, 0) + 1
    rows = []
    index = rows_by_task(cases)
    for task in tasks:
        members = take_rows(cases, index.get(task, NO_ROWS))
        d = count(members.status, members.success, missing=missing_by_task.get(task, 0))
        n = d.selected
        rows.append(
            TaskScore(
                task=task,
                counts=d,
                rate=d.successes / n if n else 0.0,
                wilson95=wilson_interval(d.successes, n) if n else (0.0, 1.0),
                error_categories={
                    k: v for k, v in category_counts(members).items() if v
                }
                if np.any(members.status == ERROR)
                else {},
            )
        )
    return rows
