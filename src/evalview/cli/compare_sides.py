"""Opening `evalview compare`'s two reads, B in a forked child process while A is read here.

Reading and auditing a 10,000-episode read is CPU-bound Python (about 0.5 s), so two reads in one
process take twice that. With a second core, the child reads B, audits it and builds its table
while this process does the same for A; it sends back B's run without its records and result
files (all the audit needed them for: 1.6 MB of pickle instead of 20 MB), with B's findings.
Nothing else changes: the comparison, its refusals and their order are `compare_unaudited`'s,
B's findings are the ones its audit here would give, and every output is byte-identical.

When the child cannot run or fails in any way (B unreadable, a harness result, no `os.fork`,
macOS, threads in this process), B is opened here after A, as before: any error is raised by
the same code in the same order. A small file (a harness result, a small log) is opened here too: a
second process would cost more than it saves.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import replace
from functools import partial
from pathlib import Path

from evalview.load import ReadOptions
from evalview.model.address import Address
from evalview.session import HarnessSession, UnauditedRead, checking_records, open_unaudited

Side = UnauditedRead | HarnessSession


#: B is read in a child when it is a directory (a closed run, an lm-eval model directory) or a
#: file of at least this many bytes: below it, the child's start costs more than it saves.
WORTH_A_CHILD = 1 << 20


def open_sides(a: Address, b: Address, options: ReadOptions) -> tuple[Side, Side]:
    """A and B as `compare` takes them (`open_unaudited`), B read in a child when it can be."""
    from evalview.folder.forked import fork_call

    worker = None
    if _worth_a_child(b.path):
        import numpy  # noqa: F401 - both processes build a table: imported once, before the fork

        worker = fork_call(partial(_thin_side, b, checking_records(options)))
    try:
        # with a child both sides are audited at once, so as they are read (`checking_records`)
        side_a = _open(a, options if worker is None else checking_records(options))
        if worker is not None and isinstance(side_a, UnauditedRead):
            _prepare(side_a)  # while the child works: this process would only wait
            import evalview.compare.paired  # noqa: F401 - the same: what pairs them next
        side_b = worker.result() if worker is not None else None
    finally:
        if worker is not None:
            worker.cancel()
    return side_a, side_b if side_b is not None else _open(b, options)


def _worth_a_child(path: Path) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False  # unreadable: opened here, where its error is raised
    return stat.S_ISDIR(st.st_mode) or st.st_size >= WORTH_A_CHILD


def _open(address: Address, options: ReadOptions) -> Side:
    from evalview.folder.discover import one_read

    return open_unaudited(one_read(address, "compare"), read=options)


def _prepare(side: UnauditedRead) -> None:
    """Audit the read and build its table now, as the comparison will (the same once-only
    calls). A failure is left for the comparison to meet where it always has: a read refused
    before its audit is never reported for its audit."""
    with contextlib.suppress(Exception):
        side.audited()
        _ = side.run.episodes


def _thin_side(address: Address, options: ReadOptions) -> UnauditedRead | None:
    """B, in the child: read, audited and its table built, without what only the reader and
    the audit use (records, result files, the per-record checks); None for a harness result
    (read here)."""
    side = _open(address, options)
    if not isinstance(side, UnauditedRead):
        return None
    session = side.audited()
    _ = side.run.episodes
    thin = replace(side.run, records=[], result_files=[], record_checks=None)
    return UnauditedRead(side.address, thin, replace(session, run=thin))
