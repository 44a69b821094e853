"""Formatting shared by every view (command-line text, screens, the page, LaTeX): headless.

Every percent and every point a person reads is rounded here, once, by one rule
(`ROUNDING_RULE`, docs/statistics.md "Rounding"): the value is taken as the exact number it
stands for (a `Fraction` as is; a float as the shortest decimal that reads back as it, which is
the decimal a correctly rounded k/n or an exact mean converted to float stands for), scaled by
100 exactly, and rounded half to even at the digits shown. Formatting `100 * x` with an f-string
instead rounds the float product, whose last bit decides ties: 0.8075 and 0.8074999999999999
(one number, computed two ways) then read 80.8 % and 80.7 %.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction

    #: What the formatters take: a fraction in [0, 1] (or a difference of two), exactly or as
    #: float. (A name for the type checker only: `fractions` is imported on first use.)
    Number = Fraction | float | int

__all__ = [
    "ROUNDING_RULE",
    "STAGES",
    "count",
    "exact",
    "fixed",
    "pairs",
    "pct",
    "pct_range",
    "points",
    "ratio",
    "short_number",
]

#: The one rounding rule: round half to even (ISO 80000-1 Annex B, IEEE 754 roundTiesToEven),
#: applied to the exact value at the digits shown. Unbiased over a column of rates.
ROUNDING_RULE = "round half to even, on the exact value, once, at the digits shown"

#: The stages of opening a run, in order, as the loading bar names them (here, not in
#: evalview.session, so the app's loading screen draws without importing the reader).
STAGES = ("reading", "auditing", "scoring")


def exact(x: Number) -> Fraction:
    """The exact number `x` stands for: a float is the shortest decimal that reads back as it
    (`repr`), so the correctly rounded float of 323/400 is 0.8075, not its binary expansion.
    `fractions` is imported here, on first use: with `decimal`, which it imports, about 1.5 ms
    of the start-up of every command that shows no percent (`check`)."""
    from fractions import Fraction

    if isinstance(x, Fraction):
        return x
    if isinstance(x, float):
        return Fraction(repr(x))
    return Fraction(x)


def fixed(x: Number, digits: int = 1, *, sign: bool = False) -> str:
    """`x` with `digits` decimals, rounded half to even on its exact value (the one rule).

    `sign`: a leading + on a positive value. A negative value keeps its minus even when it
    rounds to zero (`-0.0`), as Python's own formatting does: the direction is information.
    Non-finite floats are written as Python writes them.
    """
    if isinstance(x, float) and not math.isfinite(x):
        return f"{x:{'+' if sign else ''}.{digits}f}"
    value = exact(x)
    negative = value < 0
    scale = 10**digits
    q, r = divmod(abs(value.numerator) * scale, value.denominator)
    if 2 * r > value.denominator or (2 * r == value.denominator and q % 2 == 1):
        q += 1
    whole, frac = divmod(q, scale)
    text = f"{whole}.{frac:0{digits}d}" if digits > 0 else str(whole)
    return ("-" if negative else "+" if sign else "") + text


def _hundred(x: Number) -> Fraction:
    return 100 * exact(x)


def _nonfinite(x: Number) -> bool:
    """A NaN or infinite float: never a rate or a difference, so shown as an em dash (a harness
    success_rate of NaN reaches a view as recorded, and `exact` cannot take it)."""
    return isinstance(x, float) and not math.isfinite(x)


def pct(x: Number | None, digits: int = 1, *, unit: str = " %") -> str:
    """A fraction as percent text (`80.8 %`; `unit=""` for a table cell under a `%` heading);
    None as an em dash."""
    return "—" if x is None or _nonfinite(x) else f"{fixed(_hundred(x), digits)}{unit}"


def points(x: Number | None, digits: int = 1, *, sign: bool = True, unit: str = " pt") -> str:
    """A difference of two fractions in percentage points (`+18.8 pt`); None as an em dash.
    `sign=False` for a spread (an SE, an SD), which has no direction."""
    if x is None or _nonfinite(x):
        return "—"
    return f"{fixed(_hundred(x), digits, sign=sign)}{unit}"


def pct_range(lo: Number | None, hi: Number | None, digits: int = 1, *, sep: str = "–",
              unit: str = " %") -> str:
    """An interval of fractions as percent (`64.8–72.0 %`); a missing bound as an em dash."""
    if lo is None or hi is None or _nonfinite(lo) or _nonfinite(hi):
        return "—"
    return f"{fixed(_hundred(lo), digits)}{sep}{fixed(_hundred(hi), digits)}{unit}"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`1 seed`, `2 seeds`, `1,200 episodes`: one rule for every count a person reads."""
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"


def ratio(k: int | None, n: int | None) -> str:
    """`641 / 1,200`: a count over its denominator, thousands separated like every count."""
    return f"{'—' if k is None else f'{k:,}'} / {'—' if n is None else f'{n:,}'}"


def short_number(value: object) -> str:
    """A recorded number as it reads best: a whole value without decimals, else two."""
    if isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value.is_integer() else f"{value:.2f}"
    return str(value)


def pairs(value: object) -> str:
    """A small recorded JSON object (a stop criterion, an overshoot, a status) as `k=v, k=v`."""
    if not isinstance(value, dict):
        return "not recorded" if value is None else str(value)
    return ", ".join(f"{k}={short_number(v)}" for k, v in value.items()) or "{}"
