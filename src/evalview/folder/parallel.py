"""Running one function over a folder's candidates in worker processes (both cores by default).

Reading and auditing a run is CPU-bound Python holding the GIL, so threads would not help; each
worker process reads whole runs and sends back a small picklable summary. With one job (or one
candidate) everything runs in this process: no pool to start.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing.context import BaseContext
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


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
