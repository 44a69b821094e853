"""Discovery: every read under a folder, links never followed, limits stated, order stable, and
an entry that cannot be looked at kept with its reason instead of stopping the scan."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evalview.folder.discover import FolderError, discover
from helpers.closed_runs import outcomes_for, write_run


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "runs"
    write_run(root / "b-method" / "seed-2", outcomes_for({"task-a": (3, 4)}, 4))
    write_run(root / "b-method" / "seed-1", outcomes_for({"task-a": (2, 4)}, 4))
    write_run(root / "a-method", outcomes_for({"task-a": (1, 4)}, 4))
    (root / "notes").mkdir()
    (root / "notes" / "result.json").write_text("{}")
    (root / "notes" / "readme.txt").write_text("not json")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.json").write_text("{}")
    return root


def test_closed_runs_and_json_files_in_a_stable_order(tmp_path: Path) -> None:
    found = discover(_tree(tmp_path))
    assert [(e.rel, e.kind) for e in found.entries] == [
        ("a-method", "closed-run"),
        ("b-method/seed-1", "closed-run"),
        ("b-method/seed-2", "closed-run"),
        ("notes/result.json", "file"),
    ]
    assert found.truncated is None


def test_a_closed_run_is_not_descended_into(tmp_path: Path) -> None:
    found = discover(_tree(tmp_path))
    # its episodes/*/result.json files are part of the run, never separate reads
    assert not any(e.rel.startswith("a-method/") for e in found.entries)


def test_symlinks_are_never_followed_but_listed(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    os.symlink(root / "a-method", root / "link-to-run")
    os.symlink(tmp_path, root / "loop")
    found = discover(root)
    links = {e.rel: e for e in found.entries if e.kind == "skipped"}
    assert set(links) == {"link-to-run", "loop"}
    assert "symbolic link" in (links["loop"].reason or "")
    assert len(found.reads) == 4  # nothing reached through a link


def test_an_unlistable_directory_is_an_entry_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path)
    real = os.scandir
    locked = str(root / "b-method")

    def scandir(path: object) -> object:
        if os.fspath(path) == locked:  # type: ignore[call-overload]
            raise PermissionError(13, "Permission denied")
        return real(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", scandir)
    found = discover(root)
    bad = [e for e in found.entries if e.kind == "unreadable"]
    assert [e.rel for e in bad] == ["b-method"]
    assert "Permission denied" in (bad[0].reason or "")
    assert [e.rel for e in found.reads] == ["a-method", "notes/result.json"]  # the scan went on


def test_depth_limit_is_stated(tmp_path: Path) -> None:
    root = tmp_path / "deep"
    write_run(root / "l1" / "l2" / "l3" / "run", outcomes_for({"t": (1, 2)}, 2))
    assert [e.rel for e in discover(root).reads] == ["l1/l2/l3/run"]
    shallow = discover(root, max_depth=2)
    assert shallow.reads == []
    [note] = shallow.entries
    assert note.kind == "skipped" and note.rel == "l1/l2"
    assert "deeper than 2 levels" in (note.reason or "")


def test_count_limit_stops_the_scan_and_says_so(tmp_path: Path) -> None:
    root = tmp_path / "many"
    root.mkdir()
    for i in range(5):
        (root / f"r{i}.json").write_text("{}")
    found = discover(root, max_reads=3)
    assert [e.rel for e in found.reads] == ["r0.json", "r1.json", "r2.json"]
    assert found.truncated is not None and "3 candidate reads" in found.truncated


def test_an_unreadable_root_raises_folder_error(tmp_path: Path) -> None:
    with pytest.raises(FolderError, match="cannot be read"):
        discover(tmp_path / "missing")
    (tmp_path / "f.json").write_text("{}")
    with pytest.raises(FolderError, match="not a directory"):
        discover(tmp_path / "f.json")
