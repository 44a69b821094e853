"""lm-evaluation-harness output: results_<ts>.json, and its samples_<task>_<ts>.jsonl if logged.

The reader's names are imported on first use (PEP 562): the audit imports this package's rules
module for every read, which must not import the reader (and its parser) for another format.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evalview.load.lm_eval.reader import READER

__all__ = ["READER"]


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module("evalview.load.lm_eval.reader"), name)
    globals()[name] = value  # later look-ups skip this function
    return value
