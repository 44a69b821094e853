"""The numbers a result.json publishes, from a Scorecard: one mapping for the exporter that writes
them and for the re-audit that recomputes them from a reopened file (stats/reaudit.py), so the
two cannot drift apart."""

from __future__ import annotations

from typing import Any

from evalview.model.run import ERROR_CATEGORIES
from evalview.stats.scorecard import Scorecard

__all__ = ["DENOMINATOR_LABELS", "DERIVED_KEYS", "categories", "published_numbers"]

DENOMINATOR_LABELS = (
    ("selected", "selected_success_rate", "successes / selected cases"),
    ("attempted", "attempt_success_rate", "successes / attempted cases"),
    ("completed", "success_rate", "successes / completed cases"),
)

#: The keys of result.json whose values are derived from the episodes (and `protocol`'s
#: `selected_cases`).
DERIVED_KEYS = (
    "denominators",
    "counts",
    "rates",
    "aggregate",
    "tasks",
    "error_categories",
    "pending_infrastructure_errors",
)


def categories(counts: dict[str, int]) -> dict[str, int]:
    return {c: int(counts.get(c, 0)) for c in ERROR_CATEGORIES}


def published_numbers(card: Scorecard) -> dict[str, Any]:
    """`DERIVED_KEYS` of result.json, as plain JSON values."""
    d, rates = card.denominators, card.rates.to_json()
    return {
        "denominators": [
            {
                "name": name,
                "rate_name": rate_name,
                "label": label,
                "successes": d.successes,
                "denominator": getattr(d, name),
                "rate": rates[rate_name],
            }
            for name, rate_name, label in DENOMINATOR_LABELS
        ],
        "counts": {
            k: getattr(d, k)
            for k in ("selected", "attempted", "completed", "errors", "successes", "unattempted")
        },
        "rates": rates,
        # the score's own JSON (one source for both), less the view: an export is all-T
        # (the zero-spread caveat is published as a label, the page's and every reader's)
        "aggregate": {
            k: v for k, v in card.aggregate.to_json().items() if k not in ("view", "zero_spread")
        },
        "tasks": [
            {
                "task": t.task,
                "selected": t.selected,
                "attempted": t.attempted,
                "completed": t.completed,
                "errors": t.errors,
                "successes": t.successes,
                "unattempted": t.unattempted,
                "rate": t.rate if t.selected else None,
                "wilson95": list(t.wilson95) if t.selected else None,
                "error_categories": categories(t.error_categories),
            }
            for t in card.tasks
        ],
        "error_categories": categories(card.error_categories),
        "pending_infrastructure_errors": card.pending,
    }
