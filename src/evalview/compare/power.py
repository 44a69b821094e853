"""How many episodes a gap needs, what n episodes can resolve, and what that costs.

The formulas are those of `evaluation-statistics.txt` §3–§5: the normal-approximation sample size
per arm, the minimum detectable gap, the paired-design count from the discordant share, and the
exact power obtained by summing binomial probabilities over every pair of counts with the pooled
z-test rule (the spec's widget, `EL.powerIndep`). Normal quantiles come from `statistics`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evalview.compare.hypothesis_tests import z_power, z_quantile

#: A robot-week, in robot-hours (the spec's working figure).
HOURS_PER_ROBOT_WEEK = 40.0
#: Minutes per trial when none is given (the spec's working figure for a real robot).
DEFAULT_MINUTES_PER_TRIAL = 3.0
#: Binomial probabilities below this are left out of the exact power sum (the widget's window).
_PMF_FLOOR = 1e-15
#: Above this many episodes per arm the exact sum is not computed: its grid grows as n (memory
#: and time), and there the normal approximation the formulas use is already exact to the digit.
EXACT_POWER_MAX_N = 1_000_000
#: Guards `ceil` against a float a hair above an exact integer (317.0000000001 is 317).
_CEIL_SLACK = 1e-9


def _ceil(x: float) -> int:
    return math.ceil(x - _CEIL_SLACK)


def _check_rate(name: str, p: float) -> None:
    if not 0 <= p <= 1 or math.isnan(p):
        raise ValueError(f"{name} must be a fraction in [0, 1], got {p}")


def n_per_arm(p1: float, p2: float, *, alpha: float = 0.05, power: float = 0.8) -> int:
    """n = 2(z_{α/2} + z_β)² p̄(1 − p̄)/Δ², rounded up: 495 for 68 % against 76 %."""
    _check_rate("p1", p1)
    _check_rate("p2", p2)
    delta = p2 - p1
    if delta == 0:
        raise ValueError("p1 and p2 are equal: no number of episodes resolves a zero gap")
    pbar = (p1 + p2) / 2
    k = (z_quantile(alpha) + z_power(power)) ** 2
    return max(1, _ceil(2 * k * pbar * (1 - pbar) / delta**2))


def min_detectable_gap(
    n: int, pbar: float, *, alpha: float = 0.05, power: float = 0.8
) -> float:
    """Δ_min(n) = (z_{α/2} + z_β)·√(2p̄(1 − p̄)/n), a fraction (0.398 at n = 20, p̄ = 0.72)."""
    if n <= 0:
        raise ValueError(f"n must be a positive number of episodes per arm, got {n}")
    _check_rate("p̄", pbar)
    return (z_quantile(alpha) + z_power(power)) * math.sqrt(2 * pbar * (1 - pbar) / n)


def paired_n(psi: float, delta: float, *, alpha: float = 0.05, power: float = 0.8) -> int:
    """Pairs needed: n = (z_{α/2}√ψ + z_β√(ψ − Δ²))²/Δ², rounded up (497 at ψ = 40.6 %, Δ = 8 pt).

    ψ is the share of discordant pairs and Δ the difference of the rates; |Δ| ≤ ψ always holds
    for real pairs (the discordant pairs carry the whole difference).
    """
    _check_rate("ψ (discordant share)", psi)
    if delta == 0:
        raise ValueError("the gap is zero: no number of pairs resolves it")
    if abs(delta) > psi + 1e-12:
        raise ValueError(
            f"the gap {abs(delta):.4f} exceeds the discordant share {psi:.4f}; "
            "the discordant pairs must carry the whole difference (|Δ| ≤ ψ)"
        )
    za, zb = z_quantile(alpha), z_power(power)
    root = za * math.sqrt(psi) + zb * math.sqrt(max(0.0, psi - delta**2))
    return max(1, _ceil(root**2 / delta**2))


def independent_discordance(p1: float, p2: float) -> float:
    """ψ for independent outcomes: p2(1 − p1) + p1(1 − p2) (40.6 % for 68 % and 76 %)."""
    _check_rate("p1", p1)
    _check_rate("p2", p2)
    return p2 * (1 - p1) + p1 * (1 - p2)


@dataclass(frozen=True, slots=True)
class ExactPower:
    """Shares of evaluations (fractions): the verdicts of the z-test and the raw count order.

    `right` names the truly better second arm significantly, `wrong` names the first; `more`,
    `tie`, `less` compare the second count with the first, with no test at all.
    """

    right: float
    wrong: float
    more: float
    tie: float
    less: float


def _binom_pmf(n: int, p: float) -> npt.NDArray[np.float64]:
    """P(K = k) for k = 0..n. Log-factorials come from lgamma: a running sum of logs drifts
    (at n = 10⁵ it made the power exceed 1 by 2e-9)."""
    k = np.arange(n + 1)
    if p <= 0 or p >= 1:
        out = np.zeros(n + 1)
        out[0 if p <= 0 else n] = 1.0
        return out
    logfact = np.fromiter(map(math.lgamma, range(1, n + 2)), dtype=np.float64, count=n + 1)
    logpmf = logfact[n] - logfact[k] - logfact[n - k] + k * math.log(p) + (n - k) * math.log1p(-p)
    return np.asarray(np.exp(logpmf), dtype=np.float64)


def _window(pmf: npt.NDArray[np.float64]) -> tuple[int, int]:
    idx = np.flatnonzero(pmf > _PMF_FLOOR)
    return (int(idx[0]), int(idx[-1])) if idx.size else (0, pmf.size - 1)


def exact_power(p1: float, p2: float, n: int, *, alpha: float = 0.05) -> ExactPower:
    """Sum P(K1 = i)·P(K2 = j) over every pair of counts, judged by the pooled z-test at α.

    This is the widget's `EL.powerIndep`: a pair with all successes or all failures is no verdict;
    otherwise the verdict is z > z_{α/2} (right) or z < −z_{α/2} (wrong). Counts whose probability
    is below 1e-15 are skipped, as the widget's window does; rows are summed in blocks so the grid
    never holds more than a few million cells.
    """
    _check_rate("p1", p1)
    _check_rate("p2", p2)
    if n <= 0:
        raise ValueError(f"n must be a positive number of episodes per arm, got {n}")
    if n > EXACT_POWER_MAX_N:
        raise ValueError(
            f"n = {n:,} is over {EXACT_POWER_MAX_N:,} episodes per arm, where the exact sum is "
            "not computed (the normal approximation is exact to the digit there)"
        )
    crit = z_quantile(alpha)
    a, b = _binom_pmf(n, p1), _binom_pmf(n, p2)
    (i0, i1), (j0, j1) = _window(a), _window(b)
    j = np.arange(j0, j1 + 1)
    bj = b[j0 : j1 + 1]
    right = wrong = more = tie = less = 0.0
    block = max(1, 4_000_000 // max(1, j.size))
    for start in range(i0, i1 + 1, block):
        i = np.arange(start, min(i1 + 1, start + block))[:, None]
        w = a[i] * bj[None, :]
        s = i + j[None, :]
        pp = s / (2 * n)
        var = pp * (1 - pp) * 2 / n
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(var > 0, (j[None, :] - i) / n / np.sqrt(np.where(var > 0, var, 1.0)), 0.0)
        right += float(w[z > crit].sum())
        wrong += float(w[z < -crit].sum())
        more += float(w[j[None, :] > i].sum())
        tie += float(w[j[None, :] == i].sum())
        less += float(w[j[None, :] < i].sum())
    # The sums are of probabilities: clip the last ulps of rounding so a share never leaves [0, 1].
    return ExactPower(*(min(1.0, max(0.0, x)) for x in (right, wrong, more, tie, less)))


@dataclass(frozen=True, slots=True)
class Cost:
    """The robot time of a comparison of n episodes per arm at t minutes a trial."""

    trials: int
    robot_hours: float
    robot_weeks: float


def cost(n: int, minutes_per_trial: float = DEFAULT_MINUTES_PER_TRIAL) -> Cost:
    """2n trials, 2nt/60 robot-hours, and robot-weeks of 40 hours (49.5 h for n = 495 at 3 min)."""
    if n < 0:
        raise ValueError(f"n must be nonnegative, got {n}")
    if not minutes_per_trial > 0 or math.isinf(minutes_per_trial):
        raise ValueError(f"minutes per trial must be a positive number, got {minutes_per_trial}")
    hours = 2 * n * minutes_per_trial / 60
    return Cost(2 * n, hours, hours / HOURS_PER_ROBOT_WEEK)


def non_overlap_n_per_arm(
    p1: float, p2: float, *, alpha: float = 0.05, power: float = 0.8
) -> int:
    """Episodes per arm for the rule "the two intervals do not overlap" to fire with the power.

    Two intervals of half-width z_{α/2}·s (s = √(p̄(1 − p̄)/n)) are apart when |d̂| > 2·z_{α/2}·s,
    while d̂ scatters with √2·s, so Δ = (2z_{α/2} + √2·z_β)·s and
    n = (2z_{α/2} + √2·z_β)² p̄(1 − p̄)/Δ²: 1.66 times the z-test's trials (§3), 823 for our pair.
    """
    _check_rate("p1", p1)
    _check_rate("p2", p2)
    delta = p2 - p1
    if delta == 0:
        raise ValueError("p1 and p2 are equal: no number of episodes resolves a zero gap")
    pbar = (p1 + p2) / 2
    k = (2 * z_quantile(alpha) + math.sqrt(2) * z_power(power)) ** 2
    return max(1, _ceil(k * pbar * (1 - pbar) / delta**2))


#: Above this many pairs the exact paired sum is not computed (it grows as n × window).
EXACT_PAIRED_POWER_MAX_N = 20_000


@dataclass(frozen=True, slots=True)
class ExactPairedPower:
    """Shares of paired evaluations (fractions) in which McNemar's exact test at α names the
    candidate (`right`) or the reference (`wrong`)."""

    right: float
    wrong: float


def exact_paired_power(
    psi: float, delta: float, n: int, *, alpha: float = 0.05
) -> ExactPairedPower:
    """How often n pairs reach each verdict of McNemar's exact test (§5).

    A pair is discordant with probability ψ; a discordant pair favours the candidate with
    probability (ψ + Δ)/(2ψ). Given d discordant pairs the exact test rejects when the smaller count
    k has 2·P(Bin(d, ½) ≤ k) < α; the sum runs over d ~ Bin(n, ψ). At ψ = Δ = 8 % (the candidate
    never loses a pair) 20 pairs reach the right verdict in 0.4 % and 100 pairs in 82.0 %.
    """
    _check_rate("ψ (discordant share)", psi)
    if abs(delta) > psi + 1e-12:
        raise ValueError(
            f"the gap {abs(delta):.4f} exceeds the discordant share {psi:.4f}; "
            "the discordant pairs must carry the whole difference (|Δ| ≤ ψ)"
        )
    if n <= 0:
        raise ValueError(f"n must be a positive number of pairs, got {n}")
    if n > EXACT_PAIRED_POWER_MAX_N:
        raise ValueError(
            f"n = {n:,} is over {EXACT_PAIRED_POWER_MAX_N:,} pairs, where the exact paired sum is "
            "not computed"
        )
    if psi == 0:
        return ExactPairedPower(0.0, 0.0)
    q = min(1.0, max(0.0, (psi + delta) / (2 * psi)))
    if abs(abs(delta) - psi) <= 1e-12:  # 0.76 − 0.68 is 0.0799…96: one side never wins a pair
        q = 1.0 if delta > 0 else 0.0
    discordant = _binom_pmf(n, psi)
    d0, d1 = _window(discordant)
    right = wrong = 0.0
    for d in range(max(d0, 1), d1 + 1):
        half = np.cumsum(_binom_pmf(d, 0.5))
        below = np.flatnonzero(2 * half < alpha)
        if below.size == 0:
            continue
        k = int(below[-1])  # reject when min(b, c) <= k
        split = _binom_pmf(d, q)  # P(b = j | d)
        right += float(discordant[d] * split[d - k :].sum())
        wrong += float(discordant[d] * split[: k + 1].sum())
    return ExactPairedPower(min(1.0, right), min(1.0, wrong))
