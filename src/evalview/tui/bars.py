"""The Wilson interval drawn as a bar on one 0–100 % scale, so tasks compare at a glance."""

from __future__ import annotations

from rich.text import Text


def interval_bar(lo: float, hi: float, point: float | None, width: int = 25) -> Text:
    """`width` cells for 0..100 %: the interval as a line, the estimate as a dot.

    Characters carry the meaning too (· outside, ━ inside, ● estimate), so the bar still reads in
    a 16-colour terminal or with no colour at all.
    """
    width = max(width, 3)
    last = width - 1

    def cell(x: float) -> int:
        return max(0, min(last, round(min(max(x, 0.0), 1.0) * last)))

    a, b = cell(lo), cell(hi)
    dot = cell(point) if point is not None else None
    text = Text(no_wrap=True)
    for i in range(width):
        if i == dot:
            text.append("●", style="bold")
        elif a <= i <= b:
            text.append("━", style="cyan")
        else:
            text.append("·", style="dim")
    return text
