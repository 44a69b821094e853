"""The check registry: the audit's checks join it; the rules they emit are `evalview.rules`.

The names of `evalview.rules` are re-exported, so a check module writes `R.rule(...)` and
`R.FILE_MISSING` as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from evalview.findings import Finding
from evalview.rules import (
    DUPLICATE_KEY,
    EMPTY_LINE,
    FAMILIES,
    FILE_MISSING,
    FILE_UNREADABLE,
    INVALID_JSON,
    NONFINITE_NUMBER,
    NOT_AN_OBJECT,
    NOT_UTF8,
    PROBLEM_RULES,
    RULES,
    SYMLINK,
    TOO_LARGE,
    TOO_MANY_EPISODES,
    E,
    I,
    Rule,
    W,
    rule,
)

if TYPE_CHECKING:
    from evalview.model.run import Run

__all__ = [
    "CHECKS",
    "DUPLICATE_KEY",
    "EMPTY_LINE",
    "FAMILIES",
    "FILE_MISSING",
    "FILE_UNREADABLE",
    "INVALID_JSON",
    "NONFINITE_NUMBER",
    "NOT_AN_OBJECT",
    "NOT_UTF8",
    "PROBLEM_RULES",
    "RULES",
    "SYMLINK",
    "TOO_LARGE",
    "TOO_MANY_EPISODES",
    "Check",
    "E",
    "I",
    "Rule",
    "W",
    "check",
    "rule",
]

Check = Callable[["Run"], Iterable[Finding]]
CHECKS: list[Check] = []


def check(fn: Check) -> Check:
    """Register a check function: it reads a Run and yields findings of registered rules."""
    CHECKS.append(fn)
    return fn
