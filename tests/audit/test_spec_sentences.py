"""One test per sentence of closed-result-format.txt that the audit must honour beyond its own
rule's triggering mutation: what is allowed stays silent, what the spec leaves open is at most a
warning. docs/spec-coverage.md points at these tests.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from evalview.audit.checks.episodes import is_safe_dir_name
from evalview.findings import Severity

KNOWN_USAGE = {"calls": 6, "input_tokens": 937, "output_tokens": 16, "cached_input_tokens": 22,
               "estimated_cost_usd": 0.000254, "latency_s": 2.707}


def _manifest(rd: Any, fn: Any) -> None:
    rd.edit("manifest.json", fn)


# --- "Use safe descriptive directory names." -------------------------------------------------

@pytest.mark.parametrize(
    ("name", "safe"),
    [("task-a-seed7", True), ("task_00.seed1000", True), ("7", True), ("a" * 128, True),
     ("a" * 129, False), ("task a", False), (".hidden", False), ("-x", False), ("tâche-7", False),
     ("task:7", False), ("CON", False), ("nul.txt", False), ("trailing.", False),
     ("back\\slash", False), ("", False)],
)
def test_safe_dir_names(name: str, safe: bool) -> None:
    assert is_safe_dir_name(name) is safe


def test_unsafe_dir_names_are_one_warning_not_an_error(example_run: Any) -> None:
    """Matching uses episode.id, so renaming every directory keeps the record consistent."""
    episodes = example_run.path / "episodes"
    for i, d in enumerate(sorted(episodes.iterdir())):
        d.rename(episodes / f"episode {i}")
    findings = [f for f in example_run.findings() if f.code == "EV324"]
    assert len(findings) == 1
    [f] = findings
    assert f.severity is Severity.WARNING
    assert "12 result directories" in f.message and "'episode 0'" in f.message
    assert "EV317" not in example_run.codes() and "EV320" not in example_run.codes()


def test_safe_names_of_any_kind_are_silent(example_run: Any) -> None:
    episodes = example_run.path / "episodes"
    for i, d in enumerate(sorted(episodes.iterdir())):
        d.rename(episodes / f"e{i:03d}")
    assert "EV324" not in example_run.codes()


# --- "Extra private files are neither scanned nor copied." ------------------------------------

def test_extra_private_files_are_not_scanned(example_run: Any) -> None:
    """Files the format does not name, even broken ones or symlinks, produce no finding."""
    root = example_run.path
    (root / "private-notes.json").write_bytes(b'{"api_key": "sk-1", "x": NaN, "x": 1')
    (root / "driver.log").write_bytes(b"\xff\xfe not utf-8")
    elsewhere = root.parent / "elsewhere.txt"  # outside the run, not JSON
    elsewhere.write_text("not part of the run\n")
    os.symlink(elsewhere, root / "link-to-elsewhere")
    one = example_run.result_path("task-00/seed1000").parent
    (one / "transcript.jsonl").write_bytes(b"{broken")
    (one / "video.mp4").write_bytes(b"\x00" * 64)
    (root / "episodes" / "not-a-dir.json").write_bytes(b"[")
    (root / "episodes" / "no-result-here").mkdir()
    assert sorted(f.code for f in example_run.findings()) == ["EV601", "EV603"]


# --- Method declaration ------------------------------------------------------------------------

def test_unknown_composition_may_be_an_empty_list(example_run: Any) -> None:
    _manifest(example_run, lambda d: d["method"].update(models=[]))
    assert not {c for c in example_run.codes() if c.startswith("EV2")}


def test_unknown_identity_null_is_silent_and_placeholders_warn(example_run: Any) -> None:
    model = {"id": "planner", "role": "planning", "provider": "openai", "model": "gpt-x",
             "version": None}
    _manifest(example_run, lambda d: d["method"].update(models=[model]))
    assert "EV217" not in example_run.codes()
    for placeholder in ("", "  ", "N/A", "Unknown", "none"):
        _manifest(example_run, lambda d, p=placeholder: d["method"]["models"][0].update(model=p))
        [f] = [f for f in example_run.findings() if f.code == "EV217"]
        assert f.severity is Severity.WARNING and "method.models[0].model" in f.message


@pytest.mark.parametrize("origin", ["participant_declaration", "legacy_policy_projection"])
def test_both_defined_method_origins_are_accepted(example_run: Any, origin: str) -> None:
    _manifest(example_run, lambda d: d.update(method_origin=origin))
    assert not example_run.codes() & {"EV209", "EV215"}


def test_unknown_method_origin_warns_and_non_string_is_an_error(example_run: Any) -> None:
    _manifest(example_run, lambda d: d.update(method_origin="manual"))
    [f] = [f for f in example_run.findings() if f.code == "EV215"]
    assert f.severity is Severity.WARNING and "'manual'" in f.message
    _manifest(example_run, lambda d: d.update(method_origin=7))
    assert "EV209" in example_run.codes() and "EV215" not in example_run.codes()


def test_configuration_is_bounded(example_run: Any) -> None:
    small = {"memory": "rolling", "parallel": False, "window": [1, 2, 3]}
    _manifest(example_run, lambda d: d["method"].update(configuration=small))
    assert "EV216" not in example_run.codes()
    deep: Any = "leaf"
    for _ in range(9):
        deep = {"k": deep}
    _manifest(example_run, lambda d: d["method"].update(configuration=deep))
    [f] = [f for f in example_run.findings() if f.code == "EV216"]
    assert "depth 9" in f.message and f.severity is Severity.WARNING
    big = {f"opt{i}": "x" * 100 for i in range(200)}  # ~21 KiB, depth 1
    _manifest(example_run, lambda d: d["method"].update(configuration=big))
    [f] = [f for f in example_run.findings() if f.code == "EV216"]
    assert "depth 1" in f.message


def test_configuration_must_be_an_object(example_run: Any) -> None:
    _manifest(example_run, lambda d: d["method"].update(configuration=["memory"]))
    assert "EV209" in example_run.codes()


def test_credential_named_field_and_absolute_path_anywhere_in_method(example_run: Any) -> None:
    nested = {"tools": [{"name": "search", "bearer": "x"}], "ckpt": "C:\\runs\\ckpt"}
    _manifest(example_run, lambda d: d["method"].update(configuration=nested))
    codes = example_run.codes()
    assert {"EV212", "EV213"} <= codes


# --- protocol.usage_accounting_version -------------------------------------------------------

def test_usage_accounting_version(example_run: Any) -> None:
    _manifest(example_run, lambda d: d["protocol"].update(
        usage_accounting_version="starvla-rsi.method-usage/v1"))
    assert "EV201" not in example_run.codes()
    _manifest(example_run, lambda d: d["protocol"].update(usage_accounting_version="v2"))
    [f] = [f for f in example_run.findings() if f.code == "EV201"]
    assert "usage_accounting_version" in f.message


# --- Recording ---------------------------------------------------------------------------------

RECORDING = {"schema_version": "starvla-rsi.recording/v2", "mode": "minimal",
             "interactions": False, "model_io": False, "tool_traces": False, "images": False,
             "videos": False, "copy_server_media": False}


def test_disabled_recording_does_not_reduce_eligibility(example_run: Any) -> None:
    """The reference minimal settings, and episodes that wrote no agent events: no finding."""
    _manifest(example_run, lambda d: d.update(recording=RECORDING))
    records = example_run.records()
    for r in records:
        r["agent_events_written"] = False
    example_run.write_records(records)
    assert sorted(f.code for f in example_run.findings()) == ["EV601", "EV603"]


def test_recording_requested_without_transcripts_is_not_a_finding(example_run: Any) -> None:
    """"A setting being enabled does not prove every provider exposed a transcript."""
    _manifest(example_run, lambda d: d.update(recording={**RECORDING, "model_io": True,
                                                         "interactions": True}))
    example_run.edit_record(1, lambda r: r.update(agent_events_written=False))
    assert sorted(f.code for f in example_run.findings()) == ["EV601", "EV603"]


def test_agent_events_written_is_a_boolean(example_run: Any) -> None:
    example_run.edit_record(1, lambda r: r.update(agent_events_written="yes"))
    [f] = [f for f in example_run.findings() if f.code == "EV303"]
    assert "agent_events_written" in f.message


def test_recording_schema_version(example_run: Any) -> None:
    _manifest(example_run, lambda d: d.update(
        recording={**RECORDING, "schema_version": "starvla-rsi.recording/v1"}))
    assert "EV201" in example_run.codes()


# --- Counts and usage ---------------------------------------------------------------------------

def test_usage_calls_may_exceed_policy_calls(example_run: Any) -> None:
    """usage.calls counts inference requests, policy_calls driver decisions: 6 over 2 is fine."""
    example_run.edit_record(1, lambda r: r.update(policy_calls=2, action_decisions=2))
    example_run.edit("summary.json", lambda d: d.update(policy_calls=d["policy_calls"] - 23))
    assert sorted(f.code for f in example_run.findings()) == ["EV601", "EV603"]


def test_no_controls_per_decision_ratio_is_required(example_run: Any) -> None:
    """Two decisions and ten controls, or one and 84: a method-selected chunk schedule."""
    example_run.edit_record(1, lambda r: r.update(action_decisions=1, environment_steps=84))
    assert "EV312" not in example_run.codes()


def test_usage_latency_may_exceed_episode_wall_time(example_run: Any) -> None:
    """Parallel models: reported latency can exceed duration_s, so no rule relates them."""
    example_run.edit_record(1, lambda r: r.update(duration_s=0.5))
    assert sorted(f.code for f in example_run.findings()) == ["EV601", "EV603"]


def test_failed_calls_retain_known_accounting(example_run: Any) -> None:
    """An errored episode's known usage counts in the totals; dropping it is a mismatch."""
    records = example_run.records()
    for r in records:
        r["usage"] = dict(KNOWN_USAGE)
    example_run.write_records(records)
    ints = {k: v * 12 for k, v in KNOWN_USAGE.items() if isinstance(v, int)}
    floats = {k: round(v * 12, 9) for k, v in KNOWN_USAGE.items() if isinstance(v, float)}
    example_run.edit("summary.json", lambda d: d.update(usage={**ints, **floats}))
    assert "EV505" not in example_run.codes()
    # the calls of the four errored episodes dropped from the total: "failed calls" lost
    example_run.edit("summary.json", lambda d: d["usage"].update(calls=6 * 8))
    [f] = [f for f in example_run.findings() if f.code == "EV505"]
    assert "`usage.calls` is 48 but the episodes add up to 72" in f.message


def test_unknown_usage_stays_null_not_zero(example_run: Any) -> None:
    """An episode whose usage is unknown makes the total unknown; a zero total is wrong."""
    example_run.edit("summary.json", lambda d: d["usage"].update(calls=0))
    [f] = [f for f in example_run.findings() if f.code == "EV505"]
    assert "calls" in f.message


def test_component_usage_missing_is_unknown_not_a_share(example_run: Any) -> None:
    """A declared component with no usage entry is unknown: the total need not equal the known
    components' sum, and a component that reports nothing is not zero."""
    _manifest(example_run, lambda d: d["method"]["models"].append(
        {"id": "reviewer", "role": "review", "provider": None, "model": None, "version": None}))
    example_run.edit_record(1, lambda r: r.update(
        component_usage={"planner": {"calls": 4, "input_tokens": 600}}))
    assert "EV316" not in example_run.codes()


# --- The example in the spec --------------------------------------------------------------------

def test_the_specs_own_episode_example_is_valid(example_run: Any) -> None:
    """The synthetic episode of the format (no usage claimed, score 40) passes as task-00/1000."""
    spec_example = json.loads("""{
      "schema_version": "starvla-rsi.eval/v1",
      "episode": {"id": "task-00/seed1000", "task": "task-00", "seed": 1000,
                  "instruction": "Perform the declared task.", "metadata": {}},
      "status": "completed", "success": false, "termination_reason": "environment:truncated",
      "policy_calls": 2, "action_decisions": 2, "environment_steps": 10, "rejected_actions": 0,
      "duration_s": 3.5, "reward_sum": 0.0,
      "usage": {"calls": null, "input_tokens": null, "output_tokens": null,
                "cached_input_tokens": null, "estimated_cost_usd": null, "latency_s": null},
      "metrics": {"success": false, "score": 40}, "artifacts": {}, "error": null}""")
    records = example_run.records()
    old = records[0]
    records[0] = spec_example
    example_run.write_records(records)
    delta_calls = spec_example["policy_calls"] - old["policy_calls"]
    delta_rejected = -old["rejected_actions"]
    example_run.edit("summary.json", lambda d: d.update(
        policy_calls=d["policy_calls"] + delta_calls,
        rejected_actions=d["rejected_actions"] + delta_rejected))
    assert sorted(f.code for f in example_run.findings()) == ["EV601", "EV603"]
