"""The result files miniVERL publishes (tests/fixtures/miniverl, byte-identical to its repository)
open in every door, and evalview's numbers are the harness's own: each (arm, seed) success and
step count, each arm's mean/min/max, as the harness's `.md` tables beside them print them, and
RecoveryBench's equal-update table, overshoot range and wall-time stops as its report states
them. These are what the harness writes (sorted keys), not what our generator writes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from helpers.paths import MINIVERL

SCHEMA_1 = ["cpu-toy-calc-matched.json", "rtx4080-calc-hard-matched.json"]
SCHEMA_2 = ["gpu-calc-hard-equal-update-v2.json"]
SCHEMA_3 = ["recoverybench-v1-equal-updates.json", "recoverybench-v1-equal-selected-tokens.json",
            "recoverybench-v1-equal-wall-time.json"]
PUBLISHED = SCHEMA_1 + SCHEMA_2 + SCHEMA_3
WITH_MD = SCHEMA_1 + SCHEMA_2


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(list(argv))
    out, _err = capsys.readouterr()
    return code, json.loads(out)


def _table(md: str, heading: str) -> list[dict[str, str]]:
    """The first Markdown table under `## heading`, as rows of {column: cell}."""
    section = md.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in section.splitlines() if ln.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    return [dict(zip(head, (c.strip() for c in ln.strip("|").split("|")), strict=True))
            for ln in lines[2:]]


def _score(capsys: pytest.CaptureFixture[str], name: str) -> dict[str, Any]:
    code, doc = _json(capsys, "score", str(MINIVERL / name), "--json")
    assert code == 0 and doc["refused"] is False
    return doc


def test_the_fixtures_are_the_published_bytes() -> None:
    """The report's Immutable artifacts table gives the SHA-256 of the RecoveryBench results."""
    import hashlib

    report = (MINIVERL / "recoverybench-v1.md").read_text(encoding="utf-8")
    for name in ("recoverybench-v1-equal-updates.json",
                 "recoverybench-v1-equal-selected-tokens.json"):
        digest = hashlib.sha256((MINIVERL / name).read_bytes()).hexdigest()
        assert digest in report, name


@pytest.mark.parametrize("name", PUBLISHED)
def test_every_published_result_checks_without_error(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    raw = (MINIVERL / name).read_bytes()
    if name not in SCHEMA_1:  # what broke detection: the harness's sorted keys
        assert raw.index(b'"arms"') < raw.index(b'"miniverl_version"')
    code, doc = _json(capsys, "check", str(MINIVERL / name), "--json")
    codes = {f["code"] for f in doc["findings"]}
    assert "EV801" not in codes
    assert code == 0 and doc["ok"] is True
    assert not [f for f in doc["findings"] if f["severity"] == "error"]


@pytest.mark.parametrize("name", WITH_MD)
def test_per_read_success_and_steps_match_the_harness_table(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    doc = _score(capsys, name)
    md = (MINIVERL / name).with_suffix(".md").read_text(encoding="utf-8")
    rows = _table(md, "Results")
    reads = json.loads((MINIVERL / name).read_text(encoding="utf-8"))["arms"]
    assert len(rows) == len(reads) == sum(a["seeds"] for a in doc["arms"])
    by_key = {(a["name"], r["seed"]): r for a in doc["arms"] for r in a["reads"]}
    for row, rec in zip(rows, reads, strict=True):
        assert row["arm"] == rec["name"]
        got = by_key[(rec["name"], rec["seed"])]
        assert f"{100 * got['rate']:.1f}%" == row["success"]
        assert str(got["optimizer_steps"]) == row["steps"]
        # the counts behind the rate: greedy, one trajectory per task
        assert got["rollouts"] == rec["tasks"] and got["solved"] is not None
        assert f"{100 * got['solved'] / got['rollouts']:.1f}%" == row["success"]
        assert got["wilson95"][0] <= got["rate"] <= got["wilson95"][1]


@pytest.mark.parametrize("name", SCHEMA_1)
def test_arm_means_match_the_harness_aggregate(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    doc = _score(capsys, name)
    md = (MINIVERL / name).with_suffix(".md").read_text(encoding="utf-8")
    rows = _table(md, "Aggregate")
    assert [r["arm"] for r in rows] == [a["name"] for a in doc["arms"]]
    for row, arm in zip(rows, doc["arms"], strict=True):
        assert row["seeds"] == str(arm["seeds"])
        assert row["mean success"] == f"{100 * arm['mean']:.1f}%"
        assert row["min"] == f"{100 * arm['min']:.1f}%"
        assert row["max"] == f"{100 * arm['max']:.1f}%"


#: The RecoveryBench report's method names for the file's arms.
REPORT_METHODS = {
    "cold start": "cold-start-only",
    "continued oracle SFT": "continued-sft",
    "oracle-state offline KD": "offline-kd-oracle",
    "frozen-student-state KD": "offline-kd-frozen-student",
    "strict fresh-state OPD": "strict-opd-fresh",
    "strict fresh-state OPD, 50% positions": "strict-opd-fresh-budget50",
}


def test_recoverybench_equal_update_table_is_reproduced(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _score(capsys, "recoverybench-v1-equal-updates.json")
    report = (MINIVERL / "recoverybench-v1.md").read_text(encoding="utf-8")
    rows = _table(report, "Result")
    arms = {a["name"]: a for a in doc["arms"]}
    assert {REPORT_METHODS[r["method"]] for r in rows} == set(arms)
    for row in rows:
        arm = arms[REPORT_METHODS[row["method"]]]
        strict = re.fullmatch(r"\**([\d.]+)%\** \(([\d.]+)-([\d.]+)%\)",
                              row["strict success, mean (seed range)"])
        assert strict is not None
        assert strict.groups() == (f"{100 * arm['mean']:.1f}", f"{100 * arm['min']:.1f}",
                                   f"{100 * arm['max']:.1f}")
        recovery = row["recovery after error, mean"].strip("*")
        assert recovery == f"{100 * arm['recovery_after_error_mean']:.1f}%"
        for read in arm["reads"]:  # schema 3: success is the strict success
            assert read["strict_task_success_rate"] == read["rate"]
    assert doc["recovery"]["budget_view"] == "equal_optimizer_updates"
    assert doc["recovery"]["invalidation_status"] == {"reasons": [], "valid": True}
    assert doc["arms"][0]["seeds"] == 3 and doc["reference"] == "cold-start-only"


def test_recoverybench_overshoot_and_stops_are_shown(capsys: pytest.CaptureFixture[str]) -> None:
    """'Overshoot ranged from 0 to 646 positions'; fresh OPD crossed 50 s in one step at
    '88.36-121.30 seconds on the internal continuation timer' (the report)."""
    tokens = _score(capsys, "recoverybench-v1-equal-selected-tokens.json")
    values = [r["overshoot"]["value"] for a in tokens["arms"] for r in a["reads"]]
    assert (min(values), max(values)) == (0, 646)
    assert tokens["recovery"]["overshoot"] == {"axis": "selected_training_tokens",
                                               "maximum": 646.0}
    assert max(a["overshoot_max"] for a in tokens["arms"]) == 646
    wall = _score(capsys, "recoverybench-v1-equal-wall-time.json")
    fresh = next(a for a in wall["arms"] if a["name"] == "strict-opd-fresh")
    actual = sorted(r["stop_criterion"]["actual"] for r in fresh["reads"])
    assert (f"{actual[0]:.2f}", f"{actual[-1]:.2f}") == ("88.36", "121.30")
    assert {r["optimizer_steps"] for r in fresh["reads"]} == {1}
    sft = next(a for a in wall["arms"] if a["name"] == "continued-sft")
    assert {r["stop_criterion"]["kind"] for r in sft["reads"]} == {"configured_cycles"}
    assert "EV820" in {f["code"] for f in wall["findings"]}


def test_score_text_shows_the_budget_view_beside_the_numbers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["score", str(MINIVERL / "recoverybench-v1-equal-selected-tokens.json")]) == 0
    out = capsys.readouterr().out
    assert "budget view: equal_selected_training_tokens" in out
    assert "kind=selected_training_tokens, target=6224" in out
    assert "axis=selected_training_tokens, maximum=646" in out
    assert "invalidation status: valid, no reasons" in out
    assert re.search(r"continued-sft\s+20260727\s+5\.5 %\s+5\.3 %\s+selected_training_tokens "
                     r"6870/6224\s+646", out)
    # the caveat is worded for this view, not for equal optimizer updates
    assert "budget_axis selected_training_tokens: each arm stops" in out


@pytest.mark.parametrize("name", PUBLISHED)
def test_compare_with_itself_and_export(
    capsys: pytest.CaptureFixture[str], name: str, tmp_path: Path
) -> None:
    path = str(MINIVERL / name)
    code, doc = _json(capsys, "compare", path, path, "--json")
    assert code == 0 and doc["matched"] is True
    assert all(a["difference"] == 0 for a in doc["arms"])
    dest = tmp_path / "out"
    assert main(["export", path, "--output-dir", str(dest)]) == 0
    capsys.readouterr()
    exported = json.loads((dest / "result.json").read_text(encoding="utf-8"))
    assert (dest / "index.html").is_file()
    text = json.dumps(exported)
    assert "EV801" not in text and exported["name"] == json.loads(
        (MINIVERL / name).read_text(encoding="utf-8"))["name"]


def test_a_real_undeclared_difference_in_a_v2_structured_diff_is_still_ev802(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The v2 file's `auto` -> `cuda` rows are runtime resolution; a changed learning rate is
    not, and is caught."""
    doc = json.loads((MINIVERL / "gpu-calc-hard-equal-update-v2.json").read_text("utf-8"))
    doc["arms"][1]["structured_diff"].append(
        {"arm": 1e-4, "change": "changed", "common": 5e-5, "path": "train.learning_rate"})
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc, indent=2, sort_keys=True), encoding="utf-8")
    code, out = _json(capsys, "check", str(path), "--json")
    assert code == 1
    assert [f["code"] for f in out["findings"] if f["severity"] == "error"] == ["EV802"]
    assert "train.learning_rate" in out["findings"][0]["message"]
