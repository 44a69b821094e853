"""Where an export may write: a new directory outside the run it describes.

Writing into the run would change the record being published (and a later export would read its
own output), so the destination is compared with the run after resolving symlinks and `..`.
Refusals are exceptions carrying a message that names the path and what to do.
"""

from __future__ import annotations

import os
from pathlib import Path

from evalview.errors import Refused
from evalview.findings import Finding

__all__ = ["AuditRefused", "ExportRefused", "Refused", "check_destination", "run_root"]


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
