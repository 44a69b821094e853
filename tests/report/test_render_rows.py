"""The page's episode rows, built in Python (report/render.py `episode_rows`) since the
10,000-episode export spent half its rendering in the template's row loop: the same bytes as
the template markup they replaced, on hostile values (markup characters in every text cell, no
seed, no success, empty and missing termination reasons, errors with and without a type, and
metrics that are null, booleans, integers and floats)."""

from __future__ import annotations

from typing import Any

import pytest
from report_runs import HOSTILE_IMG, HOSTILE_SCRIPT, hostile_run

from evalview.model.result import Episode, Result
from evalview.report.export import export_run
from evalview.report.render import ENV, episode_rows, render_html

#: The template's row loop before the rows moved to Python, verbatim.
TEMPLATE_ROWS = (
    "{% for e in r.episodes %}\n"
    '<tr><td class="text">{{ e.id }}</td><td class="text">{{ e.task }}</td><td>{{ "—" if e.seed'
    ' is none else e.seed }}</td><td class="text">{{ e.status }}</td><td class="text">{{ "—" if'
    ' e.success is none else ("yes" if e.success else "no") }}</td><td class="text">{{'
    ' e.termination_reason or "—" }}</td><td class="text">{% if e.error_category %}{{'
    " e.error_category }}{% if e.error_type %} ({{ e.error_type }}){% endif %}{% else %}—{%"
    ' endif %}</td>{% for key in r.metrics_selected %}<td>{{ "—" if e.metrics.get(key) is none'
    " else e.metrics.get(key) }}</td>{% endfor %}</tr>\n"
    "{% endfor %}\n"
)


def episode(n: int, **fields: Any) -> Episode:
    base: dict[str, Any] = {
        "id": f"e{n}", "task": "t", "seed": n, "status": "completed", "success": True,
        "termination_reason": "success", "error_category": None, "error_type": None,
        "metrics": {},
    }
    return Episode(**{**base, **fields})


HOSTILE_EPISODES = [
    episode(0, id=HOSTILE_SCRIPT, task=HOSTILE_IMG, metrics={"score": 1.5, "ok": True}),
    episode(1, id="a&b<c>'d\"", seed=None, success=None, termination_reason=None,
            metrics={"score": None, "ok": False, "n": 3}),
    episode(2, seed=0, success=False, termination_reason="", metrics={"score": 1, "n": 0}),
    episode(3, status="error", success=None, error_category="policy", error_type="E<&>'\"",
            termination_reason="error:<policy>", metrics={"score": 0.1, "n": 1e20}),
    episode(4, status="error", success=None, error_category="infrastructure",
            error_type=None, metrics={"score": -0.0, "ok": 1}),
    episode(5, status="unattempted", success=None, termination_reason=None,
            metrics={"score": True, "n": 1.0}),
    episode(6, task=HOSTILE_IMG, metrics={"score": 1.5, "ok": True}),  # repeats: the memo
]


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> Result:
    tmp = tmp_path_factory.mktemp("rows")
    done = export_run(hostile_run(tmp / "run"), tmp / "out", bootstrap=0, metrics=("score",))
    return done.result


@pytest.mark.parametrize("metrics", [[], ["score"], ["score", "ok", "n", "<b>"]])
def test_rows_are_the_templates_bytes(result: Result, metrics: list[str]) -> None:
    r = result.model_copy(update={"episodes": HOSTILE_EPISODES, "metrics_selected": metrics})
    expected = ENV.from_string(TEMPLATE_ROWS).render(r=r)
    assert str(episode_rows(r)) == expected
    assert "&lt;script&gt;" in expected and HOSTILE_SCRIPT not in expected


def test_rows_of_an_exported_run_and_none(result: Result) -> None:
    assert str(episode_rows(result)) == ENV.from_string(TEMPLATE_ROWS).render(r=result)
    assert str(episode_rows(result)).count("<tr>") == len(result.episodes) > 0
    empty = result.model_copy(update={"episodes": []})
    assert str(episode_rows(empty)) == ""
    assert "<tbody>\n</tbody>" in render_html(empty)


def test_page_holds_the_rows_in_the_table_body(result: Result) -> None:
    html = render_html(result)
    assert f"<tbody>\n{episode_rows(result)}</tbody>" in html
