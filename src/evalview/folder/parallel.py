"""Running one function over a folder's candidates in worker processes (both cores by default).

Reading and auditing a run is CPU-bound Python holding the GIL, so threads would not help; each
worker process reads whole runs and sends back a small picklable summary. With one job (or one
candidate) everything runs in this process: no pool to start.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing.context import BaseContext
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")
A = TypeVar("A")


def default_jobs() -> int:
    """The cores this process may use (both, on the reference machine)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


#: Modules a forkserver imports once, so each worker it forks starts with the core loaded.
PRELOAD = ["evalview.folder.reads", "evalview.audit", "evalview.stats", "evalview.load"]


def _context(method: str) -> BaseContext | None:
    """`fork` (the CLI: single-threaded, workers start in milliseconds with the core imported) or
    `forkserver` (the app: it has threads, which a fork must not copy mid-lock)."""
    import multiprocessing

    try:
        ctx = multiprocessing.get_context(method)
    except ValueError:  # pragma: no cover - platforms without fork
        return None
    if method == "forkserver":
        ctx.set_forkserver_preload(PRELOAD)
    return ctx


def map_ordered(
    fn: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    *,
    method: str = "fork",
    local: Callable[[T], bool] | None = None,
) -> Iterator[R]:
    """`fn(item)` for each item, yielded in the items' order, computed by up to `jobs` processes
    (at most two items in flight per worker, so the first results come early).

    `local(item)` True: computed here, never sent to a worker (a folder's links and unlistable
    directories, decided by discovery: 30,000 of them were 30,000 round trips to a worker)."""
    if local is None:
        for _i, result in map_completed(fn, items, jobs, ordered=True, method=method):
            yield result
        return
    here = [local(item) for item in items]
    away = [item for item, h in zip(items, here, strict=True) if not h]
    results = map_completed(fn, away, jobs, ordered=True, method=method)
    try:
        for item, h in zip(items, here, strict=True):
            yield fn(item) if h else next(results)[1]
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


def prestart(method: str = "forkserver") -> None:
    """Start multiprocessing's helper processes now, while stdin/stdout/stderr are still the
    terminal's: Textual replaces them while the app runs, and the helpers cannot be started from
    inside it then (the pool falls back to one process). Also starts importing the core in the
    forkserver, in the background."""
    from multiprocessing import resource_tracker

    try:
        resource_tracker.ensure_running()
        if method == "forkserver":
            from multiprocessing import forkserver

            _context(method)
            forkserver.ensure_running()
    except (OSError, ValueError):
        pass  # no helper processes: the reads are done in one process


def _warm() -> None:
    """A no-op task: its result says a worker process is up."""


class _LatePool:
    """A process pool started on a helper thread (a forkserver takes a second or two to start,
    during which `submit` blocks): `ready` is set once every worker answered."""

    def __init__(self, workers: int, method: str) -> None:
        self.workers = workers
        self.method = method
        self.pool: ProcessPoolExecutor | None = None
        self.ready = threading.Event()
        self.abandoned = threading.Event()
        threading.Thread(target=self._start, name="evalview-pool-start", daemon=True).start()

    def _start(self) -> None:
        try:
            pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=_context(self.method))
        except Exception:  # no pool here (see prestart): the caller goes on in its own thread
            return
        try:
            for fut in [pool.submit(_warm) for _ in range(self.workers)]:
                fut.result()
        except Exception:
            pool.shutdown(wait=False, cancel_futures=True)
            return
        self.pool = pool
        self.ready.set()
        if self.abandoned.is_set():
            pool.shutdown(wait=False, cancel_futures=True)

    def abandon(self) -> None:
        self.abandoned.set()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)


def map_completed(
    fn: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    *,
    ordered: bool = False,
    method: str = "fork",
    local_until_ready: bool = False,
) -> Iterator[tuple[int, R]]:
    """(index, fn(item)) as each finishes (or in order with `ordered`). Closing the iterator
    early cancels what has not started.

    `local_until_ready` (unordered only): the pool starts on a helper thread while this thread
    works through the first items itself, so the first results arrive at once; the rest go to
    the pool once its workers are up.
    """
    if jobs <= 1 or len(items) <= 1:
        for i, item in enumerate(items):
            yield i, fn(item)
        return
    workers = min(jobs, len(items))
    start = 0
    if local_until_ready and not ordered:
        late = _LatePool(workers, method)
        try:
            while start < len(items) and not late.ready.is_set():
                yield start, fn(items[start])
                start += 1
        except BaseException:
            late.abandon()
            raise
        if start == len(items) or late.pool is None:
            late.abandon()
            for i in range(start, len(items)):
                yield i, fn(items[i])
            return
        pool = late.pool
    else:
        if method == "fork":
            _preload()  # once, here: every forked worker starts with the core imported
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context(method))
    # Chunks of items per task: one round trip per chunk, not per item (200 reads were 200
    # round trips, the parent and the workers waiting on each other); small enough that both
    # workers stay busy to the end and the first results still come early.
    per_worker = (len(items) - start) // (4 * workers)
    size = 1 if local_until_ready else max(1, min(_MAX_CHUNK, per_worker))
    try:
        pending: dict[Future[list[R]], int] = {}
        done: dict[int, R] = {}
        next_item = start
        next_out = start
        while next_item < len(items) or pending:
            while next_item < len(items) and len(pending) < 2 * workers:
                chunk = items[next_item : next_item + size]
                pending[pool.submit(_apply, fn, chunk)] = next_item
                next_item += len(chunk)
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(finished, key=lambda f: pending[f]):
                first = pending.pop(fut)
                for offset, result in enumerate(fut.result()):
                    if not ordered:
                        yield first + offset, result
                    else:
                        done[first + offset] = result
            while ordered and next_out in done:
                yield next_out, done.pop(next_out)
                next_out += 1
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


#: At most this many items per task (a folder's reads: a few results per round trip).
_MAX_CHUNK = 8


def _apply(fn: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    """`fn` over a chunk of items, in a worker."""
    return [fn(item) for item in chunk]


#: What every read needs (reading and auditing), imported in the parent before forking. Not the
#: scorer: `check DIR` never scores, and importing numpy in the parent would cost it ~0.06 s.
_FORK_PRELOAD = (
    "evalview.folder.reads", "evalview.session", "evalview.load.registry", "evalview.audit",
    "evalview.audit.checks",
)


def _preload() -> None:
    """Import the core the workers use before forking them: each worker would otherwise import
    it again (about 0.15 s of CPU each)."""
    import importlib

    for name in _FORK_PRELOAD:
        importlib.import_module(name)


class Forked(Generic[R]):
    """`fn()` computing in a forked child process (`fork_call`, `fork_waiting`) while this one
    goes on."""

    def __init__(self, pid: int, fd: int, send_fd: int | None = None) -> None:
        self._pid: int | None = pid
        self._fd = fd
        self._send_fd = send_fd

    def send(self, arg: object) -> bool:
        """Give a waiting child (`fork_waiting`) its argument; False when it cannot take it (it
        failed already, or `arg` does not pickle): `result` then says None."""
        import pickle

        fd, self._send_fd = self._send_fd, None
        if fd is None:
            return False
        try:
            with os.fdopen(fd, "wb") as pipe:
                pipe.write(pickle.dumps(arg, protocol=pickle.HIGHEST_PROTOCOL))
        except Exception:
            return False
        return True

    def result(self) -> R | None:
        """The child's value, waiting for it; None when the child failed in any way (the
        caller then does the work itself, so any error is raised where it always was)."""
        import pickle

        if self._pid is None:
            return None
        self._close_send()  # a waiting child never sent its argument ends now
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
        self._close_send()
        with contextlib.suppress(OSError):
            os.close(self._fd)

    def _close_send(self) -> None:
        fd, self._send_fd = self._send_fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


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
    when this process cannot fork safely (no `os.fork`, or threads besides this one, which a
    fork must not copy mid-lock). A short-lived command overlaps two CPU-bound halves of its
    work on two cores this way (`compare` reads B while it reads A). `fn` must not return None
    (that is how `Forked.result` says the child failed), nor write to stdout or stderr."""
    return _fork(lambda _arg: fn(), waits=False)


def fork_waiting(fn: Callable[[A], R]) -> Forked[R] | None:
    """`fork_call` for work whose input comes later: the child waits for `Forked.send(arg)`
    and computes `fn(arg)`. Forked while this process is still small (before it reads
    anything), the child shares none of the read's memory, so neither process pays to copy
    pages the other touches (`export`'s seed bootstrap)."""
    return _fork(fn, waits=True)


def _fork(fn: Callable[[A], R], *, waits: bool) -> Forked[R] | None:
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return None
    _reap()
    read_end, write_end = os.pipe()
    arg_read, arg_write = os.pipe() if waits else (None, None)
    try:
        pid = os.fork()
    except OSError:
        for fd in (read_end, write_end, arg_read, arg_write):
            if fd is not None:
                os.close(fd)
        return None
    if pid == 0:  # pragma: no cover - the child (coverage does not follow a fork)
        _child(fn, read_end, write_end, arg_read, arg_write)
    os.close(write_end)
    if arg_read is not None:
        os.close(arg_read)
    return Forked(pid, read_end, arg_write)


def _child(
    fn: Callable[[A], object],
    read_end: int,
    write_end: int,
    arg_read: int | None,
    arg_write: int | None,
) -> None:
    """Run `fn` (on the argument sent, when it waits for one), send its pickled value (nothing
    when it raised) and end without running any of the parent's exit handlers or flushing its
    buffers."""
    import pickle

    code = 1
    try:
        os.close(read_end)
        arg = None
        if arg_read is not None and arg_write is not None:
            os.close(arg_write)
            with os.fdopen(arg_read, "rb") as pipe:
                arg = pickle.loads(pipe.read())  # EOF without an argument: raises, ends
        payload = pickle.dumps(fn(arg), protocol=pickle.HIGHEST_PROTOCOL)  # type: ignore[arg-type]
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
        code = 0
    except BaseException:  # whatever it was, the parent does the work itself and meets it
        code = 1
    finally:
        os._exit(code)
