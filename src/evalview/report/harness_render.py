"""index.html of an exported harness result: self-contained, script-free, rendered from the
published document only (so it cannot show what result.json does not carry).

Every rate is placed on one 0-100 % scale: an arm's min-max range over seeds, and each read's
Wilson 95 % interval with its rate, as CSS bars (no script, no external resource; the same
Content-Security-Policy as the closed-run page). The harness's caveats stay on the page: the
measured-not-matched paragraph under the table and, for a single-seed file, the label beside
every number.
"""

from __future__ import annotations

from typing import Any

from evalview.report.render import CSP, ENV


def _pt(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.1f} pt"


def _pos(x: float) -> str:
    """A fraction as a CSS percentage, clipped to the track."""
    return f"{100 * min(max(x, 0.0), 1.0):.2f}%"


ENV.filters["pt"] = _pt
ENV.filters["pos"] = _pos


def render_html(doc: dict[str, Any]) -> str:
    from evalview.harness.score import MEASURED, measured_text

    template = ENV.get_template("harness.html.j2")
    measured = [(key, label) for key, label, _unit in MEASURED]
    return template.render(d=doc, csp=CSP, measured=measured, fmt_measured=measured_text)
