"""The two tests of a comparison: McNemar's exact test on paired outcomes and the pooled z-test.

Both follow `evaluation-statistics.txt` §3 and §5. They are written with the standard library so
the headless core needs no scipy (scipy and statsmodels are the test oracles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

_NORMAL = NormalDist()


@dataclass(frozen=True, slots=True)
class McNemarResult:
    """Discordant pairs and the exact two-sided p. `b` favours the second read, `c` the first."""

    b: int
    c: int
    p_value: float

    @property
    def discordant(self) -> int:
        return self.b + self.c


@dataclass(frozen=True, slots=True)
class ZTestResult:
    """The pooled two-proportion z-test. `z` is 0 and `p_value` 1 when the pool is all 0 or 1."""

    z: float
    p_value: float


def mcnemar_exact(b: int, c: int) -> McNemarResult:
    """p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, 1/2), in exact integer arithmetic.

    The counts are small integers, so the tail is a sum of binomial coefficients over 2^(b+c);
    Python's int division rounds that ratio correctly even for thousands of pairs.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be nonnegative, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return McNemarResult(b, c, 1.0)
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1))
    return McNemarResult(b, c, min(1.0, 2 * tail / 2**n))


def pooled_z_test(k1: int, n1: int, k2: int, n2: int) -> ZTestResult:
    """Two-sided pooled two-proportion z-test of k2/n2 against k1/n1 (z > 0: the second is higher).

    When every outcome is a success (or every one a failure) the difference is 0 with no spread:
    no difference can be declared, so z = 0 and p = 1 rather than a division by zero.
    """
    if n1 <= 0 or n2 <= 0:
        raise ValueError(f"both arms need at least one trial, got n1={n1}, n2={n2}")
    if not (0 <= k1 <= n1 and 0 <= k2 <= n2):
        raise ValueError(f"successes must lie in [0, n], got {k1}/{n1} and {k2}/{n2}")
    pooled = (k1 + k2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        return ZTestResult(0.0, 1.0)
    z = (k2 / n2 - k1 / n1) / math.sqrt(var)
    return ZTestResult(z, min(1.0, 2 * _NORMAL.cdf(-abs(z))))


def z_quantile(alpha: float) -> float:
    """z_{α/2}: the two-sided critical value at level α (1.959964 at α = 0.05)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    return _NORMAL.inv_cdf(1 - alpha / 2)


def z_power(power: float) -> float:
    """z_β for the wanted power (0.8416 at 80 %)."""
    if not 0 < power < 1:
        raise ValueError(f"power must lie strictly between 0 and 1, got {power}")
    return _NORMAL.inv_cdf(power)
