"""Reading any supported input: the readers, their registry, and `load_run` (path → Run).

Formats join `evalview.load.registry.READERS` explicitly; the interface a reader implements is in
`evalview.load.reader` (and docs/CONTRIBUTING.md, "Adding an input format").
"""

from __future__ import annotations

from evalview.load.errors import InputError
from evalview.load.reader import NamedRun, Reader, Reading, ReadOptions
from evalview.load.registry import READERS, load_run, read_input, select_run
from evalview.load.source import Source

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
