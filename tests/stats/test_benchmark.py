"""The benchmark declaration: parsing, the documented example, matching a run against it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from stats_fixtures import case, make_run

from evalview.load import InputError
from evalview.stats import load_benchmark, score_run
from evalview.stats.benchmark import parse_benchmark
from helpers.paths import REPO

DOC = REPO / "docs" / "formats.md"


def doc_example() -> dict[str, Any]:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"```json\n(.*?)```", text, re.S)
    assert match
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_the_documented_example_is_valid() -> None:
    decl = parse_benchmark(doc_example())
    assert decl.task_names == ("task-00", "task-01", "task-02")
    assert decl.subsets == {"first_two": ("task-00", "task-01")}
    assert decl.dev_seeds == (1, 2)


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ({"schema_version": "v0"}, "schema_version"),
        ({"version": ""}, '"version"'),
        ({"version_sha256": "ABC"}, "version_sha256"),
        ({"tasks": []}, '"tasks"'),
        ({"tasks": [{"name": "a", "test_seeds": []}]}, "no test seeds"),
        ({"tasks": [{"name": "a", "test_seeds": [1, 1]}]}, "repeats a seed"),
        ({"tasks": [{"name": "a", "test_seeds": [1.5]}]}, "integers"),
        ({"tasks": [{"name": "a", "test_seeds": [1]}, {"name": "a", "test_seeds": [2]}]},
         "declared twice"),
        ({"dev_seeds": [1000]}, "overlap"),
        ({"subsets": {"x": ["nope"]}}, "undeclared"),
        ({"subsets": {"x": []}}, "nonempty"),
    ],
)
def test_invalid_declarations_say_what_to_fix(change: dict[str, Any], complaint: str) -> None:
    data = {**doc_example(), **change}
    with pytest.raises(InputError, match=re.escape(complaint)):
        parse_benchmark(data, source="bench.json")


def test_load_refuses_duplicate_keys_and_names_the_file(tmp_path: Path) -> None:
    p = tmp_path / "b.json"
    p.write_text('{"name": "a", "name": "b"}')
    with pytest.raises(InputError, match=r"b\.json.*duplicate|duplicate.*b\.json"):
        load_benchmark(p)
    with pytest.raises(InputError, match="cannot be read"):
        load_benchmark(tmp_path / "absent.json")


def _decl() -> Any:
    return parse_benchmark(doc_example())


def test_partial_read_scores_as_the_full_read_with_missing_failed() -> None:
    run = make_run([case("task-00", 1000, success=True), case("task-01", 1003, success=True)])
    card = score_run(run, benchmark=_decl(), findings=[], bootstrap=0)
    assert not card.refused and card.seed_set == "test"
    assert card.denominators.selected == 12 and card.denominators.missing == 10
    assert card.aggregate.mean == pytest.approx((1 / 4 + 1 / 4 + 0) / 3)
    assert "task-02/seed1000" in card.missing_cases and len(card.missing_cases) == 10
    assert [t.missing for t in card.tasks] == [3, 3, 4]


def test_version_name_and_digest_mismatches_are_refused() -> None:
    rows = [case("task-00", 1000, success=True)]
    for run in (make_run(rows, version="1.3.0"), make_run(rows, version=None),
                make_run(rows, benchmark="otherbench")):
        card = score_run(run, benchmark=_decl(), findings=[], bootstrap=0, allow_errors=True)
        assert [r.code for r in card.refusals] == ["benchmark-version"]
    run = make_run(rows)
    run.documents["manifest.json"] = {"benchmark": {"version_sha256": "0" * 64}}
    card = score_run(run, benchmark=_decl(), findings=[], bootstrap=0)
    assert [r.code for r in card.refusals] == ["benchmark-version"]
    assert "version_sha256" in card.refusals[0].message


def test_undeclared_cases_are_refused() -> None:
    run = make_run([case("task-00", 1000, success=True), case("task-99", 1000, success=True)])
    card = score_run(run, benchmark=_decl(), findings=[], bootstrap=0)
    assert [r.code for r in card.refusals] == ["seed-set"]
    assert "task-99/seed1000" in card.refusals[0].message


def test_development_read() -> None:
    run = make_run([case("task-00", 1, success=True), case("task-00", 2, success=False)])
    card = score_run(run, benchmark=_decl(), findings=[], bootstrap=0)
    assert card.seed_set == "development" and "[development seeds]" in card.labels
    assert not card.publishable and not card.refused
    assert card.denominators.selected == 6  # 3 tasks x 2 dev seeds
    assert card.tasks[0].rate == 0.5


def test_view_restricts_to_the_subset_and_is_flagged() -> None:
    run = make_run([case(t, s, success=t == "task-00")
                    for t in ("task-00", "task-01", "task-02") for s in range(1000, 1004)])
    card = score_run(run, benchmark=_decl(), view="first_two", findings=[], bootstrap=0)
    assert card.aggregate.name == "first_two" and card.aggregate.tasks == 2
    assert card.aggregate.mean == 0.5 and "(appendix view)" in card.labels
    assert [t.task for t in card.tasks] == ["task-00", "task-01"]
    assert card.denominators.selected == 8
