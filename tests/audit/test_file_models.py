"""The pydantic models of the closed-run files accept conforming files, reject the format's
violations, and generate a JSON Schema for each file."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from evalview.model.files import (
    FILE_MODELS,
    EpisodeResult,
    Manifest,
    Status,
    Summary,
    json_schemas,
)
from helpers.paths import SAMPLE_RUNS


def _validate_run(root: Path) -> None:
    for name in ("manifest.json", "status.json", "summary.json"):
        FILE_MODELS[name].model_validate_json((root / name).read_bytes())
    for line in (root / "episodes.jsonl").read_bytes().splitlines():
        EpisodeResult.model_validate_json(line)


def test_example_validates(example_run: Any) -> None:
    _validate_run(example_run.path)


@pytest.mark.parametrize("sample", ["robobench-24x50", "fail-fast"])
def test_conforming_samples_validate(sample: str) -> None:
    _validate_run(SAMPLE_RUNS / sample)


def _set(doc: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    *parents, last = dotted.split(".")
    node: Any = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[last] = value
    return doc


@pytest.mark.parametrize(
    ("name", "dotted", "value"),
    [
        ("manifest.json", "schema_version", "starvla-rsi.eval/v0"),
        ("manifest.json", "run_id", ""),
        ("manifest.json", "observation_spec.privileged", True),
        ("manifest.json", "action_spec.size", 0),
        ("manifest.json", "action_spec.names", ["x"]),
        ("manifest.json", "protocol.fail_fast", "no"),
        ("manifest.json", "protocol.max_policy_calls", 0),
        ("manifest.json", "method.models.0.id", "_bad"),
        ("status.json", "status", "finished"),
        ("status.json", "episodes_written", -1),
        ("summary.json", "success_rate", True),
        ("summary.json", "success_rate", 1.5),
        ("summary.json", "attempted", "12"),
        ("summary.json", "usage", {"calls": None}),
    ],
)
def test_document_violations_are_rejected(
    example_run: Any, name: str, dotted: str, value: Any
) -> None:
    model: type[BaseModel] = FILE_MODELS[name]
    doc = example_run.json(name)
    model.model_validate(doc)
    with pytest.raises(ValidationError):
        model.model_validate(_set(doc, dotted, value))


@pytest.mark.parametrize(
    ("index", "dotted", "value"),
    [
        (0, "success", True),  # metrics.success is false
        (0, "termination_reason", "error:infrastructure"),
        (0, "error", {"type": "X", "category": "policy"}),
        (3, "success", False),
        (3, "error.category", "network"),
        (3, "error.type", ""),
        (0, "action_decisions", 8),
        (0, "policy_calls", -1),
        (1, "usage.cached_input_tokens", 10_000),
        (0, "usage", {"calls": None}),
        (0, "status", "done"),
    ],
)
def test_episode_violations_are_rejected(
    example_run: Any, index: int, dotted: str, value: Any
) -> None:
    record = example_run.records()[index]
    EpisodeResult.model_validate(record)
    with pytest.raises(ValidationError):
        EpisodeResult.model_validate(_set(record, dotted, value))


def test_models_are_strict_about_types() -> None:
    with pytest.raises(ValidationError):
        Status.model_validate({"status": "completed", "episodes_written": True})
    with pytest.raises(ValidationError):
        Status.model_validate({"status": "completed", "episodes_written": 3, "extra": 1})


def test_json_schemas_cover_every_file() -> None:
    schemas = json_schemas()
    assert set(schemas) == {"manifest.json", "status.json", "summary.json", "episodes.jsonl"}
    for schema in schemas.values():
        json.dumps(schema)  # serializable
        assert schema["type"] == "object" and schema["required"]
    assert set(schemas["status.json"]["required"]) == {"status", "episodes_written"}
    assert {"run_id", "benchmark", "policy", "action_spec", "observation_spec", "protocol"} <= set(
        schemas["manifest.json"]["required"]
    )
    assert Manifest.model_json_schema()["properties"]["schema_version"]["const"] == (
        "starvla-rsi.eval/v1"
    )
    assert "usage" in Summary.model_json_schema()["required"]
