"""Usage arithmetic of the closed-result format: six fields, unknown (null) propagates."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from evalview.model.run import USAGE_FIELDS

__all__ = ["USAGE_FIELDS", "sum_component_usage", "sum_usage", "unknown_usage"]


def unknown_usage() -> dict[str, Any]:
    """All six fields unknown: what a run reports when the provider said nothing."""
    return dict.fromkeys(USAGE_FIELDS)


def sum_usage(parts: Iterable[Mapping[str, Any] | None]) -> dict[str, Any]:
    """Field-wise sum in the given order; a missing part or a null field makes that total null.

    Summing in record order (not with fsum) matches what the reference runner does, so float
    totals are the same bits a reader recomputing them in file order gets.
    """
    totals: dict[str, Any] = dict.fromkeys(USAGE_FIELDS, 0)
    for part in parts:
        for key in USAGE_FIELDS:
            value = None if part is None else part.get(key)
            if value is None or totals[key] is None:
                totals[key] = None
            else:
                totals[key] = totals[key] + value
    return totals


def sum_component_usage(
    per_episode: Iterable[Mapping[str, Mapping[str, Any]] | None], components: Iterable[str]
) -> dict[str, dict[str, Any]]:
    """Per declared component, the field-wise sum over episodes (a missing component is unknown)."""
    episodes = list(per_episode)
    return {
        cid: sum_usage(None if ep is None else ep.get(cid) for ep in episodes)
        for cid in components
    }
