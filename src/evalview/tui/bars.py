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
    kinds = ["in" if a <= i <= b else "out" for i in range(width)]
    if dot is not None:
        kinds[dot] = "dot"
    # One span per run of equal cells (a handful per bar), not one per cell.
    text = Text(no_wrap=True)
    start = 0
    for i in range(1, width + 1):
        if i == width or kinds[i] != kinds[start]:
            kind = kinds[start]
            text.append(_GLYPH[kind] * (i - start), style=_STYLE[kind])
            start = i
    return text


_GLYPH = {"in": "━", "out": "·", "dot": "●"}
_STYLE = {"in": "cyan", "out": "dim", "dot": "bold"}
