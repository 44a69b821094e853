"""A minimal run of one completed episode whose verifier message a test chooses (PSR cases)."""

from __future__ import annotations

import json
from pathlib import Path


def write_one_episode_run(root: Path, message: str) -> Path:
    """Only manifest.json and episodes.jsonl: enough for the loader and the PSR scorer."""
    root.mkdir()
    manifest = {"run_id": "r", "policy": {"name": "p"}, "protocol": {"episode_ids": ["a/seed1"]}}
    (root / "manifest.json").write_text(json.dumps(manifest))
    record = {
        "episode": {"id": "a/seed1", "task": "a", "seed": 1},
        "status": "completed",
        "success": False,
        "metrics": {"success": False, "message": message},
    }
    (root / "episodes.jsonl").write_text(json.dumps(record) + "\n")
    return root
