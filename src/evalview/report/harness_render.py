"""index.html of an exported harness result: self-contained, script-free, rendered from the
published document only (so it cannot show what result.json does not carry).

Every rate is placed on one 0-100 % scale: an arm's min-max range over seeds, and each read's
Wilson 95 % interval with its rate, as CSS bars (no script, no external resource; the same
Content-Security-Policy as the closed-run page). The harness's caveats stay on the page: the
measured-not-matched paragraph above its tables and, for a single-seed file, the label beside
every number. The page shares the run page's look (templates/_page.css.j2: palette, dark scheme,
phone and paper rules); tests/report/test_harness_page_layout.py measures it in Chromium.
"""

from __future__ import annotations

from typing import Any

from evalview.fmt import pct_range, points
from evalview.report.render import CSP, ENV


def _pt(x: float | None) -> str:
    return points(x)


def _pct_range(lo: float | None, hi: float | None) -> str:
    """A min-max range of rates with one unit, `25.0–27.1 %`, as the app shows it."""
    return pct_range(lo, hi)


def _pos(x: float) -> str:
    """A fraction as a CSS percentage, clipped to the track."""
    return f"{100 * min(max(x, 0.0), 1.0):.2f}%"


ENV.filters["pt"] = _pt
ENV.filters["pos"] = _pos
ENV.filters["pct_range"] = _pct_range

#: The measured quantities that are the run's resources (memory, time); the others (tokens, the
#: teacher's cache) come first. Two tables of at most seven numbers each fit a page at 1,280 px
#: and on paper, where one of twelve did not.
_RESOURCES = frozenset({"peak_allocated_bytes", "peak_reserved_bytes", "train_seconds",
                        "evaluation_seconds", "wall_seconds"})


def render_html(doc: dict[str, Any]) -> str:
    from evalview.harness.score import MEASURED, measured_text

    template = ENV.get_template("harness.html.j2")
    pairs = [(key, label) for key, label, _unit in MEASURED]
    measured = [
        ("Tokens and the teacher's cache", [p for p in pairs if p[0] not in _RESOURCES]),
        ("Memory and time", [p for p in pairs if p[0] in _RESOURCES]),
    ]
    return template.render(d=doc, csp=CSP, measured=measured, fmt_measured=measured_text)
