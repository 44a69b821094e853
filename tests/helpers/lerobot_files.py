"""Small LeRobot eval_info documents for tests, made with the sample generator's arithmetic."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from evalview.samples.lerobot import multi_task_info, single_env_info


def multi_task_doc(
    *, newer_keys: bool = True, episodes: int = 6, seed: int = 3, shift: float = 0.0
) -> dict[str, Any]:
    """2 groups × 2 tasks × `episodes`, lerobot-eval's keys; `shift` raises every rate."""
    rng = random.Random(seed)
    rates = {("suite_a", 0): 0.8 + shift, ("suite_a", 1): 0.5 + shift,
             ("suite_b", 0): 0.3 + shift, ("suite_b", 1): 0.6 + shift}
    difficulty = {k: [random.Random(hash_key(k, i)).random() for i in range(episodes)]
                  for k in rates}
    return multi_task_info(rates, difficulty, run_dir="/tmp/run", newer_keys=newer_keys, rng=rng)


def hash_key(key: tuple[str, int], i: int) -> int:
    return sum(map(ord, key[0])) * 1000 + key[1] * 100 + i


def single_env_doc(seed: int = 5) -> dict[str, Any]:
    return single_env_info(random.Random(seed))


def write(path: Path, doc: Any, *, indent: int | None = 2) -> Path:
    """As lerobot-eval writes (Python's json, NaN as the bare token)."""
    path.write_text(json.dumps(doc, indent=indent), encoding="utf-8")
    return path
