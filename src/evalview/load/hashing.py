"""SHA-256 of a file beside an input, for the records that name other files by their hash
(RecoveryBench's analysis, a schema-3 result's task-level artifacts)."""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["sha256_file"]


def sha256_file(path: Path) -> str:
    """Hex digest, read in 1 MiB blocks (a trajectories file is a few MB; nothing is kept)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
