"""Closure checks (EV4xx): status.json, and every selected case present unless a declared
fail_fast stopped the run right after an errored episode."""

from __future__ import annotations

from collections.abc import Iterator

from evalview.audit import registry as R
from evalview.audit.checks._common import (
    EPISODES_JSONL,
    MANIFEST,
    STATUS,
    describe,
    episodes_complete,
    episodes_unread,
    is_nonneg_int,
    record_ids,
    schedule_list,
)
from evalview.findings import Finding
from evalview.model.run import Run

E = R.E

STATUS_INVALID = R.rule(
    "EV401", "status-file-invalid", E,
    "status.json lacks a status of completed/completed_with_errors or a nonnegative "
    "episodes_written.",
)
STATUS_DISAGREES = R.rule(
    "EV402", "status-disagrees", E,
    "status.json says completed while episodes errored, or completed_with_errors while none did.",
)
WRITTEN_MISMATCH = R.rule(
    "EV403", "episodes-written-mismatch", E,
    "status.json episodes_written differs from the number of lines of episodes.jsonl.",
)
EPISODE_MISSING = R.rule(
    "EV404", "episode-missing", E,
    "A selected episode has no record and no declared fail_fast stop explains it.",
)

EPISODES_EMPTY = R.rule(
    "EV405", "episodes-file-empty", E,
    "episodes.jsonl holds no episode result while the schedule selects episodes.",
)

STATUSES = ("completed", "completed_with_errors")


@R.check
def check_status(run: Run) -> Iterator[Finding]:
    doc = run.status_doc
    if doc is None:
        return  # missing or unreadable: a reading finding says so
    status = doc.get("status")
    if status not in STATUSES:
        yield STATUS_INVALID(
            f"{STATUS}: `status` is {describe(status)}; a closed run's status is 'completed' or "
            "'completed_with_errors'.",
            file=STATUS,
        )
    written = doc.get("episodes_written")
    if not is_nonneg_int(written):
        yield STATUS_INVALID(
            f"{STATUS}: `episodes_written` is {describe(written)}; it must be the number of "
            "episode results written (a nonnegative integer).",
            file=STATUS,
        )
    elif not episodes_unread(run) and written != len(run.records):
        yield WRITTEN_MISMATCH(
            f"{STATUS}: `episodes_written` is {written} but episodes.jsonl has "
            f"{len(run.records)} records. Re-close the run so both agree.",
            file=STATUS,
        )
    if status not in STATUSES or episodes_unread(run):
        return
    errored = sum(1 for _, d in run.iter_records() if d.get("status") == "error")
    if status == "completed" and errored:
        yield STATUS_DISAGREES(
            f"{STATUS}: `status` is 'completed' but {errored} episode(s) errored; it must be "
            "'completed_with_errors' so readers see the errors.",
            file=STATUS,
        )
    elif status == "completed_with_errors" and not errored and episodes_complete(run):
        yield STATUS_DISAGREES(
            f"{STATUS}: `status` is 'completed_with_errors' but no episode has status error. "
            "Use 'completed', or restore the errored records.",
            file=STATUS,
        )


def unattempted_by_fail_fast(run: Run) -> tuple[list[str], str | None] | None:
    """(unattempted ids, the errored id the run stopped after) when a declared fail_fast explains
    every missing selected case, else None. Shared with the publication caveats."""
    schedule = schedule_list(run)
    if schedule is None or episodes_unread(run) or run.protocol.fail_fast is not True:
        return None
    present = {eid for eid in record_ids(run) if eid is not None}
    missing = [eid for eid in dict.fromkeys(schedule) if eid not in present]
    if not missing:
        return None
    k = schedule.index(missing[0])
    if k == 0 or any(eid in present for eid in schedule[k:]):
        return None  # nothing ran, or a gap before later records: not a fail-fast stop
    last = schedule[k - 1]
    statuses = [
        rec.data.get("status")
        for rec, eid in zip(run.records, record_ids(run), strict=True)
        if eid == last and rec.data is not None
    ]
    if statuses[-1:] != ["error"]:
        return None
    return missing, last


@R.check
def check_completeness(run: Run) -> Iterator[Finding]:
    schedule = schedule_list(run)
    if schedule is None or episodes_unread(run):
        return
    if unattempted_by_fail_fast(run) is not None:
        return  # allowed; the publication caveat states it
    present = {eid for eid in record_ids(run) if eid is not None}
    missing = [eid for eid in dict.fromkeys(schedule) if eid not in present]
    if not missing:
        return
    if run.protocol.fail_fast is True:
        why = (
            "fail_fast is declared, but it only excuses the cases after an errored episode that "
            "ended the run, and that is not the case here"
        )
    else:
        why = "fail_fast is not declared, so every selected case must have a record"
    unparsed = sum(1 for rec in run.records if rec.data is None)
    hint = f" ({unparsed} unreadable line(s) of {EPISODES_JSONL} may hold it)" if unparsed else ""
    for eid in missing:
        yield EPISODE_MISSING(
            f"{MANIFEST}: selected episode {eid!r} has no record in {EPISODES_JSONL}{hint}; "
            f"{why}. Add its result (status 'error' if it could not run).",
            file=MANIFEST, episode_id=eid,
        )


@R.check
def check_episodes_not_empty(run: Run) -> Iterator[Finding]:
    """An empty episodes.jsonl is named at that file: the per-case EV404 findings point at the
    manifest, and a reader would otherwise never be told the results file itself is empty."""
    schedule = schedule_list(run)
    if run.kind != "closed-run" or not schedule or episodes_unread(run) or run.records:
        return
    n = len(dict.fromkeys(schedule))
    yield EPISODES_EMPTY(
        f"{EPISODES_JSONL} holds no episode result, but {MANIFEST} protocol.episode_ids selects "
        f"{n} episode(s). Write one line per attempted episode (status 'error' for one that "
        "could not run), or re-export the run.",
        file=EPISODES_JSONL,
    )
