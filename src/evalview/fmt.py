"""Formatting shared by every view (command-line text, screens): headless, imports nothing."""

from __future__ import annotations

import math

__all__ = ["STAGES", "count", "pairs", "pct", "ratio", "short_number"]

#: The stages of opening a run, in order, as the loading bar names them (here, not in
#: evalview.session, so the app's loading screen draws without importing the reader).
STAGES = ("reading", "auditing", "scoring")


def pct(x: float | None, digits: int = 1) -> str:
    """A fraction as percent text; None (and NaN or infinity, never a rate) as an em dash."""
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f} %"


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
