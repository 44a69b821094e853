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
    "last_export_dir",
    "proposed_destination",
    "remember_export_dir",
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


#: File names that say nothing about the read (the folder's name does).
_GENERIC_STEMS = frozenset({"result", "results", "eval_info", "manifest", "summary"})


def _state_file() -> Path:
    """Where the app remembers the directory a reviewer last exported into (XDG state)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "evalview" / "last-export-dir"


def last_export_dir() -> Path | None:
    """The directory the reviewer chose for their last export, when it still exists."""
    try:
        text = _state_file().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    chosen = Path(text)
    return chosen if text and chosen.is_absolute() and chosen.is_dir() else None


def remember_export_dir(dest: Path) -> None:
    """Remember `dest`'s parent for the next proposal; a failure to write is not an error (the
    export itself succeeded), so it is silent."""
    state = _state_file()
    try:
        state.parent.mkdir(parents=True, exist_ok=True)
        state.write_text(str(dest.absolute().parent) + "\n", encoding="utf-8")
    except OSError:
        pass


def proposed_destination(source: Path, *, bundled: Path | tuple[Path, ...] = ()) -> Path:
    """A new folder named after the input (`smolvla-libero-40k-export`), never inside the run:
    under the directory the reviewer chose last; else beside the run's folder; a bundled sample
    (a checkout's sample_runs/ or the user cache, both in `bundled`) goes to the home directory,
    not into a checkout or a hidden cache."""
    source = source.absolute()
    name = source.name if source.is_dir() else source.stem
    if not source.is_dir() and name.lower() in _GENERIC_STEMS:
        name = source.parent.name
    root = run_root(source)
    roots = (bundled,) if isinstance(bundled, Path) else bundled
    inside = [r for r in roots if source.resolve().is_relative_to(r.resolve())]
    last = last_export_dir()
    if last is not None and not last.resolve().is_relative_to(root):
        parent = last
    elif inside:
        parent = Path.home()
    else:
        parent = root.parent
    stem = f"{name or 'evalview'}-export"
    candidate = parent / stem
    n = 2
    while os.path.lexists(candidate):
        candidate = parent / f"{stem}-{n}"
        n += 1
    return candidate


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
