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


def mean_and_se(values: list[float]) -> tuple[float | None, float | None]:
    """Mean and SE (sample SD / sqrt(n); None below two values). Any finite JSON number is a valid
    metric, and 1e308 overflows a plain sum: then the values are scaled down first (the mean and
    the SE are never larger than the largest value, so the result is finite)."""
    n = len(values)
    if n == 0:
        return None, None
    try:
        return _plain_mean_and_se(values)
    except OverflowError:
        scale = max(abs(v) for v in values)
        mean, se = _plain_mean_and_se([v / scale for v in values])
        return mean * scale, None if se is None else se * scale


def _plain_mean_and_se(values: list[float]) -> tuple[float, float | None]:
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def graded_metric(
    run: Run, cases: EpisodeTable, tasks: tuple[str, ...], key: str
) -> GradedMetric:
    values = metric_values(run, cases, key)
    rows: list[GradedTask] = []
    for task in tasks:
        members = np.flatnonzero(cases.task == task)
        got = [v for v in (values[i] for i in members) if v is not None]
        mean, se = mean_and_se(got)
        rows.append(GradedTask(task, len(got), int(members.shape[0]) - len(got), mean, se))
    means = [r.mean for r in rows if r.mean is not None]
    overall, _ = mean_and_se(means)
    ses = [r.se for r in rows if r.mean is not None]
    overall_se = (
        math.hypot(*(s for s in ses if s is not None)) / len(means)
        if means and all(s is not None for s in ses)
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
