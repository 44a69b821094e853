"""The harness's plain-Python validation path gives what the pydantic path gives (issue 25).

`evalview.model.harness_plain.validate` takes a valid harness result without importing pydantic;
a file it refuses is worded by the pydantic models. These tests read each document both ways (the
plain check on, and off so that pydantic decides alone) and compare everything a door sees: the
result's values, the schema problems (EV801 messages, JSON locations, lines), the audit's
findings and the score's table. The documents are the hostile property test's mutations of the
shipped harness file (tests/cli/test_hostile_readers_property.py), and every field of both
models set to each edge value, removed, doubled under its v1 name or joined by an extra key.
"""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from test_hostile_readers_property import _mutate, mutations

from evalview.errors import InputError
from evalview.harness.audit import audit_harness
from evalview.harness.score import score_harness
from evalview.load import harness_result
from evalview.model import harness_plain
from evalview.model.harness import ArmResult as ArmModel
from evalview.model.harness import BenchmarkResult as ResultModel
from helpers.paths import REPO, SAMPLE_RUNS

SOURCE = SAMPLE_RUNS / "harness" / "gpu-calc-hard-equal-update-3seeds.json"
V1 = SAMPLE_RUNS / "harness" / "cpu-toy-calc-equal-update-v1.json"

EDGE = [None, True, False, 0, 1, -1, 2, 3, 1.5, float("nan"), "", "x", [], [1], [True], ["a"],
        [{}], {}, {"a": 1}, {"a": "b"}]


def _plain(value: Any) -> Any:
    """A comparable form: dataclasses as dicts, NaN as a marker (NaN != NaN)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    return (type(value).__name__, value)


def _read(doc: Any, *, plain: bool, monkeypatch: pytest.MonkeyPatch, score: bool) -> Any:
    """Everything a door sees of `doc`, read with the plain check on or off."""
    with monkeypatch.context() as m:
        if not plain:
            m.setattr(harness_result, "validate", lambda doc: None)
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 10_000))
        try:
            raw = json.dumps(doc, indent=2).encode()
        finally:
            sys.setrecursionlimit(old)
        try:
            hf = harness_result.read_harness_bytes(Path("in.json"), raw)
        except InputError as e:
            return ("InputError", str(e))
        if hf is None:
            return None
        findings = audit_harness(hf)
        seen: dict[str, Any] = {
            "result": _plain(hf.result),
            "problems": [dataclasses.astuple(p) for p in hf.problems],
            "findings": [f.to_json() for f in findings],
        }
        if hf.result is not None and score:
            seen["score"] = repr(score_harness(hf.result, findings, allow_errors=True))
        return seen


def _same_both_ways(doc: Any, monkeypatch: pytest.MonkeyPatch, *, score: bool = False) -> None:
    seen = _read(doc, plain=True, monkeypatch=monkeypatch, score=score)
    assert seen == _read(doc, plain=False, monkeypatch=monkeypatch, score=score)
    if isinstance(seen, dict) and isinstance(doc, dict):  # read (not refused as too deep)
        try:
            ResultModel.model_validate(doc)
            pydantic_takes = True
        except ValueError:
            pydantic_takes = False
        if not harness_result.wide_ints(doc):
            assert (harness_plain.validate(doc) is not None) == pydantic_takes


def _shipped(arms: int | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(SOURCE.read_text(encoding="utf-8"))
    if arms is not None:  # the first arms only: each edge case is read twice, audited twice
        doc["arms"] = doc["arms"][:arms]
    return doc


@settings(max_examples=150, deadline=None)
@given(mutations())
def test_a_mutated_harness_file_reads_the_same_both_ways(m: dict[str, Any]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same_both_ways(_mutate(_shipped(), m), monkeypatch, score=True)


#: Every field of a harness result and of an arm, and a key neither has: one test each, so the
#: edge values of all of them (about 30 s in one test) spread over the test workers.
_RESULT_FIELDS = [*ResultModel.model_fields, "extra_key"]
_ARM_FIELDS = [*ArmModel.model_fields, *harness_plain.LEGACY_ARM_FIELDS, "extra_key"]


@pytest.mark.parametrize("field", _RESULT_FIELDS)
def test_a_result_field_at_every_edge_value_reads_the_same_both_ways(
    field: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    for value in [*EDGE, "<deleted>"]:
        doc = _shipped(3)
        if value == "<deleted>":
            doc.pop(field, None)
        else:
            doc[field] = value
        _same_both_ways(doc, monkeypatch)


@pytest.mark.parametrize("field", _ARM_FIELDS)
def test_an_arm_field_at_every_edge_value_reads_the_same_both_ways(
    field: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    for value in [*EDGE, "<deleted>"]:
        doc = _shipped(3)
        if value == "<deleted>":
            doc["arms"][1].pop(field, None)
        else:
            doc["arms"][1][field] = value
        _same_both_ways(doc, monkeypatch)


def test_the_v1_spellings_and_the_v2_requirements_read_the_same_both_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v1 = json.loads(V1.read_text(encoding="utf-8"))  # the v1 spellings, and both at once
    _same_both_ways(v1, monkeypatch)
    for old, new in harness_plain.LEGACY_ARM_FIELDS.items():
        doc = _shipped()
        doc["arms"][0][old] = doc["arms"][0].get(new, 1)
        _same_both_ways(doc, monkeypatch)
        doc["arms"][0].pop(new, None)
        _same_both_ways(doc, monkeypatch)
    for version in (1, 2, 3):
        for missing in harness_plain.V2_REQUIRED:
            doc = _shipped()
            doc["schema_version"] = version
            doc[missing] = None
            _same_both_ways(doc, monkeypatch)


def test_the_plain_fields_are_the_models_fields() -> None:
    for spec, model in ((harness_plain.ARM_FIELDS, ArmModel),
                        (harness_plain.RESULT_FIELDS, ResultModel)):
        assert [name for name, _, _ in spec] == list(model.model_fields)
        for name, kind, default in spec:
            info = model.model_fields[name]
            assert (default is None) == info.is_required(), name
            assert kind.startswith("?") == ("None" in str(info.annotation)), name
            if isinstance(default, harness_plain._Const):
                assert default.value == info.default, name
            elif default is not None:
                assert default is info.default_factory, name


def test_a_valid_harness_check_never_imports_pydantic() -> None:
    """`check` of a valid harness file, in a fresh process: pydantic is never imported."""
    script = (
        "import sys\nfrom evalview.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "sys.stdout.flush()\nprint('PYDANTIC', 'pydantic' in sys.modules, file=sys.stderr)\n"
    )
    env = {"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", script, "check", str(SOURCE), "--json"],
                          capture_output=True, text=True, env=env, check=False)
    assert "PYDANTIC False" in done.stderr, done.stderr[-2000:]
    assert json.loads(done.stdout)["findings"] is not None


def _read_raw(raw: bytes, *, strict: bool) -> Any:
    """Everything the reader keeps of `raw`, given the detection's strict parse or not."""
    from evalview.load.safe_json import parse_strict

    try:
        hf = harness_result.read_harness_bytes(
            Path("in.json"), raw, parse_strict(raw) if strict else None)
    except InputError as e:
        return ("InputError", str(e))
    return None if hf is None else _plain(hf)


def _same_given_the_strict_parse(doc: Any) -> None:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        raw = json.dumps(doc, indent=2).encode()
    finally:
        sys.setrecursionlimit(old)
    assert _read_raw(raw, strict=True) == _read_raw(raw, strict=False)


@settings(max_examples=150, deadline=None)
@given(mutations())
def test_the_strict_parse_reads_a_mutated_file_as_the_lenient_one_does(m: dict[str, Any]) -> None:
    """The reader takes the detection's strict (orjson) parse instead of parsing again: what it
    reads is the same, integers past 64 bits, NaN, repeated keys and deep nesting included."""
    _same_given_the_strict_parse(_mutate(_shipped(), m))


def test_the_strict_parse_reads_integers_at_the_64_bit_edges_as_the_lenient_one_does() -> None:
    # orjson reads an integer past 64 bits (unsigned) as a float; json.loads as an int
    for value in (2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1, 10**18 - 1, 10**18,
                  10**30, 123456789012345678, 1.2345678901234567e-05):
        for field in ("optimizer_steps", "success_rate", "seed"):
            doc = _shipped(3)
            doc["arms"][1][field] = value
            _same_given_the_strict_parse(doc)
        doc = _shipped(3)
        doc["task_schedule_digest"] = f"sha {value}"
        _same_given_the_strict_parse(doc)
    doc = _shipped(3)
    doc["arms"].append(dict(doc["arms"][0]))  # a repeated key in raw text: built by hand below
    raw = json.dumps(doc, indent=2).encode().replace(b'"notes":', b'"notes": "x", "notes":', 1)
    assert _read_raw(raw, strict=True) == _read_raw(raw, strict=False)


def test_a_strict_harness_file_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`check` of the shipped (strict JSON) harness file reuses the detection's parse: the
    lenient parse, which would read the 75 KB again, is never called."""
    from evalview.cli import main

    def no_second_parse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("parsed twice")

    monkeypatch.setattr(harness_result, "parse_lenient", no_second_parse)
    monkeypatch.setattr(sys, "argv", ["pytest"])  # in-process: never the `evalview` command
    assert main(["check", str(SOURCE), "--json"]) in (0, 1)
