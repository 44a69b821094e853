"""Proof that the inputs did not change while an export read them.

Each input file is read once, by the loader, which hands its bytes and the lstat taken before
reading them to a `Recorder`: size, mtime and the SHA-256 of exactly the bytes the result
describes. Just before the output is moved into place, `changed` looks again with one lstat per
file: a file rewritten, touched, added or removed since makes the export refuse, naming the file,
so a published result always describes one state of the run. Only a file whose mtime is as
recent as the read itself (a coarse filesystem clock could hide a same-size rewrite) is read and
hashed again, and compared with the hash taken during the read.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from evalview.load.closed_run import DOCUMENTS, EPISODES_DIR, EPISODES_JSONL, RESULT_NAME


@dataclass(frozen=True, slots=True)
class FileState:
    size: int
    mtime_ns: int
    sha256: str


#: Relative path -> state; None when the path does not exist (so its later appearance is a change).
Snapshot = dict[str, FileState | None]


def input_files(source: Path) -> list[str]:
    """The files the loader reads, relative to the run (or the one file of a results JSON)."""
    if not source.is_dir():
        return [source.name]
    names = [*DOCUMENTS, EPISODES_JSONL]
    episodes = source / EPISODES_DIR
    try:
        with os.scandir(episodes) as it:
            dirs = sorted(e.name for e in it if e.is_dir(follow_symlinks=False))
    except OSError:
        dirs = []
    names.extend(f"{EPISODES_DIR}/{d}/{RESULT_NAME}" for d in dirs)
    return names


def _state(path: Path) -> FileState | None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return FileState(st.st_size, st.st_mtime_ns, f"not a regular file ({st.st_mode:o})")
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return FileState(st.st_size, st.st_mtime_ns, digest.hexdigest())


#: A file modified less than this before the read started (or later) is hashed again at the end:
#: some filesystems keep mtimes to 1-2 s, within which a same-size rewrite keeps size and mtime.
RACY_NS = 3 * 10**9


class Recorder:
    """The loader's `on_read` hook: the state of each input as it was read."""

    def __init__(self) -> None:
        self.started_ns = time.time_ns()
        self.states: Snapshot = {}

    def __call__(self, rel: str, st: os.stat_result, data: bytes) -> None:
        self.states[rel] = FileState(st.st_size, st.st_mtime_ns, hashlib.sha256(data).hexdigest())

    def snapshot(self, source: Path) -> Snapshot:
        """The inputs as read; any input the loader did not read (a symlink, an unreadable or
        oversized file: the audit refuses those) is recorded as it is now."""
        base = source if source.is_dir() else source.parent
        snap: Snapshot = dict(self.states)
        for rel in input_files(source):
            if rel not in snap:
                snap[rel] = _state(base / rel)
        return snap


def take(source: Path) -> Snapshot:
    """Record every input file of the run at `source`."""
    base = source if source.is_dir() else source.parent
    return {rel: _state(base / rel) for rel in input_files(source)}


def changed(source: Path, before: Snapshot, *, since_ns: int | None = None) -> list[str]:
    """Files (relative to the run) whose state differs from `before`, or that appeared since.

    With `since_ns` (when the read started), a regular file whose size and mtime are unchanged
    is taken as unchanged unless its mtime is within `RACY_NS` of the read or later; then it is
    hashed again. Without it every file is hashed again (as `take` does).
    """
    base = source if source.is_dir() else source.parent
    prefix = os.path.join(os.fspath(base), "")  # plain strings: pathlib costs more than lstat
    names = sorted(set(before) | set(input_files(source)))
    out = []
    for rel in names:
        old = before.get(rel)
        if since_ns is None or old is None or old.sha256.startswith("not a regular file"):
            if old != _state(base / rel):
                out.append(rel)
            continue
        try:
            st = os.lstat(prefix + rel)
        except FileNotFoundError:
            out.append(rel)
            continue
        same = (
            stat.S_ISREG(st.st_mode)
            and st.st_size == old.size
            and st.st_mtime_ns == old.mtime_ns
        )
        if same and st.st_mtime_ns >= since_ns - RACY_NS:
            same = _state(base / rel) == old
        if not same:
            out.append(rel)
    return out
