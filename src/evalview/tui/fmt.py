"""Formatting shared by the screens: percent text, counts, and the styles of a severity."""

from __future__ import annotations

from evalview.fmt import count, pct, pct_range, points, ratio

__all__ = ["SEVERITY_MARK", "SEVERITY_STYLE", "count_text", "pct", "pct_range", "points", "share"]

#: Styles named after theme variables, so they follow the theme in 16 and true colour.
SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "blue"}
#: A mark per severity, so the meaning survives without colour.
SEVERITY_MARK = {"error": "✗", "warning": "⚠", "info": "ℹ"}


def count_text(n: int, noun: str) -> str:
    return count(n, noun)


def share(k: int, n: int) -> str:
    """`k / n (p %)`; the denominator is always shown."""
    return ratio(k, n) + (f" ({pct(k / n)})" if n else "")
