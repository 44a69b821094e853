"""Coverage: scored, expected, missing_tasks, final; catalogs; unexpected tasks refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from psr_rows import row

from evalview.psr import PsrError, PsrOptions, load_catalog, score_inputs
from evalview.psr.coverage import coverage
from evalview.psr.inputs import parse_checkpoint_inputs

CATALOG = {
    "main": ["task_a", "task_b", "task_c"],
    "augmented_v1": ["task_a_v1"],
    "augmented_v2": ["task_a_v2"],
}
OPTS = PsrOptions(catalog=CATALOG, catalog_source="catalog.json")


def test_missing_task_makes_the_summary_partial_not_imputed() -> None:
    doc = {
        "m": [
            row("task_a", success=True, message="D: True"),
            row("task_b", success=False, message="Logs: 1/2"),
        ]
    }
    report = score_inputs(parse_checkpoint_inputs(Path("x.json"), doc), OPTS)
    main = report.model("m").summary("main")
    assert main.coverage.scored == 2 and main.coverage.expected == 3
    assert main.coverage.missing_tasks == ("task_c",)
    assert main.coverage.final is False and main.status == "partial"
    assert main.psr == pytest.approx(0.75)  # over the 2 scored tasks, not (1 + 0.5 + 0) / 3
    js = report.to_json()["models"][0]["summaries"]["main"]
    assert js["scored"] == 2 and js["expected"] == 3
    assert js["missing_tasks"] == ["task_c"] and js["final"] is False
    assert js["status"] == "partial"


def test_complete_split_is_final() -> None:
    doc = {"m": [row("task_a_v1", success=False, message="Logs: 1/2")]}
    report = score_inputs(parse_checkpoint_inputs(Path("x.json"), doc), OPTS)
    v1 = report.model("m").summary("augmented_v1")
    assert v1.coverage.final is True and v1.coverage.missing_tasks == ()
    assert report.model("m").summary("augmented_v2").coverage.missing_tasks == ("task_a_v2",)
    union = report.model("m").summary("augmented")
    assert union.coverage.expected == 2 and union.coverage.final is False


def test_without_catalog_nothing_is_final() -> None:
    doc = {"m": [row("task_a", success=True, message="D: True")]}
    main = score_inputs(parse_checkpoint_inputs(Path("x.json"), doc)).model("m").summary("main")
    assert main.coverage.expected is None and main.coverage.missing_tasks is None
    assert main.coverage.final is False and main.status == "partial"


def test_unexpected_task_is_refused() -> None:
    doc = {"m": [row("task_z", success=True, message="D: True")]}
    with pytest.raises(PsrError, match=r"'task_z' in main is not in the task catalog"):
        score_inputs(parse_checkpoint_inputs(Path("x.json"), doc), OPTS)


def test_task_in_the_wrong_split_is_unexpected() -> None:
    doc = {"m": [row("task_a_v1", success=True, message="D: True", stage="augmented")]}
    catalog = {"augmented_v1": ["task_b_v1"]}
    with pytest.raises(PsrError, match="task_a_v1"):
        score_inputs(parse_checkpoint_inputs(Path("x.json"), doc), PsrOptions(catalog=catalog))


def test_coverage_function() -> None:
    cov = coverage(["a", "b"], ["a", "b"])
    assert cov.final and cov.describe() == "2/2"
    assert coverage([], ["a"]).status == "empty"
    assert coverage(["a"], None).describe() == "1/?"


def write(tmp_path: Path, value: object, name: str = "catalog.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(value))
    return p


def test_catalog_file_is_read(tmp_path: Path) -> None:
    assert load_catalog(write(tmp_path, CATALOG))["main"] == ("task_a", "task_b", "task_c")


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ({"main": ["task_a", "task_a"]}, "twice"),
        ({"mainline": ["task_a"]}, "keys are splits"),
        ({"augmented_v1": ["task_a_v2"]}, "does not end in _v1"),
        ({"main": "task_a"}, "list of task stems"),
        ([], "keys are splits"),
    ],
)
def test_bad_catalogs_are_refused(tmp_path: Path, value: object, match: str) -> None:
    with pytest.raises(PsrError, match=match):
        load_catalog(write(tmp_path, value))
