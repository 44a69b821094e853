"""Every EV8xx rule is triggered by a minimal mutation of the spec's shipped example, pointing at
the right record; the shipped example itself has no error and no warning."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness_docs import arm, findings, shipped

import evalview.audit.checks  # noqa: F401  (registers the rules)
from evalview.audit import RULES
from evalview.findings import Severity

Mutation = Callable[[dict[str, Any]], None]


def _undeclared(doc: dict[str, Any]) -> None:
    row = {"path": "train.learning_rate", "common": 5e-5, "arm": 1e-4, "change": "changed"}
    arm(doc, "opd-exact", 1234)["scientific_config_diff"].append(row)


def _unequal(doc: dict[str, Any]) -> None:
    arm(doc, "opd-exact", 1234)["optimizer_steps"] = 90


def _single(doc: dict[str, Any]) -> None:
    doc["seeds"] = [1234]
    doc["arms"] = [a for a in doc["arms"] if a["seed"] == 1234]


def _no_reference(doc: dict[str, Any]) -> None:
    doc["arms"] = [a for a in doc["arms"] if a["name"] != "cold-start-only"]


def _trained_reference(doc: dict[str, Any]) -> None:
    for a in doc["arms"]:
        if a["name"] == "cold-start-only":
            a["optimizer_steps"] = 60


def _unmeasured_number(doc: dict[str, Any]) -> None:
    arm(doc, "opd-exact", 1234)["peak_allocated_bytes"] = 123_456_789


def _nan(doc: dict[str, Any]) -> None:
    arm(doc, "opd-exact", 1234)["tokens_per_solved_task"] = float("nan")


def _ratio(doc: dict[str, Any]) -> None:
    # an average of cycle ratios, not a ratio of sums: 0.3137 of 18,240 is not a whole count
    arm(doc, "opd-tool-and-final", 1234)["selected_position_ratio"] = 0.3137


def _local(doc: dict[str, Any]) -> None:
    arm(doc, "opd-exact", 1234)["run_dir"] = "/home/alice/miniverl/runs/x"


def _rate(doc: dict[str, Any]) -> None:
    arm(doc, "opd-exact", 1234)["success_rate"] = 0.7


def _seeds(doc: dict[str, Any]) -> None:
    doc["arms"] = [a for a in doc["arms"] if not (a["name"] == "offline-kd" and a["seed"] == 1234)]


def _controls(doc: dict[str, Any]) -> None:
    del doc["controlled"]["allowed_differences"]


def _schema(doc: dict[str, Any]) -> None:
    arm(doc, "opd-exact", 1234)["optimizer_steps"] = True


def _duplicate(_doc: dict[str, Any]) -> None:
    raise NotImplementedError  # raw bytes: see test_duplicate_key_is_ev105


#: code -> (mutation, read the finding must name (None: the file as a whole))
MUTATIONS: dict[str, tuple[Mutation, str | None]] = {
    "EV801": (_schema, None),
    "EV802": (_undeclared, "opd-exact/s1234"),
    "EV803": (_unequal, "opd-exact/s1234"),
    "EV804": (_single, None),
    "EV805": (_no_reference, None),
    "EV806": (_trained_reference, "cold-start-only/s1234"),
    "EV808": (_unmeasured_number, "opd-exact/s1234"),
    "EV809": (_nan, "opd-exact/s1234"),
    "EV810": (_ratio, "opd-tool-and-final/s1234"),
    "EV811": (_local, "opd-exact/s1234"),
    "EV813": (_rate, "opd-exact/s1234"),
    "EV814": (_seeds, "offline-kd/s20260727"),
    "EV815": (_controls, None),
}
#: Rules proved elsewhere: EV807 fires on the clean example itself (no CUDA), EV812 is the
#: compare refusal (tests/cli/test_harness_cli.py), EV816-EV822 are schema 3 (RecoveryBench),
#: mutated from the published files in tests/harness/test_harness_schema3.py.
ELSEWHERE = {"EV807", "EV812", "EV816", "EV817", "EV818", "EV819", "EV820", "EV821", "EV822"}


def test_every_harness_rule_has_a_triggering_test() -> None:
    harness_codes = {c for c in RULES if c.startswith("EV8")}
    assert harness_codes == set(MUTATIONS) | ELSEWHERE


def test_shipped_example_has_no_error_or_warning(tmp_path: Path) -> None:
    found = findings(tmp_path, shipped())
    assert [f.code for f in found if f.severity is not Severity.INFO] == []
    # the CPU run measured no VRAM and the SFT arms have no cache: said, never shown as zero
    assert {f.code for f in found} == {"EV807"}


@pytest.mark.parametrize("code", sorted(MUTATIONS))
def test_mutation_triggers_rule(code: str, tmp_path: Path) -> None:
    doc = shipped()
    mutate, read_key = MUTATIONS[code]
    mutate(doc)
    found = [f for f in findings(tmp_path, doc) if f.code == code]
    assert found, f"{code} not reported after its mutation"
    for f in found:
        assert f.severity is RULES[code].severity
        assert f.file == "result.json"
        assert f.line is not None and f.line >= 1
        assert f.message.strip()
    if read_key is not None:
        assert read_key in {f.episode_id for f in found}


def test_duplicate_key_is_ev105(tmp_path: Path) -> None:
    from evalview.harness.audit import audit_harness
    from evalview.load.harness_result import read_harness
    from evalview.samples.harness import harness_bytes

    raw = harness_bytes(shipped()).replace(b'"notes":', b'"notes": "first",\n  "notes":', 1)
    path = tmp_path / "dup.json"
    path.write_bytes(raw)
    hf = read_harness(path)
    assert hf is not None and hf.result is not None
    dup = [f for f in audit_harness(hf) if f.code == "EV105"]
    assert len(dup) == 1 and "'notes'" in dup[0].message
    assert raw.splitlines()[dup[0].line - 1].strip().startswith(b'"notes"')  # type: ignore[operator]


def test_declared_schedule_difference_covers_unequal_steps(tmp_path: Path) -> None:
    """The same 90 steps are fine when the arm declares train.cycles and it is allowed."""
    doc = shipped()
    for a in doc["arms"]:
        if a["name"] == "opd-exact":
            a["optimizer_steps"] = 90
            a["scientific_config_diff"].append(
                {"path": "train.cycles", "common": 60, "arm": 90, "change": "changed"})
    assert "EV803" not in {f.code for f in findings(tmp_path, doc)}


def test_reference_zero_steps_are_by_design(tmp_path: Path) -> None:
    """cold-start-only's 0 steps never count as an unequal budget, declared or not."""
    doc = shipped()
    doc["controlled"]["allowed_differences"].remove("train.cycles")
    for a in doc["arms"]:
        if a["name"] == "cold-start-only":
            a["scientific_config_diff"] = [r for r in a["scientific_config_diff"]
                                           if r["path"] != "train.cycles"]
    assert not {"EV803", "EV806"} & {f.code for f in findings(tmp_path, doc)}


def test_prefix_pattern_allows_everything_under_it(tmp_path: Path) -> None:
    doc = shipped()
    _undeclared(doc)
    doc["controlled"]["allowed_differences"].append("train.*")
    assert "EV802" not in {f.code for f in findings(tmp_path, doc)}


def test_two_ratios_with_different_denominators(tmp_path: Path) -> None:
    doc = shipped()
    a = arm(doc, "opd-exact", 1234)
    a["teacher_queried_positions_total"] = a["selected_training_tokens_total"] // 2
    a["teacher_queried_position_ratio"] = 1.0  # would need twice the eligible positions
    msgs = [f.message for f in findings(tmp_path, doc) if f.code == "EV810"]
    assert msgs and "different eligible-position totals" in msgs[0]


def test_simulated_status_is_an_error_even_with_nulls(tmp_path: Path) -> None:
    doc = shipped()
    arm(doc, "opd-exact", 1234)["measurement_status"]["train_time"] = "simulated"
    found = [f for f in findings(tmp_path, doc) if f.code == "EV808"]
    assert [f.episode_id for f in found] == ["opd-exact/s1234"]


def test_string_status_other_than_measured(tmp_path: Path) -> None:
    doc = shipped()
    arm(doc, "sft-continued", 20260727)["measurement_status"] = "simulated"
    found = [f for f in findings(tmp_path, doc) if f.code == "EV808"]
    assert [f.episode_id for f in found] == ["sft-continued/s20260727"]


def test_schema_problem_names_the_place(tmp_path: Path) -> None:
    doc = shipped()
    arm(doc, "opd-exact", 1234)["reviewer"] = "x"
    del arm(doc, "offline-kd", 20260727)["tasks"]
    found = [f for f in findings(tmp_path, doc) if f.code == "EV801"]
    messages = " | ".join(f.message for f in found)
    assert len(found) == 2
    assert "arms[4].reviewer (opd-exact/s1234): unknown key" in messages
    assert "arms[9].tasks (offline-kd/s20260727): required field is missing" in messages
    assert all(f.line is not None for f in found)


def test_host_and_home_paths_in_hardware_and_invocation(tmp_path: Path) -> None:
    doc = shipped()
    doc["hardware"]["hostname"] = "gpu-node-17"
    doc["invocation"][-1] = "--output=/Users/bob/runs"
    found = [f for f in findings(tmp_path, doc) if f.code == "EV811"]
    text = " ".join(f.message for f in found)
    assert "hardware.hostname" in text and "gpu-node-17" in text
    assert "'bob'" in text
    # the harness's own portable marker is not a leak
    doc = shipped()
    doc["invocation"][-1] = "<local>/benchmarks"
    assert "EV811" not in {f.code for f in findings(tmp_path, doc)}
