"""The two ways a command stops short, one base type each; `evalview.cli` maps them to exit codes.

- `InputError`: the input cannot be read as what it claims to be at all (exit 2).
- `Refused`: the input was read, but the rules forbid the answer asked for (exit 1). Every
  domain's refusal (a comparison, an export, a PSR message) is a subclass, so the command line
  maps them once.

Every message names the file (and line or episode) and what to do.
"""

from __future__ import annotations

__all__ = ["InputError", "Refused"]


class InputError(Exception):
    """The path is missing, not a run, or unreadable as a whole. The message says what to do."""


class Refused(Exception):
    """Evalview will not give this answer; the message says why and what to do (exit 1)."""
