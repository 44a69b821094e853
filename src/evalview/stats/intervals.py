"""Intervals on one count of successes: Wilson (the one evalview reports), normal, Clopper–Pearson.

Wilson is the reporting rules' per-task interval because it neither leaves [0, 1] nor collapses to
a point at 0/n and n/n, where several tasks of a benchmark sit. Normal and Clopper–Pearson exist so
the statistics spec's comparison (normal too narrow at the
ends, Clopper–Pearson widest) can be shown.
"""

from __future__ import annotations

import math
from collections.abc import Callable

#: The two-sided 95 % normal quantile the reporting rules fix (not 1.96).
Z95 = 1.959964

Interval = tuple[float, float]


def _check(successes: int, n: int) -> None:
    if n <= 0:
        raise ValueError(f"an interval needs at least one trial, got n={n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in [0, n], got {successes}/{n}")


def _clip(lo: float, hi: float) -> Interval:
    return (min(max(lo, 0.0), 1.0), min(max(hi, 0.0), 1.0))


def wilson_interval(successes: int, n: int, z: float = Z95) -> Interval:
    """Wilson score interval, clipped to [0, 1] and exact (0 or 1) at 0/n and n/n."""
    _check(successes, n)
    return wilson_interval_of_rate(successes / n, n, z)


def wilson_interval_of_rate(p: float, n: int, z: float = Z95) -> Interval:
    """Wilson interval for an observed rate p̂ over n trials (p̂ need not be a whole count / n).

    Exists for planning questions such as "how wide is the interval at 76 % and n = 20?".
    """
    if n <= 0 or not 0.0 <= p <= 1.0:
        raise ValueError(f"need n >= 1 and p in [0, 1], got p={p}, n={n}")
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo, hi = _clip(centre - half, centre + half)
    # The algebra gives exactly 0 and 1 at the ends; floating point may miss by an ulp.
    if p == 0.0:
        lo = 0.0
    if p == 1.0:
        hi = 1.0
    return lo, hi


def normal_interval(successes: int, n: int, z: float = Z95) -> Interval:
    """p̂ ± z·sqrt(p̂(1−p̂)/n), clipped: zero width at 0/n and n/n, which is why it is not used."""
    _check(successes, n)
    p = successes / n
    half = z * math.sqrt(p * (1 - p) / n)
    return _clip(p - half, p + half)


def clopper_pearson_interval(successes: int, n: int, confidence: float = 0.95) -> Interval:
    """Exact binomial (Clopper–Pearson) interval, by bisection on the binomial tails."""
    _check(successes, n)
    alpha = 1 - confidence
    lo = 0.0 if successes == 0 else _solve(lambda p: _upper_tail(successes, n, p) - alpha / 2)
    hi = 1.0 if successes == n else _solve(lambda p: alpha / 2 - _lower_tail(successes, n, p))
    return lo, hi


def _lower_tail(k: int, n: int, p: float) -> float:
    """P(X ≤ k) for X ~ Binomial(n, p), summed in log space so large n does not underflow."""
    return sum(_pmf(i, n, p) for i in range(k + 1))


def _upper_tail(k: int, n: int, p: float) -> float:
    """P(X ≥ k)."""
    return sum(_pmf(i, n, p) for i in range(k, n + 1))


def _pmf(i: int, n: int, p: float) -> float:
    if p <= 0.0:
        return 1.0 if i == 0 else 0.0
    if p >= 1.0:
        return 1.0 if i == n else 0.0
    log = (
        math.lgamma(n + 1)
        - math.lgamma(i + 1)
        - math.lgamma(n - i + 1)
        + i * math.log(p)
        + (n - i) * math.log1p(-p)
    )
    return math.exp(log)


def _solve(f: Callable[[float], float]) -> float:
    """Root in (0, 1) of an increasing function of p, by bisection to ~1e-12."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if f(mid) < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
