"""index.html from result.json: one self-contained, script-free page.

The page is rendered from the validated result only (never from the run), so it cannot show
anything result.json does not carry: the `Result` model, or the same as plain values (its
`model_dump()`, which the export validates without pydantic: model/result_plain.py). The
template reads both alike (Jinja looks a missing attribute up as a key). Jinja2 autoescaping
escapes every value, including text inside the inline SVG; the plot's geometry is computed here
so the template holds no arithmetic. A Content-Security-Policy meta tag forbids every fetch and
every script as a second line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup, escape

from evalview import fmt

if TYPE_CHECKING:
    from evalview.model.result import Result

#: A result's plain values: `Result.model_dump()` (what the export validates and writes).
Document = Mapping[str, Any]

#: Blocks scripts, frames, fonts, images other than data: URLs and every network fetch.
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    "base-uri 'none'; form-action 'none'"
)

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("evalview.report", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def pct(x: float | None, digits: int = 1) -> str:
    """A rate as percent, rounded by the one rule of every view (evalview.fmt)."""
    return fmt.pct(x, digits)


def interval(iv: tuple[float, float] | None, digits: int = 1) -> str:
    if iv is None:
        return "—"
    return f"[{fmt.pct(iv[0], digits, unit='')}, {fmt.pct(iv[1], digits, unit='')}] %"


def points(x: float | None, digits: int = 1) -> str:
    """A standard error in percentage points, `1.0 pt`: the app and the CLI say the same."""
    return fmt.points(x, digits, sign=False)


def bare_points(x: float | None, digits: int = 1) -> str:
    """A spread in points with no unit, `9.6`, for a cell whose label says `SE`."""
    return fmt.points(x, digits, sign=False, unit="")


_ENV.filters["pct"] = pct
_ENV.filters["points"] = points
_ENV.filters["bare_points"] = bare_points
_ENV.filters["interval"] = interval
#: The one template environment (the harness result's page renders with it too).
ENV = _ENV


@dataclass(frozen=True, slots=True)
class PlotRow:
    label: str
    y: float
    x_lo: float
    x_hi: float
    x_rate: float | None
    title: str
    aggregate: bool = False


@dataclass(frozen=True, slots=True)
class Plot:
    width: int
    height: int
    left: int
    right: int
    top: int
    rows: list[PlotRow]
    ticks: list[tuple[float, str]]
    x_mean: float | None
    axis_y: float


ROW = 22
LEFT = 200
PLOT_W = 520
TOP = 16


def plain(result: Result | Document) -> Document:
    """The result's plain values: a document as it is, a model as its `model_dump()`."""
    return result if isinstance(result, Mapping) else result.model_dump()


def plot(result: Result | Document) -> Plot:
    """Per-task Wilson intervals with the aggregate and its 95 % interval as the last row."""
    doc = plain(result)

    def x(v: float) -> float:
        return round(LEFT + v * PLOT_W, 2)

    rows: list[PlotRow] = []
    for i, t in enumerate(doc["tasks"]):
        wilson, rate = t["wilson95"], t["rate"]
        lo, hi = wilson if wilson is not None else (0.0, 0.0)
        rows.append(
            PlotRow(
                label=t["task"],
                y=TOP + ROW * i + ROW / 2,
                x_lo=x(lo),
                x_hi=x(hi),
                x_rate=None if rate is None else x(rate),
                title=f"{t['task']}: {t['successes']}/{t['selected']} = {pct(rate)}, "
                f"Wilson 95 % {interval(wilson)}",
            )
        )
    agg = doc["aggregate"]
    ci = agg["bootstrap"] or agg["ci95"]
    mean = agg["mean"]
    y = TOP + ROW * len(rows) + ROW
    rows.append(
        PlotRow(
            label=f"{agg['name']} (aggregate)",
            y=y,
            x_lo=x(ci[0]) if ci else x(0.0),
            x_hi=x(ci[1]) if ci else x(0.0),
            x_rate=None if mean is None else x(mean),
            title=f"{agg['name']}: mean {pct(mean)}, 95 % {interval(ci)}",
            aggregate=True,
        )
    )
    axis_y = y + ROW
    return Plot(
        width=LEFT + PLOT_W + 30,
        height=int(axis_y + 28),
        left=LEFT,
        right=LEFT + PLOT_W,
        top=TOP,
        rows=rows,
        ticks=[(x(v / 100), f"{v} %") for v in range(0, 101, 20)],
        x_mean=None if mean is None else x(mean),
        axis_y=axis_y,
    )


def episode_rows(result: Result | Document) -> Markup:
    """The episodes table's rows (each ending in a newline), escaped as the template escapes.

    Built here rather than in the template: at 10,000 episodes the template's per-row attribute
    lookups, conditionals and escapes were half of the page's rendering time. The values recur
    (tasks, statuses, termination reasons), so each distinct one is escaped once.
    tests/report/test_render_rows.py checks these rows against the template markup they
    replaced, byte for byte.
    """
    doc = plain(result)
    escaped: dict[Any, str] = {}

    def esc(value: Any) -> str:
        key = (type(value), value)  # 1, 1.0 and True are equal keys, but print differently
        out = escaped.get(key)
        if out is None:
            out = escaped[key] = _escape(value)
        return out

    keys = doc["metrics_selected"]
    rows = []
    for e in doc["episodes"]:
        success = e["success"]
        success = "—" if success is None else ("yes" if success else "no")
        category, error_type, seed = e["error_category"], e["error_type"], e["seed"]
        error = (
            esc(category) + (f" ({esc(error_type)})" if error_type else "") if category else "—"
        )
        values = e["metrics"]
        metrics = "".join(
            "<td>—</td>" if values.get(k) is None else f"<td>{esc(values.get(k))}</td>"
            for k in keys
        )
        rows.append(
            f'<tr><td class="text">{_escape(e["id"])}</td><td class="text">{esc(e["task"])}'
            f'</td><td>{"—" if seed is None else seed}</td><td class="text">{esc(e["status"])}'
            f'</td><td class="text">{success}</td><td class="text">'
            f'{esc(e["termination_reason"] or "—")}</td><td class="text">{error}</td>'
            f"{metrics}</tr>\n"
        )
    return Markup("".join(rows))


def _escape(value: Any) -> str:
    """`markupsafe.escape(value)` as text (its own replacements, in its order), without
    building a Markup object per value: ids are all distinct, so they miss every memo."""
    if type(value) is not str:
        return str(escape(value))
    return (
        value.replace("&", "&amp;")
        .replace(">", "&gt;")
        .replace("<", "&lt;")
        .replace("'", "&#39;")
        .replace('"', "&#34;")
    )


def render_html(result: Result | Document) -> str:
    """index.html of the result (the model, or its plain values: the same page)."""
    doc = plain(result)
    template = _ENV.get_template("index.html.j2")
    return template.render(r=doc, plot=plot(doc), csp=CSP, episode_rows=episode_rows(doc))
