"""Schema 3 (RecoveryBench): the published files are clean of errors, and each EV816-EV820 rule
is triggered by a minimal mutation of a published file, written back as the harness writes it
(sorted keys, two-space indent)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import evalview.audit.checks  # noqa: F401  (registers the rules)
from evalview.audit import RULES
from evalview.findings import Finding, Severity
from evalview.harness.audit import audit_harness
from evalview.load.harness_result import read_harness
from helpers.paths import MINIVERL

UPDATES = "recoverybench-v1-equal-updates.json"
TOKENS = "recoverybench-v1-equal-selected-tokens.json"
WALL = "recoverybench-v1-equal-wall-time.json"

Mutation = Callable[[dict[str, Any]], None]


def _doc(name: str) -> dict[str, Any]:
    value = json.loads((MINIVERL / name).read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def _audit(tmp_path: Path, doc: dict[str, Any]) -> list[Finding]:
    path = tmp_path / "result.json"
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    hf = read_harness(path)
    assert hf is not None and hf.result is not None, hf and hf.problems
    return audit_harness(hf)


def _arm(doc: dict[str, Any], name: str, seed: int) -> dict[str, Any]:
    return next(a for a in doc["arms"] if a["name"] == name and a["seed"] == seed)


def _no_preregistration(doc: dict[str, Any]) -> None:
    del doc["preregistration_sha"]
    doc["hypothesis_ids"] = []


def _bad_digest(doc: dict[str, Any]) -> None:
    doc["task_schedule_digest"] = "see notes"


def _invalidated(doc: dict[str, Any]) -> None:
    doc["invalidation_status"] = {"valid": False, "reasons": ["teacher gate re-run"]}


def _hidden_overshoot(doc: dict[str, Any]) -> None:
    _arm(doc, "continued-sft", 1234)["overshoot"]["value"] = 0


def _maximum_understated(doc: dict[str, Any]) -> None:
    doc["overshoot"]["maximum"] = 0.0


def _no_artifact(doc: dict[str, Any]) -> None:
    _arm(doc, "strict-opd-fresh", 1234)["task_level_artifact"] = None


def _unlisted_artifact(doc: dict[str, Any]) -> None:
    doc["task_level_artifacts"] = doc["task_level_artifacts"][1:]


#: (file, mutation, code, read the finding names (None: the file as a whole))
CASES: list[tuple[str, Mutation, str, str | None]] = [
    (UPDATES, _no_preregistration, "EV816", None),
    (UPDATES, _bad_digest, "EV816", None),
    (UPDATES, _invalidated, "EV817", None),
    (TOKENS, _hidden_overshoot, "EV818", "continued-sft/s1234"),
    (TOKENS, _maximum_understated, "EV818", None),
    (UPDATES, _no_artifact, "EV819", "strict-opd-fresh/s1234"),
    (UPDATES, _unlisted_artifact, "EV819", None),
]


@pytest.mark.parametrize("name", [UPDATES, TOKENS, WALL])
def test_published_schema_3_files_have_no_error(name: str, tmp_path: Path) -> None:
    found = _audit(tmp_path, _doc(name))
    assert [f.code for f in found if f.severity is Severity.ERROR] == []
    # measured_primary / measured_diagnostic_... are measurements, not "not measured"
    assert not any("measured_primary" in f.message for f in found)


@pytest.mark.parametrize(("name", "mutate", "code", "read_key"), CASES,
                         ids=[f"{c[2]}-{c[1].__name__}" for c in CASES])
def test_mutation_triggers_rule(name: str, mutate: Mutation, code: str, read_key: str | None,
                                tmp_path: Path) -> None:
    doc = _doc(name)
    assert code not in {f.code for f in _audit(tmp_path, doc)}
    mutate(doc)
    found = [f for f in _audit(tmp_path, doc) if f.code == code]
    assert found, f"{code} not reported after {mutate.__name__}"
    for f in found:
        assert f.severity is RULES[code].severity
        assert f.file == "result.json" and f.line is not None and f.line >= 1
    if read_key is not None:
        assert read_key in {f.episode_id for f in found}


def test_the_cycle_capped_wall_time_view_is_ev820(tmp_path: Path) -> None:
    """The report's own caveat: SFT and frozen KD hit the eight-cycle cap before 50 s."""
    found = [f for f in _audit(tmp_path, _doc(WALL)) if f.code == "EV820"]
    assert len(found) == 1
    assert "6 of 9 reads (continued-sft, offline-kd-frozen-student)" in found[0].message
    assert found[0].severity is Severity.WARNING
    assert all(f.code != "EV820" for f in _audit(tmp_path, _doc(UPDATES)))


def test_a_schema_3_key_the_harness_would_refuse_is_ev801(tmp_path: Path) -> None:
    doc = _doc(UPDATES)
    _arm(doc, "strict-opd-fresh", 1234)["recovery_rate"] = 0.5  # not a field of ArmResult
    path = tmp_path / "result.json"
    path.write_text(json.dumps(doc, indent=2, sort_keys=True), encoding="utf-8")
    hf = read_harness(path)
    assert hf is not None and hf.result is None
    found = audit_harness(hf)
    assert {f.code for f in found} == {"EV801"}
    assert "recovery_rate" in found[0].message and "strict-opd-fresh/s1234" in found[0].message


def _artifacts(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The file's list and each arm's own record of the same artifacts (kept equal, EV819)."""
    return [*doc["task_level_artifacts"], *(a["task_level_artifact"] for a in doc["arms"])]


def _rewrite(doc: dict[str, Any], rel: str, **fields: Any) -> None:
    for artifact in _artifacts(doc):
        if artifact["path"] == rel:
            artifact.update(fields)


def test_task_level_artifacts_beside_the_result_are_verified(tmp_path: Path) -> None:
    """The published file ships without its trajectories: one EV822 info. An artifact put beside
    it is verified by size and SHA-256: the right one passes, an edited one is EV821 (error)."""
    import hashlib

    doc = _doc(UPDATES)
    found = _audit(tmp_path, doc)
    absent = [f for f in found if f.code == "EV822"]
    assert len(absent) == 1 and "18 of 18 task-level artifact(s)" in absent[0].message
    assert absent[0].severity is Severity.INFO
    assert not any(f.code == "EV821" for f in found)

    good, bad = (a["path"] for a in doc["task_level_artifacts"][:2])
    for rel, text in ((good, b'{"task_id": 1}\n'), (bad, b'{"task_id": 2}\n')):
        (tmp_path / rel).parent.mkdir(parents=True)
        (tmp_path / rel).write_bytes(text)
    # the first recorded as the file now beside it is (the second keeps its published record)
    content = (tmp_path / good).read_bytes()
    _rewrite(doc, good, sha256=hashlib.sha256(content).hexdigest(), bytes=len(content))
    found = _audit(tmp_path, doc)
    changed = [f for f in found if f.code == "EV821"]
    assert [bad in f.message and good not in f.message for f in changed] == [True]
    assert changed[0].severity is Severity.ERROR and changed[0].line is not None
    assert "16 of 18" in next(f for f in found if f.code == "EV822").message

    # same size, another content: caught by the hash, not only by the size
    _rewrite(doc, good, sha256="0" * 64)
    assert sum(f.code == "EV821" for f in _audit(tmp_path, doc)) == 2


def test_an_artifact_path_outside_the_results_folder_is_never_read(tmp_path: Path) -> None:
    doc = _doc(UPDATES)
    rel = doc["task_level_artifacts"][0]["path"]
    outside = tmp_path / "secret.jsonl"
    outside.write_text("x")
    _rewrite(doc, rel, path="../secret.jsonl")
    run = tmp_path / "run"
    run.mkdir()
    found = _audit(run, doc)
    absent = next(f for f in found if f.code == "EV822")
    assert "../secret.jsonl (outside the result's folder)" in absent.message
    assert not any(f.code == "EV821" for f in found)
