"""A graded per-episode metric (`--metric KEY`) beside the binary rate.

A graded score uses more of each trial than success does, and can rank two policies the other way
(the statistics spec, §6), so it is reported next to the rate, never instead of it. Episodes that
do not report the metric are counted as missing, not as zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from evalview.model.run import EpisodeTable, Run


@dataclass(frozen=True, slots=True)
class GradedTask:
    task: str
    #: episodes reporting a numeric value, and selected cases without one
    n: int
    missing: int
    mean: float | None
    #: sample SD / sqrt(n); None below two values
    se: float | None

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "n": self.n, "missing": self.missing, "mean": self.mean,
                "se": self.se}


@dataclass(frozen=True, slots=True)
class GradedMetric:
    key: str
    tasks: tuple[GradedTask, ...]
    #: mean of the per-task means (tasks with a value), like the all-T rate
    mean: float | None
    #: sqrt(Σ se_t²) / T over the same tasks; None when a task's SE is undefined
    se: float | None
    n: int
    missing: int

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "mean": self.mean,
            "se": self.se,
            "n": self.n,
            "missing": self.missing,
            "tasks": [t.to_json() for t in self.tasks],
        }


def metric_values(run: Run, cases: EpisodeTable, key: str) -> list[float | None]:
    """The metric of each case (`metrics.KEY` of its record), None when absent or not a number."""
    if key == "score":
        return [None if math.isnan(v) else float(v) for v in cases.score]
    out: list[float | None] = []
    for idx in cases.record_index:
        value = None
        if idx >= 0:
            data = run.records[int(idx)].data
            metrics = data.get("metrics") if data else None
            raw = metrics.get(key) if isinstance(metrics, dict) else None
            if isinstance(raw, bool) or (isinstance(raw, int | float) and math.isfinite(raw)):
                value = float(raw)
        out.append(value)
    return out


def graded_metric(
    run: Run, cases: EpisodeTable, tasks: tuple[str, ...], key: str
) -> GradedMetric:
    values = metric_values(run, cases, key)
    rows: list[GradedTask] = []
    for task in tasks:
        members = np.flatnonzero(cases.task == task)
        got = [v for v in (values[i] for i in members) if v is not None]
        n = len(got)
        mean = math.fsum(got) / n if n else None
        se = None
        if n >= 2 and mean is not None:
            var = math.fsum((v - mean) ** 2 for v in got) / (n - 1)
            se = math.sqrt(var / n)
        rows.append(GradedTask(task, n, int(members.shape[0]) - n, mean, se))
    with_value = [r for r in rows if r.mean is not None]
    overall = math.fsum(r.mean for r in with_value if r.mean is not None) / len(with_value) \
        if with_value else None
    ses = [r.se for r in with_value]
    overall_se = (
        math.sqrt(math.fsum(s * s for s in ses if s is not None)) / len(with_value)
        if with_value and all(s is not None for s in ses)
        else None
    )
    return GradedMetric(
        key=key,
        tasks=tuple(rows),
        mean=overall,
        se=overall_se,
        n=sum(r.n for r in rows),
        missing=sum(r.missing for r in rows),
    )
