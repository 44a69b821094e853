"""Where one read is: the input, the read's key in a file of several, and its side files.

One value carried end to end (the command line, the app, the Runs screen, export, watch and
compare re-enter through it), so a named read or a PSR targets file is never lost between doors.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

__all__ = ["Address"]


@dataclass(frozen=True, slots=True)
class Address:
    """`path` (a directory or file), `read` (the key of a named read, None for a lone read) and
    the partial-credit side files (`bare_targets`, `catalog`, as `evalview psr` takes them)."""

    path: Path
    read: str | None = None
    bare_targets: Path | None = None
    catalog: Path | None = None

    @classmethod
    def of(cls, path: str | Path | Address, read: str | None = None) -> Address:
        """An address from a path as typed (an Address is kept, `read` overriding its own)."""
        if isinstance(path, Address):
            return path if read is None else replace(path, read=read)
        return cls(Path(path), read)

    @property
    def label(self) -> str:
        """`FILE` or `FILE [KEY]`: how every door names the read."""
        return str(self.path) if self.read is None else f"{self.path} [{self.read}]"

    def with_read(self, read: str | None) -> Address:
        return replace(self, read=read)

    @property
    def has_side_files(self) -> bool:
        return self.bare_targets is not None or self.catalog is not None
