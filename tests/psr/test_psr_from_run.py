"""PSR over a closed run: per-episode PSR, task means over scored cases, unscored cases listed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evalview.load import load_run
from evalview.psr import PsrError, PsrOptions, score_psr_run
from evalview.psr.parser import BareTargets
from helpers.paths import EXAMPLE


def test_closed_run_small_per_task_and_unscored_cases() -> None:
    report = score_psr_run(load_run(EXAMPLE))
    by_task = {t.task: t for t in report.tasks}
    # task-00: three failed completed episodes credited 2/3, (0.6+1+1)/3, (0+1/3+0)/3.
    t0 = by_task["task-00"]
    assert t0.psr == pytest.approx((2 / 3 + 2.6 / 3 + (1 / 3) / 3) / 3)
    assert (t0.selected, t0.scored, t0.successes) == (4, 3, 0)
    assert t0.errors == {"evaluation": ("task-00/seed1003",)}
    # task-01: one failure (0.4+1+0)/3 and one success (1); two errors, not scored.
    t1 = by_task["task-01"]
    assert t1.psr == pytest.approx((1.4 / 3 + 1.0) / 2)
    assert t1.sr == 0.5 and t1.selected_success_rate == 0.25
    assert t1.errors == {"infrastructure": ("task-01/seed1000",), "policy": ("task-01/seed1001",)}
    # task-02: three successes score 1 whatever their messages say.
    assert by_task["task-02"].psr == 1.0
    assert report.psr == pytest.approx((t0.psr + t1.psr + 1.0) / 3)
    assert report.coverage.final is False and report.status == "partial"
    assert report.coverage.missing_tasks == ()
    ep = next(e for e in report.episodes if e.episode_id == "task-00/seed1001")
    assert ep.message == "Logs: 3/5, Kills: 3/3, All alive: True"
    assert [c.credit for c in ep.checkpoints or ()] == pytest.approx([0.6, 1.0, 1.0])
    assert ep.file == "episodes.jsonl" and ep.line == 2
    errored = next(e for e in report.episodes if e.episode_id == "task-01/seed1000")
    assert errored.psr is None and errored.note is not None and "infrastructure" in errored.note


def test_report_json_shape() -> None:
    doc = score_psr_run(load_run(EXAMPLE)).to_json()
    assert doc["method"] == "checkpoint_fraction_v1"
    assert doc["historical_implementation_reproduced"] is False
    assert doc["input"]["message_key"] == "message"
    summary = doc["summary"]
    assert {"scored", "expected", "missing_tasks", "final"} <= set(summary)
    assert summary["partial_tasks"] == ["task-00", "task-01", "task-02"]
    assert len(doc["episodes"]) == 12
    assert all(0.0 <= t["PSR"] <= 1.0 for t in doc["tasks"])


def make_run(tmp_path: Path, episodes: list[dict[str, Any]], schedule: list[str]) -> Path:
    """A minimal closed run: enough for the reader to build the episode table."""
    root = tmp_path / "run"
    root.mkdir()
    manifest = {
        "schema_version": "starvla-rsi.eval/v1",
        "run_id": "r",
        "benchmark": {"name": "b", "version": "1"},
        "policy": {"name": "pol", "version": "1"},
        "protocol": {"episode_ids": schedule, "fail_fast": True},
    }
    (root / "manifest.json").write_text(json.dumps(manifest))
    (root / "status.json").write_text(json.dumps({"status": "completed_with_errors"}))
    (root / "summary.json").write_text(json.dumps({"run_id": "r"}))
    lines = []
    for ep in episodes:
        task, _, seed = ep["id"].partition("/seed")
        record: dict[str, Any] = {
            "episode": {"id": ep["id"], "task": task, "seed": int(seed)},
            "status": ep.get("status", "completed"),
            "success": ep.get("success"),
            "metrics": ep.get("metrics", {}),
            "error": ep.get("error"),
        }
        lines.append(json.dumps(record))
    (root / "episodes.jsonl").write_text("\n".join(lines) + "\n")
    return root


def test_unattempted_cases_are_listed_and_a_task_with_none_scored_is_missing(
    tmp_path: Path,
) -> None:
    root = make_run(
        tmp_path,
        [
            {"id": "a/seed1", "success": False, "metrics": {"success": False, "message": "L: 1/4"}},
            {
                "id": "a/seed2",
                "status": "error",
                "error": {"type": "X", "category": "infrastructure"},
            },
        ],
        ["a/seed1", "a/seed2", "a/seed3", "b/seed1"],
    )
    report = score_psr_run(load_run(root))
    a, b = report.tasks
    assert a.psr == 0.25 and a.unattempted == ("a/seed3",) and not a.final
    assert b.scored == 0 and b.psr is None and b.unattempted == ("b/seed1",)
    assert report.coverage.missing_tasks == ("b",)
    assert report.psr == 0.25  # over the scored task only; b is not imputed as zero


def test_message_key_option(tmp_path: Path) -> None:
    root = make_run(
        tmp_path,
        [{"id": "a/seed1", "success": False, "metrics": {"success": False, "verdict": "D: True"}}],
        ["a/seed1"],
    )
    with pytest.raises(PsrError, match=r"--message-key") as exc:
        score_psr_run(load_run(root))
    assert "episodes.jsonl:1" in str(exc.value) and "a/seed1" in str(exc.value)
    report = score_psr_run(load_run(root, message_key="verdict"))
    assert report.psr == 1.0 and report.coverage.final is True
    assert report.to_json()["input"]["message_key"] == "verdict"


def test_unparsable_message_in_a_failed_episode_is_refused(tmp_path: Path) -> None:
    root = make_run(
        tmp_path,
        [
            {
                "id": "a/seed1",
                "success": False,
                "metrics": {"success": False, "message": "Planks: 3"},
            }
        ],
        ["a/seed1"],
    )
    with pytest.raises(PsrError, match=r"'pol', task 'a' \(episodes.jsonl:1 episode a/seed1\)"):
        score_psr_run(load_run(root))
    table = BareTargets({"planks": 4.0}, {})
    assert score_psr_run(load_run(root), PsrOptions(bare_targets=table)).psr == 0.75


def test_run_without_schedule_is_refused(tmp_path: Path) -> None:
    root = make_run(tmp_path, [], [])
    with pytest.raises(PsrError, match="no selected schedule"):
        score_psr_run(load_run(root))
