"""The all-T aggregate: the mean of per-task success rates, and the binomial SE of that mean.

Each task weighs the same whatever its number of seeds, which is what the reporting rules call the
one number to report. The SE treats each task's observed rate as its distribution, so a task at 0 %
or 100 % adds no spread; the per-task Wilson intervals are what shows the uncertainty there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from evalview.stats.intervals import Z95, Interval


@dataclass(frozen=True, slots=True)
class AggregateValue:
    mean: float
    se: float
    #: mean ± 1.959964·SE, clipped to [0, 1]
    ci95: Interval


def all_tasks_mean(successes: Sequence[int], n: Sequence[int]) -> AggregateValue:
    """Mean of k_t/n_t over tasks; SE = sqrt(Σ p_t(1−p_t)/n_t) / T."""
    if len(successes) != len(n) or not n:
        raise ValueError("the aggregate needs one (successes, n) pair per task, at least one task")
    if any(nt <= 0 for nt in n):
        raise ValueError("every task of the aggregate needs at least one selected case")
    t = len(n)
    rates = [k / nt for k, nt in zip(successes, n, strict=True)]
    mean = math.fsum(rates) / t
    se = math.sqrt(math.fsum(p * (1 - p) / nt for p, nt in zip(rates, n, strict=True))) / t
    lo = min(max(mean - Z95 * se, 0.0), 1.0)
    hi = min(max(mean + Z95 * se, 0.0), 1.0)
    return AggregateValue(mean=mean, se=se, ci95=(lo, hi))
