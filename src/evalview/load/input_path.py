"""The path a user names, checked before anything is opened: what the format asks of files inside
a run (a regular file, not a symlink, within the size bound) asked of the top-level path too.

A FIFO given as PATH would block the first `open` forever, a symlink to /dev/zero would be read
until memory runs out, and a symlinked result.json would point a publication anywhere. So the
path is `lstat`ed, never followed, and only a regular file or a directory passes; a file is then
opened with O_NOFOLLOW and O_NONBLOCK (a FIFO swapped in after the stat cannot block), checked
again on the open descriptor, and read no further than the bound.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from evalview.load.bounds import MAX_BYTES
from evalview.load.errors import InputError

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_BINARY", 0)
)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_input_path(path: Path, what: str = "input") -> os.stat_result:
    """The lstat of `path` when it is a directory or a regular file within the bound; else
    InputError (exit 2) naming the path and what to pass instead. Nothing is opened."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if what == "input":
            raise InputError(f"{path}: no such file or directory.") from None
        raise InputError(
            f"{path}: the {what} cannot be read (No such file or directory)."
        ) from None
    except OSError as exc:
        raise InputError(f"{path}: the {what} cannot be read ({exc.strerror}).") from exc
    if stat.S_ISLNK(st.st_mode):
        raise InputError(
            f"{path}: is a symbolic link; evalview does not follow links to its inputs (the "
            f"format rejects symlinked sources). Pass the real {what} itself."
        )
    if stat.S_ISDIR(st.st_mode):
        return st
    if not stat.S_ISREG(st.st_mode):
        raise InputError(
            f"{path}: is {_kind(st.st_mode)}, not a file or directory; it was not opened. "
            f"Pass the {what} as a regular file or a run directory."
        )
    if st.st_size > MAX_BYTES:
        raise InputError(
            f"{path}: the {what} is {st.st_size / 2**20:.1f} MiB, over the bound of "
            f"{MAX_BYTES // 2**20} MiB; it was not read. Split it."
        )
    return st


def read_input_file(path: Path, what: str = "input", limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file `path` (checked as `check_input_path` does), never more than
    `limit`: InputError when it is anything else, grows past the bound or cannot be read."""
    st = check_input_path(path, what)
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: is a directory; pass the {what} file itself.")
    if st.st_size > limit:
        raise InputError(
            f"{path}: the {what} is {st.st_size:,} bytes, over its bound of {limit:,}; "
            "it was not read."
        )
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        raise InputError(f"{path}: the {what} cannot be read ({exc.strerror}).") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(
                f"{path}: changed into something other than a regular file while being "
                f"opened; it was not read. Pass the {what} as a regular file."
            )
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, max(st.st_size + 1 - size, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise InputError(
                    f"{path}: the {what} grew past its bound of {limit:,} bytes while being "
                    "read; it was not read."
                )
    except OSError as exc:
        raise InputError(f"{path}: the {what} cannot be read ({exc.strerror}).") from exc
    finally:
        os.close(fd)
    return b"".join(chunks)
