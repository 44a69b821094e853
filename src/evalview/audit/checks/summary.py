"""Summary checks (EV5xx): summary.json repeats the run's identity and totals; every total must be
what the episodes add up to (with unknown usage propagating), and every rate what its counts give.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from evalview.audit import registry as R
from evalview.audit.checks._common import (
    SUMMARY,
    USAGE_FIELDS,
    cached_exceeds_input,
    close,
    declared_components,
    describe,
    episodes_complete,
    is_nonneg_int,
    is_number,
    schedule_list,
    usage_problems,
    usage_sum,
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
    if complete:
        yield from _totals(run, counts)
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
        if complete and isinstance(usage, dict):
            yield from _usage_totals(run, usage)
    if summary.get("component_usage") is not None:
        yield from _component_usage(run, summary["component_usage"], complete)
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


def _totals(run: Run, counts: dict[str, int]) -> Iterator[Finding]:
    records = [d for _, d in run.iter_records()]
    actual: dict[str, int | None] = {
        "attempted": len(records),
        "completed": sum(1 for d in records if d.get("status") == "completed"),
        "errors": sum(1 for d in records if d.get("status") == "error"),
        "successes": sum(
            1 for d in records if d.get("status") == "completed" and d.get("success") is True
        ),
    }
    for key in ("policy_calls", "rejected_actions"):
        values = [v for d in records if is_nonneg_int(v := d.get(key))]
        actual[key] = sum(values) if len(values) == len(records) else None
    for key, want in actual.items():
        got = counts.get(key)
        if got is not None and want is not None and got != want:
            yield _add(
                COUNT_MISMATCH,
                f"`{key}` is {got} but the episodes give {want}. Recompute the summary from "
                "episodes.jsonl.",
            )


def _usage_totals(run: Run, usage: dict[str, Any]) -> Iterator[Finding]:
    episode_usages = [d.get("usage") for _, d in run.iter_records()]
    for key in USAGE_FIELDS:
        if key not in usage or (usage[key] is not None and usage_value(usage, key) is None):
            continue  # malformed: reported as summary-usage-invalid
        if not episode_usages and usage[key] is None:
            continue  # no episode at all: null (nothing reported) is as honest as 0
        want = usage_sum(episode_usages, key)
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


def _component_usage(run: Run, comp: Any, complete: bool) -> Iterator[Finding]:
    if not isinstance(comp, dict):
        yield _add(
            COMPONENT_INVALID, f"`component_usage` is {describe(comp)}; it must be an object."
        )
        return
    declared = declared_components(run)
    records = [d for _, d in run.iter_records()]
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
        if problems or not complete:
            continue
        episode_cus = [_component(d, cid) for d in records]
        for key in USAGE_FIELDS:
            if key not in cu:
                continue  # missing fields are unknown
            want = usage_sum(episode_cus, key)
            yield from _compare_total(
                COMPONENT_MISMATCH, f"component_usage.{cid}.{key}", cu[key], want
            )


def _component(d: dict[str, Any], cid: str) -> Any:
    comp = d.get("component_usage")
    return comp.get(cid) if isinstance(comp, dict) else None


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
