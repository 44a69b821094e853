"""Every registered rule is triggered by a minimal mutation of the conforming example, and the
clean example triggers no error.

`MUTATIONS` maps each code to (mutation, the file the finding must point at). A meta-test fails
when a rule is registered without an entry here, so a new rule cannot ship untested.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from typing import Any

import pytest

from evalview.audit import RULES, audit
from evalview.findings import Severity
from evalview.load import load_run
from helpers.paths import REPO, SAMPLE_RUNS

Mutation = Callable[[Any, pytest.MonkeyPatch], None]

# Record indexes in the example: 0 completed failure, 1 completed with known usage,
# 3 evaluation error, 4 infrastructure error, 7 completed success, 10 protocol error, 11 last.


def _set(doc: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    for key in parents:
        doc = doc[int(key)] if isinstance(doc, list) else doc[key]
    if isinstance(doc, list):
        doc[int(last)] = value
    else:
        doc[last] = value


def _del(doc: dict[str, Any], dotted: str) -> None:
    *parents, last = dotted.split(".")
    for key in parents:
        doc = doc[key]
    del doc[last]


def doc(name: str, dotted: str, value: Any) -> Mutation:
    return lambda rd, mp: rd.edit(name, lambda d: _set(d, dotted, value))


def doc_del(name: str, dotted: str) -> Mutation:
    return lambda rd, mp: rd.edit(name, lambda d: _del(d, dotted))


def rec(index: int, dotted: str, value: Any) -> Mutation:
    return lambda rd, mp: rd.edit_record(index, lambda r: _set(r, dotted, value))


def rec_del(index: int, dotted: str) -> Mutation:
    return lambda rd, mp: rd.edit_record(index, lambda r: _del(r, dotted))


def raw(name: str, content: bytes) -> Mutation:
    return lambda rd, mp: (rd.path / name).write_bytes(content)


def _to_dir(rd: Any, mp: pytest.MonkeyPatch) -> None:
    (rd.path / "status.json").unlink()
    (rd.path / "status.json").mkdir()


def _symlink(rd: Any, mp: pytest.MonkeyPatch) -> None:
    target = rd.path.parent / "elsewhere-summary.json"
    shutil.copyfile(rd.path / "summary.json", target)
    (rd.path / "summary.json").unlink()
    os.symlink(target, rd.path / "summary.json")


def _bound(name: str, value: int) -> Mutation:
    return lambda rd, mp: mp.setattr(f"evalview.load.closed_run.{name}", value)


def _empty_line(rd: Any, mp: pytest.MonkeyPatch) -> None:
    lines = (rd.path / "episodes.jsonl").read_text().splitlines()
    lines.insert(3, "")
    (rd.path / "episodes.jsonl").write_text("\n".join(lines) + "\n")


def _truncate(rd: Any, mp: pytest.MonkeyPatch) -> None:
    data = (rd.path / "summary.json").read_bytes()
    (rd.path / "summary.json").write_bytes(data[: len(data) // 2])


def _records(fn: Callable[[list[dict[str, Any]]], object], *, sync: bool = True) -> Mutation:
    def mutate(rd: Any, mp: pytest.MonkeyPatch) -> None:
        records = rd.records()
        fn(records)
        rd.write_records(records, sync=sync)

    return mutate


def _swap(records: list[dict[str, Any]]) -> None:
    records[0], records[1] = records[1], records[0]


def _duplicate_line(records: list[dict[str, Any]]) -> None:
    records.append(json.loads(json.dumps(records[0])))


def _drop_result(rd: Any, mp: pytest.MonkeyPatch) -> None:
    shutil.rmtree(rd.result_path("task-00/seed1000").parent)


def _differ_result(rd: Any, mp: pytest.MonkeyPatch) -> None:
    p = rd.result_path("task-00/seed1000")
    data = json.loads(p.read_text())
    data["reward_sum"] = 1.0
    p.write_text(json.dumps(data))


def _copy_result(rd: Any, mp: pytest.MonkeyPatch) -> None:
    p = rd.result_path("task-00/seed1000")
    shutil.copytree(p.parent, rd.path / "episodes" / "a-second-copy")


def _unsafe_dir(rd: Any, mp: pytest.MonkeyPatch) -> None:
    p = rd.result_path("task-00/seed1000")
    p.parent.rename(rd.path / "episodes" / "task 00: seed 1000")


def _orphan_result(rd: Any, mp: pytest.MonkeyPatch) -> None:
    data = json.loads(rd.result_path("task-00/seed1000").read_text())
    data["episode"]["id"] = "task-99/seed1"
    (rd.path / "episodes" / "stray").mkdir()
    (rd.path / "episodes" / "stray" / "result.json").write_text(json.dumps(data))


def _fail_fast_stop(rd: Any, mp: pytest.MonkeyPatch) -> None:
    """fail_fast declared; the run stopped right after the protocol error at index 10."""
    rd.edit("manifest.json", lambda d: _set(d, "protocol.fail_fast", True))
    records = rd.records()[:11]
    rd.write_records(records)
    rd.edit("status.json", lambda d: _set(d, "episodes_written", 11))
    rd.edit("summary.json", lambda d: d.update(attempted=11, completed=7, successes=3,
                                               policy_calls=210, rejected_actions=11,
                                               selected_success_rate=0.25,
                                               attempt_success_rate=3 / 11,
                                               success_rate=3 / 7))


def _infra_error(rd: Any, mp: pytest.MonkeyPatch) -> None:
    def mutate(r: dict[str, Any]) -> None:
        r.update(status="error", success=None, termination_reason="error:infrastructure",
                 metrics={}, error={"type": "ConnectionError", "category": "infrastructure"})

    rd.edit_record(0, mutate)


def _policy_error(rd: Any, mp: pytest.MonkeyPatch) -> None:
    def mutate(r: dict[str, Any]) -> None:
        r.update(status="error", success=None, termination_reason="error:policy",
                 metrics={}, error={"type": "ValueError", "category": "policy"})

    rd.edit_record(0, mutate)


def _no_method(rd: Any, mp: pytest.MonkeyPatch) -> None:
    rd.edit("manifest.json", lambda d: (d.pop("method"), d.pop("method_origin")))


def _completion_over_attempted(rd: Any, mp: pytest.MonkeyPatch) -> None:
    """The fail-fast stop (11 attempted of 12 selected), its completion_rate over attempted."""
    _fail_fast_stop(rd, mp)
    rd.edit("summary.json", lambda d: d.update(completion_rate=7 / 11))


KNOWN_USAGE = {"calls": 6, "input_tokens": 937, "output_tokens": 16, "cached_input_tokens": 22,
               "estimated_cost_usd": 0.000254, "latency_s": 2.707}

MUTATIONS: dict[str, tuple[Mutation, str | None]] = {
    # reading
    "EV101": (lambda rd, mp: (rd.path / "status.json").unlink(), "status.json"),
    "EV102": (_to_dir, "status.json"),
    "EV103": (raw("summary.json", b'{"run_id": "run-\xff"}'), "summary.json"),
    "EV104": (_truncate, "summary.json"),
    "EV105": (raw("status.json", b'{"status": "completed", "status": "completed",\n'
                  b'"episodes_written": 12}'), "status.json"),
    "EV106": (raw("summary.json", b'{"run_id": "run-1", "success_rate": NaN}'), "summary.json"),
    "EV107": (raw("status.json", b"[1, 2]"), "status.json"),
    "EV108": (_symlink, "summary.json"),
    "EV109": (_bound("MAX_BYTES", 4096), "episodes.jsonl"),  # the largest file
    "EV110": (_bound("MAX_EPISODES", 5), "episodes"),
    "EV111": (_empty_line, "episodes.jsonl"),
    "EV112": (raw("status.json", b'{"status": "completed",\n"x": ' + b"[" * 200 + b"]" * 200
                  + b"}"), "status.json"),
    # manifest
    "EV201": (doc("manifest.json", "schema_version", "starvla-rsi.eval/v0"), "manifest.json"),
    "EV202": (doc_del("manifest.json", "benchmark.source_revision"), "manifest.json"),
    "EV203": (doc("manifest.json", "run_id", ""), "manifest.json"),
    "EV204": (doc("manifest.json", "protocol.max_steps", 0), "manifest.json"),
    "EV205": (doc("manifest.json", "observation_spec.privileged", True), "manifest.json"),
    "EV206": (doc("manifest.json", "action_spec.names", ["x", "y"]), "manifest.json"),
    "EV207": (doc("manifest.json", "protocol.episode_ids", []), "manifest.json"),
    "EV208": (
        lambda rd, mp: rd.edit(
            "manifest.json", lambda d: d["protocol"]["episode_ids"].append("task-00/seed1000")
        ),
        "manifest.json",
    ),
    "EV209": (doc("manifest.json", "method.models", "planner"), "manifest.json"),
    "EV210": (doc("manifest.json", "method.models.0.id", "_planner"), "manifest.json"),
    "EV211": (
        lambda rd, mp: rd.edit(
            "manifest.json", lambda d: d["method"]["models"].append(dict(d["method"]["models"][0]))
        ),
        "manifest.json",
    ),
    "EV212": (doc("manifest.json", "method.configuration.api_key", "sk-123"), "manifest.json"),
    "EV213": (
        doc("manifest.json", "method.configuration.cache_dir", "/home/alice/cache"),
        "manifest.json",
    ),
    "EV214": (
        doc("manifest.json", "recording", {"schema_version": "starvla-rsi.recording/v2",
                                           "mode": "minimal", "videos": "no"}),
        "manifest.json",
    ),
    "EV215": (lambda rd, mp: rd.edit("manifest.json", lambda d: d.update(method_origin="x")),
              "manifest.json"),
    "EV216": (doc("manifest.json", "method.configuration.runtime",
                  {f"setting_{i}": "v" * 64 for i in range(300)}), "manifest.json"),
    "EV217": (doc("manifest.json", "method.models.0.provider", "unknown"), "manifest.json"),
    # episodes
    "EV301": (rec(0, "schema_version", "v0"), "episodes.jsonl"),
    "EV302": (rec_del(0, "usage"), "episodes.jsonl"),
    "EV303": (rec(0, "duration_s", "12s"), "episodes.jsonl"),
    "EV304": (rec(0, "status", "done"), "episodes.jsonl"),
    "EV305": (rec(0, "success", True), "episodes.jsonl"),
    "EV306": (rec(0, "error", {"type": "X", "category": "policy"}), "episodes.jsonl"),
    "EV307": (rec(3, "success", False), "episodes.jsonl"),
    "EV308": (rec(3, "error.type", ""), "episodes.jsonl"),
    "EV309": (rec(3, "error.category", "network"), "episodes.jsonl"),
    "EV310": (rec(0, "termination_reason", "error:infrastructure"), "episodes.jsonl"),
    "EV311": (rec(0, "policy_calls", -1), "episodes.jsonl"),
    "EV312": (rec(0, "action_decisions", 8), "episodes.jsonl"),
    "EV313": (rec_del(0, "usage.latency_s"), "episodes.jsonl"),
    "EV314": (rec(1, "usage.cached_input_tokens", 1000), "episodes.jsonl"),
    "EV315": (rec(1, "component_usage", {"critic": KNOWN_USAGE}), "episodes.jsonl"),
    "EV316": (
        rec(1, "component_usage", {"planner": {**KNOWN_USAGE, "calls": 5}}), "episodes.jsonl"
    ),
    "EV317": (_drop_result, "episodes.jsonl"),
    "EV318": (_differ_result, "episodes/task-00-seed1000/result.json"),
    "EV319": (_copy_result, "episodes/task-00-seed1000/result.json"),
    "EV320": (_orphan_result, "episodes/stray/result.json"),
    "EV321": (_records(_duplicate_line), "episodes.jsonl"),
    "EV322": (rec(0, "episode.id", "task-99/seed1"), "episodes.jsonl"),
    "EV323": (_records(_swap), "episodes.jsonl"),
    "EV324": (_unsafe_dir, "episodes/task 00: seed 1000/result.json"),
    # closure
    "EV401": (doc("status.json", "status", "finished"), "status.json"),
    "EV402": (doc("status.json", "status", "completed"), "status.json"),
    "EV403": (doc("status.json", "episodes_written", 11), "status.json"),
    "EV404": (_records(lambda rs: rs.pop()), "manifest.json"),
    "EV405": (raw("episodes.jsonl", b""), "episodes.jsonl"),
    # summary
    "EV501": (doc("summary.json", "run_id", "run-2"), "summary.json"),
    "EV502": (doc_del("summary.json", "attempted"), "summary.json"),
    "EV503": (doc("summary.json", "policy_calls", 228), "summary.json"),
    "EV504": (doc("summary.json", "usage", {"calls": None}), "summary.json"),
    "EV505": (doc("summary.json", "usage.calls", 5), "summary.json"),
    "EV506": (
        doc("summary.json", "usage", {**dict.fromkeys(KNOWN_USAGE), "input_tokens": 10,
                                      "cached_input_tokens": 20}),
        "summary.json",
    ),
    "EV507": (doc("summary.json", "component_usage", {"critic": {}}), "summary.json"),
    "EV508": (doc("summary.json", "component_usage", {"planner": {"calls": 3}}), "summary.json"),
    "EV509": (doc("summary.json", "success_rate", True), "summary.json"),
    "EV510": (doc("summary.json", "success_rate", 0.6), "summary.json"),
    "EV511": (doc("summary.json", "successes", 9), "summary.json"),
    "EV512": (_completion_over_attempted, "summary.json"),
    # publication
    "EV601": (_infra_error, "episodes.jsonl"),
    "EV602": (_fail_fast_stop, "manifest.json"),
    "EV603": (_policy_error, "episodes.jsonl"),
    "EV604": (rec(0, "environment_steps", 500), "episodes.jsonl"),
    "EV605": (_no_method, "manifest.json"),
}


#: Rules whose findings are made outside the audit of a closed run, and the test module that
#: triggers each of them (it has its own meta-test over these codes).
MADE_ELSEWHERE = {
    "EV606": "tests/report/test_export_leaks.py",  # by the export
    **{f"EV90{i}": "tests/report/test_reopen_audit.py" for i in range(1, 7)},  # by the session
    # by the RecoveryBench task-results reader
    **{f"EV11{i}": "tests/load/test_task_results.py" for i in range(3, 8)},
}


def test_rules_made_elsewhere_are_triggered_there() -> None:
    root = REPO
    for code, module in MADE_ELSEWHERE.items():
        assert code in RULES
        assert f'"{code}"' in (root / module).read_text(encoding="utf-8"), (code, module)


def test_every_registered_rule_has_a_triggering_mutation() -> None:
    import evalview.audit.checks  # noqa: F401  (registers the checks)

    # EV7xx (LeRobot: tests/load/test_lerobot_rules.py), EV8xx (benchmark-harness results:
    # tests/harness/test_harness_rules.py) and EV0xx (Inspect AI logs:
    # tests/load/inspect_ai/test_inspect_rules.py) have their own tables;
    # EV606 and EV9xx are made outside the audit (MADE_ELSEWHERE)
    made_by_the_audit = {
        code for code in RULES
        if not code.startswith(("EV7", "EV8", "EV0")) and code not in MADE_ELSEWHERE
    }
    assert made_by_the_audit - set(MUTATIONS) == set(), "rules with no triggering test"
    assert set(MUTATIONS) - set(RULES) == set(), "mutations for codes that are not registered"


@pytest.mark.parametrize("code", sorted(MUTATIONS))
def test_mutation_triggers_rule(
    code: str, example_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert code not in example_run.codes() or RULES[code].severity is not Severity.ERROR
    mutate, expected_file = MUTATIONS[code]
    mutate(example_run, monkeypatch)
    findings = [f for f in example_run.findings() if f.code == code]
    assert findings, f"{code} not reported after its mutation"
    assert any(f.file == expected_file for f in findings), [f.file for f in findings]
    rule = RULES[code]
    for f in findings:
        assert f.severity is rule.severity
        assert f.message.strip()
        if f.file == "episodes.jsonl" and f.line is not None:
            assert f.line >= 1


def test_clean_example_has_no_error(example_run: Any) -> None:
    findings = example_run.findings()
    assert [f for f in findings if f.severity is Severity.ERROR] == []
    # The example's errored episodes are the only caveats: one infrastructure, three others.
    assert sorted(f.code for f in findings) == ["EV601", "EV603"]


def _pristine(rd: Any) -> None:
    """Turn every errored episode into a completed failure, with status and summary to match."""
    records = rd.records()
    for r in records:
        if r["status"] == "error":
            r.update(status="completed", success=False, error=None,
                     termination_reason="environment:truncated",
                     metrics={"success": False, "score": 0})
    rd.write_records(records)
    rd.edit("status.json", lambda d: _set(d, "status", "completed"))
    rd.edit("summary.json", lambda d: d.update(completed=12, errors=0, success_rate=4 / 12))


def test_pristine_run_has_no_finding_at_all(example_run: Any) -> None:
    _pristine(example_run)
    assert example_run.findings() == []


@pytest.mark.parametrize("sample", ["robobench-24x50", "fail-fast"])
def test_committed_conforming_samples_have_no_error(sample: str) -> None:
    path = SAMPLE_RUNS / sample
    if not path.is_dir():
        pytest.fail(f"{path} is missing; regenerate with `python -m evalview.samples sample_runs`")
    errors = [f for f in audit(load_run(path)) if f.severity is Severity.ERROR]
    assert errors == []


def test_line_and_episode_point_at_the_record(example_run: Any) -> None:
    example_run.edit_record(7, lambda r: _set(r, "success", False))
    [f] = [f for f in example_run.findings() if f.code == "EV305"]
    assert (f.file, f.line, f.episode_id) == ("episodes.jsonl", 8, "task-01/seed1003")
    assert "episodes.jsonl:8" in f.message and "metrics.success" in f.message


def test_completed_failure_after_interruption_names_the_fix(example_run: Any) -> None:
    example_run.edit_record(0, lambda r: _set(r, "termination_reason", "error:infrastructure"))
    [f] = [f for f in example_run.findings() if f.code == "EV310"]
    assert "status 'error'" in f.message


def test_fail_fast_allows_unattempted_only_right_after_an_error(
    example_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fail_fast_stop(example_run, monkeypatch)
    codes = [f.code for f in example_run.findings() if f.severity is Severity.ERROR]
    assert codes == []
    # Stop after a completed episode instead: the missing cases are no longer excused.
    example_run.write_records(example_run.records()[:10])
    assert "EV404" in example_run.codes()


def test_fail_fast_does_not_excuse_a_gap(example_run: Any) -> None:
    example_run.edit("manifest.json", lambda d: _set(d, "protocol.fail_fast", True))
    records = example_run.records()
    del records[5]
    example_run.write_records(records[:10])  # last kept: the protocol error
    missing = {f.episode_id for f in example_run.findings() if f.code == "EV404"}
    assert missing == {"task-01/seed1001", "task-02/seed1003"}
    assert "EV602" not in example_run.codes()


def test_component_usage_agreeing_with_totals_is_silent(example_run: Any) -> None:
    split = {"planner": KNOWN_USAGE}
    example_run.edit_record(1, lambda r: _set(r, "component_usage", split))
    codes = example_run.codes()
    assert not codes & {"EV313", "EV315", "EV316"}


def test_partial_component_usage_may_not_exceed_total(example_run: Any) -> None:
    example_run.edit("manifest.json", lambda d: d["method"]["models"].append(
        {"id": "reviewer", "role": "review", "provider": None, "model": None, "version": None}))
    over = {"planner": {"input_tokens": 2000}}  # reviewer unknown, but 2000 > 937 already
    example_run.edit_record(1, lambda r: _set(r, "component_usage", over))
    assert "EV316" in example_run.codes()
    fine = {"planner": {"input_tokens": 900}}
    example_run.edit_record(1, lambda r: _set(r, "component_usage", fine))
    assert "EV316" not in example_run.codes()


def test_summary_usage_known_totals_must_match(example_run: Any) -> None:
    """With every episode's usage known, the summary total is their sum, and null is wrong."""
    records = example_run.records()
    for r in records:
        r["usage"] = dict(KNOWN_USAGE)
    example_run.write_records(records)
    total = {k: (v * 12 if isinstance(v, int) else round(v * 12, 9)) for k, v in
             KNOWN_USAGE.items()}
    example_run.edit("summary.json", lambda d: _set(d, "usage", total))
    assert "EV505" not in example_run.codes()
    example_run.edit("summary.json", lambda d: _set(d, "usage.input_tokens", None))
    [f] = [f for f in example_run.findings() if f.code == "EV505"]
    assert "input_tokens" in f.message


@pytest.mark.parametrize(
    ("key", "flagged"),
    [("api_key", True), ("OPENAI_API_KEY", True), ("authToken", True), ("password", True),
     ("client_secret", True), ("credentials", True), ("max_tokens", False), ("author", False),
     ("memory", False), ("tokenizer", False)],
)
def test_credential_names(key: str, flagged: bool) -> None:
    from evalview.audit.checks.manifest import is_credential_name

    assert is_credential_name(key) is flagged


@pytest.mark.parametrize(
    ("text", "flagged"),
    [("/home/alice", True), ("~/ckpt", True), ("C:\\Users\\a", True), ("d:/data", True),
     ("\\\\server\\share", True), ("file:///tmp/x", True), ("ckpt/step-4", False),
     ("https://example.org/model", False), ("rolling", False)],
)
def test_absolute_paths(text: str, flagged: bool) -> None:
    from evalview.audit.checks.manifest import is_absolute_path

    assert is_absolute_path(text) is flagged


def test_fail_fast_with_nothing_recorded_is_not_a_stop(example_run: Any) -> None:
    example_run.edit("manifest.json", lambda d: _set(d, "protocol.fail_fast", True))
    example_run.write_records([])
    missing = [f for f in example_run.findings() if f.code == "EV404"]
    assert len(missing) == 12


def test_component_usage_without_any_method_is_undeclared(example_run: Any) -> None:
    _no_method(example_run, pytest.MonkeyPatch())
    example_run.edit_record(1, lambda r: _set(r, "component_usage", {"planner": KNOWN_USAGE}))
    [f] = [f for f in example_run.findings() if f.code == "EV315"]
    assert f.line == 2 and "'planner'" in f.message


@pytest.mark.parametrize("value", [True, False, "0.5", -0.1, 1.01])
def test_invalid_rates(example_run: Any, value: Any) -> None:
    example_run.edit("summary.json", lambda d: _set(d, "attempt_success_rate", value))
    [f] = [f for f in example_run.findings() if f.code == "EV509"]
    assert "attempt_success_rate" in f.message


def test_rate_with_zero_denominator_must_be_null(example_run: Any) -> None:
    example_run.edit("summary.json", lambda d: d.update(completion_rate=0.0))
    assert "EV510" in example_run.codes()  # 8/12, not 0
    example_run.edit("summary.json", lambda d: d.update(completion_rate=8 / 12))
    assert "EV510" not in example_run.codes()
    example_run.edit("manifest.json", lambda d: _set(d, "protocol.episode_ids", []))
    messages = [f.message for f in example_run.findings() if f.code == "EV510"]
    assert any("denominator `selected` is 0" in m for m in messages)


def test_rates_within_tolerance_are_accepted(example_run: Any) -> None:
    example_run.edit("summary.json", lambda d: d.update(success_rate=0.5 + 1e-12))
    assert "EV510" not in example_run.codes()


def test_every_finding_names_a_place(example_run: Any) -> None:
    """Across all mutations, episode findings carry line and id; others carry a file."""
    records = example_run.records()
    records[2]["usage"]["calls"] = -3
    records[5]["success"] = True
    example_run.write_records(records)
    for f in example_run.findings():
        assert f.file is not None or f.code == "EV109"
        if f.file == "episodes.jsonl" and f.code.startswith("EV3"):
            assert f.line is not None and f.episode_id is not None
            assert f"episodes.jsonl:{f.line}" in f.message


def test_summary_usage_of_a_run_with_no_episode_may_be_null(example_run: Any) -> None:
    """With no episode at all, a null usage total is not "known but missing": no EV505 (the
    empty schedule itself is reported elsewhere)."""
    example_run.write_records([])
    example_run.edit("summary.json", lambda d: _set(d, "usage", dict.fromkeys(KNOWN_USAGE)))
    assert "EV505" not in example_run.codes()
    example_run.edit("summary.json", lambda d: _set(d, "usage.calls", 3))
    [f] = [f for f in example_run.findings() if f.code == "EV505"]
    assert "`usage.calls` is 3 but the episodes add up to 0" in f.message
    assert "Recompute the summary" in f.message
