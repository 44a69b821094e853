"""SHA-256 of a file beside an input, for the records that name other files by their hash
(RecoveryBench's analysis, a schema-3 result's task-level artifacts)."""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["sha256_file"]


def sha256_file(path: Path) -> str:
    """Hex digest, streamed by the standard library (a trajectories file is a few MB)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()
