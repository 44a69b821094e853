"""Small value tests shared by the checks: plain dict/type tests, because they are fast and give
precise messages where a schema validator would give one generic error per record."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeGuard

from evalview.model.run import ERROR_CATEGORIES, USAGE_FIELDS, Run

__all__ = ["ERROR_CATEGORIES", "USAGE_FIELDS"]  # the checks import the format's lists from here

SCHEMA_VERSION = "starvla-rsi.eval/v1"
EPISODES_JSONL = "episodes.jsonl"
MANIFEST = "manifest.json"
STATUS = "status.json"
SUMMARY = "summary.json"

#: Token counts and calls are integers; cost and latency are numbers.
INT_USAGE_FIELDS = frozenset(USAGE_FIELDS[:4])

#: Reading codes that mean episodes.jsonl (or the episodes as a whole) was not read at all.
_UNREAD_CODES = frozenset({"EV101", "EV102", "EV108"})
_BOUND_CODES = frozenset({"EV109", "EV110"})


def is_int(v: Any) -> TypeGuard[int]:
    return type(v) is int


def is_nonneg_int(v: Any) -> TypeGuard[int]:
    return type(v) is int and v >= 0


def is_number(v: Any) -> TypeGuard[int | float]:
    return (type(v) is int or type(v) is float) and math.isfinite(v)


def is_nonempty_str(v: Any) -> TypeGuard[str]:
    return isinstance(v, str) and v.strip() != ""


def describe(v: Any) -> str:
    """A short, safe rendering of a value for a message (never a whole object)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return repr(v if len(v) <= 40 else v[:37] + "...")
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "an array"
    return type(v).__name__


#: (run, its record ids) for each audit in progress: see `record_ids`.
_IDS: list[tuple[Run, list[str | None]]] = []


def record_ids(run: Run) -> list[str | None]:
    """`rec.episode_id` of each of `run.records`, in order. Several checks walk the ids; during
    `audit` (see `ids_computed_once`) they are computed once instead of once per walk."""
    for memo_run, ids in _IDS:
        if memo_run is run:
            return ids
    return [rec.episode_id for rec in run.records]


@contextmanager
def ids_computed_once(run: Run) -> Iterator[None]:
    """Within this block, `record_ids(run)` returns one list (the checks do not change records)."""
    entry = (run, record_ids(run))
    _IDS.append(entry)
    try:
        yield
    finally:
        for i, e in enumerate(_IDS):
            if e is entry:
                del _IDS[i]
                break


def episodes_unread(run: Run) -> bool:
    """True when episodes.jsonl was not read at all (missing, symlink, over a bound)."""
    for f in run.reading_findings:
        if f.code in _BOUND_CODES:
            return True
        if f.code in _UNREAD_CODES and f.file == EPISODES_JSONL:
            return True
    return False


def episodes_complete(run: Run) -> bool:
    """True when every line of episodes.jsonl parsed, so totals over records are exact."""
    return not episodes_unread(run) and all(rec.data is not None for rec in run.records)


def schedule_list(run: Run) -> list[str] | None:
    """The manifest's selected ids when they form a list of strings, else None."""
    manifest = run.manifest
    protocol = manifest.get("protocol") if manifest else None
    ids = protocol.get("episode_ids") if isinstance(protocol, dict) else None
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        return None
    return ids


def checked_while_reading(run: Run) -> Any | None:
    """The reader's per-record checks of this run (`episodes.RecordChecks`: their findings and
    the summary's tally), when they saw every parsed record of it under its manifest; else None
    (the audit walks the records itself). Here, not in episodes.py, so that the summary's check
    asks it without importing the episodes' checks (which import the summary's tally)."""
    done = getattr(run, "record_checks", None)
    if done is None or getattr(done, "components", None) != declared_components(run):
        return None
    if getattr(done, "records", None) != sum(1 for rec in run.records if rec.data is not None):
        return None
    return done


def declared_components(run: Run) -> set[str] | None:
    """Component ids declared in manifest.method.models, or None when no method is declared."""
    return manifest_components(run.manifest)


def manifest_components(manifest: dict[str, Any] | None) -> set[str] | None:
    """`declared_components` of a manifest document (before its run is built)."""
    method = manifest.get("method") if manifest else None
    if not isinstance(method, dict):
        return None
    models = method.get("models")
    if not isinstance(models, list):
        return set()
    return {m["id"] for m in models if isinstance(m, dict) and isinstance(m.get("id"), str)}


def usage_problems(usage: Any, *, partial: bool) -> list[str]:
    """What is wrong with a usage object. `partial` allows missing fields (component usage)."""
    if not isinstance(usage, dict):
        return [f"is {describe(usage)}, not an object with the six usage fields"]
    problems = []
    extra = [k for k in usage if k not in USAGE_FIELDS]
    if extra:
        problems.append(f"has unknown field(s) {', '.join(sorted(extra))}")
    if not partial:
        missing = [k for k in USAGE_FIELDS if k not in usage]
        if missing:
            problems.append(f"lacks {', '.join(missing)} (unknown values are null, not omitted)")
    for key in USAGE_FIELDS:
        v = usage.get(key)
        if v is None:
            continue
        if key in INT_USAGE_FIELDS:
            if not is_nonneg_int(v):
                problems.append(f"{key} is {describe(v)}, not a nonnegative integer or null")
        elif not (is_number(v) and v >= 0):
            problems.append(f"{key} is {describe(v)}, not a nonnegative number or null")
    return problems


def usage_value(usage: Any, key: str) -> int | float | None:
    """A usage field when it is a valid known value, else None (unknown)."""
    if not isinstance(usage, dict):
        return None
    v = usage.get(key)
    if key in INT_USAGE_FIELDS:
        return v if is_nonneg_int(v) else None
    return v if is_number(v) and v >= 0 else None


def cached_exceeds_input(usage: Any) -> tuple[int, int] | None:
    """(cached, input) when both are known and cached > input."""
    cached = usage_value(usage, "cached_input_tokens")
    inp = usage_value(usage, "input_tokens")
    if cached is not None and inp is not None and cached > inp:
        return int(cached), int(inp)
    return None


def usage_sum(usages: Iterable[Any], key: str) -> int | float | None:
    """`sum_known(usage_value(u, key) for u in usages)`, inlined: the audit sums each usage
    field over every episode (and component), 10,000s of calls on a large run."""
    total: int | float = 0
    if key in INT_USAGE_FIELDS:
        for u in usages:
            v = u.get(key) if isinstance(u, dict) else None
            if type(v) is not int or v < 0:
                return None
            total += v
        return total
    for u in usages:
        v = u.get(key) if isinstance(u, dict) else None
        if (type(v) is not float and type(v) is not int) or not math.isfinite(v) or v < 0:
            return None
        total += v
    return total


def usage_valid(usage: Any, *, partial: bool) -> bool:
    """True when `usage_problems(usage, partial=partial)` is empty and cached_input_tokens does
    not exceed input_tokens: the common case, tested without building any message."""
    if type(usage) is not dict or (not partial and len(usage) != len(USAGE_FIELDS)):
        return False
    # the key set in one C-level test, then each field by name (a missing one is unknown, as
    # a null is): 30,000 calls per 10,000 episodes, about 1.5x faster than walking the items
    if not usage.keys() <= _USAGE_KEYS:
        return False
    get = usage.get
    for key in _INT_FIELDS:
        v = get(key)
        if v is not None and (type(v) is not int or v < 0):
            return False
    for key in _NUMBER_FIELDS:
        v = get(key)
        if v is not None and (
            (type(v) is not float and type(v) is not int) or not math.isfinite(v) or v < 0
        ):
            return False
    cached = get("cached_input_tokens")
    inp = get("input_tokens")
    return cached is None or inp is None or cached <= inp


_USAGE_KEYS = frozenset(USAGE_FIELDS)
_INT_FIELDS = tuple(k for k in USAGE_FIELDS if k in INT_USAGE_FIELDS)
_NUMBER_FIELDS = tuple(k for k in USAGE_FIELDS if k not in INT_USAGE_FIELDS)


def sum_known(values: Iterable[int | float | None]) -> int | float | None:
    """Sum with unknown propagation: any None makes the total None (unknown)."""
    total: int | float = 0
    for v in values:
        if v is None:
            return None
        total += v
    return total


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def ids_preview(ids: list[str], limit: int = 5) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def record_place(line: int, eid: str | None) -> str:
    return f"{EPISODES_JSONL}:{line}" + (f" ({eid})" if eid is not None else "")

