"""The commands on LeRobot files, as a user types them (sample_runs/lerobot/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalview.cli import main
from helpers.paths import SAMPLE_RUNS

LR = SAMPLE_RUNS / "lerobot"
TWO = str(LR / "libero10-two-reads.json")


def _json(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 0) -> dict:  # type: ignore[type-arg]
    assert main(argv) == code
    return json.loads(capsys.readouterr().out)


def test_score_of_several_reads_is_a_list_named_by_key(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["score", TWO, "--json", "--bootstrap", "0"])
    assert [r["run_id"] for r in doc["reads"]] == ["eval_results_400", "eval_results_800"]
    for r in doc["reads"]:
        assert {"aggregate", "denominators", "rates", "tasks"} <= set(r)
        assert r["denominators"]["selected"] == 500
        assert r["source"]["records_errors"] is False


def test_read_key_selects_one_plain_score(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["score", TWO, "--read", "eval_results_800", "--json", "--bootstrap", "0"])
    assert doc["run_id"] == "eval_results_800" and "reads" not in doc
    assert doc["tasks"][0]["task"] == "libero_10/0"


def test_unknown_read_names_the_ones_there(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", TWO, "--read", "eval_results_1200"]) == 2
    err = capsys.readouterr().err
    assert "no read named 'eval_results_1200'" in err and "eval_results_400" in err


def test_per_task_text_shows_group_slash_id_and_the_pooled_rate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["score", str(LR / "smolvla-libero-40k.json"), "--per-task", "--bootstrap", "0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "libero_goal/7" in out
    assert "pooled over episodes  83.0 % recorded (the file's pc_success)" in out
    assert "no error record" in out


def test_group_view(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["score", str(LR / "smolvla-libero-40k.json"), "--view", "libero_10",
                         "--json", "--bootstrap", "0"])
    assert doc["aggregate"]["name"] == "libero_10" and doc["aggregate"]["tasks"] == 10


def test_check_of_several_reads(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["check", TWO, "--json"])
    assert doc["ok"] is True
    assert [r["run_id"] for r in doc["reads"]] == ["eval_results_400", "eval_results_800"]
    assert doc["counts"]["error"] == 0


def test_check_points_at_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (LR / "smolvla-libero-20k.json").read_text()
    doc = json.loads(text)
    doc["per_group"]["libero_goal"]["pc_success"] = 12.5
    bad = tmp_path / "eval_info.json"
    bad.write_text(json.dumps(doc, indent=2))
    out = _json(capsys, ["check", str(bad), "--json"], code=1)
    hit = next(f for f in out["findings"] if f["code"] == "EV707")
    assert hit["file"] == "eval_info.json"
    assert '"pc_success": 12.5' in bad.read_text().splitlines()[hit["line"] - 1]
    assert hit["message"].startswith("per_group.libero_goal.pc_success:")


def test_compare_two_reads_of_one_file(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["compare", TWO, TWO, "--read-a", "eval_results_400",
                         "--read-b", "eval_results_800", "--json"])
    assert doc["overall"]["pairs"] == 500
    ci = doc["overall"]["difference_ci95"]
    assert ci["method"].startswith("newcombe-paired-score")
    assert ci["unpaired"]["method"].startswith("newcombe-hybrid-score")
    for t in doc["tasks"]:
        assert set(t["difference_ci95"]) >= {"method", "interval"}


def test_compare_refuses_a_seed_mismatch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads((LR / "pusht-single-env.json").read_text())
    doc["per_episode"][3]["seed"] = 99
    other = tmp_path / "b.json"
    other.write_text(json.dumps(doc, indent=2))
    assert main(["compare", str(LR / "pusht-single-env.json"), str(other)]) == 1
    assert "episode env/0/ep3 ran seed 1003" in capsys.readouterr().err


def test_export_never_publishes_video_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report"
    assert main(["export", TWO, "--read", "eval_results_400", "-o", str(out),
                 "--bootstrap", "0"]) == 0
    for name in ("result.json", "index.html"):
        text = (out / name).read_text()
        assert ".mp4" not in text and "/home/researcher" not in text
    result = json.loads((out / "result.json").read_text())
    assert len(result["episodes"]) == 500
    assert any("no error record" in label for label in result["labels"])
    assert result["source_format"] == "lerobot-eval/eval_info.json"
    # the published result reopens, and scores as published
    capsys.readouterr()
    doc = _json(capsys, ["score", str(out / "result.json"), "--json", "--bootstrap", "0"])
    assert doc["denominators"]["successes"] == result["denominators"][0]["successes"]
