"""Coverage of a summary: which expected tasks were scored, and whether the mean is final.

A mean over part of a split describes only that part. It is labelled `partial` and missing tasks
are listed, never imputed as zero (the spec's coverage and reporting rules). Without a catalog
the expected set is unknown, so nothing can be called final.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from evalview.psr.parser import PsrError

Status = Literal["final", "partial", "empty"]


@dataclass(frozen=True, slots=True)
class Coverage:
    """`expected` and `missing_tasks` are None when no catalog declares the split."""

    scored: int
    expected: int | None
    missing_tasks: tuple[str, ...] | None
    final: bool

    @property
    def status(self) -> Status:
        if self.scored == 0:
            return "empty"
        return "final" if self.final else "partial"

    def to_json(self) -> dict[str, Any]:
        return {
            "scored": self.scored,
            "expected": self.expected,
            "missing_tasks": None if self.missing_tasks is None else list(self.missing_tasks),
            "final": self.final,
        }

    @property
    def fraction(self) -> str:
        """`3/4`, or `3/?` without a catalog: for a table whose next column says the status."""
        return f"{self.scored}/{'?' if self.expected is None else self.expected}"

    def describe(self) -> str:
        """Short text for tables: `3/4 partial`, `100/100`, `3/?` (no catalog: expected unknown)."""
        if self.expected is None:
            return f"{self.scored}/?"
        text = f"{self.scored}/{self.expected}"
        return text if self.final else f"{text} partial"


def coverage(scored: Sequence[str], expected: Sequence[str] | None) -> Coverage:
    """Coverage of the scored tasks against the expected ones (None: no catalog)."""
    if expected is None:
        return Coverage(len(scored), None, None, final=False)
    done = set(scored)
    missing = tuple(t for t in expected if t not in done)
    return Coverage(len(scored), len(expected), missing, final=not missing and len(scored) > 0)


def reject_unexpected(
    tasks: Iterable[str], expected: Sequence[str] | None, *, model: str, split: str, source: str
) -> None:
    """A task the catalog does not declare is refused: it may be a typo or another benchmark."""
    if expected is None:
        return
    allowed = set(expected)
    unexpected = [t for t in tasks if t not in allowed]
    if unexpected:
        shown = ", ".join(repr(t) for t in unexpected[:5])
        more = f" and {len(unexpected) - 5} more" if len(unexpected) > 5 else ""
        raise PsrError(
            f"model {model!r}: {shown}{more} in {split} is not in the task catalog {source}; "
            "check the task stem and the stage, or the catalog."
        )
