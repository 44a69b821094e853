"""A LeRobot group view is compared with what the file records for that group (issue 22).

`score smolvla-libero-40k.json --view libero_10` printed `83.0 % recorded, 68.4 % recomputed`:
83.0 is the file's overall pc_success, the file records 68.4 for libero_10 (per_group).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalview.cli import main
from helpers.paths import REPO

FILE = REPO / "sample_runs/lerobot/smolvla-libero-40k.json"


def _score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[dict[str, object], str]:
    assert main(["score", *args, "--json", "--bootstrap", "0"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert main(["score", *args, "--bootstrap", "0"]) == 0
    return doc, capsys.readouterr().out


def test_the_group_view_compares_with_the_groups_recorded_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    recorded = json.loads(FILE.read_text(encoding="utf-8"))
    group = recorded["per_group"]["libero_10"]["pc_success"]
    overall = recorded["overall"]["pc_success"]
    assert (group, overall) == (68.4, 82.95)  # the sample's numbers, as the issue quotes them

    doc, text = _score(capsys, str(FILE), "--view", "libero_10")
    source = doc["source"]
    assert isinstance(source, dict)
    assert source["reported_pc_success"] == 0.684
    assert source["reported_pc_success_of"] == "libero_10"
    assert source["pooled_rate"] == 342 / 500
    line = next(ln for ln in text.splitlines() if "pooled over episodes" in ln)
    assert "68.4 % recorded (the file's per_group pc_success of libero_10), 68.4 % recomputed" in (
        line)
    assert "83.0" not in line

    doc, text = _score(capsys, str(FILE))
    source = doc["source"]
    assert isinstance(source, dict)
    assert source["reported_pc_success"] == 0.8295 and source["reported_pc_success_of"] == "read"
    assert "83.0 % recorded (the file's pc_success), 83.0 % recomputed" in text


def test_a_group_whose_recorded_number_differs_shows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(FILE.read_text(encoding="utf-8"))
    doc["per_group"]["libero_10"]["pc_success"] = 70.25  # not what its episodes give
    path = tmp_path / "doctored.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["score", str(path), "--view", "libero_10", "--allow-errors", "--bootstrap",
                 "0"]) == 0
    out = capsys.readouterr().out
    # 70.25 % is rounded once, half to even, from the exact 0.7025
    assert "70.2 % recorded (the file's per_group pc_success of libero_10), 68.4 % recomputed" in (
        out)
