"""Findings: what the audit (and the reader) says about a record, pointing at the exact place."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    """Errors break the record; warnings are publication caveats; info is context."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Finding:
    """One statement about the record. `file` is relative to the run, `line` is 1-based."""

    code: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    episode_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "file": self.file,
            "line": self.line,
            "episode_id": self.episode_id,
            "message": self.message,
        }

    @property
    def location(self) -> str:
        """Human form of the place: `episodes.jsonl:12 (task-a/seed7)`."""
        parts = []
        if self.file:
            parts.append(f"{self.file}:{self.line}" if self.line is not None else self.file)
        if self.episode_id is not None:
            parts.append(f"({self.episode_id})" if parts else f"episode {self.episode_id}")
        return " ".join(parts) if parts else "run"


def count_by_severity(findings: list[Finding]) -> dict[str, int]:
    counts = {s.value: 0 for s in Severity}
    for f in findings:
        counts[f.severity.value] += 1
    return counts


def audit_verdict(counts: dict[str, int]) -> tuple[str, str]:
    """(kind, text) of the always-visible audit verdict: `✗ 2 errors, 1 warning`, `✓ clean`."""
    e, w = counts.get("error", 0), counts.get("warning", 0)
    if e:
        return "error", f"✗ {e} error{'s' * (e != 1)}, {w} warning{'s' * (w != 1)}"
    if w:
        return "warning", f"⚠ {w} warning{'s' * (w != 1)}"
    return "success", "✓ clean"


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Stable order: severity, then file, line, code, so output diffs cleanly between runs."""
    return sorted(
        findings,
        key=lambda f: (f.severity.rank, f.file or "", f.line or 0, f.code, f.episode_id or ""),
    )
