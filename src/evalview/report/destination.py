"""Where an export may write: a new directory outside the run it describes.

Writing into the run would change the record being published (and a later export would read its
own output), so the destination is compared with the run after resolving symlinks and `..`.
Refusals are exceptions carrying a message that names the path and what to do.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from evalview.errors import Refused
from evalview.findings import Finding

__all__ = [
    "AuditRefused",
    "ExportRefused",
    "Refused",
    "check_destination",
    "run_root",
    "write_new_directory",
]


class ExportRefused(Refused):
    """The export will not proceed; the message says why and what to do (exit 1)."""


class AuditRefused(ExportRefused):
    """Refused because of findings (audit errors, credential-shaped values), attached for
    display: the CLI and the app list each one with its place."""

    def __init__(self, message: str, findings: list[Finding]) -> None:
        super().__init__(message)
        self.findings = findings


def run_root(source: Path) -> Path:
    """The directory holding the run (the run itself, or the folder of a results JSON)."""
    return (source if source.is_dir() else source.parent).resolve()


def check_destination(source: Path, dest: Path) -> Path:
    """The resolved destination, or Refused when it exists, lies inside the run, or its parent
    is missing (only the final directory is ever created)."""
    if os.path.lexists(dest):
        raise ExportRefused(
            f"{dest} already exists; export only writes a new directory. "
            "Choose a new --output-dir (or remove the old export yourself)."
        )
    parent = dest.parent
    if not os.path.isdir(parent):
        raise ExportRefused(
            f"{dest}: its parent {parent} does not exist (or is not a directory); export creates "
            f"only the final directory, never a chain of them. Create {parent} first, or choose "
            "an --output-dir inside an existing directory."
        )
    resolved = dest.resolve()  # follows symlinks of existing parents and collapses `..`
    root = run_root(source)
    if resolved == root or resolved.is_relative_to(root):
        raise ExportRefused(
            f"{dest} is inside the run being exported ({source}); evalview never writes into "
            "the run it reads. Choose an --output-dir outside it."
        )
    return resolved


def write_new_directory(
    dest: Path,
    files: Mapping[str, bytes],
    *,
    before_rename: Callable[[], None] | None = None,
) -> list[Path]:
    """Write `files` into the new directory `dest` all at once: a hidden sibling is filled, then
    renamed into place, so a failed or refused export leaves nothing behind. `before_rename` may
    raise to refuse at the last moment (the run changed while it was read)."""
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".partial", dir=dest.parent))
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o777 & ~mask)
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        if before_rename is not None:
            before_rename()
        if os.path.lexists(dest):
            raise ExportRefused(f"{dest} appeared during the export; nothing was written over it.")
        os.rename(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return [dest / name for name in files]
