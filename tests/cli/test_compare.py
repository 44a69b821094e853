"""`evalview compare A B`: exit codes, the JSON contract (fractions), and refusals naming both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalview.cli import main
from helpers.closed_runs import write_run


def _pair(tmp_path: Path, **b_manifest: object) -> tuple[str, str]:
    ids = [f"task-x/seed{1000 + i}" for i in range(20)]
    a_out = ["s"] * 6 + ["f"] * 8 + ["s"] * 2 + ["f"] * 4
    b_out = ["s"] * 14 + ["f"] * 6
    a = write_run(tmp_path / "a", dict(zip(ids, a_out, strict=True)))
    b = write_run(tmp_path / "b", dict(zip(ids, b_out, strict=True)),
                  manifest={"run_id": "run-2", **b_manifest})
    return str(a), str(b)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _pair(tmp_path)
    before = _snapshot(tmp_path)
    assert main(["compare", a, b, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    task = doc["tasks"][0]
    assert (task["both"], task["only_a"], task["only_b"], task["neither"]) == (6, 2, 8, 4)
    assert task["mcnemar_p"] == pytest.approx(0.109375)
    assert task["rate_a"] == pytest.approx(0.4) and task["rate_b"] == pytest.approx(0.7)
    assert task["difference"] == pytest.approx(0.3)
    assert all(0 <= x <= 1 for x in (*task["wilson95_a"], *task["wilson95_b"]))
    assert task["verdict"]["code"] == "not_significant"
    assert task["episodes_to_resolve"] == {"paired": 42, "unpaired": 44}
    assert doc["overall"]["pairs"] == 20
    assert doc["a"]["seed_set"] == "test" and doc["only_in_a"] == []
    assert _snapshot(tmp_path) == before  # never writes into the reads


def test_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _pair(tmp_path)
    assert main(["compare", a, b]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "40.0 %" in out and "70.0 %" in out and "+30.0" in out
    assert "p = 0.109" in out and "not significant" in out


def test_refusal_exit_1_names_both_versions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _pair(tmp_path, benchmark={"version": "2.0.0"})
    assert main(["compare", a, b]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "'1.2.0'" in err and "'2.0.0'" in err
    assert main(["compare", a, b, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["refused"] is True and doc["exit_code"] == 1


def test_refusal_mixed_seed_sets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _pair(tmp_path, run_id="run-2_dev")
    assert main(["compare", a, b]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "test-seed read" in err and "development-seed read" in err


def test_unreadable_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, _ = _pair(tmp_path)
    assert main(["compare", a, str(tmp_path / "missing"), "--json"]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["exit_code"] == 2 and "missing" in doc["error"]


def test_text_task_names_whole_and_no_p_without_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = [f"{task}/seed{1000 + i}" for task in ("place-book-shelf", "t") for i in range(4)]
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"))
    b_out = {eid: ("e:infrastructure" if eid.startswith("place") else "f") for eid in ids}
    b = write_run(tmp_path / "b", b_out, manifest={"run_id": "run-2"})
    assert main(["compare", str(a), str(b), "--allow-errors"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # a task name used to be folded at 8 characters ("place-bo" / "ok-shelf") in an 80-column pipe
    rows = [line.split() for line in lines if line.split()[:1] == ["place-book-shelf"]]
    assert len(rows) == 2  # the counts table and the tests table, the name whole in each
    cells = rows[1]
    # no completed pair: no test was run, so neither p-value is shown as 1
    assert cells[1:] == ["—"] * 9  # A, B, B − A, mid-p, exact, Holm, z, n paired, unpaired


def test_off_protocol_refused_unless_allowed_then_labelled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _pair(tmp_path, deviations=["camera moved"])
    assert main(["compare", a, b, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert "deviations records 1 deviation" in doc["error"]
    assert "--allow-off-protocol" in doc["error"]
    assert main(["compare", a, b, "--allow-off-protocol", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["labels"] == ["OFF-PROTOCOL"]
    assert main(["compare", a, b, "--allow-off-protocol"]) == 0
    assert "OFF-PROTOCOL" in capsys.readouterr().out


def test_errored_rollouts_refused_unless_allowed_then_labelled_and_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = [f"task-x/seed{1000 + i}" for i in range(6)]
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"))
    b = write_run(tmp_path / "b", {**dict.fromkeys(ids, "f"), ids[2]: "e:infrastructure"},
                  manifest={"run_id": "run-2"})
    assert main(["compare", str(a), str(b), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["refused"] and "errored rollout" in doc["error"] and ids[2] in doc["error"]
    assert main(["compare", str(a), str(b), "--json", "--allow-errors"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert any(label.startswith("not a publishable read") for label in doc["labels"])
    assert doc["errored_pairs"] == [
        {"episode_id": ids[2], "task": "task-x", "a": "success", "b": "error"}
    ]
    assert doc["overall"]["pairs"] == 5  # the errored pair is not counted as "neither"
    assert main(["compare", str(a), str(b), "--allow-errors"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "not a publishable read" in out and f"left out (--allow-errors): {ids[2]}" in out


def test_a_read_with_audit_errors_is_refused_even_with_allow_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = [f"task-x/seed{1000 + i}" for i in range(4)]
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"))
    b = write_run(tmp_path / "b", dict.fromkeys(ids, "f"), manifest={"run_id": "run-2"})
    # an interruption recorded as a completed failure (EV310)
    lines = (b / "episodes.jsonl").read_text().splitlines()
    lines[0] = lines[0].replace('"environment:done"', '"error:infrastructure"')
    (b / "episodes.jsonl").write_text("\n".join(lines) + "\n")
    result = next((b / "episodes").glob("*seed1000/result.json"))
    result.write_text(lines[0])
    for extra in ([], ["--allow-errors"]):
        assert main(["compare", str(a), str(b), "--json", *extra]) == 1
        doc = json.loads(capsys.readouterr().out)
        assert "the audit finds" in doc["error"] and "EV310" in doc["error"]
