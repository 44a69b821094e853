"""`evalview check PATH [--json] [--strict]`: exit codes, the JSON contract of DESIGN.md, the text
verdict, and the source run left byte-identical."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from helpers.paths import EXAMPLE

FINDING_KEYS = {"code", "severity", "file", "line", "episode_id", "message"}


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr; text output is whitespace-normalized (rich wraps lines)."""
    code = main(["check", *args])
    out, err = capsys.readouterr()
    if "--json" in args:
        return code, out, " ".join(err.split())
    return code, " ".join(out.split()), " ".join(err.split())


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = _check(capsys, *args, "--json")
    return code, json.loads(out)  # exactly one JSON document, nothing else on stdout


def _make_error(rd: Any) -> None:
    rd.edit_record(7, lambda r: r["metrics"].update(success=False))  # success stays true


def _make_pristine(rd: Any) -> None:
    records = rd.records()
    for r in records:
        if r["status"] == "error":
            r.update(status="completed", success=False, error=None, metrics={"success": False},
                     termination_reason="environment:truncated")
    rd.write_records(records)
    rd.edit("status.json", lambda d: d.update(status="completed"))
    rd.edit("summary.json", lambda d: d.update(completed=12, errors=0, success_rate=4 / 12))


def test_clean_example_exits_0_with_caveats(
    example_run: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _check(capsys, str(example_run.path))
    assert code == 0
    assert "Warnings (2)" in out and "EV601" in out and "infrastructure-errors" in out
    assert "Errors" not in out
    assert "consistent, with caveats (0 errors, 2 warnings)" in out


def test_strict_fails_on_warnings(example_run: Any, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _check(capsys, str(example_run.path), "--strict")
    assert code == 1
    assert "--strict fails on warnings" in out
    code, doc = _json(capsys, str(example_run.path), "--strict")
    assert code == 1 and doc["ok"] is False and doc["counts"]["error"] == 0


def test_no_findings_passes_strict(example_run: Any, capsys: pytest.CaptureFixture[str]) -> None:
    _make_pristine(example_run)
    code, out, _ = _check(capsys, str(example_run.path), "--strict")
    assert code == 0 and "consistent record, no findings" in out
    code, doc = _json(capsys, str(example_run.path), "--strict")
    assert code == 0 and doc["ok"] is True and doc["findings"] == []
    assert doc["counts"] == {"error": 0, "warning": 0, "info": 0}


def test_error_exits_1_and_text_names_place_and_code(
    example_run: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _make_error(example_run)
    code, out, _ = _check(capsys, str(example_run.path))
    assert code == 1
    assert "Errors (1)" in out
    assert "EV305" in out and "episodes.jsonl:8 (task-01/seed1003)" in out
    assert "Do not publish as is" in out
    # Errors are listed before warnings.
    assert out.index("Errors") < out.index("Warnings")


def test_json_shape(example_run: Any, capsys: pytest.CaptureFixture[str]) -> None:
    _make_error(example_run)
    example_run.edit("summary.json", lambda d: d.update(success_rate=0.7))
    code, doc = _json(capsys, str(example_run.path))
    assert code == 1
    assert {"path", "ok", "findings", "counts"} <= set(doc)
    assert doc["path"] == str(example_run.path) and doc["ok"] is False
    assert set(doc["counts"]) == {"error", "warning", "info"}
    assert doc["counts"]["error"] == sum(f["severity"] == "error" for f in doc["findings"])
    assert doc["counts"]["warning"] == sum(f["severity"] == "warning" for f in doc["findings"])
    for f in doc["findings"]:
        assert set(f) == FINDING_KEYS
        assert f["severity"] in ("error", "warning", "info")
        assert f["file"] is None or not Path(f["file"]).is_absolute()
        assert f["line"] is None or (isinstance(f["line"], int) and f["line"] >= 1)
    by_code = {f["code"]: f for f in doc["findings"]}
    assert by_code["EV305"]["file"] == "episodes.jsonl"
    assert by_code["EV305"]["line"] == 8
    assert by_code["EV305"]["episode_id"] == "task-01/seed1003"
    assert by_code["EV510"]["file"] == "summary.json" and by_code["EV510"]["line"] is None
    # Errors come first in the stable order.
    severities = [f["severity"] for f in doc["findings"]]
    assert severities == sorted(severities, key=["error", "warning", "info"].index)


def test_unreadable_path_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _check(capsys, str(tmp_path / "missing"))
    assert code == 2 and out == "" and "no such file" in err
    code, out, _ = _check(capsys, str(tmp_path / "missing"), "--json")
    assert code == 2
    doc = json.loads(out)
    assert doc["exit_code"] == 2 and "no such file" in doc["error"]


def test_not_a_run_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "readme.txt").write_text("hello")
    code, _, err = _check(capsys, str(tmp_path))
    assert code == 2 and "not a closed run" in err


def test_bad_input_inside_a_run_is_findings_not_exit_2(
    example_run: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    (example_run.path / "manifest.json").write_bytes(b'{"run_id": NaN}')
    code, doc = _json(capsys, str(example_run.path))
    assert code == 1
    assert any(f["code"] == "EV106" and f["file"] == "manifest.json" for f in doc["findings"])


def _tree_digest(root: Path) -> dict[str, tuple[str, int]]:
    return {
        str(p.relative_to(root)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mode)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    } | {str(p.relative_to(root)) + "/": ("dir", p.stat().st_mode) for p in root.rglob("*")
         if p.is_dir()}


@pytest.mark.parametrize("extra", [[], ["--json"], ["--strict"]])
def test_source_run_is_byte_identical_after_check(
    example_run: Any, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    _make_error(example_run)
    before = _tree_digest(example_run.path)
    _check(capsys, str(example_run.path), *extra)
    assert _tree_digest(example_run.path) == before


def test_installed_command_without_textual(example_run: Any) -> None:
    """The real console entry point, in a fresh process: JSON only on stdout, no Textual import."""
    script = (
        "import sys\n"
        "from evalview.cli import main\n"
        "code = main(['check', sys.argv[1], '--json'])\n"
        "assert 'textual' not in sys.modules, 'check imported textual'\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(example_run.path)],
        capture_output=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    doc = json.loads(proc.stdout)
    assert doc["ok"] is True and doc["counts"]["warning"] == 2


@pytest.mark.parametrize("exists", [True, False])
def test_json_for_a_path_that_is_not_utf8(
    exists: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A directory named in bytes that are not UTF-8 (b"bad\\xff") reaches Python as surrogates,
    which JSON cannot hold: --json still writes one valid document (U+FFFD in their place)."""
    import os
    import shutil

    path = tmp_path / os.fsdecode(b"bad\xffname")
    if exists:
        shutil.copytree(EXAMPLE, path)
    code = main(["check", str(path), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == (0 if exists else 2)
    shown = doc["path"] if exists else doc["error"]
    assert "bad\ufffdname" in shown
