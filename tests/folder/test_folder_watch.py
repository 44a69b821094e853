"""Watching: a change is reported once the files settle; a read being written shows as changing."""

from __future__ import annotations

import os
from pathlib import Path

from evalview.folder.watch import Watcher, changed_under, snapshot
from helpers.closed_runs import outcomes_for, write_run


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _touch(path: Path, text: str) -> None:
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a coarse clock still moves


def test_a_change_is_reported_once_settled(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", outcomes_for({"t": (1, 2)}, 2))
    clock = Clock()
    w = Watcher(run, settle=0.5, clock=clock)
    assert w.poll() == "same"
    _touch(run / "summary.json", (run / "summary.json").read_text() + " ")
    assert w.poll() == "changing"  # just moved
    clock.now = 0.3
    assert w.poll() == "changing"  # still settling
    _touch(run / "episodes.jsonl", (run / "episodes.jsonl").read_text())  # still being written
    clock.now = 0.7
    assert w.poll() == "changing"  # moved again: the settle window starts over
    clock.now = 1.3
    assert w.poll() == "changed"
    assert w.poll() == "same"
    assert changed_under(w.previous, w.current, "episodes.jsonl")
    assert not changed_under(w.previous, w.current, "manifest.json")


def test_snapshot_never_follows_links_and_sees_new_files(tmp_path: Path) -> None:
    root = tmp_path / "folder"
    write_run(root / "a", outcomes_for({"t": (1, 2)}, 2))
    os.symlink(tmp_path, root / "loop")
    first = snapshot(root)
    assert "a/manifest.json" in first and not any(k.startswith("loop") for k in first)
    (root / "b.json").write_text("{}")
    second = snapshot(root)
    assert changed_under(first, second, "b.json") and not changed_under(first, second, "a")
    assert snapshot(tmp_path / "missing") == {}
