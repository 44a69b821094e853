"""Finding the reads under a directory, without following links and without stopping on a bad entry.

A directory holding any file of a closed run (manifest.json, episodes.jsonl, status.json,
summary.json) is one read and is not descended into. A `*.json` file elsewhere (or a file with
another ending a reader declares, `registry.CANDIDATE_SUFFIXES`: `*.jsonl`) is a candidate read:
whether it is one is decided later by content (`evalview.folder.reads`), never by its name.

Limits, so a folder pointed at by mistake (a home directory, a dataset) cannot run away:
at most `MAX_DEPTH` directory levels below DIR, at most `MAX_READS` candidate reads and at most
`MAX_ENTRIES` directory entries looked at. Hidden entries (a name starting with ".") and
`__pycache__` are skipped. Symbolic links are never followed: each becomes a skipped entry with its
reason. A directory that cannot be listed becomes an unreadable entry with its reason; the scan goes
on. The order is deterministic: depth-first, names in code-point order.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from evalview.model.address import Address

#: Directory levels below DIR that are searched (DIR itself is level 0).
MAX_DEPTH = 8
#: Candidate reads found before the scan stops.
MAX_READS = 2_000
#: Directory entries looked at before the scan stops.
MAX_ENTRIES = 200_000

#: Files that make a directory a closed run (the loader reads them as one run).
RUN_FILES = frozenset({"manifest.json", "episodes.jsonl", "status.json", "summary.json"})
_SKIPPED_NAMES = frozenset({"__pycache__", "node_modules"})

#: closed-run: a run directory; file: a *.json to detect by content; unreadable: an entry that
#: could not be looked at (a row with its reason); skipped: seen and deliberately not read (a link).
Kind = Literal["closed-run", "file", "unreadable", "skipped"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One entry of the scan. `rel` is the path relative to DIR, with "/" separators."""

    rel: str
    kind: Kind
    reason: str | None = None

    @property
    def is_read(self) -> bool:
        return self.kind in ("closed-run", "file")


@dataclass
class Discovery:
    """What a scan found under `root`, in a stable order, and whether it stopped early."""

    root: Path
    entries: list[Candidate] = field(default_factory=list)
    #: Why the scan stopped before the end (a limit was reached), or None when it saw everything.
    truncated: str | None = None

    @property
    def reads(self) -> list[Candidate]:
        return [e for e in self.entries if e.is_read]


class FolderError(Exception):
    """DIR itself cannot be scanned (exit 2). The message names it and says what to do."""


def is_closed_run_dir(path: Path) -> bool:
    """True when `path` is a directory holding a file of a closed run (the loader's business)."""
    try:
        with os.scandir(path) as it:
            return any(e.name in RUN_FILES for e in it)
    except OSError:
        return False


def is_folder(path: Path) -> bool:
    """A directory (not a link) that is not itself a closed run: a folder of reads."""
    return path.is_dir() and not path.is_symlink() and not is_closed_run_dir(path)


def discover(
    root: str | Path,
    *,
    max_depth: int = MAX_DEPTH,
    max_reads: int = MAX_READS,
    max_entries: int = MAX_ENTRIES,
) -> Discovery:
    """Scan `root` for candidate reads. Raises FolderError only when `root` cannot be listed."""
    # the readers' file endings; imported here, not above: `is_folder` runs before the app's
    # first frame, which must not wait on the readers (tests/tui/test_app_imports.py)
    from evalview.load.registry import CANDIDATE_SUFFIXES

    base = Path(root)
    try:
        st = os.lstat(base)
    except OSError as exc:
        raise FolderError(f"{base}: cannot be read ({exc.strerror}).") from exc
    if not stat.S_ISDIR(os.stat(base).st_mode if stat.S_ISLNK(st.st_mode) else st.st_mode):
        raise FolderError(f"{base}: not a directory.")
    try:
        with os.scandir(base) as it:
            top = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        raise FolderError(
            f"{base}: the directory cannot be listed ({exc.strerror}). Check its permissions."
        ) from exc
    found = Discovery(base)
    seen = [0]
    reads = [0]  # counted as they are added: rebuilding `found.reads` per entry was quadratic

    def add(candidate: Candidate) -> None:
        found.entries.append(candidate)
        reads[0] += candidate.is_read

    def over_limit() -> bool:
        if found.truncated is not None:
            return True
        if reads[0] >= max_reads:
            found.truncated = (
                f"stopped after {max_reads:,} candidate reads (the limit): point evalview at a "
                "smaller folder"
            )
        elif seen[0] >= max_entries:
            found.truncated = (
                f"stopped after looking at {max_entries:,} entries (the limit): point evalview "
                "at a smaller folder"
            )
        return found.truncated is not None

    def walk(entries: list[os.DirEntry[str]], prefix: str, depth: int) -> None:
        from evalview.load.lm_eval.reader import read_with_results

        names = [e.name for e in entries]
        for entry in entries:
            if over_limit():
                return
            seen[0] += 1
            name = entry.name
            if name.startswith(".") or name in _SKIPPED_NAMES:
                continue
            rel = prefix + name
            try:
                if entry.is_symlink():
                    add(
                        Candidate(
                            rel,
                            "skipped",
                            "a symbolic link, not followed: pass its target to read it",
                        )
                    )
                    continue
                is_dir = entry.is_dir(follow_symlinks=False)
                is_file = entry.is_file(follow_symlinks=False)
            except OSError as exc:
                add(
                    Candidate(rel, "unreadable", f"cannot be read ({exc.strerror})")
                )
                continue
            if is_file:
                if read_with_results(name, names):  # lm-eval samples: part of their results read
                    continue
                if name.lower().endswith(CANDIDATE_SUFFIXES):
                    add(Candidate(rel, "file"))
                continue
            if not is_dir:
                continue
            try:
                with os.scandir(entry.path) as it:
                    children = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                add(
                    Candidate(
                        rel,
                        "unreadable",
                        f"the directory cannot be listed ({exc.strerror}); check its permissions",
                    )
                )
                continue
            if any(c.name in RUN_FILES for c in children):
                add(Candidate(rel, "closed-run"))
                continue
            if depth + 1 > max_depth:
                if any(
                    c.name.lower().endswith(CANDIDATE_SUFFIXES) or c.is_dir(follow_symlinks=False)
                    for c in children
                ):
                    add(
                        Candidate(
                            rel,
                            "skipped",
                            f"deeper than {max_depth} levels below the folder (the limit): "
                            "open it directly",
                        )
                    )
                continue
            walk(children, rel + "/", depth + 1)

    walk(top, "", 1)
    return found


def lone_read(path: Path, door: str = "score") -> Path | None:
    """The one read in the folder `path`, for a door that takes one read (`score`, `export`,
    `compare`): `check DIR` finds the same reads. None when `path` is not a folder of reads,
    or holds no read at all; FolderError when it holds several (naming them, and what to pass)."""
    if not is_folder(path):
        return None
    found = discover(path)
    reads = found.reads
    if len(reads) == 1:
        return path / reads[0].rel
    if not reads:  # the closed-run reader says what is missing, as `check DIR` does
        return None
    shown = ", ".join(str(path / r.rel) for r in reads[:4])
    more = f" and {len(reads) - 4} more" if len(reads) > 4 else ""
    raise FolderError(
        f"{path}: a folder of {len(reads)} reads ({shown}{more}); `evalview {door}` takes one "
        f"read: pass its path. `evalview check {path}`, `evalview table {path}` and `evalview "
        f"{path}` take the whole folder."
    )


def one_read(address: Address, door: str = "score") -> Address:
    """`address`, or the one read inside it when it is a folder of exactly one read (an
    lm-eval model directory, a logs/ folder of one log): `score`, `export` and `compare` answer
    as `check DIR` finds it. InputError (exit 2) naming the reads when it holds several."""
    from dataclasses import replace

    from evalview.load.errors import InputError

    try:
        inner = lone_read(address.path, door)
    except FolderError as exc:
        raise InputError(str(exc)) from exc
    return address if inner is None else replace(address, path=inner)
