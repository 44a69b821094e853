"""Proof that the inputs did not change while an export read them.

The reader does not hand back the bytes it hashed, so the export brackets it: every input file's
size, mtime and SHA-256 are recorded before the run is loaded and compared again just before the
output is moved into place. A file that is rewritten, touched, added or removed in between makes
the export refuse, naming the file, so a published result always describes one state of the run.
"""

from __future__ import annotations

import hashlib
import os
import stat
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


def take(source: Path) -> Snapshot:
    """Record every input file of the run at `source`."""
    base = source if source.is_dir() else source.parent
    return {rel: _state(base / rel) for rel in input_files(source)}


def changed(source: Path, before: Snapshot) -> list[str]:
    """Files (relative to the run) whose state differs from `before`, or that appeared since."""
    after = take(source)
    names = sorted(set(before) | set(after))
    return [rel for rel in names if before.get(rel) != after.get(rel)]
