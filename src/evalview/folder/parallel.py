"""Running one function over a folder's candidates in worker processes (both cores by default).

Reading and auditing a run is CPU-bound Python holding the GIL, so threads would not help; each
worker process reads whole runs and sends back a small picklable summary. With one job (or one
candidate) everything runs in this process: no pool to start.
"""

from __future__ import annotations

import os
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
    fn: Callable[[T], R], items: Sequence[T], jobs: int, *, method: str = "fork"
) -> Iterator[R]:
    """`fn(item)` for each item, yielded in the items' order, computed by up to `jobs` processes
    (at most two items in flight per worker, so the first results come early)."""
    for _i, result in map_completed(fn, items, jobs, ordered=True, method=method):
        yield result


def map_completed(
    fn: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    *,
    ordered: bool = False,
    method: str = "fork",
) -> Iterator[tuple[int, R]]:
    """(index, fn(item)) as each finishes (or in order with `ordered`). Closing the iterator
    early cancels what has not started."""
    if jobs <= 1 or len(items) <= 1:
        for i, item in enumerate(items):
            yield i, fn(item)
        return
    workers = min(jobs, len(items))
    ctx = _context(method)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        pending: dict[Future[R], int] = {}
        done: dict[int, R] = {}
        next_item = 0
        next_out = 0
        while next_item < len(items) or pending:
            while next_item < len(items) and len(pending) < 2 * workers:
                pending[pool.submit(fn, items[next_item])] = next_item
                next_item += 1
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(finished, key=lambda f: pending[f]):
                index = pending.pop(fut)
                if not ordered:
                    yield index, fut.result()
                else:
                    done[index] = fut.result()
            while ordered and next_out in done:
                yield next_out, done.pop(next_out)
                next_out += 1
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
