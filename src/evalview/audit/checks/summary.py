"""Summary checks (EV5xx): summary.json repeats the run's identity and totals; every total must be
what the episodes add up to (with unknown usage propagating), and every rate what its counts give.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from evalview.audit import registry as R
from evalview.audit.checks._common import (
    INT_USAGE_FIELDS,
    SUMMARY,
    USAGE_FIELDS,
    cached_exceeds_input,
    checked_while_reading,
    close,
    declared_components,
    describe,
    episodes_complete,
    is_nonneg_int,
    is_number,
    schedule_list,
    usage_problems,
    usage_value,
)
from evalview.findings import Finding
from evalview.model.run import Run

E = R.E

IDENTITY = R.rule(
    "EV501", "summary-identity", E,
    "summary.json run_id, benchmark or policy differs from the manifest.",
)
FIELD_INVALID = R.rule(
    "EV502", "summary-field-invalid", E,
    "A required summary field is missing, or a total is not a nonnegative integer.",
)
COUNT_MISMATCH = R.rule(
    "EV503", "summary-count-mismatch", E,
    "A summary total (attempted, completed, errors, successes, policy_calls, rejected_actions) "
    "differs from the episodes.",
)
USAGE_INVALID = R.rule(
    "EV504", "summary-usage-invalid", E,
    "summary usage is not the six usage fields with null or nonnegative values.",
)
USAGE_MISMATCH = R.rule(
    "EV505", "summary-usage-mismatch", E,
    "A summary usage total differs from the episodes' sum (any unknown episode value makes the "
    "total null).",
)
CACHED = R.rule(
    "EV506", "summary-cached-exceeds-input", E,
    "summary cached_input_tokens exceeds input_tokens.",
)
COMPONENT_INVALID = R.rule(
    "EV507", "summary-component-usage-invalid", E,
    "summary component_usage is malformed or names an undeclared component.",
)
COMPONENT_MISMATCH = R.rule(
    "EV508", "summary-component-usage-mismatch", E,
    "summary component_usage differs from the episodes' per-component sums.",
)
RATE_INVALID = R.rule(
    "EV509", "summary-rate-invalid", E,
    "A summary rate is a boolean, not a number, or outside [0, 1].",
)
RATE_MISMATCH = R.rule(
    "EV510", "summary-rate-mismatch", E, "A summary rate differs from its counts."
)
COUNTS_INCOHERENT = R.rule(
    "EV511", "summary-counts-incoherent", E,
    "summary totals contradict each other (attempted != completed + errors, successes > "
    "completed, attempted > selected).",
)
COMPLETION_DENOMINATOR = R.rule(
    "EV512", "summary-completion-denominator", R.W,
    "summary completion_rate is completed/attempted, not completed/selected: the format does not "
    "fix its denominator, so say which one.",
)

COUNT_KEYS = ("attempted", "completed", "errors", "successes", "policy_calls", "rejected_actions")
#: rate -> (numerator count, denominator count); "selected" is the manifest schedule.
RATES = {
    "success_rate": ("successes", "completed"),
    "attempt_success_rate": ("successes", "attempted"),
    "selected_success_rate": ("successes", "selected"),
    "completion_rate": ("completed", "selected"),
}


def _add(rule: R.Rule, message: str) -> Finding:
    return rule(f"{SUMMARY}: {message}", file=SUMMARY)


@R.check
def check_summary(run: Run) -> Iterator[Finding]:
    summary = run.summary
    if summary is None:
        return  # missing or unreadable: the reading finding says so
    yield from _identity(run, summary)
    counts: dict[str, int] = {}
    for key in COUNT_KEYS:
        v = summary.get(key)
        if is_nonneg_int(v):
            counts[key] = v
        else:
            what = "missing" if key not in summary else describe(v)
            yield _add(FIELD_INVALID, f"`{key}` is {what}; it must be a nonnegative integer total.")
    schedule = schedule_list(run)
    if schedule is not None:
        counts["selected"] = len(dict.fromkeys(schedule))
    yield from _coherence(counts)
    complete = episodes_complete(run)
    tally = _tally(run, tallied_components(summary)) if complete else None
    if tally is not None:
        yield from _totals(tally, counts)
    if "usage" not in summary:
        yield _add(FIELD_INVALID, "`usage` is missing; give the six-field aggregate usage object.")
    else:
        usage = summary["usage"]
        for problem in usage_problems(usage, partial=False):
            yield _add(USAGE_INVALID, f"`usage` {problem}.")
        over = cached_exceeds_input(usage)
        if over is not None:
            yield _add(
                CACHED,
                f"`usage.cached_input_tokens` ({over[0]}) exceeds `usage.input_tokens` "
                f"({over[1]}); cached tokens are part of the input.",
            )
        if tally is not None and isinstance(usage, dict):
            yield from _usage_totals(tally, usage)
    if summary.get("component_usage") is not None:
        yield from _component_usage(run, summary["component_usage"], complete, tally)
    yield from _rates(summary, counts)


def _identity(run: Run, summary: dict[str, Any]) -> Iterator[Finding]:
    manifest = run.manifest or {}
    expected = {
        "run_id": manifest.get("run_id"),
        "benchmark": _name(manifest.get("benchmark")),
        "policy": _name(manifest.get("policy")),
    }
    for key, want in expected.items():
        got = summary.get(key)
        if not isinstance(got, str) or not got:
            what = "missing" if key not in summary else describe(got)
            yield _add(FIELD_INVALID, f"`{key}` is {what}; it must repeat the manifest's {key}.")
        elif isinstance(want, str) and got != want:
            where = "run_id" if key == "run_id" else f"{key}.name"
            yield _add(
                IDENTITY,
                f"`{key}` is {got!r} but manifest.json `{where}` is {want!r}; the summary must "
                "describe the same run.",
            )


def _name(v: Any) -> Any:
    return v.get("name") if isinstance(v, dict) else None


def _coherence(c: dict[str, int]) -> Iterator[Finding]:
    if {"attempted", "completed", "errors"} <= c.keys() and (
        c["attempted"] != c["completed"] + c["errors"]
    ):
        yield _add(
            COUNTS_INCOHERENT,
            f"`attempted` ({c['attempted']}) is not `completed` + `errors` "
            f"({c['completed']} + {c['errors']}); every attempted episode either completed or "
            "errored.",
        )
    if {"successes", "completed"} <= c.keys() and c["successes"] > c["completed"]:
        yield _add(
            COUNTS_INCOHERENT,
            f"`successes` ({c['successes']}) exceeds `completed` ({c['completed']}); only "
            "completed episodes can succeed.",
        )
    if {"attempted", "selected"} <= c.keys() and c["attempted"] > c["selected"]:
        yield _add(
            COUNTS_INCOHERENT,
            f"`attempted` ({c['attempted']}) exceeds the {c['selected']} selected cases of the "
            "manifest schedule.",
        )


def _totals(tally: _Tally, counts: dict[str, int]) -> Iterator[Finding]:
    actual = tally.totals
    for key, want in actual.items():
        got = counts.get(key)
        if got is not None and want is not None and got != want:
            yield _add(
                COUNT_MISMATCH,
                f"`{key}` is {got} but the episodes give {want}. Recompute the summary from "
                "episodes.jsonl.",
            )


def _usage_totals(tally: _Tally, usage: dict[str, Any]) -> Iterator[Finding]:
    for key in USAGE_FIELDS:
        if key not in usage or (usage[key] is not None and usage_value(usage, key) is None):
            continue  # malformed: reported as summary-usage-invalid
        if not tally.records and usage[key] is None:
            continue  # no episode at all: null (nothing reported) is as honest as 0
        want = tally.usage[key]
        yield from _compare_total(USAGE_MISMATCH, f"usage.{key}", usage[key], want)


def _compare_total(
    rule: R.Rule, at: str, got: int | float | None, want: int | float | None
) -> Iterator[Finding]:
    if got is None and want is None:
        return
    if got is None:
        yield _add(
            rule,
            f"`{at}` is null but every episode reports it; the total is known: set it to "
            f"{want!r}.",
        )
    elif want is None:
        yield _add(
            rule,
            f"`{at}` is {got!r} but at least one episode leaves it unknown (null); unknown "
            "propagates, so the total must be null: set it to null.",
        )
    elif not close(got, want):
        yield _add(
            rule,
            f"`{at}` is {got!r} but the episodes add up to {want!r}. Recompute the summary from "
            "episodes.jsonl.",
        )


def _component_usage(
    run: Run, comp: Any, complete: bool, tally: _Tally | None
) -> Iterator[Finding]:
    if not isinstance(comp, dict):
        yield _add(
            COMPONENT_INVALID, f"`component_usage` is {describe(comp)}; it must be an object."
        )
        return
    declared = declared_components(run)
    for cid, cu in comp.items():
        if declared is None or cid not in declared:
            yield _add(
                COMPONENT_INVALID,
                f"`component_usage` names {cid!r}, which manifest.method.models does not declare.",
            )
            continue
        problems = usage_problems(cu, partial=True)
        for problem in problems:
            yield _add(COMPONENT_INVALID, f"`component_usage.{cid}` {problem}.")
        if problems or not complete or tally is None:
            continue
        sums = tally.components[cid]
        for key in USAGE_FIELDS:
            if key not in cu:
                continue  # missing fields are unknown
            want = sums[key]
            yield from _compare_total(
                COMPONENT_MISMATCH, f"component_usage.{cid}.{key}", cu[key], want
            )


@dataclass(slots=True)
class _Tally:
    """What the summary totals are checked against, from one pass over the records: the
    counts, `policy_calls` and `rejected_actions` (None when any record's is not a nonnegative
    integer), and each usage sum (`usage_sum`'s rules: None once a value is unknown), the
    episodes' and each named component's. Sums are added in record order, as before, so float
    totals are the same to the bit."""

    records: int = 0
    totals: dict[str, int | None] = field(default_factory=dict)
    usage: dict[str, int | float | None] = field(default_factory=dict)
    components: dict[str, dict[str, int | float | None]] = field(default_factory=dict)


def tallied_components(summary: dict[str, Any] | None) -> list[str]:
    """The components whose usage the summary's tally sums: those its component_usage names."""
    comp_doc = summary.get("component_usage") if summary is not None else None
    return list(comp_doc) if isinstance(comp_doc, dict) else []


def _tally(run: Run, component_ids: list[str]) -> _Tally:
    done = getattr(checked_while_reading(run), "tallying", None)
    if isinstance(done, Tallying) and done.component_ids == component_ids:
        return done.result()  # tallied as each line was parsed
    tallying = Tallying(component_ids)
    for _, d in run.iter_records():
        tallying.add(d)
    return tallying.result()


class Tallying:
    """The summary's tally, one record at a time (in record order): by the audit's walk, or by
    the reader as it parses each line (`episodes.RecordChecks`, while the record is hot)."""

    __slots__ = (
        "completed",
        "component_ids",
        "comps",
        "errors",
        "ints",
        "records",
        "successes",
        "usage",
    )

    def __init__(self, component_ids: list[str]) -> None:
        self.component_ids = component_ids
        self.completed = self.errors = self.successes = self.records = 0
        self.ints: dict[str, int | None] = dict.fromkeys(("policy_calls", "rejected_actions"), 0)
        self.usage: dict[str, int | float | None] = dict.fromkeys(USAGE_FIELDS, 0)
        self.comps: dict[str, dict[str, int | float | None]] = {
            cid: dict.fromkeys(USAGE_FIELDS, 0) for cid in component_ids
        }

    def add(self, d: dict[str, Any]) -> None:
        self.records += 1
        status = d.get("status")
        if status == "completed":
            self.completed += 1
            if d.get("success") is True:
                self.successes += 1
        elif status == "error":
            self.errors += 1
        ints = self.ints
        for key, total in ints.items():
            if total is not None:
                v = d.get(key)
                ints[key] = total + v if type(v) is int and v >= 0 else None
        _add_usage(self.usage, d.get("usage"), _FIELDS, math.isfinite)
        if self.comps:
            comp = d.get("component_usage")
            for cid, sums in self.comps.items():
                _add_usage(sums, comp.get(cid) if isinstance(comp, dict) else None, _FIELDS,
                           math.isfinite)

    def result(self) -> _Tally:
        totals: dict[str, int | None] = {
            "attempted": self.records, "completed": self.completed, "errors": self.errors,
            "successes": self.successes,
        }
        return _Tally(self.records, totals | self.ints, self.usage, self.comps)


_FIELDS = [(key, key in INT_USAGE_FIELDS) for key in USAGE_FIELDS]


def _add_usage(
    sums: dict[str, int | float | None],
    u: Any,
    fields: list[tuple[str, bool]],
    isfinite: Any,
) -> None:
    """Add one record's usage object to `sums` (one step of `usage_sum` for every field)."""
    is_dict = isinstance(u, dict)
    for key, integral in fields:
        total = sums[key]
        if total is None:
            continue
        v = u.get(key) if is_dict else None
        if integral:
            sums[key] = total + v if type(v) is int and v >= 0 else None
        elif (type(v) is float or type(v) is int) and isfinite(v) and v >= 0:
            sums[key] = total + v
        else:
            sums[key] = None


def _rates(summary: dict[str, Any], counts: dict[str, int]) -> Iterator[Finding]:
    for rate, (num, den) in RATES.items():
        if rate not in summary or summary[rate] is None:
            continue
        v = summary[rate]
        if isinstance(v, bool) or not is_number(v) or not 0 <= v <= 1:
            yield _add(
                RATE_INVALID,
                f"`{rate}` is {describe(v)}; a rate is a number in [0, 1] (null when its "
                "denominator is zero), never a boolean.",
            )
            continue
        if num not in counts or den not in counts:
            continue
        if counts[den] == 0:
            yield _add(
                RATE_MISMATCH,
                f"`{rate}` is {v!r} but its denominator `{den}` is 0; the rate must be null.",
            )
        elif not close(v, counts[num] / counts[den]):
            attempted = counts.get("attempted")
            if rate == "completion_rate" and attempted and close(v, counts[num] / attempted):
                yield _add(
                    COMPLETION_DENOMINATOR,
                    f"`completion_rate` is {v!r} = completed/attempted = {counts[num]}/"
                    f"{attempted}, not completed/selected = {counts[num]}/{counts[den]}. The "
                    "format does not fix this denominator: state that it is over attempted "
                    "cases wherever the rate is quoted.",
                )
                continue
            yield _add(
                RATE_MISMATCH,
                f"`{rate}` is {v!r} but {num}/{den} = {counts[num]}/{counts[den]} = "
                f"{counts[num] / counts[den]!r}. Recompute it from the counts.",
            )
