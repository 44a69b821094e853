"""A reopened result.json is audited, not trusted (issue 10, class 10): read strictly, and every
number it records recomputed from its own episodes, each disagreement an EV9xx error with its JSON
path and both numbers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from report_runs import EXAMPLE

from evalview.audit import RULES
from evalview.cli import main
from evalview.load import InputError, load_run
from evalview.report.export import export_run
from evalview.report.schema import schema_text
from evalview.session import open_run

Doc = dict[str, Any]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Doc:
    out = tmp_path_factory.mktemp("reopen") / "out"
    export_run(EXAMPLE, out, bootstrap=200)
    return dict(json.loads((out / "result.json").read_text()))


def _write(tmp_path: Path, doc: Doc) -> Path:
    path = tmp_path / "result.json"
    path.write_text(json.dumps(doc, indent=2))
    return path


def _headline(d: Doc) -> None:
    d["rates"]["selected_success_rate"] = 0.9
    d["denominators"][0]["rate"] = 0.9


def _task_over(d: Doc) -> None:
    d["tasks"][0]["successes"] = d["tasks"][0]["selected"] + 2


def _interval_reversed(d: Doc) -> None:
    lo, hi = d["tasks"][1]["wilson95"]
    d["tasks"][1]["wilson95"] = [hi, lo]


def _no_episodes(d: Doc) -> None:
    d["episodes"] = []


def _extra_task(d: Doc) -> None:
    d["tasks"].append({**d["tasks"][0], "task": "task-99"})


def _completed_without_success(d: Doc) -> None:
    i = next(i for i, e in enumerate(d["episodes"]) if e["status"] == "completed")
    d["episodes"][i]["success"] = None


def _bootstrap(d: Doc) -> None:
    lo, hi = d["aggregate"]["bootstrap"]
    d["aggregate"]["bootstrap"] = [lo, min(1.0, hi + 0.1)]


def _se(d: Doc) -> None:
    d["aggregate"]["se"] = d["aggregate"]["se"] * 2


#: code -> (mutation, the JSON path the finding must name)
DOCTORED: dict[str, tuple[Callable[[Doc], None], str]] = {
    "EV901": (_no_episodes, "$.episodes"),
    "EV902": (_task_over, "$.tasks[0].successes"),
    "EV903": (_headline, "$.rates.selected_success_rate"),
    "EV904": (_interval_reversed, "$.tasks[1].wilson95"),
    "EV905": (_extra_task, "$.tasks"),
    "EV906": (_completed_without_success, "$.episodes["),
}


def test_every_ev9_rule_has_a_doctored_file() -> None:
    assert {c for c in RULES if c.startswith("EV9")} == set(DOCTORED)


def test_a_faithful_export_has_no_error(exported: Doc, tmp_path: Path) -> None:
    findings = open_run(_write(tmp_path, exported)).findings
    assert [f for f in findings if f.severity.value == "error"] == []


@pytest.mark.parametrize("code", sorted(DOCTORED))
def test_doctored_file_is_an_error_naming_the_json_path(
    code: str, exported: Doc, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mutate, path = DOCTORED[code]
    doc = json.loads(json.dumps(exported))
    mutate(doc)
    target = _write(tmp_path, doc)
    assert main(["check", str(target), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    found = [f for f in out["findings"] if f["code"] == code]
    assert found, [f["code"] for f in out["findings"]]
    assert all(f["severity"] == "error" and f["file"] == "result.json" for f in found)
    assert any(f"result.json: {path}" in f["message"] for f in found), found
    # score no longer recomputes silently: the audit errors refuse it
    assert main(["score", str(target)]) == 1
    capsys.readouterr()


def test_doctored_headline_shows_both_numbers(exported: Doc, tmp_path: Path) -> None:
    doc = json.loads(json.dumps(exported))
    _headline(doc)
    findings = open_run(_write(tmp_path, doc)).findings
    (f,) = [f for f in findings if f.message.startswith("result.json: $.rates.")]
    true_rate = exported["rates"]["selected_success_rate"]
    assert "records 0.9" in f.message and f"give {true_rate:.6g}" in f.message


@pytest.mark.parametrize("mutate", [_bootstrap, _se], ids=["bootstrap", "se"])
def test_aggregate_uncertainty_is_recomputed(
    exported: Doc, tmp_path: Path, mutate: Callable[[Doc], None]
) -> None:
    doc = json.loads(json.dumps(exported))
    mutate(doc)
    codes = {f.code for f in open_run(_write(tmp_path, doc)).findings}
    assert codes & {"EV903", "EV904"}


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("rates", "success_rate"), True),
        (("rates", "success_rate"), "0.2"),
        (("episodes", 0, "success"), 1),
        (("counts", "selected"), 12.0),
    ],
)
def test_lax_types_are_refused(
    exported: Doc, tmp_path: Path, where: tuple[Any, ...], value: Any
) -> None:
    doc = json.loads(json.dumps(exported))
    node: Any = doc
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    with pytest.raises(InputError, match=r"not a valid evalview result \(\$\."):
        load_run(_write(tmp_path, doc))


def test_a_metric_given_as_text_is_refused(tmp_path: Path) -> None:
    export_run(EXAMPLE, tmp_path / "out", bootstrap=0, metrics=["score"])
    doc = json.loads((tmp_path / "out" / "result.json").read_text())
    doc["episodes"][0]["metrics"]["score"] = "0.5"
    with pytest.raises(InputError, match="not a valid evalview result"):
        load_run(_write(tmp_path, doc))


def test_the_schema_requires_what_the_reader_requires() -> None:
    schema = json.loads(schema_text())
    assert {"schema_version", "source_format", "generator"} <= set(schema["required"])
    assert "name" in schema["$defs"]["Generator"]["required"]
    assert "redacted" not in schema["required"]  # optional in both
