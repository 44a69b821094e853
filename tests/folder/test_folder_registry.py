"""Folders ask the reader registry what a file is: a format added to the registry appears in
`check DIR` and `table` without any change here, one row per named read, in the detection order
its declared priority gives it (not its position)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import evalview.load.registry as registry
from evalview.cli import main
from evalview.load import NamedRun, Reader, Reading, ReadOptions, Source, load_run
from helpers.closed_runs import outcomes_for, write_run


def _fake_reader(run_dir: Path) -> Reader:
    """A format of files holding `{"fake-reads": [...]}`: each name is one read (of run_dir)."""

    def detect(source: Source) -> bool:
        value = None if source.is_dir else source.json_value
        return isinstance(value, dict) and "fake-reads" in value

    def read(source: Source, options: ReadOptions) -> Reading:
        names = source.json_value["fake-reads"]
        runs = tuple(NamedRun(n, load_run(run_dir)) for n in names)
        return Reading(source.path, "fake", runs)

    # before PSR checkpoint inputs (90), which would also take these objects of lists
    return Reader("fake", "a test format of named reads", detect, read, priority=85)


def test_a_new_reader_shows_up_in_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source_run = write_run(tmp_path / "source", outcomes_for({"t": (2, 3)}, 3))
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "eval_info.json").write_text(json.dumps({"fake-reads": ["step_400", "step_800"]}))
    # appended last, yet asked before PSR checkpoint inputs: its declared priority is lower
    monkeypatch.setattr(
        registry, "READERS", registry.ordered((*registry.BUILTIN, _fake_reader(source_run)))
    )
    assert main(["check", str(folder), "--json", "-j", "1"]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert [(r["path"], r.get("read")) for r in doc["runs"]] == [
        ("eval_info.json", "step_400"), ("eval_info.json", "step_800")]
    assert main(["table", str(folder), "--format", "json", "--bootstrap", "0", "-j", "1"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["read"] for r in rows] == ["step_400", "step_800"]
    assert all(r["successes"] == 2 and r["selected"] == 3 for r in rows)
