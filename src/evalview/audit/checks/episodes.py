"""Episode checks (EV3xx): each line of episodes.jsonl on its own, then the lines against the
schedule and against the per-episode result files.

One pass over the records does every per-record test with plain dict lookups: a 10,000-episode run
must audit in a fraction of a second, and a hand-written test names the exact field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from operator import lt
from typing import Any

from evalview.audit import registry as R
from evalview.audit.checks._common import (
    EPISODES_JSONL,
    ERROR_CATEGORIES,
    SCHEMA_VERSION,
    USAGE_FIELDS,
    cached_exceeds_input,
    checked_while_reading,
    close,
    declared_components,
    describe,
    episodes_unread,
    ids_preview,
    is_nonempty_str,
    is_nonneg_int,
    is_number,
    manifest_components,
    record_ids,
    record_place,
    schedule_list,
    sum_known,
    usage_problems,
    usage_valid,
    usage_value,
)
from evalview.findings import Finding
from evalview.load.bounds import int64
from evalview.model.run import Run

E, W = R.E, R.W

SCHEMA = R.rule(
    "EV301", "episode-schema-version", E,
    f"An episode result does not declare schema_version {SCHEMA_VERSION!r}.",
)
MISSING = R.rule("EV302", "episode-field-missing", E, "A required episode result field is absent.")
WRONG_TYPE = R.rule(
    "EV303", "episode-field-type", E, "An episode result field has the wrong type or is empty."
)
STATUS = R.rule(
    "EV304", "episode-status-invalid", E, "An episode's status is neither completed nor error."
)
COMPLETED_SUCCESS = R.rule(
    "EV305", "completed-success-invalid", E,
    "A completed episode's success is not a boolean equal to metrics.success.",
)
COMPLETED_ERROR = R.rule(
    "EV306", "completed-with-error", E, "A completed episode carries a non-null error object."
)
ERROR_SUCCESS = R.rule(
    "EV307", "error-success-not-null", E, "An errored episode's success is not null."
)
ERROR_OBJECT = R.rule(
    "EV308", "error-object-invalid", E,
    "An errored episode lacks an error object with a nonempty type.",
)
ERROR_CATEGORY = R.rule(
    "EV309", "error-category-invalid", E,
    "An error category is not policy, protocol, infrastructure or evaluation.",
)
INTERRUPTION = R.rule(
    "EV310", "interruption-as-failure", E,
    "A completed episode whose termination reason says it errored: an interruption turned into "
    "a task failure.",
)
COUNT_INVALID = R.rule(
    "EV311", "count-invalid", E,
    "policy_calls, action_decisions, environment_steps or rejected_actions is not a nonnegative "
    "integer.",
)
COUNT_INCOHERENT = R.rule(
    "EV312", "count-incoherent", E,
    "The counts contradict their definitions (more action decisions than decision calls or than "
    "acknowledged controls).",
)
USAGE_INVALID = R.rule(
    "EV313", "usage-invalid", E,
    "usage (or a component_usage entry) is not the six usage fields with null or nonnegative "
    "values.",
)
CACHED = R.rule(
    "EV314", "cached-exceeds-input", E, "cached_input_tokens exceeds input_tokens in an episode."
)
COMPONENT_UNDECLARED = R.rule(
    "EV315", "component-undeclared", E,
    "component_usage names a component not declared in manifest.method.models.",
)
COMPONENT_MISMATCH = R.rule(
    "EV316", "component-usage-mismatch", E,
    "An episode's component_usage disagrees with its usage totals where both are known.",
)
RESULT_MISSING = R.rule(
    "EV317", "result-file-missing", E,
    "An episodes.jsonl record has no episodes/<dir>/result.json with its episode.id.",
)
RESULT_DIFFERS = R.rule(
    "EV318", "result-file-differs", E,
    "A result file is not identical to the episodes.jsonl record with the same episode.id.",
)
RESULT_DUPLICATE = R.rule(
    "EV319", "result-file-duplicate", E, "More than one result file has the same episode.id."
)
RESULT_ORPHAN = R.rule(
    "EV320", "result-file-orphan", E,
    "A result file matches no episodes.jsonl record (or has no episode.id).",
)
DUPLICATE_ID = R.rule(
    "EV321", "duplicate-episode-id", E, "Two lines of episodes.jsonl have the same episode.id."
)
OUTSIDE_SCHEDULE = R.rule(
    "EV322", "episode-outside-schedule", E,
    "An episode id is not among the manifest's selected protocol.episode_ids.",
)
ORDER = R.rule(
    "EV323", "schedule-order", E, "episodes.jsonl is not in selected schedule order."
)

UNSAFE_DIR = R.rule(
    "EV324", "result-dir-unsafe-name", W,
    "An episodes/<directory> name is not a safe descriptive name (ASCII letters, digits, dot, "
    "underscore, dash; at most 128 characters).",
)

COUNT_FIELDS = ("policy_calls", "action_decisions", "environment_steps", "rejected_actions")
_REQUIRED = ("status", "success", "termination_reason", "usage", "metrics", "error")


class _Rec:
    """Finding factory bound to one record's place (formatted only when there is a finding)."""

    __slots__ = ("eid", "findings", "line")

    def __init__(self, line: int, eid: str | None, findings: list[Finding]) -> None:
        self.line = line
        self.eid = eid
        self.findings = findings

    def __call__(self, rule: R.Rule, message: str) -> None:
        self.findings.append(
            rule(
                f"{record_place(self.line, self.eid)}: {message}",
                file=EPISODES_JSONL, line=self.line, episode_id=self.eid,
            )
        )


@R.check
def check_records(run: Run) -> Iterator[Finding]:
    done = done_while_reading(run)
    if done is not None:
        yield from done.findings  # checked as each line was parsed
        return
    findings: list[Finding] = []
    components = declared_components(run)
    order = tuple(sorted(components or ()))
    for rec, eid in zip(run.records, record_ids(run), strict=True):
        if rec.data is not None:
            _check_record(rec.data, _Rec(rec.line, eid, findings), components, order)
    yield from findings


class RecordChecks:
    """`check_records` run by the reader as it parses each line (`ReadOptions.on_record`): the
    record is still in the CPU cache then, where the audit's walk over 10,000 parsed records
    afterwards finds it in memory (about 0.08 s against 0.055 s on the benchmark run). The
    findings are the same, in the same order; `check_records` uses them when this saw every
    parsed record of the run under the same manifest."""

    __slots__ = ("components", "findings", "order", "records", "summary_ids", "tallying")

    def __init__(self, documents: dict[str, dict[str, Any] | None]) -> None:
        from evalview.audit.checks.summary import tallied_components

        self.components = manifest_components(documents.get("manifest.json"))
        self.order = tuple(sorted(self.components or ()))
        #: the components the summary's tally sums (summary.check_summary asks for these)
        self.summary_ids = tallied_components(documents.get("summary.json"))
        self.reset()

    def __call__(self, line: int, data: dict[str, Any], episode_id: str | None) -> None:
        self.records += 1
        _check_record(data, _Rec(line, episode_id, self.findings), self.components, self.order)
        self.tallying.add(data)

    def reset(self) -> None:
        from evalview.audit.checks.summary import Tallying

        self.findings: list[Finding] = []
        self.records = 0
        self.tallying = Tallying(self.summary_ids)


def done_while_reading(run: Run) -> RecordChecks | None:
    """The per-record checks the reader ran on this run, when they saw every parsed record of it
    under its manifest (`checked_while_reading`; else None: the audit walks the records)."""
    done = checked_while_reading(run)
    return done if isinstance(done, RecordChecks) else None


def _check_record(
    d: dict[str, Any], add: _Rec, components: set[str] | None, order: tuple[str, ...]
) -> None:
    if d.get("schema_version") != SCHEMA_VERSION:
        add(
            SCHEMA,
            f"`schema_version` is {describe(d.get('schema_version'))}, not {SCHEMA_VERSION!r}. "
            "Re-export the episode with a driver that writes this format.",
        )
    _check_identity(d, add)
    for key in _REQUIRED:
        if key not in d:
            add(MISSING, f"`{key}` is missing; every episode result has it (null when unknown).")
    status = d.get("status")
    if status == "completed":
        _check_completed(d, add)
    elif status == "error":
        _check_errored(d, add)
    elif "status" in d:
        add(
            STATUS,
            f"`status` is {describe(status)}; use 'completed' for a native outcome or policy stop "
            "and 'error' for an interrupted episode.",
        )
    reason = d.get("termination_reason")
    if reason is not None and not isinstance(reason, str):
        add(WRONG_TYPE, f"`termination_reason` is {describe(reason)}; it must be a string.")
    _check_counts(d, add)
    for key in ("metrics", "artifacts"):
        if key in d and not isinstance(d[key], dict):
            add(WRONG_TYPE, f"`{key}` is {describe(d[key])}; it must be an object.")
    duration = d.get("duration_s")
    if duration is not None and not (is_number(duration) and duration >= 0):
        add(WRONG_TYPE, f"`duration_s` is {describe(duration)}; it must be seconds >= 0 or null.")
    reward = d.get("reward_sum")
    if reward is not None and not is_number(reward):
        add(WRONG_TYPE, f"`reward_sum` is {describe(reward)}; it must be a number or null.")
    written = d.get("agent_events_written")
    if written is not None and not isinstance(written, bool):
        add(WRONG_TYPE, f"`agent_events_written` is {describe(written)}; it must be a boolean.")
    if "usage" in d:
        _check_usage(d, add, components, order)


def _check_identity(d: dict[str, Any], add: _Rec) -> None:
    if "episode" not in d:
        add(MISSING, "`episode` is missing; it holds the episode's id, task and seed.")
        return
    ep = d["episode"]
    if not isinstance(ep, dict):
        add(WRONG_TYPE, f"`episode` is {describe(ep)}; it must be an object with id, task, seed.")
        return
    for key in ("id", "task"):
        if key not in ep:
            add(MISSING, f"`episode.{key}` is missing; add the episode's {key}.")
        elif not is_nonempty_str(ep[key]):
            add(WRONG_TYPE, f"`episode.{key}` is {describe(ep[key])}; use a nonempty string.")
    seed = ep.get("seed")
    if seed is not None and not (type(seed) is int or isinstance(seed, str)):
        add(WRONG_TYPE, f"`episode.seed` is {describe(seed)}; it must be an integer.")
    elif type(seed) is int and not int64(seed):
        add(WRONG_TYPE, "`episode.seed` is an integer past 64 bits; a seed must fit 64 bits "
            "(signed).")


def _check_completed(d: dict[str, Any], add: _Rec) -> None:
    success = d.get("success")
    metrics = d.get("metrics")
    m_success = metrics.get("success") if isinstance(metrics, dict) else None
    if not isinstance(success, bool):
        add(
            COMPLETED_SUCCESS,
            f"status is completed but `success` is {describe(success)}; a completed episode "
            "records success as true or false (matching metrics.success).",
        )
    elif success is not m_success:
        add(
            COMPLETED_SUCCESS,
            f"`success` is {describe(success)} but `metrics.success` is {describe(m_success)}; "
            "they must agree. Take both from the benchmark's native verdict.",
        )
    if d.get("error") is not None:
        add(
            COMPLETED_ERROR,
            "status is completed but `error` is not null. An errored episode uses status "
            "'error' and success null; a completed one has error null.",
        )
    reason = d.get("termination_reason")
    if isinstance(reason, str) and reason.startswith("error:"):
        add(
            INTERRUPTION,
            f"status is completed but `termination_reason` is {reason!r}: an interruption was "
            "recorded as a task outcome. Record it as status 'error' with success null and an "
            "error object, and re-run it if it was infrastructure.",
        )


def _check_errored(d: dict[str, Any], add: _Rec) -> None:
    if d.get("success") is not None:
        add(
            ERROR_SUCCESS,
            f"status is error but `success` is {describe(d.get('success'))}; an errored episode "
            "has success null (it is neither a success nor a task failure).",
        )
    err = d.get("error")
    if not isinstance(err, dict):
        add(
            ERROR_OBJECT,
            f"status is error but `error` is {describe(err)}; give an object with a nonempty "
            "`type` and a `category` (policy, protocol, infrastructure or evaluation).",
        )
        return
    if not is_nonempty_str(err.get("type")):
        add(
            ERROR_OBJECT,
            f"`error.type` is {describe(err.get('type'))}; it must name the error (nonempty).",
        )
    if err.get("category") not in ERROR_CATEGORIES:
        add(
            ERROR_CATEGORY,
            f"`error.category` is {describe(err.get('category'))}; it must be one of policy, "
            "protocol, infrastructure, evaluation.",
        )


def _check_counts(d: dict[str, Any], add: _Rec) -> None:
    calls, decisions = d.get("policy_calls"), d.get("action_decisions")
    steps, rejected = d.get("environment_steps"), d.get("rejected_actions")
    if (  # the usual record: four nonnegative integers that agree, nothing to build
        type(calls) is int and type(decisions) is int and type(steps) is int
        and type(rejected) is int and rejected >= 0 and 0 <= decisions <= calls
        and decisions <= steps and (decisions > 0 or steps == 0)
    ):
        return
    values: dict[str, int] = {}
    for key in COUNT_FIELDS:
        if key not in d:
            add(MISSING, f"`{key}` is missing; record the count (0 when none).")
            continue
        v = d[key]
        if is_nonneg_int(v):
            values[key] = v
        else:
            add(COUNT_INVALID, f"`{key}` is {describe(v)}; it must be a nonnegative integer.")
    decisions = values.get("action_decisions")
    if decisions is None:
        return
    calls = values.get("policy_calls")
    steps = values.get("environment_steps")
    if calls is not None and decisions > calls:
        add(
            COUNT_INCOHERENT,
            f"`action_decisions` ({decisions}) exceeds `policy_calls` ({calls}); each counted "
            "decision comes from one decision call.",
        )
    if steps is not None and decisions > steps:
        add(
            COUNT_INCOHERENT,
            f"`action_decisions` ({decisions}) exceeds `environment_steps` ({steps}); each "
            "counted decision has at least one acknowledged control.",
        )
    if steps is not None and steps > 0 and decisions == 0:
        add(
            COUNT_INCOHERENT,
            f"`environment_steps` is {steps} but `action_decisions` is 0; acknowledged controls "
            "come from at least one decision.",
        )


def _usage_consistent(
    usage: Any, comp: Any, components: set[str] | None, order: tuple[str, ...]
) -> bool:
    """True only when `_check_usage` would find nothing: usage, every component entry and their
    sums all valid. Most records of a real run are; this answers for them without building a
    message, and anything else takes the exact path below."""
    if not usage_valid(usage, partial=False):
        return False
    if comp is None:
        return True
    if type(comp) is not dict or components is None:
        return False
    for cid, cu in comp.items():
        if cid not in components or not usage_valid(cu, partial=True):
            return False
    for key in USAGE_FIELDS:
        total = usage[key]
        if total is None:
            continue
        parts: int | float | None = 0
        for cid in order:
            v = comp[cid].get(key) if cid in comp else None
            if v is None:
                parts = None
                break
            parts += v
        if parts is None:
            known = sum(v for cu in comp.values() if (v := cu.get(key)) is not None)
            if known > total and not close(known, total):
                return False
        elif parts != total and not close(parts, total):
            return False
    return True


def _check_usage(
    d: dict[str, Any], add: _Rec, components: set[str] | None, order: tuple[str, ...]
) -> None:
    usage = d["usage"]
    if _usage_consistent(usage, d.get("component_usage"), components, order):
        return
    for problem in usage_problems(usage, partial=False):
        add(USAGE_INVALID, f"`usage` {problem}.")
    over = cached_exceeds_input(usage)
    if over is not None:
        add(
            CACHED,
            f"`usage.cached_input_tokens` ({over[0]}) exceeds `usage.input_tokens` ({over[1]}); "
            "cached tokens are part of the input tokens.",
        )
    if "component_usage" not in d or d["component_usage"] is None:
        return
    comp = d["component_usage"]
    if not isinstance(comp, dict):
        add(USAGE_INVALID, f"`component_usage` is {describe(comp)}; it must map component ids.")
        return
    for cid, cu in comp.items():
        if components is None or cid not in components:
            add(
                COMPONENT_UNDECLARED,
                f"`component_usage` names {cid!r}, which manifest.method.models does not "
                "declare. Declare the component or drop its usage.",
            )
        for problem in usage_problems(cu, partial=True):
            add(USAGE_INVALID, f"`component_usage.{cid}` {problem}.")
        over = cached_exceeds_input(cu)
        if over is not None:
            add(
                CACHED,
                f"`component_usage.{cid}.cached_input_tokens` ({over[0]}) exceeds its "
                f"input_tokens ({over[1]}).",
            )
    if components is None:
        return
    for key in USAGE_FIELDS:
        total = usage_value(usage, key)
        if total is None:
            continue
        parts = sum_known(usage_value(comp.get(cid), key) for cid in sorted(components))
        if parts is not None and not close(parts, total):
            add(
                COMPONENT_MISMATCH,
                f"`component_usage` sums to {parts!r} for {key} but `usage.{key}` is "
                f"{total!r}; the totals are the per-component sums.",
            )
        elif parts is None:
            known = sum(v for cu in comp.values() if (v := usage_value(cu, key)) is not None)
            if known > total and not close(known, total):
                add(
                    COMPONENT_MISMATCH,
                    f"the known `component_usage` values add up to {known!r} for {key}, more "
                    f"than `usage.{key}` ({total!r}).",
                )


@R.check
def check_identity_and_order(run: Run) -> Iterator[Finding]:
    """Duplicate ids, ids outside the schedule, and schedule order."""
    schedule = schedule_list(run)
    position = {eid: i for i, eid in reversed(list(enumerate(schedule or [])))}
    if schedule is not None and _in_order(record_ids(run), position):
        return
    first_line: dict[str, int] = {}
    last_pos = -1
    last_id = ""
    disorder: list[Finding] = []
    for rec, eid in zip(run.records, record_ids(run), strict=True):
        if eid is None:
            continue
        place = record_place(rec.line, eid)
        if eid in first_line:
            yield DUPLICATE_ID(
                f"{place}: episode.id repeats line {first_line[eid]}; each selected case has "
                "exactly one record. Remove the duplicate line.",
                file=EPISODES_JSONL, line=rec.line, episode_id=eid,
            )
            continue
        first_line[eid] = rec.line
        if schedule is None:
            continue
        pos = position.get(eid)
        if pos is None:
            yield OUTSIDE_SCHEDULE(
                f"{place}: {eid!r} is not in the manifest's protocol.episode_ids; a closed run "
                "only records selected cases. Remove the record or fix the schedule.",
                file=EPISODES_JSONL, line=rec.line, episode_id=eid,
            )
            continue
        if pos < last_pos:
            disorder.append(
                ORDER(
                    f"{place}: {eid!r} comes after {last_id!r} but the schedule selects it "
                    "earlier; write episodes.jsonl in selected schedule order.",
                    file=EPISODES_JSONL, line=rec.line, episode_id=eid,
                )
            )
        else:
            last_pos, last_id = pos, eid
    yield from disorder


def _in_order(ids: list[str | None], position: dict[str, int]) -> bool:
    """True only when the ids (None aside) are unique, all scheduled and in schedule order: no
    finding of `check_identity_and_order`, answered with whole-list operations."""
    known = [eid for eid in ids if eid is not None]
    try:
        places = [position[eid] for eid in known]
    except KeyError:
        return False
    return all(map(lt, places, places[1:]))  # strictly increasing: unique and in order


#: A portable directory name: survives zip, tar, Windows and URLs unquoted. The format only says
#: "use safe descriptive directory names" (matching uses episode.id), hence a warning.
#: (The 128-character bound is a length test: `{0,127}` cost about 3 ms to compile at import.)
_SAFE_DIR = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")
_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
     *(f"lpt{i}" for i in range(1, 10))}
)


def is_safe_dir_name(name: str) -> bool:
    """ASCII letters/digits/._- beginning with a letter or digit, not ending in a dot, not a
    Windows device name, at most 128 characters."""
    return (
        name.isascii()
        and len(name) <= 128
        and _SAFE_DIR.match(name) is not None
        and not name.endswith(".")
        and name.split(".")[0].lower() not in _WINDOWS_DEVICES
    )


#: Every name of a newline-joined list safe (`is_safe_dir_name` but for the length and the
#: device names), in one match: 10,000 names at once instead of a call each.
_ALL_SAFE = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9._-]*(?<!\.)\n)*\Z")
_DEVICE = re.compile(r"(?im)^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:\.|$)")


def _all_safe(names: list[str]) -> bool:
    """True only when every name is safe (False: look at each)."""
    if not names:
        return True
    joined = "\n".join(names) + "\n"
    return (
        joined.isascii()
        and joined.count("\n") == len(names)  # no name holds a newline
        and max(map(len, names), default=0) <= 128
        and _ALL_SAFE.match(joined) is not None
        and _DEVICE.search(joined) is None
    )


@R.check
def check_result_dir_names(run: Run) -> Iterator[Finding]:
    """One warning naming the unsafe result directories (a run may have thousands)."""
    if _all_safe([rf.path.split("/", 2)[1] for rf in run.result_files]):
        return
    unsafe = [
        rf.path for rf in run.result_files if not is_safe_dir_name(rf.path.split("/")[1])
    ]
    if unsafe:
        names = [repr(p.split("/")[1]) for p in unsafe]
        dirs = "directory has" if len(unsafe) == 1 else "directories have"
        yield UNSAFE_DIR(
            f"{unsafe[0]}: {len(unsafe)} result {dirs} an unsafe name ({ids_preview(names)}). "
            "Matching uses episode.id, so the run stays "
            "consistent, but use safe descriptive names (ASCII letters, digits, '.', '_', '-', "
            "such as task-a-seed7) so the run copies and archives portably.",
            file=unsafe[0],
        )


@R.check
def check_result_files(run: Run) -> Iterator[Finding]:
    """Each record has exactly one identical result file, matched by episode.id."""
    if episodes_unread(run):
        return
    if _one_identical_file_each(run):
        return
    by_id: dict[str, list[str]] = {}
    unreadable = 0
    ids = record_ids(run)
    known_ids = {eid for eid in ids if eid is not None}
    unparsed = sum(1 for rec in run.records if rec.data is None)
    maybe = (
        f" ({unparsed} line(s) of episodes.jsonl could not be read; it may belong to one)"
        if unparsed
        else ""
    )
    for rf in run.result_files:
        if not rf.readable:
            unreadable += 1
            continue
        if rf.episode_id is None:
            yield RESULT_ORPHAN(
                f"{rf.path}: has no string episode.id, so it matches no record. Fix the file or "
                "remove it.",
                file=rf.path,
            )
            continue
        by_id.setdefault(rf.episode_id, []).append(rf.path)
        if rf.episode_id not in known_ids:
            yield RESULT_ORPHAN(
                f"{rf.path}: episode.id {rf.episode_id!r} matches no line of episodes.jsonl"
                f"{maybe}. Add the record or remove the stray result file.",
                file=rf.path, episode_id=rf.episode_id,
            )
        elif rf.differing_keys:
            keys = ", ".join(rf.differing_keys[:8])
            yield RESULT_DIFFERS(
                f"{rf.path}: differs from episodes.jsonl:{rf.matched_line} in {keys}; the two "
                "copies must be identical. Re-export both from the same result.",
                file=rf.path, episode_id=rf.episode_id,
            )
    note = (
        f" ({unreadable} result file(s) could not be read; see the reading findings)"
        if unreadable
        else ""
    )
    seen: set[str] = set()
    for rec, eid in zip(run.records, ids, strict=True):
        if eid is None or eid in seen:
            continue
        seen.add(eid)
        paths = by_id.get(eid, [])
        if not paths:
            yield RESULT_MISSING(
                f"{record_place(rec.line, eid)}: no episodes/<dir>/result.json has episode.id "
                f"{eid!r}{note}. Export the episode's result file next to the record.",
                file=EPISODES_JSONL, line=rec.line, episode_id=eid,
            )
        elif len(paths) > 1:
            yield RESULT_DUPLICATE(
                f"{eid!r} has {len(paths)} result files ({', '.join(paths)}); exactly one "
                "must hold it. Remove the extra copies.",
                file=paths[1], episode_id=eid,
            )


def _one_identical_file_each(run: Run) -> bool:
    """True only when every result file is readable, identical to its record and the only one
    of its id, and every record's id has one: no finding of `check_result_files`."""
    files = run.result_files
    if not all(rf.readable and not rf.differing_keys for rf in files):
        return False
    file_ids = [rf.episode_id for rf in files]
    unique = set(file_ids)
    if None in unique or len(unique) != len(file_ids):
        return False
    record_set = set(record_ids(run))
    record_set.discard(None)
    return unique == record_set
