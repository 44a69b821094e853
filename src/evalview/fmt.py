"""Formatting shared by every view (command-line text, screens): headless, imports nothing."""

from __future__ import annotations

import math

__all__ = ["STAGES", "pairs", "pct", "short_number"]

#: The stages of opening a run, in order, as the loading bar names them (here, not in
#: evalview.session, so the app's loading screen draws without importing the reader).
STAGES = ("reading", "auditing", "scoring")


def pct(x: float | None, digits: int = 1) -> str:
    """A fraction as percent text; None as an em dash."""
    return "—" if x is None else f"{100 * x:.{digits}f} %"


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
