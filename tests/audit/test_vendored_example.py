"""The vendored example run (helpers.paths.EXAMPLE, what every other test reads) stays
byte-identical to the shared one the format ships with, when that sits beside the repository."""

from __future__ import annotations

from pathlib import Path

from helpers.paths import EXAMPLE, REPO

#: The only test that looks outside the repository, and only when the directory is there.
SHARED = REPO.parent / "shared" / "examples" / "closed-run-small"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_vendored_example_matches_the_shared_one() -> None:
    vendored = _files(EXAMPLE)
    assert len(vendored) == 16
    if SHARED.is_dir():
        assert vendored == _files(SHARED)
