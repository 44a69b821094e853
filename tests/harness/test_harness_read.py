"""Reading harness files: detection by content, the strict models, v1 names, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_docs import arm, read, shipped, write

from evalview.load.errors import InputError
from evalview.load.harness_result import read_harness
from evalview.model.harness import ArmResult, BenchmarkResult
from helpers.paths import SAMPLE_RUNS


def test_detected_by_content_whatever_the_name(tmp_path: Path) -> None:
    hf = read_harness(write(tmp_path, shipped(), name="anything.txt"))
    assert hf is not None and hf.result is not None
    assert len(hf.result.arms) == 14 and hf.result.arm_names[0] == "cold-start-only"


def test_other_json_is_not_a_harness_file(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"arms": [], "schema_version": 2}')  # no miniverl_version
    (tmp_path / "b.json").write_text('[1, 2]')
    (tmp_path / "c.json").write_text('{"miniverl_version": "x", "schema_version": 2, "arms": 3}')
    assert [read_harness(tmp_path / n) for n in ("a.json", "b.json", "c.json")] == [None] * 3
    assert read_harness(tmp_path) is None  # a directory


def test_broken_json_with_the_signature_says_so(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text('{"miniverl_version": "0.2", "schema_version": 2, "arms": [')
    with pytest.raises(InputError, match="looks like a benchmark-harness result"):
        read_harness(path)


def test_strict_types(tmp_path: Path) -> None:
    doc = shipped()
    arm(doc, "sft-continued", 1234)["tasks"] = "32"
    hf = read(tmp_path, doc)
    assert hf.result is None
    assert any("arms[1].tasks" in p.where for p in hf.problems)


def test_schema_2_requires_provenance(tmp_path: Path) -> None:
    doc = shipped()
    del doc["cold_start"]
    hf = read(tmp_path, doc)
    assert hf.result is None
    assert any("cold_start" in p.message for p in hf.problems)


def test_version_1_names_are_read_into_version_2_fields() -> None:
    record = dict(shipped()["arms"][3])
    record["selected_training_tokens"] = record.pop("selected_training_tokens_total")
    record["seconds"] = record.pop("wall_seconds")
    record["cache_bytes"] = record.pop("cache_current_bytes")
    parsed = ArmResult.model_validate(record)
    assert parsed.selected_training_tokens_total == record["selected_training_tokens"]
    assert parsed.wall_seconds == record["seconds"]
    assert set(parsed.legacy_names) == {"selected_training_tokens", "seconds", "cache_bytes"}


def test_both_spellings_of_one_field_are_refused() -> None:
    record = dict(shipped()["arms"][3])
    record["seconds"] = 1.0
    with pytest.raises(ValueError, match="both 'seconds'"):
        ArmResult.model_validate(record)


def test_nan_is_read_for_the_audit(tmp_path: Path) -> None:
    doc = shipped()
    arm(doc, "opd-exact", 1234)["tokens_per_solved_task"] = float("nan")
    hf = read(tmp_path, doc)
    assert hf.result is not None
    assert hf.nonfinite == ["arms[4].tokens_per_solved_task"]


def test_single_seed_and_submission_properties() -> None:
    doc = shipped()
    doc["seeds"] = [1234]
    doc["arms"] = [a for a in doc["arms"] if a["seed"] == 1234 and a["name"] == "opd-exact"]
    res = BenchmarkResult.model_validate(doc)
    assert res.single_seed and res.submission


def test_the_registry_reads_it_as_a_payload_not_a_run(tmp_path: Path) -> None:
    from evalview.load import read_input
    from evalview.load.harness_result import FORMAT
    from evalview.load.registry import load_run
    from evalview.model.harness_file import HarnessFile

    path = write(tmp_path, shipped())
    reading = read_input(path)
    assert reading.format == FORMAT == "benchmark-harness" and reading.runs == ()
    assert isinstance(reading.payload, HarnessFile) and reading.payload.result is not None
    with pytest.raises(InputError, match="holds arms x seeds, not an episode read"):
        load_run(path)


def test_session_opens_harness_files_only(tmp_path: Path) -> None:
    from evalview.session import open_harness

    closed = SAMPLE_RUNS / "fail-fast"
    assert open_harness(closed) is None
    assert open_harness(tmp_path / "missing.json") is None
    opened = open_harness(write(tmp_path, shipped()))
    assert opened is not None and opened.counts["error"] == 0
    assert {f.code for f in opened.findings} == {"EV807"}
