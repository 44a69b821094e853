"""Loading any supported input into a `Run` (format detection lives here)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from evalview.load.closed_run import OnRead, load_closed_run
from evalview.load.errors import InputError
from evalview.model.run import DEFAULT_MESSAGE_KEY, Run

__all__ = ["FILE_LOADERS", "InputError", "load_run"]

#: Loaders for single-file inputs (results JSON). Each returns a Run, or None when the file is not
#: its format, or raises InputError. Later modules append to this list.
FileLoader = Callable[[Path, bytes], Run | None]
FILE_LOADERS: list[FileLoader] = []


def load_run(
    path: str | Path,
    *,
    message_key: str = DEFAULT_MESSAGE_KEY,
    freeze: bool = False,
    lazy_table: bool = False,
    progress: Callable[[int, int], None] | None = None,
    on_read: OnRead | None = None,
) -> Run:
    """Read a closed-run directory or a results JSON. Raises InputError (exit 2) when unusable.

    `freeze`, `lazy_table`: see `load_closed_run` (for short-lived commands only). `progress`:
    called with (bytes done, total) while a closed run is read (a single file is one step).
    `on_read(name, lstat, data)`: every regular file's bytes once, as read (the export hashes
    them there).
    """
    p = Path(path)
    if not os_exists(p):
        raise InputError(f"{p}: no such file or directory.")
    if p.is_dir():
        return load_closed_run(
            p,
            message_key=message_key,
            freeze=freeze,
            lazy_table=lazy_table,
            progress=progress,
            on_read=on_read,
        )
    if p.name in ("manifest.json", "episodes.jsonl", "status.json", "summary.json"):
        return load_closed_run(
            p.parent,
            message_key=message_key,
            freeze=freeze,
            lazy_table=lazy_table,
            progress=progress,
            on_read=on_read,
        )
    try:
        st = os.lstat(p)
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p}: cannot be read ({exc.strerror}).") from exc
    if on_read is not None and stat.S_ISREG(st.st_mode):
        on_read(p.name, st, raw)
    import evalview.report.reopen  # noqa: F401  (registers the exported result.json loader)

    for loader in FILE_LOADERS:
        run = loader(p, raw)
        if run is not None:
            return run
    raise InputError(f"{p}: {_why_not_a_run(raw)} " + _WHAT_TO_PASS)


_WHAT_TO_PASS = (
    "Pass the run directory (the one holding manifest.json) or a result.json written by "
    "`evalview export`."
)


def _why_not_a_run(raw: bytes) -> str:
    """Say what the file is instead, so the user can tell a wrong path from a broken file."""
    from evalview.load.safe_json import parse_strict

    _value, problem = parse_strict(raw)
    if problem is not None:
        has_line = problem.line is not None and "line" not in problem.detail
        where = f" at line {problem.line}" if has_line else ""
        return f"not strict JSON ({problem.detail}{where}), so not a results JSON."
    return "valid JSON, but neither a closed run nor an evalview result.json."


def os_exists(p: Path) -> bool:
    return p.exists() or p.is_symlink()
