"""Issues 26/27, small gaps: `score DIR` of one read names the read it opened (text and JSON
`path`) as `score FILE` does; `--view KEY` with a key an Inspect log does not record names the
keys it does (as `--group-by` does), not "needs --benchmark"; compare's note on pairing is worded
per format (Inspect: sample id and epoch; LeRobot keeps its seed wording)."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers.inspect_logs import run_cli
from helpers.paths import SAMPLE_RUNS

INSPECT_A = SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval"
INSPECT_B = SAMPLE_RUNS / "inspect" / "os-agent-model-b.eval"
LM_A = SAMPLE_RUNS / "lm-eval" / "org__model-a"


def test_score_dir_of_one_lm_eval_read_reports_the_read(tmp_path: Path) -> None:
    results = next(LM_A.glob("results_*.json"))
    by_dir = run_cli(["score", LM_A, "--bootstrap", "0", "--json"])
    by_file = run_cli(["score", results, "--bootstrap", "0", "--json"])
    assert by_dir.json["path"] == str(results) == by_file.json["path"]
    assert by_dir.json == by_file.json
    text = run_cli(["score", LM_A, "--bootstrap", "0"]).text
    assert str(results) in text


def test_score_dir_of_one_inspect_log_reports_the_log(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    log = logs / INSPECT_A.name
    shutil.copyfile(INSPECT_A, log)
    by_dir = run_cli(["score", logs, "--bootstrap", "0", "--json", "--allow-errors"])
    by_file = run_cli(["score", log, "--bootstrap", "0", "--json", "--allow-errors"])
    assert by_dir.code == by_file.code == 0
    assert by_dir.json["path"] == str(log) and by_dir.json == by_file.json
    text = run_cli(["score", logs, "--bootstrap", "0", "--allow-errors"]).text
    assert f"{log}" in text
    # a closed-run directory is itself the read: its path is kept as typed
    closed = f"{SAMPLE_RUNS / 'robobench-24x50'}/"
    assert run_cli(["score", closed, "--bootstrap", "0", "--json"]).json["path"] == closed


def test_view_with_an_unknown_key_names_the_logs_keys() -> None:
    done = run_cli(["score", INSPECT_A, "--allow-errors", "--bootstrap", "0", "--view", "nope",
                    "--json"])
    assert done.code == 1
    (refusal,) = [r for r in done.json["refusals"] if r["code"] == "view-unknown"]
    assert "no grouping 'nope'" in refusal["message"]
    assert "category, difficulty" in refusal["message"]
    assert "needs --benchmark" not in refusal["message"]
    # a read without grouping keys keeps the benchmark wording
    closed = run_cli(["score", SAMPLE_RUNS / "robobench-24x50", "--bootstrap", "0", "--view",
                      "nope", "--json"])
    assert any("needs --benchmark" in r["message"] for r in closed.json["refusals"])


def test_compare_pairing_note_is_worded_per_format() -> None:
    inspect = run_cli(["compare", INSPECT_A, INSPECT_B, "--allow-errors", "--json"]).json
    notes = " ".join(inspect["notes"])
    assert "lerobot-eval" not in notes and "--seed" not in notes
    assert "the pairs are by sample id and epoch" in notes
    lerobot = SAMPLE_RUNS / "lerobot"
    done = run_cli(["compare", lerobot / "smolvla-libero-20k.json",
                    lerobot / "smolvla-libero-40k.json", "--json"])
    assert "lerobot-eval, for one, seeds its episodes from --seed" in " ".join(done.json["notes"])
