"""A benchmark-harness result as read (the file, its parse, its model or its schema problems).

Beside the models rather than in the reader, so the audit, the score, the export and the app can
name what they are handed without importing the loader. The result is the plain-Python one
(`evalview.model.harness_plain`): reading a valid harness file never imports pydantic.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalview.model.harness_plain import BenchmarkResult


@dataclass(frozen=True, slots=True)
class SchemaProblem:
    """One validation error: the JSON location (`arms[3].optimizer_steps`) and what is wrong."""

    where: str
    message: str
    line: int | None = None


@dataclass
class HarnessFile:
    """A harness result as read: the model when it validates, else the schema problems.

    `raw` is the parsed document (NaN kept as float nan) so the audit can look at what the file
    says even where the model refused it; `text` finds lines for findings.
    """

    path: Path
    text: str
    raw: dict[str, Any]
    result: BenchmarkResult | None
    problems: list[SchemaProblem] = field(default_factory=list)
    duplicate_keys: list[str] = field(default_factory=list)
    nonfinite: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.name

    def line_of(self, needle: str, start_after: str | None = None) -> int | None:
        """1-based line of the first `needle` (after `start_after`, if given), or None."""
        base = 0
        if start_after is not None:
            at = self.text.find(start_after)
            base = at if at >= 0 else 0
        idx = self.text.find(needle, base)
        return None if idx < 0 else self.text.count("\n", 0, idx) + 1

    def arm_line(self, run_id: str) -> int | None:
        """Line of an arm record, found by its unique run id."""
        return self.line_of(f'"run_id": {json.dumps(run_id)}') or self.line_of(json.dumps(run_id))

    def key_line(self, key: str) -> int | None:
        return self.line_of(f"{json.dumps(key)}:")
