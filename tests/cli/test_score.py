"""`evalview score` end to end: exit codes, the JSON contract, refusals, labels, the declaration."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from evalview.audit import audit
from evalview.cli import main
from evalview.load import load_run
from evalview.stats import score_run
from helpers.paths import EXAMPLE

DIGEST = "ab" * 32


def _episode(task: str, seed: int, outcome: str) -> dict[str, Any]:
    """outcome: 'success', 'failure' or an error category."""
    completed = outcome in ("success", "failure")
    ok = outcome == "success"
    return {
        "schema_version": "starvla-rsi.eval/v1",
        "episode": {"id": f"{task}/seed{seed}", "task": task, "seed": seed,
                    "instruction": "Perform the declared task.", "metadata": {}},
        "status": "completed" if completed else "error",
        "success": ok if completed else None,
        "termination_reason": ("policy:stop" if ok else "environment:truncated")
        if completed else f"error:{outcome}",
        "policy_calls": 2,
        "action_decisions": 2,
        "environment_steps": 10,
        "rejected_actions": 0,
        "duration_s": 1.5,
        "reward_sum": 0.0,
        "usage": dict.fromkeys(("calls", "input_tokens", "output_tokens",
                                "cached_input_tokens", "estimated_cost_usd", "latency_s")),
        "metrics": {"success": ok, "score": seed % 100} if completed else {},
        "artifacts": {},
        "error": None if completed else {"type": "RuntimeError", "category": outcome},
    }


def write_run(
    root: Path, cases: list[tuple[str, int, str]], *, selected: list[str] | None = None
) -> Path:
    """A conforming closed run; `selected` adds scheduled ids with no record (fail-fast)."""
    root.mkdir(parents=True)
    manifest = json.loads((EXAMPLE / "manifest.json").read_text())
    eps = [_episode(*c) for c in cases]
    ids = [e["episode"]["id"] for e in eps]
    manifest["protocol"]["episode_ids"] = ids + (selected or [])
    manifest["protocol"]["fail_fast"] = bool(selected)
    (root / "manifest.json").write_text(json.dumps(manifest))
    errors = sum(e["status"] == "error" for e in eps)
    (root / "status.json").write_text(json.dumps(
        {"status": "completed_with_errors" if errors else "completed",
         "episodes_written": len(eps)}))
    successes = sum(e["success"] is True for e in eps)
    summary = {
        "run_id": manifest["run_id"], "benchmark": "robobench", "policy": "pi-test",
        "attempted": len(eps), "completed": len(eps) - errors, "errors": errors,
        "successes": successes, "policy_calls": 2 * len(eps), "rejected_actions": 0,
        "usage": dict.fromkeys(("calls", "input_tokens", "output_tokens",
                                "cached_input_tokens", "estimated_cost_usd", "latency_s")),
    }
    (root / "summary.json").write_text(json.dumps(summary))
    (root / "episodes.jsonl").write_text("".join(json.dumps(e) + "\n" for e in eps))
    for e in eps:
        d = root / "episodes" / e["episode"]["id"].replace("/", "-")
        d.mkdir(parents=True)
        (d / "result.json").write_text(json.dumps(e))
    return root


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps at the terminal width; the assertions are about content, not wrapping."""
    monkeypatch.setenv("COLUMNS", "200")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def clean_run(tmp_path: Path) -> Path:
    cases = [("task-a", s, "success" if s < 3 else "failure") for s in range(5)]
    cases += [("task-b", s, "success") for s in range(4)]
    return write_run(tmp_path / "run", cases)


def declaration(tmp_path: Path, **overrides: Any) -> Path:
    doc: dict[str, Any] = {
        "schema_version": "evalview.benchmark/v1",
        "name": "robobench",
        "version": "1.2.0",
        "version_sha256": DIGEST,
        "tasks": [
            {"name": "task-a", "test_seeds": [0, 1, 2, 3, 4]},
            {"name": "task-b", "test_seeds": [0, 1, 2, 3, 4, 5]},
            {"name": "task-c", "test_seeds": [0, 1]},
        ],
        "dev_seeds": [100, 101],
        "subsets": {"ab": ["task-a", "task-b"]},
    }
    doc.update(overrides)
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(doc))
    return path


def test_clean_run_scores_with_the_json_contract(
    clean_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, str(clean_run), "--json")
    assert code == 0
    doc = orjson.loads(out)  # exactly one JSON document on stdout
    assert doc["refused"] is False and doc["publishable"] is True
    agg = doc["aggregate"]
    assert agg["name"] == "all-2" and agg["tasks"] == 2
    assert agg["mean"] == pytest.approx((3 / 5 + 4 / 4) / 2)
    assert agg["se"] == pytest.approx((0.6 * 0.4 / 5) ** 0.5 / 2)
    assert len(agg["ci95"]) == 2 and len(agg["bootstrap"]) == 2
    assert doc["denominators"] == {
        "selected": 9, "attempted": 9, "completed": 9, "errors": 0, "successes": 7,
        "unattempted": 0, "invalid": 0, "missing": 0,
    }
    assert doc["rates"]["selected_success_rate"] == pytest.approx(7 / 9)
    assert [t["task"] for t in doc["tasks"]] == ["task-a", "task-b"]
    assert doc["tasks"][1]["wilson95"][1] == 1.0
    # the CLI prints what the core computes, nothing else
    loaded = load_run(clean_run)
    core = score_run(loaded, findings=audit(loaded)).to_json()
    assert doc["aggregate"] == core["aggregate"] and doc["tasks"] == core["tasks"]


def test_text_output_leads_with_successes_over_selected(
    clean_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, str(clean_run), "--per-task")
    assert code == 0
    lines = [x for x in out.splitlines() if x.strip()]
    rates = [x for x in lines if x.startswith("successes /")]
    assert rates[0].startswith("successes / selected  7 / 9 = 77.8 %")
    assert "successes / completed 7 / 9" in out
    assert "all-2" in out and "80.0 %" in out  # the mean of 60 % and 100 %
    assert "task-a" in out and "3 / 5" in out
    assert "publishable read" in out


def test_example_is_refused_naming_every_errored_rollout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_cli(capsys, str(EXAMPLE))
    assert code == 1 and out == ""
    assert "task-01/seed1000: infrastructure error" in err and "pending a re-run" in err
    assert "episodes.jsonl:5" in err and "--allow-errors" in err
    code, out, _ = run_cli(capsys, str(EXAMPLE), "--json")
    doc = orjson.loads(out)
    assert code == 1 and doc["refused"] is True
    # The contract's keys stay; the scores are null, the record's counts are kept.
    assert doc["aggregate"] is None and doc["rates"] is None and doc["tasks"] is None
    assert doc["denominators"]["selected"] == 12 and doc["denominators"]["errors"] == 4
    assert doc["error_categories"] == {
        "policy": 1, "protocol": 1, "infrastructure": 1, "evaluation": 1
    }
    assert {e["episode_id"] for e in doc["errored"]} == {
        "task-00/seed1003", "task-01/seed1000", "task-01/seed1001", "task-02/seed1002",
    }
    assert [e["pending"] for e in doc["errored"]] == [False, True, False, False]


def test_example_with_allow_errors_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, str(EXAMPLE), "--allow-errors", "--json", "--bootstrap", "0")
    doc = orjson.loads(out)
    assert code == 0 and doc["publishable"] is False
    assert any(label.startswith("not a publishable read") for label in doc["labels"])
    assert doc["aggregate"]["mean"] == pytest.approx(1 / 3)  # (0/4 + 1/4 + 3/4) / 3
    assert doc["aggregate"]["bootstrap"] is None
    assert doc["rates"] == pytest.approx(
        {"selected_success_rate": 4 / 12, "attempt_success_rate": 4 / 12, "success_rate": 0.5}
    )
    assert doc["error_categories"] == {"policy": 1, "protocol": 1, "infrastructure": 1,
                                       "evaluation": 1}
    assert doc["termination_reasons"]["policy:stop"] == 4


def test_unattempted_cases_stay_in_the_denominator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the format's example: a success, an infrastructure error that stopped a fail-fast run,
    # and the unattempted case after it
    run = write_run(
        tmp_path / "r", [("t", 1, "success"), ("t", 2, "infrastructure")], selected=["t/seed3"]
    )
    code, out, _ = run_cli(capsys, str(run), "--json", "--bootstrap", "0", "--allow-errors")
    doc = orjson.loads(out)
    assert code == 0 and doc["audit_errors"] == []
    assert doc["denominators"]["unattempted"] == 1 and doc["pending"] == 1
    assert doc["rates"] == pytest.approx(
        {"selected_success_rate": 1 / 3, "attempt_success_rate": 1 / 2, "success_rate": 1.0}
    )
    assert doc["tasks"][0]["rate"] == pytest.approx(1 / 3)
    code, out, _ = run_cli(capsys, str(run), "--per-task", "--allow-errors")
    assert "successes / selected  1 / 3 = 33.3 %" in out
    assert "successes / completed 1 / 1 = 100.0 %" in out
    assert "1 infrastructure, pending a re-run" in out


def test_unreadable_path_exits_2_with_one_json_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, str(tmp_path / "nope"), "--json")
    assert code == 2 and "nope" in orjson.loads(out)["error"] and "Traceback" not in err


def test_benchmark_missing_cases_count_as_failures_and_are_listed(
    clean_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = declaration(tmp_path)
    code, out, _ = run_cli(capsys, str(clean_run), "--benchmark", str(bench), "--json")
    doc = orjson.loads(out)
    assert code == 0
    assert doc["seed_set"] == "test"
    assert doc["missing_cases"] == ["task-b/seed4", "task-b/seed5", "task-c/seed0",
                                    "task-c/seed1"]
    assert doc["aggregate"]["name"] == "all-3"
    assert doc["aggregate"]["mean"] == pytest.approx((3 / 5 + 4 / 6 + 0 / 2) / 3)
    assert doc["denominators"]["selected"] == 13 and doc["denominators"]["missing"] == 4
    assert any("missing from the run" in label for label in doc["labels"])


def test_view_is_flagged_as_an_appendix_view(
    clean_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = declaration(tmp_path)
    code, out, _ = run_cli(capsys, str(clean_run), "--benchmark", str(bench), "--view", "ab")
    assert code == 0 and "(appendix view)" in out
    code, out, _ = run_cli(
        capsys, str(clean_run), "--benchmark", str(bench), "--view", "ab", "--json"
    )
    doc = orjson.loads(out)
    assert doc["aggregate"]["name"] == "ab" and doc["aggregate"]["tasks"] == 2
    assert doc["aggregate"]["mean"] == pytest.approx((3 / 5 + 4 / 6) / 2)
    code, _, err = run_cli(capsys, str(clean_run), "--benchmark", str(bench), "--view", "zz")
    assert code == 1 and "no subset 'zz'" in err
    code, _, err = run_cli(capsys, str(clean_run), "--view", "ab")
    assert code == 1 and "--benchmark" in err


def test_another_benchmark_version_is_refused(
    clean_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = declaration(tmp_path, version="2.0.0")
    code, _, err = run_cli(capsys, str(clean_run), "--benchmark", str(bench), "--allow-errors")
    assert code == 1 and "'1.2.0'" in err and "'2.0.0'" in err


def test_development_read_is_labelled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "dev", [("task-a", 100, "success"), ("task-a", 101, "failure")])
    bench = declaration(tmp_path)
    code, out, _ = run_cli(capsys, str(run), "--benchmark", str(bench), "--bootstrap", "0")
    assert code == 0 and "[development seeds]" in out and "not a publishable read" in out


def test_mixed_seed_sets_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_run(tmp_path / "mix", [("task-a", 100, "success"), ("task-a", 1, "failure")])
    code, _, err = run_cli(capsys, str(run), "--benchmark", str(declaration(tmp_path)))
    assert code == 1 and "mixes development and test seeds" in err


def test_bad_declaration_exits_2_naming_the_file(
    clean_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = declaration(tmp_path, version_sha256="short")
    code, _, err = run_cli(capsys, str(clean_run), "--benchmark", str(bench))
    assert code == 2 and "bench.json" in err and "version_sha256" in err


def test_graded_metric_is_reported_beside_the_rate(
    clean_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, str(clean_run), "--metric", "score", "--json")
    assert code == 0
    g = orjson.loads(out)["graded"]
    assert g["key"] == "score" and g["n"] == 9 and g["missing"] == 0
    # scores are the seeds: task-a 0..4 (mean 2), task-b 0..3 (mean 1.5)
    assert [t["mean"] for t in g["tasks"]] == [2.0, 1.5]
    assert g["tasks"][0]["se"] == pytest.approx((2.5 / 5) ** 0.5)
    assert g["mean"] == pytest.approx(1.75)


def test_negative_bootstrap_is_a_usage_error(
    clean_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", str(clean_run), "--bootstrap", "-1"])
    assert exc.value.code == 2


def test_score_never_imports_textual(tmp_path: Path) -> None:
    run = write_run(tmp_path / "r", [("t", 1, "success")])
    code = (
        "import sys\n"
        "from evalview.cli import main\n"
        f"rc = main(['score', {str(run)!r}, '--json', '--bootstrap', '0'])\n"
        "assert 'textual' not in sys.modules, 'score imported textual'\n"
        "sys.exit(rc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert orjson.loads(proc.stdout)["denominators"]["successes"] == 1


def test_score_does_not_write_into_the_run(tmp_path: Path) -> None:
    run = tmp_path / "copy"
    shutil.copytree(EXAMPLE, run)
    before = {p: p.stat().st_mtime_ns for p in run.rglob("*")}
    assert main(["score", str(run), "--allow-errors", "--json", "--bootstrap", "0"]) == 0
    assert {p: p.stat().st_mtime_ns for p in run.rglob("*")} == before


def test_per_task_table_at_80_columns_keeps_every_number_and_the_graded_column(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A long task name used to squeeze the graded column to nothing and cut numbers to "…"."""
    monkeypatch.setenv("COLUMNS", "80")
    long_name = "<script>alert(1)</script>-and-a-long-task-name"
    cases = [(long_name, s, "success" if s < 2 else "failure") for s in range(5)]
    run = write_run(tmp_path / "run", cases)
    code, out, _ = run_cli(capsys, str(run), "--per-task", "--bootstrap", "0", "--metric", "score")
    assert code == 0
    table = out[out.index("per task"):out.index("att. = attempted")]
    assert "…" not in table
    graded = " ".join(
        line.split("│")[-2].strip() for line in table.splitlines() if line.startswith("│")
    )
    assert " ".join(graded.split()) == "2 ± 0.707 (5)"  # the graded mean ± SE (n), whole
    assert "11.8–76.9 %" in table and "2 / 5" in table
    name = "".join(
        line.split("│")[1].strip() for line in table.splitlines() if line.startswith("│")
    )
    assert name == long_name  # shown whole (folded over lines), never interpreted


def test_declared_missing_cases_are_counted_among_the_unattempted_not_beside_them(
    clean_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = declaration(tmp_path)
    code, out, _ = run_cli(capsys, str(clean_run), "--benchmark", str(bench), "--bootstrap", "0")
    assert code == 0
    assert "4 unattempted (4 of them declared but missing from the run" in out
    assert " · 4 declared but missing" not in out
