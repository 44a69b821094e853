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
from typing import Any

from evalview.stats.intervals import Z95, Interval, wilson_interval


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


@dataclass(frozen=True, slots=True)
class ZeroSpread:
    """Every task is 0/n or n/n, so the all-T binomial SE is 0 and the normal interval and the
    seed bootstrap have zero width: by the design (one episode per task, or tasks that all
    succeed or all fail), not because the estimate is precise (reporting rules: "a task at 0 %
    or 100 % adds no spread to them"). What is honest instead: the pooled Wilson interval of
    every episode, and the episodes per task a task needs before it can show any spread."""

    tasks: int
    #: fewest and most episodes of a task
    episodes: tuple[int, int]
    successes: int
    selected: int
    #: Wilson 95 % of successes / selected over every episode (not zero-width at 0/N or N/N)
    pooled_wilson95: Interval
    #: ⌈N / min(K, N − K)⌉: the episodes per task at which a task at the pooled rate expects one
    #: episode of the rarer outcome (at least 2); None when every episode has one outcome
    episodes_needed: int | None

    @property
    def one_outcome(self) -> str | None:
        """"succeeded" or "failed" when every episode did; None otherwise."""
        if self.successes == self.selected:
            return "succeeded"
        return "failed" if self.successes == 0 else None

    def to_json(self) -> dict[str, Any]:
        return {
            "tasks": self.tasks,
            "episodes_per_task": list(self.episodes),
            "successes": self.successes,
            "selected": self.selected,
            "pooled_wilson95": list(self.pooled_wilson95),
            "episodes_per_task_needed": self.episodes_needed,
        }


def zero_spread(successes: Sequence[int], n: Sequence[int]) -> ZeroSpread | None:
    """The caveat of an all-T SE that is zero by design (every task 0/n or n/n); None when some
    task has both outcomes (then the SE measures something)."""
    if not n or any(k not in (0, nt) for k, nt in zip(successes, n, strict=True)):
        return None
    total_k, total_n = sum(successes), sum(n)
    rarer = min(total_k, total_n - total_k)
    return ZeroSpread(
        tasks=len(n),
        episodes=(min(n), max(n)),
        successes=total_k,
        selected=total_n,
        pooled_wilson95=wilson_interval(total_k, total_n),
        episodes_needed=None if rarer == 0 else max(2, -(-total_n // rarer)),
    )
