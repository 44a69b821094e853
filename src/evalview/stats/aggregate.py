"""The all-T aggregate: the mean of per-task success rates, and the binomial SE of that mean.

Each task weighs the same whatever its number of seeds, which is what the reporting rules call the
one number to report. The SE treats each task's observed rate as its distribution, so a task at 0 %
or 100 % adds no spread; the per-task Wilson intervals are what shows the uncertainty there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from evalview.stats.intervals import Z95, Interval


@dataclass(frozen=True, slots=True)
class AggregateValue:
    mean: float
    se: float
    #: mean ± 1.959964·SE, clipped to [0, 1]
    ci95: Interval
    #: the mean as the exact fraction it is (Σ k_t/n_t)/T; `mean` is its correctly rounded float
    exact_mean: Fraction = field(default=Fraction(0), compare=False)


def exact_mean(successes: Sequence[int], n: Sequence[int]) -> Fraction:
    """(1/T) Σ k_t/n_t as a fraction: a mean of rates whose counts are known is exact, so it
    is rounded once, where it is shown (evalview.fmt), and never differs from the pooled rate
    it equals by a float's last bit (323/400 = 0.8075, where a float sum gives 0.80749…)."""
    return sum((Fraction(k, nt) for k, nt in zip(successes, n, strict=True)), Fraction(0)) / len(n)


def all_tasks_mean(successes: Sequence[int], n: Sequence[int]) -> AggregateValue:
    """Mean of k_t/n_t over tasks (exact, then its float); SE = sqrt(Σ p_t(1−p_t)/n_t) / T."""
    if len(successes) != len(n) or not n:
        raise ValueError("the aggregate needs one (successes, n) pair per task, at least one task")
    if any(nt <= 0 for nt in n):
        raise ValueError("every task of the aggregate needs at least one selected case")
    t = len(n)
    rates = [k / nt for k, nt in zip(successes, n, strict=True)]
    exact = exact_mean(successes, n)
    mean = float(exact)
    se = math.sqrt(math.fsum(p * (1 - p) / nt for p, nt in zip(rates, n, strict=True))) / t
    lo = min(max(mean - Z95 * se, 0.0), 1.0)
    hi = min(max(mean + Z95 * se, 0.0), 1.0)
    return AggregateValue(mean=mean, se=se, ci95=(lo, hi), exact_mean=exact)
