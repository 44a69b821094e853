"""The reporting rules' "What the scorer pools" for one read: off-protocol reads only with
--allow-off-protocol (labelled OFF-PROTOCOL), quality tag 0 refused, a development read labelled
[development seeds] even without a benchmark declaration, and every score saying what its cases
cover (closed-result-format: a client-selected schedule does not establish benchmark coverage).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
import pytest
from stats_fixtures import binary_run

from evalview.cli import main
from evalview.model.run import Run
from evalview.stats import score_run
from evalview.stats.benchmark import parse_benchmark
from evalview.stats.scorecard import SCHEDULE_COVERAGE_NOTE


def _run(manifest: dict[str, Any], run_id: str = "r") -> Run:
    run = binary_run({"a": (3, 5), "b": (5, 5)})
    run.documents["manifest.json"] = {"run_id": run_id, **manifest}
    run.identity = replace(run.identity, run_id=run_id)
    return run


# --- off-protocol -------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "manifest",
    [{"off_protocol": True}, {"protocol": {"off_protocol": True}},
     {"deviations": ["max_steps 500 instead of 400"]},
     {"protocol": {"deviations": [{"what": "camera"}]}}],
)
def test_off_protocol_read_is_refused_unless_allowed(manifest: dict[str, Any]) -> None:
    card = score_run(_run(manifest), findings=[], bootstrap=0)
    assert card.refused and [r.code for r in card.refusals] == ["off-protocol"]
    assert "--allow-off-protocol" in card.refusals[0].message
    allowed = score_run(_run(manifest), findings=[], bootstrap=0, allow_off_protocol=True)
    assert not allowed.refused and allowed.aggregate.mean == pytest.approx(0.8)
    assert [lab for lab in allowed.labels if lab.startswith("OFF-PROTOCOL: ")]
    assert allowed.to_json()["off_protocol"] == list(allowed.off_protocol) != []


def test_on_protocol_read_is_neither_refused_nor_labelled() -> None:
    card = score_run(_run({"off_protocol": False, "deviations": []}), findings=[], bootstrap=0)
    assert not card.refused and not card.labels and card.off_protocol == ()


# --- quality tags --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("manifest", "where"),
    [({"policy": {"name": "p", "quality_tag": 0}}, "manifest.policy.quality_tag = 0"),
     ({"protocol": {"quality_bin": "0"}}, "manifest.protocol.quality_bin = '0'"),
     ({"method": {"configuration": {"quality_tag": 0}}},
      "manifest.method.configuration.quality_tag = 0")],
)
def test_quality_tag_zero_is_refused(manifest: dict[str, Any], where: str) -> None:
    card = score_run(_run(manifest), findings=[], bootstrap=0, allow_errors=True,
                     allow_off_protocol=True)
    [refusal] = card.refusals
    assert refusal.code == "quality-tag-untagged" and refusal.details == (where,)
    assert "untagged" in refusal.message


@pytest.mark.parametrize("tag", [1, 3, "2", False, None])
def test_trained_quality_bins_are_scored(tag: Any) -> None:
    card = score_run(_run({"policy": {"name": "p", "quality_tag": tag}}), findings=[],
                     bootstrap=0)
    assert not card.refused


# --- development seeds ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("manifest", "run_id"),
    [({"protocol": {"seed_set": "dev"}}, "r"), ({"seed_set": "development"}, "r"),
     ({}, "checkpoint-7_dev")],
)
def test_development_read_is_labelled_without_a_declaration(
    manifest: dict[str, Any], run_id: str
) -> None:
    card = score_run(_run(manifest, run_id), findings=[], bootstrap=0)
    assert card.seed_set == "development" and "[development seeds]" in card.labels
    assert not card.publishable and not card.refused


def test_unmarked_read_has_no_known_seed_set() -> None:
    card = score_run(_run({}), findings=[], bootstrap=0)
    assert card.seed_set is None and card.publishable
    test = score_run(_run({"protocol": {"seed_set": "test"}}), findings=[], bootstrap=0)
    assert test.seed_set == "test" and "[development seeds]" not in test.labels


# --- coverage ------------------------------------------------------------------------------------

def test_coverage_of_a_schedule_is_not_claimed() -> None:
    card = score_run(_run({}), findings=[], bootstrap=0)
    assert card.to_json()["coverage"] == {"basis": "selected-schedule",
                                          "note": SCHEDULE_COVERAGE_NOTE}
    assert "entire native benchmark" in SCHEDULE_COVERAGE_NOTE


def test_coverage_with_a_declaration_is_the_declared_cases() -> None:
    decl = parse_benchmark({
        "schema_version": "evalview.benchmark/v1", "name": "robobench", "version": "1.2.0",
        "version_sha256": "0" * 64,
        "tasks": [{"name": "a", "test_seeds": [0, 1, 2, 3, 4]},
                  {"name": "b", "test_seeds": [0, 1, 2, 3, 4]}],
    })
    card = score_run(_run({}), findings=[], bootstrap=0, benchmark=decl)
    assert card.to_json()["coverage"]["basis"] == "benchmark-declaration"


# --- the CLI carries the flag and the note -------------------------------------------------------

def test_score_cli_refuses_then_allows_an_off_protocol_run(
    example_run: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    example_run.edit("manifest.json", lambda d: d["protocol"].update(deviations=["camera"]))
    path = str(example_run.path)
    assert main(["score", path, "--allow-errors", "--bootstrap", "0", "--json"]) == 1
    doc = orjson.loads(capsys.readouterr().out)
    assert [r["code"] for r in doc["refusals"]] == ["off-protocol"]
    assert main(["score", path, "--allow-errors", "--allow-off-protocol", "--bootstrap", "0",
                 "--json"]) == 0
    doc = orjson.loads(capsys.readouterr().out)
    assert any(lab.startswith("OFF-PROTOCOL") for lab in doc["labels"])
    assert doc["coverage"]["basis"] == "selected-schedule"
    assert main(["score", path, "--allow-errors", "--allow-off-protocol", "--bootstrap", "0"]) == 0
    text = capsys.readouterr().out
    assert "OFF-PROTOCOL" in text and "entire native benchmark" in text


# --- refusal gaps (issue 10, class 12) ------------------------------------------------------------

_DECL = {
    "schema_version": "evalview.benchmark/v1", "name": "robobench", "version": "1.2.0",
    "version_sha256": "0" * 64,
    "tasks": [{"name": "a", "test_seeds": [0, 1, 2, 3, 4]},
              {"name": "b", "test_seeds": [0, 1, 2, 3, 4]}],
}


def test_a_run_without_version_sha256_is_not_publishable_against_a_declaration() -> None:
    decl = parse_benchmark(_DECL)
    bench = {"name": "robobench", "version": "1.2.0"}
    run = _run({"benchmark": bench})
    run.identity = replace(run.identity, benchmark_name="robobench", benchmark_version="1.2.0")
    card = score_run(run, findings=[], bootstrap=0, benchmark=decl)
    assert not card.publishable
    assert any("benchmark version unverified" in lab and "version_sha256" in lab
               for lab in card.labels)
    run.documents["manifest.json"]["benchmark"] = {**bench, "version_sha256": "0" * 64}
    card = score_run(run, findings=[], bootstrap=0, benchmark=decl)
    assert card.publishable and not card.labels


@pytest.mark.parametrize(
    ("manifest", "where"),
    [({"policy": {"name": "p", "quality_tag": 0.0}}, "manifest.policy.quality_tag = 0.0"),
     ({"quality_tag": 0}, "manifest.quality_tag = 0"),
     ({"quality_bin": "0"}, "manifest.quality_bin = '0'")],
)
def test_float_and_top_level_quality_tag_zero_is_refused(
    manifest: dict[str, Any], where: str
) -> None:
    card = score_run(_run(manifest), findings=[], bootstrap=0)
    assert [r.code for r in card.refusals] == ["quality-tag-untagged"]
    assert card.refusals[0].details == (where,)


def test_a_view_whose_size_contradicts_its_name_is_labelled() -> None:
    decl = parse_benchmark({**_DECL, "subsets": {"informative_20": ["a"], "pair_2": ["a", "b"]}})
    card = score_run(_run({}), findings=[], bootstrap=0, benchmark=decl, view="informative_20")
    assert card.aggregate.name == "informative_20"  # still the appendix view
    (warning,) = [lab for lab in card.labels if lab.startswith("warning: view")]
    assert "names 20 tasks" in warning and "declares 1" in warning
    fine = score_run(_run({}), findings=[], bootstrap=0, benchmark=decl, view="pair_2")
    assert not [lab for lab in fine.labels if lab.startswith("warning: view")]
