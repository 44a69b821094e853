"""Publication caveats (EV6xx): facts that do not break the record but that a reader of the
numbers must be told, stated plainly next to them."""

from __future__ import annotations

from collections.abc import Iterator

from evalview.audit import registry as R
from evalview.audit.checks._common import (
    EPISODES_JSONL,
    MANIFEST,
    ids_preview,
    is_nonneg_int,
    record_place,
)
from evalview.audit.checks.closure import unattempted_by_fail_fast
from evalview.findings import Finding
from evalview.model.run import Run

E, W, I = R.E, R.W, R.I  # noqa: E741

INFRASTRUCTURE = R.rule(
    "EV601", "infrastructure-errors", W,
    "Episodes ended in infrastructure errors: they count as non-successes until re-run.",
)
UNATTEMPTED = R.rule(
    "EV602", "unattempted-cases", W,
    "fail_fast stopped the run; the unattempted selected cases stay in the denominator.",
)
ERRORED = R.rule(
    "EV603", "errored-episodes", W,
    "Episodes errored (policy, protocol or evaluation): they count as non-successes.",
)
OVER_BUDGET = R.rule(
    "EV604", "over-budget", W,
    "An episode reports more environment steps or policy calls than the protocol's declared "
    "limit.",
)
#: Made by the export (report/leaks.py), which refuses on it: the value would be published.
CREDENTIAL_PUBLISHED = R.rule(
    "EV606", "credential-in-publication", E,
    "A published field holds a credential-shaped value (API key, token, e-mail, host name, "
    "private IP address, stack trace); the export refuses unless --redact.",
)
METHOD_NOT_SUPPLIED = R.rule(
    "EV605", "method-not-supplied", I,
    "No participant method declaration: the method configuration is not supplied.",
)


@R.check
def check_errors(run: Run) -> Iterator[Finding]:
    by_kind: dict[bool, list[tuple[int, str]]] = {True: [], False: []}
    for rec, d in run.iter_records():
        if d.get("status") != "error":
            continue
        err = d.get("error")
        infra = isinstance(err, dict) and err.get("category") == "infrastructure"
        by_kind[infra].append((rec.line, rec.episode_id or f"<line {rec.line}>"))
    infra = by_kind[True]
    if infra:
        ids = [eid for _, eid in infra]
        yield INFRASTRUCTURE(
            f"{len(infra)} episode(s) ended in an infrastructure error ({ids_preview(ids)}). "
            "They are pending a re-run and count as non-successes over selected and attempted "
            "cases; say so next to the numbers, or re-run them before publishing.",
            file=EPISODES_JSONL, line=infra[0][0], episode_id=infra[0][1],
        )
    other = by_kind[False]
    if other:
        ids = [eid for _, eid in other]
        yield ERRORED(
            f"{len(other)} episode(s) errored with a policy, protocol or evaluation error "
            f"({ids_preview(ids)}). They are neither successes nor task failures: they stay in "
            "the selected and attempted denominators and out of the completed one.",
            file=EPISODES_JSONL, line=other[0][0], episode_id=other[0][1],
        )


@R.check
def check_unattempted(run: Run) -> Iterator[Finding]:
    stop = unattempted_by_fail_fast(run)
    if stop is None:
        return
    missing, after = stop
    yield UNATTEMPTED(
        f"{MANIFEST}: fail_fast stopped the run after the errored episode {after!r}; "
        f"{len(missing)} selected case(s) were not attempted ({ids_preview(missing)}). They stay "
        "in the selected denominator: report successes / selected, not only successes / "
        "completed.",
        file=MANIFEST, episode_id=missing[0],
    )


@R.check
def check_budget(run: Run) -> Iterator[Finding]:
    limits = (
        ("environment_steps", "max_steps", run.protocol.max_steps),
        ("policy_calls", "max_policy_calls", run.protocol.max_policy_calls),
    )
    for rec, d in run.iter_records():
        for key, limit_name, limit in limits:
            v = d.get(key)
            if limit is not None and limit > 0 and is_nonneg_int(v) and v > limit:
                yield OVER_BUDGET(
                    f"{record_place(rec.line, rec.episode_id)}: `{key}` is {v}, over the "
                    f"declared protocol.{limit_name} of {limit}. Check the budget declaration, "
                    "or explain why the episode ran past it.",
                    file=EPISODES_JSONL, line=rec.line, episode_id=rec.episode_id,
                )


@R.check
def check_method_declared(run: Run) -> Iterator[Finding]:
    manifest = run.manifest
    if manifest is None:
        return
    origin = manifest.get("method_origin")
    if not isinstance(manifest.get("method"), dict):
        yield METHOD_NOT_SUPPLIED(
            f"{MANIFEST}: no `method` is declared; the report shows the method configuration "
            "as not supplied. Add a participant method declaration to describe the method.",
            file=MANIFEST,
        )
    elif origin == "legacy_policy_projection":
        yield METHOD_NOT_SUPPLIED(
            f"{MANIFEST}: the method is a legacy policy projection; its configuration is "
            "reported as not supplied, not as a complete method definition.",
            file=MANIFEST,
        )
