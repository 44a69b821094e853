"""One input path as the readers see it: read once, parsed at most once, shared by every reader.

Readers detect their format by content (`head`, `json_value`) and then read it; the bytes and the
strict parse are cached here, so asking every registered reader "is this yours?" costs one read
and at most one parse of the file, whatever the number of formats.
"""

from __future__ import annotations

import os
import stat
from functools import cached_property
from pathlib import Path
from typing import Any

from evalview.load.errors import InputError
from evalview.load.input_path import check_input_path, read_input_file
from evalview.load.safe_json import JsonProblem, parse_strict

__all__ = ["Source", "read_json_file"]

#: How much of a file `head` shows a detector (format markers sit near the top).
HEAD_BYTES = 4096


class Source:
    """A path to read: a directory, or a file whose bytes and JSON parse are cached.

    The path itself is checked before anything is opened (`check`, load/input_path.py): a
    symlink, a FIFO, a device or a file over the size bound is refused with InputError, so no
    command and not the app can hang on a pipe or read /dev/zero without end.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    @cached_property
    def exists(self) -> bool:
        """True for anything at the path, a dangling symlink included (the reader says why)."""
        return self.path.exists() or self.path.is_symlink()

    @cached_property
    def lstat(self) -> os.stat_result:
        """The path's own stat (never followed). InputError (exit 2) when it is missing, a
        symlink, neither a regular file nor a directory, or a file over the bound."""
        return check_input_path(self.path)

    def check(self) -> None:
        """Refuse the path (InputError) unless it is a directory or a bounded regular file."""
        _ = self.lstat

    @cached_property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.lstat.st_mode)

    @cached_property
    def size(self) -> int | None:
        """The file's size in bytes, or None when it cannot be stat'ed."""
        try:
            return self.lstat.st_size
        except InputError:
            return None

    @cached_property
    def raw(self) -> bytes:
        """The file's bytes (bounded; never through a symlink, never from a FIFO or device).
        InputError (exit 2) when it cannot be read."""
        return read_input_file(self.path)

    def head(self, n: int = HEAD_BYTES) -> bytes:
        """The first `n` bytes (of the cached file), for a detector's marker test."""
        return self.raw[:n]

    @cached_property
    def parsed(self) -> tuple[Any, JsonProblem | None]:
        """`parse_strict` of the bytes: (value, None) or (None, why it is not strict JSON)."""
        return parse_strict(self.raw)

    @property
    def json_value(self) -> Any:
        """The strictly parsed JSON value, or None when the file is not strict JSON."""
        return self.parsed[0]

    def strict_json(self, what: str) -> Any:
        """The parsed JSON of a bounded file, or InputError (exit 2) naming `what` it was meant
        to be and the line to fix. The path is checked before a byte is read."""
        if "raw" not in self.__dict__:
            self.__dict__["raw"] = read_input_file(self.path, what)
        value, problem = self.parsed
        if problem is not None:
            at = f":{problem.line}" if problem.line is not None else ""
            raise InputError(
                f"{self.path}{at}: {problem.detail}; the {what} was not read. Fix the JSON there."
            )
        return value


def read_json_file(path: Path, what: str) -> Any:
    """Strictly parsed JSON of a bounded file; InputError (exit 2) when it cannot be read."""
    return Source(path).strict_json(what)
