"""LeRobot `lerobot-eval` results (`eval_info.json`): reading, auditing (EV7xx), as `Run`s.

The reader's names are imported on first use (PEP 562): the audit imports this package's rules
module for every read, which must not import the reader (and its parser) for another format.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evalview.load.lerobot.reader import (
        FORMAT,
        MAX_LEROBOT_BYTES,
        MAX_LEROBOT_EPISODES,
        READER,
        load_lerobot_reads,
    )

__all__ = ["FORMAT", "MAX_LEROBOT_BYTES", "MAX_LEROBOT_EPISODES", "READER", "load_lerobot_reads"]


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module("evalview.load.lerobot.reader"), name)
    globals()[name] = value  # later look-ups skip this function
    return value
