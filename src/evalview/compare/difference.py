"""A 95 % interval for the difference of two success rates, rate_B − rate_A.

Two methods, both built from the Wilson intervals of the two rates ("square and add"):

- **Newcombe's hybrid score interval** (Newcombe 1998, *Statistics in Medicine* 17:873–890,
  method 10) for two independent reads. With d = p_B − p_A and (l, u) each rate's Wilson interval:
  L = d − √((p_B − l_B)² + (u_A − p_A)²), U = d + √((u_B − p_B)² + (p_A − l_A)²).
  Checked against the paper's Table II (56/70 vs 48/80 gives 0.2000, [0.0524, 0.3339]).
- **Newcombe's paired score interval** (Newcombe 1998b, *Statistics in Medicine* 17:2635–2650,
  method 10; Fagerland, Lydersen & Laake 2017, §8 "square-and-add") where the two reads are paired
  episode by episode. The same square-and-add, with the cross term −2φ(·)(·) where φ estimates the
  correlation of the two rates from the 2×2 table of pairs, continuity-corrected towards 0 as in
  method 10: φ = (ad − bc − n/2)/√(marginals) when ad − bc > n/2, 0 when 0 ≤ ad − bc ≤ n/2, and
  (ad − bc)/√(marginals) when ad − bc < 0.

Both use Wilson's interval with z = 1.959964, as everywhere in evalview, so a bound can differ from
a table computed with z = 1.96 in the fifth decimal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from evalview.stats.intervals import Z95, wilson_interval

#: The `method` strings of `difference_ci95` in `compare --json`.
HYBRID = "newcombe-hybrid-score (Newcombe 1998, method 10; independent reads)"
PAIRED = "newcombe-paired-score (Newcombe 1998b, method 10; paired by episode)"


@dataclass(frozen=True, slots=True)
class DifferenceInterval:
    """rate_B − rate_A with its 95 % interval, and which method made it."""

    method: str
    difference: float
    interval: tuple[float, float]

    @property
    def excludes_zero(self) -> bool:
        lo, hi = self.interval
        return lo > 0 or hi < 0

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "interval": [self.interval[0], self.interval[1]]}


def _clip(lo: float, hi: float) -> tuple[float, float]:
    return max(-1.0, lo), min(1.0, hi)


def newcombe_hybrid(
    k_b: int, n_b: int, k_a: int, n_a: int, *, z: float = Z95
) -> DifferenceInterval:
    """Newcombe's hybrid score interval for k_b/n_b − k_a/n_a (independent reads)."""
    p_b, p_a = k_b / n_b, k_a / n_a
    l_b, u_b = wilson_interval(k_b, n_b, z)
    l_a, u_a = wilson_interval(k_a, n_a, z)
    d = float(Fraction(k_b, n_b) - Fraction(k_a, n_a))  # exact, then one rounding
    lo = d - math.sqrt((p_b - l_b) ** 2 + (u_a - p_a) ** 2)
    hi = d + math.sqrt((u_b - p_b) ** 2 + (p_a - l_a) ** 2)
    return DifferenceInterval(HYBRID, d, _clip(lo, hi))


def newcombe_paired(
    both: int, only_a: int, only_b: int, neither: int, *, z: float = Z95
) -> DifferenceInterval:
    """Newcombe's paired score interval (method 10 of 1998b) for rate_B − rate_A over n pairs.

    `only_b` counts pairs B succeeded and A failed; `only_a` the reverse.
    """
    n = both + only_a + only_b + neither
    if n <= 0:
        raise ValueError("a paired interval needs at least one pair")
    k_b, k_a = both + only_b, both + only_a
    p_b, p_a = k_b / n, k_a / n
    l_b, u_b = wilson_interval(k_b, n, z)
    l_a, u_a = wilson_interval(k_a, n, z)
    # The 2×2 table with B as the first margin: a = both, b = B only, c = A only, d = neither.
    marginals = k_b * (n - k_b) * k_a * (n - k_a)
    phi = 0.0
    if marginals > 0:
        cross = both * neither - only_b * only_a
        if cross > n / 2:
            phi = (cross - n / 2) / math.sqrt(marginals)
        elif cross < 0:
            phi = cross / math.sqrt(marginals)
    d = (only_b - only_a) / n  # exact, then one rounding (not p_b − p_a in floats)
    down_b, up_a = p_b - l_b, u_a - p_a
    up_b, down_a = u_b - p_b, p_a - l_a
    lo = d - math.sqrt(max(0.0, down_b**2 - 2 * phi * down_b * up_a + up_a**2))
    hi = d + math.sqrt(max(0.0, down_a**2 - 2 * phi * down_a * up_b + up_b**2))
    return DifferenceInterval(PAIRED, d, _clip(lo, hi))
