"""The committed harness samples read, and the audit says what their descriptions promise."""

from __future__ import annotations

import json

import pytest

from evalview.harness.audit import audit_harness
from evalview.load.harness_result import read_harness
from evalview.samples.harness import HARNESS_DIR, HARNESS_SAMPLES
from helpers.paths import SAMPLE_RUNS

SAMPLES = SAMPLE_RUNS / HARNESS_DIR

#: file -> the codes of error and warning severity its audit must give, exactly.
EXPECTED = {
    "cpu-toy-calc-equal-update-v2.json": set(),
    "gpu-calc-hard-single-seed.json": {"EV804", "EV811"},
    "gpu-calc-hard-equal-update-3seeds.json": set(),
    "gpu-calc-hard-undeclared-difference.json": {"EV802", "EV803"},
    "cpu-toy-calc-equal-update-v1.json": {"EV809"},
}


def test_every_sample_is_listed() -> None:
    assert {s.file for s in HARNESS_SAMPLES} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_findings(name: str) -> None:
    hf = read_harness(SAMPLES / name)
    assert hf is not None and hf.result is not None
    codes = {f.code for f in audit_harness(hf) if f.severity.value != "info"}
    assert codes == EXPECTED[name]


def test_shipped_example_matches_the_spec_budget_table() -> None:
    hf = read_harness(SAMPLES / "cpu-toy-calc-equal-update-v2.json")
    assert hf is not None and hf.result is not None
    res = hf.result
    steps = {a.name: a.optimizer_steps for a in res.arms}
    assert steps == {"cold-start-only": 0, "sft-continued": 60, "offline-kd": 60,
                     "opd-bucketed-k16": 60, "opd-exact": 60, "opd-bucketed-forward-kl": 60,
                     "opd-tool-and-final": 60}
    assert len(res.arms) == 14 and res.seeds == [1234, 20260727]
    assert res.cold_start is not None and res.cold_start["cycles"] == 450
    modes = {a.name: (a.mode, a.loss_mode, a.divergence, a.selector) for a in res.arms}
    assert modes["opd-exact"] == ("opd", "exact_full_vocab", "reverse_kl", "all_model_tokens")
    assert modes["opd-tool-and-final"][3] == "tool_and_final"


def test_v1_sample_uses_v1_names() -> None:
    hf = read_harness(SAMPLES / "cpu-toy-calc-equal-update-v1.json")
    assert hf is not None and hf.result is not None
    assert hf.result.schema_version == 1
    assert set(hf.result.arms[0].legacy_names) == {"selected_training_tokens", "seconds",
                                                  "cache_bytes"}
    assert b"NaN" in (SAMPLES / "cpu-toy-calc-equal-update-v1.json").read_bytes()


#: What a schema-3 (RecoveryBench) file adds to schema 2, at the top and in each arm.
SCHEMA_3_ONLY = {"budget_view", "frozen_dataset_identity", "hypothesis_ids",
                 "invalidation_status", "overshoot", "preregistration_digest",
                 "preregistration_sha", "recovery_metrics", "result_analysis_version",
                 "selected_teacher_candidate", "stop_criterion", "task_level_artifacts",
                 "task_schedule_digest", "teacher_gate_results", "teacher_preparation_cost",
                 "template_registry_digest", "template_registry_version"}
ARM_SCHEMA_3_ONLY = {"frozen_dataset_identity", "overshoot", "recovery_metrics",
                     "stop_criterion", "task_level_artifact"}


def test_schema_2_samples_have_the_real_field_set_and_key_order() -> None:
    """The generator writes what the harness writes: the published RecoveryBench file's keys
    (less what only schema 3 adds), sorted as canonical_json sorts them."""
    from helpers.paths import MINIVERL

    real = json.loads((MINIVERL / "recoverybench-v1-equal-updates.json").read_text("utf-8"))
    for path in sorted((SAMPLE_RUNS / "harness").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc["schema_version"] != 2:
            continue
        assert set(doc) == set(real) - SCHEMA_3_ONLY, path.name
        assert list(doc) == sorted(doc), path.name
        for record in doc["arms"]:
            assert set(record) == set(real["arms"][0]) - ARM_SCHEMA_3_ONLY, path.name
            assert list(record) == sorted(record), path.name
            assert record["parsed_tool_calls"] <= record["emitted_tool_calls"]
            assert (record["tool_execution_successes"] + record["tool_execution_errors"]
                    == record["parsed_tool_calls"])
            assert record["parse_valid_tool_call_rate"] == pytest.approx(
                record["parsed_tool_calls"] / record["emitted_tool_calls"])
