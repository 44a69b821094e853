"""Data never reaches rich as markup: ids, task and policy names, error types and paths that look
like rich tags print as written in check, score and export (text and refusals)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from helpers.paths import EXAMPLE

TASK = "[bold red]x[/]"
OTHER = "<script>alert(1)</script>"
POLICY = "[link=http://evil]p[/link]"
ERROR_TYPE = "[red]Boom[/]"


def _swap(value: Any) -> Any:
    if isinstance(value, str):
        return (value.replace("task-00", TASK).replace("task-01", OTHER)
                .replace("pi-test", POLICY).replace("RuntimeError", ERROR_TYPE))
    if isinstance(value, dict):
        return {k: _swap(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v) for v in value]
    return value


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """The example with markup in task names, ids, the policy and the error types, consistent."""
    run = Path(shutil.copytree(EXAMPLE, tmp_path / "[blink]run[/]"))
    for name in ("manifest.json", "summary.json"):
        (run / name).write_text(json.dumps(_swap(json.loads((run / name).read_text()))))
    lines = (run / "episodes.jsonl").read_text().splitlines()
    records = [_swap(json.loads(line)) for line in lines]
    (run / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    by_id = {r["episode"]["id"]: r for r in records}
    for path in run.glob("episodes/*/result.json"):
        old = _swap(json.loads(path.read_text()))
        path.write_text(json.dumps(by_id[old["episode"]["id"]]))
    return run


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")


def test_check_prints_markup_from_data_as_written(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", str(hostile)])
    out = capsys.readouterr().out
    assert code == 0
    assert f"{TASK}/seed1003" in out and f"{OTHER}/seed1000" in out
    assert f"✓ {hostile}: consistent, with caveats" in out  # the path, brackets and all


def test_score_prints_markup_from_data_as_written(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["score", str(hostile), "--allow-errors", "--per-task", "--bootstrap", "0"])
    out = capsys.readouterr().out
    assert code == 0
    assert POLICY in out and TASK in out and OTHER in out
    assert f"{TASK}/seed1003: evaluation error ({ERROR_TYPE})" in out
    code = main(["score", str(hostile), "--bootstrap", "0"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{OTHER}/seed1001: policy error ({ERROR_TYPE})" in err


def test_export_refusal_prints_markup_from_data_as_written(
    hostile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = json.loads((hostile / "summary.json").read_text())
    summary["policy"] = "[italic]someone else[/]"
    (hostile / "summary.json").write_text(json.dumps(summary))
    code = main(["export", str(hostile), "--output-dir", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 1
    assert "[italic]someone else[/]" in err and POLICY in err
    assert not (tmp_path / "out").exists()
