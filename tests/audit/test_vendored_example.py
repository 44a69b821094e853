"""The vendored copy of the shared example stays byte-identical to the shared one."""

from __future__ import annotations

from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared" / "examples" / "closed-run-small"
VENDORED = Path(__file__).resolve().parent / "fixtures" / "closed-run-small"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_vendored_example_matches_the_shared_one() -> None:
    vendored = _files(VENDORED)
    assert len(vendored) == 16
    if SHARED.is_dir():
        assert vendored == _files(SHARED)
