"""Reading any supported input: the readers, their registry, and `load_run` (path → Run).

Formats join `evalview.load.registry.READERS` explicitly; the interface a reader implements is in
`evalview.load.reader` (and docs/CONTRIBUTING.md, "Adding an input format").

The names below are imported on first use (PEP 562), so importing a small submodule such as
`evalview.load.input_path` (the command line's path check, before the app's first frame) does
not import every reader (docs/performance.md, "First paint").
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evalview.load.errors import InputError
    from evalview.load.reader import NamedRun, Reader, Reading, ReadOptions
    from evalview.load.registry import READERS, load_run, read_input, select_run
    from evalview.load.source import Source

_HOMES = {
    "InputError": "evalview.load.errors",
    "NamedRun": "evalview.load.reader",
    "Reader": "evalview.load.reader",
    "Reading": "evalview.load.reader",
    "ReadOptions": "evalview.load.reader",
    "READERS": "evalview.load.registry",
    "load_run": "evalview.load.registry",
    "read_input": "evalview.load.registry",
    "select_run": "evalview.load.registry",
    "Source": "evalview.load.source",
}

__all__ = [
    "READERS",
    "InputError",
    "NamedRun",
    "ReadOptions",
    "Reader",
    "Reading",
    "Source",
    "load_run",
    "read_input",
    "select_run",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'evalview.load' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value
