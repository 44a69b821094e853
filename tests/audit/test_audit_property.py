"""Property tests: random valid closed runs pass the audit with no error, and a random single
mutation of a valid run is always caught as an error.

The strategy below builds runs from first principles (counts, usage with unknowns, method
components, fail-fast stops, optional rates), independently of the checks' code.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalview.audit import audit
from evalview.findings import Severity
from evalview.load import load_run

USAGE_FIELDS = ("calls", "input_tokens", "output_tokens", "cached_input_tokens",
                "estimated_cost_usd", "latency_s")
CATEGORIES = ("policy", "protocol", "infrastructure", "evaluation")
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _sum(values: list[Any]) -> Any:
    """Unknown propagates: any None makes the sum None."""
    if any(v is None for v in values):
        return None
    return sum(values)


@st.composite
def usage_values(draw: st.DrawFn, *, partial: bool = False) -> dict[str, Any]:
    """The six fields, each known or null; cached never above input when both are known."""
    out: dict[str, Any] = {}
    for key in USAGE_FIELDS:
        if partial and draw(st.booleans()) and draw(st.booleans()):
            continue  # component usage may omit a field (unknown)
        if draw(st.integers(0, 3)) == 0:
            out[key] = None
        elif key in ("estimated_cost_usd", "latency_s"):
            out[key] = draw(st.integers(0, 10**6)) / 10**4
        else:
            out[key] = draw(st.integers(0, 5000))
    inp, cached = out.get("input_tokens"), out.get("cached_input_tokens")
    if inp is not None and cached is not None and cached > inp:
        out["cached_input_tokens"] = inp
    return out


@st.composite
def episode(
    draw: st.DrawFn, eid: str, task: str, seed: int, components: list[str]
) -> dict[str, Any]:
    calls = draw(st.integers(0, 40))
    decisions = draw(st.integers(0, calls))
    steps = 0 if decisions == 0 else draw(st.integers(decisions, decisions * 5))
    kind = draw(st.sampled_from(["success", "failure", "error"]))
    rec: dict[str, Any] = {
        "schema_version": "starvla-rsi.eval/v1",
        "episode": {"id": eid, "task": task, "seed": seed, "instruction": "Do it.",
                    "metadata": {}},
        "policy_calls": calls, "action_decisions": decisions, "environment_steps": steps,
        "rejected_actions": draw(st.integers(0, 3)),
        "duration_s": draw(st.integers(0, 10**5)) / 100, "reward_sum": 0.0,
        "artifacts": {},
    }
    if kind == "error":
        category = draw(st.sampled_from(CATEGORIES))
        rec.update(status="error", success=None, termination_reason=f"error:{category}",
                   metrics={}, error={"type": "RuntimeError", "category": category})
    else:
        ok = kind == "success"
        rec.update(status="completed", success=ok,
                   termination_reason="policy:stop" if ok else "environment:truncated",
                   metrics={"success": ok, "score": draw(st.integers(0, 100))}, error=None)
    if components and draw(st.booleans()):
        comp = {c: draw(usage_values(partial=True)) for c in components}
        rec["usage"] = {k: _sum([comp[c].get(k) for c in components]) for k in USAGE_FIELDS}
        inp, cached = rec["usage"]["input_tokens"], rec["usage"]["cached_input_tokens"]
        if inp is not None and cached is not None and cached > inp:  # cannot happen, but be safe
            rec["usage"]["cached_input_tokens"] = None
        rec["component_usage"] = comp
    else:
        rec["usage"] = draw(usage_values())
    return rec


@st.composite
def valid_runs(draw: st.DrawFn) -> dict[str, Any]:
    tasks = [f"task-{t}" for t in range(draw(st.integers(1, 3)))]
    seeds = list(range(draw(st.integers(1, 4))))
    ids = [(f"{t}/seed{s}", t, s) for t in tasks for s in seeds]
    components = draw(st.sampled_from([[], ["planner"], ["planner", "reviewer.v2"]]))
    has_method = bool(components) or draw(st.booleans())
    fail_fast = draw(st.booleans())
    records = [draw(episode(eid, t, s, components)) for eid, t, s in ids]
    errors = [i for i, r in enumerate(records) if r["status"] == "error"]
    if fail_fast and errors and draw(st.booleans()):
        records = records[: errors[0] + 1]  # the run stopped right after its first error
    manifest: dict[str, Any] = {
        "schema_version": "starvla-rsi.eval/v1",
        "run_id": "run-p",
        "benchmark": {"name": "bench", "version": "1", "protocol_version": "3",
                      "source_revision": "abc"},
        "policy": {"name": "pol", "version": "v1"},
        "action_spec": {"mode": "delta_eef", "size": 3, "names": ["x", "y", "z"],
                        "low": [-1, -1, -1], "high": [1, 1, 1], "control_hz": 10},
        "observation_spec": {"cameras": ["front"], "state_names": ["q0"],
                             "modalities": ["rgb"], "privileged": False},
        "protocol": {"episode_ids": [i for i, _, _ in ids], "max_steps": 400,
                     "max_policy_calls": draw(st.sampled_from([None, 100])),
                     "replan_interval": draw(st.sampled_from([None, 5])),
                     "fail_fast": fail_fast},
    }
    if has_method:
        manifest["method"] = {
            "schema_version": "starvla-rsi.method/v1", "id": "m", "version": "v1",
            "models": [{"id": c, "role": "r", "provider": None, "model": None, "version": None}
                       for c in components],
            "configuration": {"memory": "rolling", "max_tokens": 512},
        }
        manifest["method_origin"] = "participant_declaration"
    if draw(st.booleans()):
        manifest["recording"] = {"schema_version": "starvla-rsi.recording/v2", "mode": "minimal",
                                 "interactions": False, "videos": False}
    completed = sum(r["status"] == "completed" for r in records)
    errored = len(records) - completed
    successes = sum(r["success"] is True for r in records)
    summary: dict[str, Any] = {
        "run_id": "run-p", "benchmark": "bench", "policy": "pol",
        "attempted": len(records), "completed": completed, "errors": errored,
        "successes": successes,
        "policy_calls": sum(r["policy_calls"] for r in records),
        "rejected_actions": sum(r["rejected_actions"] for r in records),
        "usage": {k: _sum([r["usage"][k] for r in records]) for k in USAGE_FIELDS},
    }
    if components and draw(st.booleans()):
        summary["component_usage"] = {
            c: {k: _sum([r.get("component_usage", {}).get(c, {}).get(k) for r in records])
                for k in USAGE_FIELDS}
            for c in components
        }
    selected = len(ids)
    for name, num, den in (("success_rate", successes, completed),
                           ("attempt_success_rate", successes, len(records)),
                           ("selected_success_rate", successes, selected),
                           ("completion_rate", completed, selected)):
        if draw(st.booleans()):
            summary[name] = num / den if den else None
    status = {"status": "completed_with_errors" if errored else "completed",
              "episodes_written": len(records)}
    return {"manifest": manifest, "status": status, "summary": summary, "records": records}


def write_run(root: Path, run: dict[str, Any]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name in ("manifest", "status", "summary"):
        (root / f"{name}.json").write_text(json.dumps(run[name], indent=1))
    lines = [json.dumps(r) for r in run["records"]]
    (root / "episodes.jsonl").write_text("".join(line + "\n" for line in lines))
    (root / "episodes").mkdir(exist_ok=True)
    for i, line in enumerate(lines):
        d = root / "episodes" / f"ep-{i:03d}"
        d.mkdir(exist_ok=True)
        (d / "result.json").write_text(line)
    return root


def _errors(root: Path) -> list[str]:
    return [f"{f.code} {f.message}" for f in audit(load_run(root))
            if f.severity is Severity.ERROR]


@SETTINGS
@given(valid_runs())
def test_random_valid_runs_have_no_error(run: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = write_run(Path(tmp) / "run", run)
        assert _errors(root) == []


def _mutations(run: dict[str, Any]) -> list[str]:
    """Mutations that apply to this run (each must break the record)."""
    records = run["records"]
    names = ["summary-attempted", "drop-result", "drop-record", "schema", "usage-negative",
             "summary-run-id", "duplicate-line", "privileged", "credential", "result-differs",
             "status-value", "count-negative", "rate-off", "cached-over-input"]
    if any(r["status"] == "completed" for r in records):
        names += ["flip-success", "interruption"]
    if any(r["status"] == "error" for r in records):
        names += ["error-category", "error-success"]
    if len(records) >= 2:
        names.append("swap")
    return names


def _mutate(run: dict[str, Any], name: str, pick: int) -> dict[str, Any]:
    run = copy.deepcopy(run)
    records = run["records"]
    i = pick % len(records)
    completed = [r for r in records if r["status"] == "completed"]
    errored = [r for r in records if r["status"] == "error"]
    if name == "flip-success":
        r = completed[pick % len(completed)]
        r["success"] = not r["success"]
    elif name == "interruption":
        completed[pick % len(completed)]["termination_reason"] = "error:infrastructure"
    elif name == "error-category":
        errored[pick % len(errored)]["error"]["category"] = "network"
    elif name == "error-success":
        errored[pick % len(errored)]["success"] = False
    elif name == "swap":
        j = (i + 1) % len(records)
        records[i], records[j] = records[j], records[i]
    elif name == "summary-attempted":
        run["summary"]["attempted"] += 1
    elif name == "drop-record":
        run["drop_record"] = i
    elif name == "drop-result":
        run["drop_result"] = i
    elif name == "result-differs":
        run["differ_result"] = i
    elif name == "schema":
        records[i]["schema_version"] = "starvla-rsi.eval/v2"
    elif name == "usage-negative":
        records[i]["usage"]["calls"] = -1
    elif name == "cached-over-input":
        records[i]["usage"].update(input_tokens=10, cached_input_tokens=11)
    elif name == "count-negative":
        records[i]["rejected_actions"] = -1
    elif name == "summary-run-id":
        run["summary"]["run_id"] = "another-run"
    elif name == "duplicate-line":
        records.insert(i, copy.deepcopy(records[i]))
    elif name == "privileged":
        run["manifest"]["observation_spec"]["privileged"] = True
    elif name == "credential":
        run["manifest"]["policy"]["auth_token"] = "abc"
    elif name == "status-value":
        run["status"]["status"] = "done"
    elif name == "rate-off":
        run["summary"]["selected_success_rate"] = (
            run["summary"]["successes"] + 0.5
        ) / len(run["manifest"]["protocol"]["episode_ids"])
    return run


def _write_mutated(root: Path, run: dict[str, Any]) -> None:
    write_run(root, run)
    if "drop_result" in run:
        (root / "episodes" / f"ep-{run['drop_result']:03d}" / "result.json").unlink()
    if "differ_result" in run:
        p = root / "episodes" / f"ep-{run['differ_result']:03d}" / "result.json"
        data = json.loads(p.read_text())
        data["reward_sum"] = 99.0
        p.write_text(json.dumps(data))
    if "drop_record" in run:
        lines = (root / "episodes.jsonl").read_text().splitlines()
        del lines[run["drop_record"]]
        (root / "episodes.jsonl").write_text("".join(line + "\n" for line in lines))


@SETTINGS
@given(valid_runs(), st.data())
def test_random_single_mutations_are_caught(run: dict[str, Any], data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(_mutations(run)), label="mutation")
    pick = data.draw(st.integers(0, 1000), label="pick")
    mutated = _mutate(run, name, pick)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "run"
        _write_mutated(root, mutated)
        assert _errors(root), f"mutation {name} was not caught"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.floats(allow_nan=False,
                                                                      allow_infinity=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=6,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


@SETTINGS
@given(valid_runs(), st.data())
def test_any_value_anywhere_gives_findings_never_a_traceback(
    run: dict[str, Any], data: st.DataObject
) -> None:
    """Replace one node of any document or record with arbitrary JSON: the audit still runs."""
    run = copy.deepcopy(run)
    target = data.draw(st.sampled_from(["manifest", "status", "summary", "records"]))
    paths = [p for p in _paths(run[target]) if p]
    if not paths:
        return
    path = data.draw(st.sampled_from(paths))
    value = data.draw(JSON_VALUES)
    node = run[target]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with tempfile.TemporaryDirectory() as tmp:
        root = write_run(Path(tmp) / "run", run)
        findings = audit(load_run(root))
        assert all(f.message for f in findings)
