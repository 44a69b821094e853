"""Inspect AI eval logs (`.eval` zip, `.json`): reading, auditing (EV0xx), as `Run`s.

The reader's names are imported on first use (PEP 562): the audit imports this package's rules
module for every read, which must not import the reader (and its parser) for another format.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evalview.load.inspect_ai.reader import FORMAT, MAX_SAMPLES, READER, read_log

__all__ = ["FORMAT", "MAX_SAMPLES", "READER", "read_log"]


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module("evalview.load.inspect_ai.reader"), name)
    globals()[name] = value  # later look-ups skip this function
    return value
