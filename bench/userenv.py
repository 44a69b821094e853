"""Measure evalview as a user runs it: with its bytecode compiled.

pip compiles an installed package's bytecode at install time, and Python writes it on first
import of an editable install. This machine's environment sets PYTHONDONTWRITEBYTECODE=1, so
every measured process compiled evalview's modules from source (about 0.09 s of CPU for `check`,
50 modules) while the floors, which import only orjson's compiled package, never paid it: the
ratios were pessimistic by about 0.1 of a floor. Every bench calls `as_a_user()` first.
"""

from __future__ import annotations

import compileall
import os
from pathlib import Path

import evalview


def as_a_user(tree: Path | None = None) -> None:
    """Compile evalview's bytecode (`tree`, else the package this process imports) and let
    child processes use it."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(tree or Path(evalview.__file__).parent, quiet=1)
