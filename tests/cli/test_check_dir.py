"""`evalview check DIR [--json] [-j N]`: every read under a folder, audited in worker processes.

The contract of DESIGN.md: one line per read and a total; `--json` is `{"path", "ok", "runs":
[CHECK with "path" relative to DIR], "counts"}`; exit 0, 1 when any read has errors, 2 when DIR
cannot be read.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from helpers.closed_runs import outcomes_for, write_run
from helpers.paths import SAMPLE_RUNS


def _folder(tmp_path: Path, *, faulty: bool = False) -> Path:
    root = tmp_path / "paper"
    write_run(root / "method-a" / "ft1", outcomes_for({"task-a": (3, 4), "task-b": (1, 4)}, 4))
    write_run(root / "method-b" / "ft1", outcomes_for({"task-a": (4, 4), "task-b": (2, 4)}, 4))
    (root / "notes.json").write_text('{"comment": "not a read"}')
    if faulty:
        shutil.copytree(SAMPLE_RUNS / "faulty", root / "method-c")
    return root


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = _run(capsys, *args, "--json")
    return code, json.loads(out)


def test_clean_folder_one_line_per_read_and_a_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, str(_folder(tmp_path)))
    lines = out.strip().splitlines()
    assert code == 0
    assert lines[0].startswith("✓ method-a/ft1: consistent")
    assert lines[1].startswith("✓ method-b/ft1: consistent")
    assert "notes.json: skipped" in lines[2]
    assert "2 reads, 0 with errors, 0 with warnings only, 2 clean, 1 skipped" in lines[-1]


def test_a_read_with_errors_fails_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, str(_folder(tmp_path, faulty=True)))
    assert code == 1
    assert any(line.startswith("✗ method-c: 13 errors") for line in out.splitlines())
    assert "1 with errors" in out.splitlines()[-1]


def test_an_unreadable_candidate_is_a_failing_row_and_the_scan_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _folder(tmp_path)
    (root / "broken.json").write_text('{"a": 1,,}')
    code, doc = _json(capsys, str(root))
    assert code == 1
    by_path = {r["path"]: r for r in doc["runs"]}
    assert set(by_path) == {"broken.json", "method-a/ft1", "method-b/ft1"}
    broken = by_path["broken.json"]
    assert broken["status"] == "unreadable" and broken["ok"] is False
    assert "broken.json" in broken["error"] and "not strict JSON" in broken["error"]
    assert doc["counts"]["unreadable"] == 1


def test_json_contract_and_each_check_equals_the_single_read_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _folder(tmp_path, faulty=True)
    code, doc = _json(capsys, str(root))
    assert code == 1
    assert {"path", "ok", "runs", "counts"} <= set(doc)
    assert doc["path"] == str(root) and doc["ok"] is False
    assert [r["path"] for r in doc["runs"]] == ["method-a/ft1", "method-b/ft1", "method-c"]
    assert doc["skipped"] == [{"path": "notes.json", "reason": doc["skipped"][0]["reason"]}]
    for run in doc["runs"]:
        single_code, single = _json(capsys, str(root / run["path"]))
        assert single_code == (0 if run["ok"] else 1)
        expected = single | {"path": run["path"], "status": "read"}
        assert run == expected
    totals = doc["counts"]
    assert totals["runs"] == 3 and totals["with_errors"] == 1 and totals["clean"] == 2
    assert totals["error"] == sum(r["counts"]["error"] for r in doc["runs"])


def test_one_job_and_two_jobs_print_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = str(_folder(tmp_path, faulty=True))
    one = _run(capsys, root, "-j", "1")
    two = _run(capsys, root, "-j", "2")
    assert one == two
    assert _json(capsys, root, "-j", "1") == _json(capsys, root, "-j", "2")


def test_strict_fails_on_warnings_in_a_folder(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _json(capsys, str(SAMPLE_RUNS / "replicates"))
    assert code == 0 and doc["counts"]["clean"] == 6
    code, _out, _ = _run(capsys, str(SAMPLE_RUNS), "--strict")
    assert code == 1


def test_folder_that_cannot_be_read_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = _run(capsys, str(tmp_path / "missing"))
    assert code == 2 and "no such file" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, doc = _json(capsys, str(empty))
    assert code == 2 and "no read found" in doc["error"]


def test_bad_jobs_value_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["check", str(SAMPLE_RUNS), "-j", "0"])
    assert exc.value.code == 2
    assert "must be 1 or more" in capsys.readouterr().err


def test_a_single_run_keeps_its_own_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, str(SAMPLE_RUNS / "faulty"))
    assert code == 1
    assert out.startswith("Errors (13)")  # the single-read report, not a folder line
    assert "reads," not in out


def test_benchmark_harness_results_are_audited_in_a_folder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, doc = _json(capsys, str(SAMPLE_RUNS / "harness"))
    assert code == 1  # two of the sample harness files have error findings
    assert len(doc["runs"]) == len(list((SAMPLE_RUNS / "harness").glob("*.json")))
    for run in doc["runs"]:
        _code, single = _json(capsys, str(SAMPLE_RUNS / "harness" / run["path"]))
        assert run == single | {"path": run["path"], "status": "read"}
