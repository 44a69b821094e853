"""Watching a read (or a folder of reads) for changes, so a reviewer fixing a record sees the
finding go away. Headless: the app polls a `Watcher` from a worker thread.

Polling, not file-system notifications: evalview does not depend on watchfiles, and a poll of a
10,000-episode run (10,000 `lstat` calls) costs a few tens of milliseconds. A change is reported
only once the files have stopped changing for `settle` seconds, so a read still being written
shows as *changing*, never as a half-read error. Links are never followed; hidden entries are
skipped, as in discovery.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

#: relative path -> (mtime in ns, size) of each regular file under the watched path
Snapshot = dict[str, tuple[int, int]]
State = Literal["same", "changing", "changed"]

#: Files looked at per poll before giving up on the rest (a folder given by mistake).
MAX_FILES = 200_000


def snapshot(path: Path, *, max_files: int = MAX_FILES) -> Snapshot:
    """The (mtime, size) of every regular file under `path` (or of `path` itself)."""
    out: Snapshot = {}
    try:
        st = os.lstat(path)
    except OSError:
        return out  # gone (or not yet there): an empty snapshot differs from any other
    if not stat.S_ISDIR(st.st_mode):
        if stat.S_ISREG(st.st_mode):
            out[""] = (st.st_mtime_ns, st.st_size)
        return out
    stack = [("", os.fspath(path))]
    while stack and len(out) < max_files:
        prefix, directory = stack.pop()
        try:
            with os.scandir(directory) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            rel = prefix + entry.name
            try:
                est = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(est.st_mode):
                stack.append((rel + "/", entry.path))
            elif stat.S_ISREG(est.st_mode):
                out[rel] = (est.st_mtime_ns, est.st_size)
    return out


def changed_under(old: Snapshot, new: Snapshot, rel: str) -> bool:
    """True when any file of the entry `rel` (a file, or a directory's files) differs."""
    def part(snap: Snapshot) -> Snapshot:
        return {k: v for k, v in snap.items() if k == rel or k.startswith(rel + "/")}

    return part(old) != part(new)


class Watcher:
    """`poll()` says whether the files under `path` changed since the last settled look.

    "changing" while they differ from the last settled snapshot but are still moving (or have
    been still for less than `settle` seconds); "changed" once, when they have settled.
    """

    def __init__(
        self,
        path: Path,
        *,
        settle: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = path
        self.settle = settle
        self.clock = clock
        self.current: Snapshot = snapshot(path)
        self.previous: Snapshot = self.current
        self._moving: Snapshot | None = None
        self._since = 0.0

    def poll(self) -> State:
        now = snapshot(self.path)
        if self._moving is None:
            if now == self.current:
                return "same"
            self._moving, self._since = now, self.clock()
            return "changing"
        if now != self._moving:
            self._moving, self._since = now, self.clock()
            return "changing"
        if self.clock() - self._since < self.settle:
            return "changing"
        self.previous, self.current, self._moving = self.current, now, None
        return "changed"
