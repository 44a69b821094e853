"""Errored rollouts, error categories and termination reasons, pointing at their records.

An infrastructure error says nothing about the policy: it is *pending* a re-run, never a failure,
and every message here says so. The other categories (policy, protocol, evaluation) are errors of
the read that a reader must see before trusting its numbers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from evalview.model.run import ERROR, ERROR_CATEGORIES, UNATTEMPTED, EpisodeTable

INFRASTRUCTURE = "infrastructure"
#: Key for an errored record whose category is missing or not one of the four.
UNKNOWN_CATEGORY = "unknown"
#: Key for an attempted record with no termination reason.
NO_REASON = "(none)"


@dataclass(frozen=True, slots=True)
class ErroredCase:
    """One errored rollout of the selected cases, with where its record is."""

    episode_id: str
    task: str
    category: str
    error_type: str | None
    file: str | None
    line: int | None

    @property
    def pending(self) -> bool:
        """Infrastructure errors await a re-run; they are not failures of the policy."""
        return self.category == INFRASTRUCTURE

    @property
    def location(self) -> str:
        if self.file is None:
            return "no record"
        return f"{self.file}:{self.line}" if self.line else self.file

    def describe(self) -> str:
        typ = f" ({self.error_type})" if self.error_type else ""
        note = ", pending a re-run (not a failure)" if self.pending else ""
        return f"{self.episode_id}: {self.category} error{typ}{note} at {self.location}"

    def to_json(self) -> dict[str, Any]:
        return {
            "episode_id": self.episode_id,
            "task": self.task,
            "category": self.category,
            "pending": self.pending,
            "error_type": self.error_type,
            "file": self.file,
            "line": self.line,
        }


def category_of(value: object) -> str:
    return value if isinstance(value, str) and value in ERROR_CATEGORIES else UNKNOWN_CATEGORY


def errored_cases(cases: EpisodeTable) -> tuple[ErroredCase, ...]:
    """The errored rows, in case order."""
    out = []
    for i in np.flatnonzero(cases.status == ERROR):
        line = int(cases.line[i])
        out.append(
            ErroredCase(
                episode_id=str(cases.ids[i]),
                task=str(cases.task[i]),
                category=category_of(cases.error_category[i]),
                error_type=cases.error_type[i],
                file=cases.file[i],
                line=line or None,
            )
        )
    return tuple(out)


def category_counts(cases: EpisodeTable) -> dict[str, int]:
    """Errored rows by category: the four categories always (zeros included), `unknown` if any."""
    counts = dict.fromkeys(ERROR_CATEGORIES, 0)
    for value in cases.error_category[cases.status == ERROR]:
        key = category_of(value)
        counts[key] = counts.get(key, 0) + 1
    return counts


def termination_counts(cases: EpisodeTable) -> dict[str, int]:
    """Attempted rows by termination reason, most frequent first (ties by name)."""
    attempted = cases.termination_reason[cases.status != UNATTEMPTED]
    counter = Counter(r if isinstance(r, str) else NO_REASON for r in attempted)
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))
