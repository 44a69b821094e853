"""One piece of a short-lived command's work in a forked child process, its value pickled back.

Reading and auditing a run is CPU-bound Python holding the GIL, so a second core helps only
through a second process: `compare` reads B in one while it reads A. The child is a fork (no
interpreter start, no imports again); the caller always keeps the way of doing the work itself,
taken when this process cannot fork safely (no `os.fork`, macOS, threads) or the child fails
in any way, so every error is raised where it always was.

Kept apart from `folder.parallel` (the process pool of `check DIR -j`): importing
concurrent.futures and multiprocessing costs ~15 ms that these commands do not need.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

R = TypeVar("R")


class Forked(Generic[R]):
    """`fn()` computing in a forked child process (`fork_call`) while this one goes on."""

    def __init__(self, pid: int, fd: int) -> None:
        self._pid: int | None = pid
        self._fd = fd

    def result(self) -> R | None:
        """The child's value, waiting for it; None when the child failed in any way (the
        caller then does the work itself, so any error is raised where it always was)."""
        import pickle

        if self._pid is None:
            return None
        chunks = []
        try:
            with os.fdopen(self._fd, "rb") as pipe:
                while chunk := pipe.read(1 << 20):
                    chunks.append(chunk)
        except OSError:
            chunks = []
        # The child writes its value only once computed, whole; not waiting for its exit here
        # (freeing a read run's memory takes the kernel 5-20 ms): reaped when it has ended.
        _UNREAPED.append(self._pid)
        self._pid = None
        _reap()
        if not chunks:
            return None
        try:
            value: R = pickle.loads(b"".join(chunks))
        except Exception:  # cut short: the child ended before writing all of it
            return None
        return value

    def cancel(self) -> None:
        """Stop the child if its value was not taken (the caller stopped first)."""
        if self._pid is None:
            return
        import signal

        with contextlib.suppress(OSError):
            os.kill(self._pid, signal.SIGKILL)
        os.waitpid(self._pid, 0)
        self._pid = None
        with contextlib.suppress(OSError):
            os.close(self._fd)


#: Children whose value was taken and whose exit was not waited for yet (`_reap`).
_UNREAPED: list[int] = []


def _reap(*, wait: bool = False) -> None:
    """Collect the exit of every child that has ended (of every child, with `wait`)."""
    for pid in list(_UNREAPED):
        try:
            done, _ = os.waitpid(pid, 0 if wait else os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _UNREAPED.remove(pid)


def wait_for_children() -> None:
    """Wait for the children whose values were taken (by now they have ended): a command calls
    it before it exits, so that its own CPU time, as its parent sees it (`os.wait4`, the
    benchmarks), includes theirs."""
    _reap(wait=True)


def fork_call(fn: Callable[[], R]) -> Forked[R] | None:
    """Compute `fn()` in a forked child process, its value pickled back through a pipe; None
    when this process cannot fork safely (no `os.fork`, macOS, or threads besides this one,
    which a fork must not copy mid-lock). A short-lived command overlaps two CPU-bound halves
    of its work on two cores this way (`compare` reads B while it reads A). `fn` must not
    return None (that is how `Forked.result` says the child failed), nor write to stdout or
    stderr."""
    # macOS: system libraries numpy may use are not safe to use in a forked child (CPython's
    # multiprocessing documentation); the work is done in this process there
    if not hasattr(os, "fork") or sys.platform == "darwin" or threading.active_count() > 1:
        return None
    _reap()
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # pragma: no cover - the child (coverage does not follow a fork)
        _child(fn, read_end, write_end)
    os.close(write_end)
    return Forked(pid, read_end)


def _child(fn: Callable[[], object], read_end: int, write_end: int) -> None:
    """Run `fn`, send its pickled value (nothing when it raised) and end without running any of
    the parent's exit handlers or flushing its buffers."""
    import pickle

    code = 1
    try:
        os.close(read_end)
        payload = pickle.dumps(fn(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
        code = 0
    except BaseException:  # whatever it was, the parent does the work itself and meets it
        code = 1
    finally:
        os._exit(code)
