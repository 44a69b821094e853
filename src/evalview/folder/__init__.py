"""Folders of reads: find every read under a directory, audit and score them in parallel.

Headless (no Textual): `evalview check DIR`, `evalview table` and the Runs screen all use it.
"""

from evalview.folder.discover import (
    MAX_DEPTH,
    MAX_READS,
    Candidate,
    Discovery,
    discover,
    is_closed_run_dir,
    is_folder,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_READS",
    "Candidate",
    "Discovery",
    "discover",
    "is_closed_run_dir",
    "is_folder",
]
