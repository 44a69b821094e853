"""A reopened result.json is audited, not trusted: every number it records is recomputed from the
episodes it lists and each disagreement is an error finding (EV9xx) with its JSON path.

The recomputation is the exporter's own: the reopened Run (its episodes) is scored and mapped to
the published numbers by the function `export` uses (stats/published.py), so a faithful file
agrees to the last bit
and a doctored one (a headline of 0.9 over episodes that give 0.2125, more successes than
selected, an interval whose low end is above its high end) is named field by field, with the
recorded and the recomputed number side by side (the app shows the message as is).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from evalview import rules as RR
from evalview.findings import Finding
from evalview.model.result import Result
from evalview.model.run import Run
from evalview.stats.published import DERIVED_KEYS, published_numbers

__all__ = ["recompute_findings"]
_INTERVALS = ("wilson95", "ci95", "bootstrap")
_RATES = ("rate", "mean", "se", "selected_success_rate", "attempt_success_rate", "success_rate")


def recompute_findings(run: Run) -> list[Finding]:
    """Error findings for every number a reopened result.json records that its episodes do not
    give; nothing for any other input."""
    result = run.published
    if result is None:
        return []
    file = run.path.name
    if not result.episodes:
        return [
            RR.RESULT_NO_EPISODES(
                f"{file}: $.episodes: the list is empty, so none of the numbers this file records "
                "(rates, counts, the aggregate) can be checked against an outcome. Re-export "
                "the run.",
                file=file,
            )
        ]
    from evalview.stats.scorecard import score_run

    findings = list(_episode_findings(result, file))
    card = score_run(
        run,
        bootstrap=result.aggregate.bootstrap_resamples,
        allow_errors=True,
        findings=[],
        allow_off_protocol=True,
    )
    expected = published_numbers(card)
    recorded = result.model_dump(mode="json")
    n = len(result.episodes)
    where = f"its {n} episode{'s' * (n != 1)}"
    recorded_selected = recorded["protocol"]["selected_cases"]
    if recorded_selected != n:
        findings.append(
            RR.RESULT_COUNT_MISMATCH(
                f"{file}: $.protocol.selected_cases: records {recorded_selected}; {where} "
                f"give {n}.",
                file=file,
            )
        )
    for key in DERIVED_KEYS:
        if key == "tasks":
            findings.extend(_task_findings(recorded[key], expected[key], file, where))
        else:
            findings.extend(_diff(recorded[key], expected[key], f"$.{key}", file, where))
    return findings


def _episode_findings(result: Result, file: str) -> Iterator[Finding]:
    for i, e in enumerate(result.episodes):
        problem = None
        if e.status == "completed" and e.success is None:
            problem = "is completed but its success is null (a completed case succeeded or not)"
        elif e.status != "completed" and e.success is not None:
            problem = f"is {e.status} but records success {str(e.success).lower()}"
        elif e.status == "error" and e.error_category is None:
            problem = "is an error without its category"
        elif e.status != "error" and (e.error_category is not None or e.error_type is not None):
            problem = f"is {e.status} but records an error category or type"
        if problem is not None:
            yield RR.RESULT_EPISODE_INVALID(
                f"{file}: $.episodes[{i}]: episode {e.id!r} {problem}. Re-export the run.",
                file=file, episode_id=e.id,
            )


def _task_findings(
    recorded: list[dict[str, Any]], expected: list[dict[str, Any]], file: str, where: str
) -> Iterator[Finding]:
    names = [t["task"] for t in recorded]
    want = [t["task"] for t in expected]
    if names != want:
        extra = [t for t in names if t not in want]
        missing = [t for t in want if t not in names]
        parts = []
        if extra:
            parts.append(f"lists {_few(extra)}, which no episode has")
        if missing:
            parts.append(f"omits {_few(missing)}, which its episodes have")
        if not parts:
            parts.append("lists the tasks in another order or more than once")
        yield RR.RESULT_TASKS_MISMATCH(
            f"{file}: $.tasks: {' and '.join(parts)} ({len(names)} listed; {where} give "
            f"{len(want)}).",
            file=file,
        )
    by_name = {t["task"]: t for t in expected}
    seen: set[str] = set()
    for i, task in enumerate(recorded):
        name = task["task"]
        if name in by_name and name not in seen:
            seen.add(name)
            yield from _diff(task, by_name[name], f"$.tasks[{i}]", file, where, label=name)


def _few(names: list[str]) -> str:
    shown = ", ".join(repr(n) for n in names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _diff(
    recorded: Any, expected: Any, path: str, file: str, where: str, label: str | None = None
) -> Iterator[Finding]:
    """Findings for every leaf of `recorded` that differs from `expected`."""
    key = path.rsplit(".", 1)[-1].split("[", 1)[0]
    if key in _INTERVALS:
        yield from _interval(recorded, expected, path, file, where)
        return
    if isinstance(recorded, dict) and isinstance(expected, dict):
        for k in recorded.keys() | expected.keys():
            if k in ("label", "name", "rate_name", "task"):
                continue  # names, not numbers (a task's name is matched above)
            yield from _diff(
                recorded.get(k), expected.get(k), f"{path}.{k}", file, where, label
            )
        return
    if isinstance(recorded, list) and isinstance(expected, list):
        if len(recorded) != len(expected):
            yield RR.RESULT_COUNT_MISMATCH(
                f"{file}: {path}: records {len(recorded)} entries; {where} give {len(expected)}.",
                file=file,
            )
        for i, (r, e) in enumerate(zip(recorded, expected, strict=False)):
            yield from _diff(r, e, f"{path}[{i}]", file, where, label)
        return
    if _same(recorded, expected):
        return
    rule = RR.RESULT_RATE_MISMATCH if key in _RATES else RR.RESULT_COUNT_MISMATCH
    about = f" (task {label!r})" if label is not None else ""
    yield rule(
        f"{file}: {path}{about}: records {_show(recorded)}; {where} give {_show(expected)}.",
        file=file,
    )


def _interval(recorded: Any, expected: Any, path: str, file: str, where: str) -> Iterator[Finding]:
    if isinstance(recorded, list) and len(recorded) == 2 and recorded[0] > recorded[1]:
        yield RR.RESULT_INTERVAL_MISMATCH(
            f"{file}: {path}: the interval [{recorded[0]:g}, {recorded[1]:g}] has its low end "
            f"above its high end; {where} give {_show(expected)}.",
            file=file,
        )
        return
    same = (
        recorded is None and expected is None
    ) or (
        isinstance(recorded, list)
        and isinstance(expected, list | tuple)
        and len(expected) == 2
        and all(_same(r, e) for r, e in zip(recorded, expected, strict=True))
    )
    if not same:
        yield RR.RESULT_INTERVAL_MISMATCH(
            f"{file}: {path}: records {_show(recorded)}; {where} give {_show(expected)}.",
            file=file,
        )


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a is b or (a == b and type(a) is type(b))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return bool(a == b)


def _show(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)
