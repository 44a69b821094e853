"""The tests of a comparison: McNemar's exact and mid-p tests on paired outcomes, the pooled z-test.

The exact test and the z-test follow `evaluation-statistics.txt` §3 and §5. The mid-p test is
Fagerland, Lydersen & Laake (2013), "The McNemar test for binary matched-pairs data: mid-p and
asymptotic are better than exact conditional", BMC Med. Res. Methodol. 13:91: the exact test is
conservative (its size is often far below α), the mid-p version keeps close to α and agrees with
score intervals far more often. They are written with the standard library so the headless core
needs no scipy (scipy and statsmodels are the test oracles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

_NORMAL = NormalDist()


@dataclass(frozen=True, slots=True)
class McNemarResult:
    """Discordant pairs, the exact two-sided p and its mid-p version. `b` favours the second
    read, `c` the first."""

    b: int
    c: int
    p_value: float
    #: Fagerland, Lydersen & Laake (2013): the exact p less the probability of the observed
    #: count (half of it on each side); 1 with no discordant pair
    mid_p: float = 1.0

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
        return McNemarResult(b, c, 1.0, 1.0)
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1))
    return McNemarResult(b, c, min(1.0, 2 * tail / 2**n), mcnemar_mid_p(b, c))


def mcnemar_mid_p(b: int, c: int) -> float:
    """The mid-p McNemar test, exactly as Fagerland, Lydersen & Laake (2013) define it.

    With X ~ Bin(b + c, 1/2) and b < c: mid-p = 2·P(X ≤ b) − P(X = b) (the exact p less the
    point probability of what was observed); with b = c: 1 − P(X = b)/2. Integer arithmetic,
    one rounding (their worked example, 1 and 7 discordant pairs: exact 0.070, mid-p 0.039).
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be nonnegative, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    low = min(b, c)
    point = math.comb(n, low)
    if b == c:
        return float(1 - Fraction(point, 2 ** (n + 1)))
    tail = sum(math.comb(n, k) for k in range(low + 1))
    return float(Fraction(2 * tail - point, 2**n))


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
