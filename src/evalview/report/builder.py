"""(Run, Scorecard, findings) -> `Result`: what gets published, by whitelist.

Only the fields named here leave the run: identity and public declarations, the scorecard's
numbers, audit warnings, and per-episode outcomes (status, success, termination reason, error
category and type). Error messages, tracebacks, instructions, metadata, usage, artifacts and every
metric not asked for with --metric stay behind. Every string then passes through the scrubber,
and the whole is validated against the `Result` model strictly, from its JSON text (extra keys
are forbidden): by pydantic (`build_result`), or by model/result_plain.py in front of it
(`build_published`, the export's path: what it does not accept, pydantic judges).

Errored rollouts: the closed-result format's export shows successes / selected prominently and
keeps errored and unattempted cases in that denominator, so an errored case is a non-success in
every rate here, listed with its category; infrastructure errors are counted separately as pending
a re-run (a warning on the page), never relabelled as task failures.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import orjson

from evalview import __version__
from evalview.findings import Finding, Severity
from evalview.model.result_plain import SCHEMA_VERSION, SOURCE_FORMAT, check
from evalview.model.run import COMPLETED, ERROR, ERROR_CATEGORIES, UNATTEMPTED, Run
from evalview.report.destination import AuditRefused, ExportRefused
from evalview.report.leaks import Leak, scrub_and_find_leaks
from evalview.report.sanitize import Scrubber
from evalview.stats import Scorecard
from evalview.stats.policy import NOT_PUBLISHABLE
from evalview.stats.published import published_numbers

if TYPE_CHECKING:
    from evalview.model.result import Result

#: Configuration keys that name credentials are dropped even from a "public" declaration.
_CREDENTIAL_KEY = re.compile(
    r"(api[_-]?key|token|secret|password|passwd|credential|auth|cookie|private[_-]?key)", re.I
)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _public_config(value: Any, dropped: list[str]) -> Any:
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if _CREDENTIAL_KEY.search(str(k)):
                dropped.append(str(k))
                continue
            out[str(k)] = _public_config(v, dropped)
        return out
    if isinstance(value, list):
        return [_public_config(v, dropped) for v in value]
    return value


def _method(manifest: dict[str, Any] | None, dropped: list[str]) -> dict[str, Any] | None:
    method = manifest.get("method") if manifest else None
    origin = _str(manifest.get("method_origin")) if manifest else None
    if not isinstance(method, dict):
        return None
    models = []
    for m in method.get("models") or []:
        if isinstance(m, dict) and isinstance(m.get("id"), str):
            models.append(
                {k: _str(m.get(k)) for k in ("id", "role", "provider", "model", "version")}
            )
    config = method.get("configuration")
    supplied = isinstance(config, dict) and origin != "legacy_policy_projection"
    return {
        "id": _str(method.get("id")),
        "version": _str(method.get("version")),
        "origin": origin,
        "models": models,
        "configuration": _public_config(config, dropped) if supplied else None,
        "configuration_supplied": supplied,
    }


def _metric_value(data: dict[str, Any] | None, key: str) -> bool | int | float | None:
    """A native number or boolean; anything else (missing, text, nested) is None."""
    metrics = data.get("metrics") if data else None
    value = metrics.get(key) if isinstance(metrics, dict) else None
    return value if isinstance(value, bool | int | float) else None


def build_document(
    run: Run,
    card: Scorecard,
    findings: Sequence[Finding],
    *,
    metrics: Sequence[str] = (),
) -> dict[str, Any]:
    """The unscrubbed document (plain JSON values), whitelisted field by field."""
    ident, proto = run.identity, run.protocol
    dropped: list[str] = []
    cases = run.scheduled()
    episodes = []
    for i in range(len(cases)):
        status = cases.status[i]
        eid = str(cases.ids[i])
        if status not in (COMPLETED, ERROR, UNATTEMPTED):
            raise ExportRefused(
                f"{cases.file[i] or 'episodes.jsonl'}:{int(cases.line[i])} ({eid}): status "
                f"{status!r} is neither completed nor error; fix the record (see `evalview check`)."
            )
        idx = int(cases.record_index[i])
        data = run.records[idx].data if 0 <= idx < len(run.records) else None
        category = cases.error_category[i] if status == ERROR else None
        episodes.append(
            {
                "id": eid,
                "task": str(cases.task[i]),
                "seed": None if cases.seed[i] < 0 else int(cases.seed[i]),
                "status": status,
                "success": None if cases.success[i] < 0 else bool(cases.success[i]),
                "termination_reason": cases.termination_reason[i],
                "error_category": category if category in ERROR_CATEGORIES else None,
                "error_type": cases.error_type[i] if status == ERROR else None,
                "metrics": {key: _metric_value(data, key) for key in metrics},
            }
        )

    d = card.denominators
    numbers = published_numbers(card)
    labels = []
    for label in card.labels:
        if label.startswith(NOT_PUBLISHABLE):
            label = (
                f"{d.errors} errored rollout(s) counted as non-successes; the reporting rules "
                "score only reads whose rollouts all completed"
            )
        labels.append(label)
    labels.extend(run.left_out)
    return {
        "schema_version": SCHEMA_VERSION,
        "generator": {"name": "evalview", "version": __version__},
        "source_format": SOURCE_FORMAT,
        "run_id": ident.run_id,
        "benchmark": {
            "name": ident.benchmark_name,
            "version": ident.benchmark_version,
            "protocol_version": ident.protocol_version,
            "source_revision": ident.source_revision,
        },
        "policy": {"name": ident.policy_name, "version": ident.policy_version},
        "method": _method(run.manifest, dropped),
        "protocol": {
            "selected_cases": d.selected,
            "max_steps": _int(proto.max_steps),
            "max_policy_calls": _int(proto.max_policy_calls),
            "replan_interval": _int(proto.replan_interval),
            "fail_fast": proto.fail_fast,
        },
        "denominators": numbers["denominators"],
        "counts": numbers["counts"],
        "rates": numbers["rates"],
        "aggregate": numbers["aggregate"],
        "tasks": numbers["tasks"],
        "error_categories": numbers["error_categories"],
        "pending_infrastructure_errors": numbers["pending_infrastructure_errors"],
        "audit_warnings": [f.to_json() for f in findings if f.severity is Severity.WARNING],
        "labels": labels,
        "metrics_selected": list(metrics),
        "redactions": len(dropped),
        "episodes": episodes,
    }


def build_result(
    run: Run,
    card: Scorecard,
    findings: Sequence[Finding],
    *,
    metrics: Sequence[str] = (),
    scrubber: Scrubber | None = None,
    redact: bool = False,
) -> Result:
    """The validated, scrubbed result as the pydantic model (`published_text`, validated by
    `Result.from_json`). Raises as `published_text` does."""
    from evalview.model.result import Result

    text = published_text(run, card, findings, metrics=metrics, scrubber=scrubber, redact=redact)
    return Result.from_json(text)


def build_published(
    run: Run,
    card: Scorecard,
    findings: Sequence[Finding],
    *,
    metrics: Sequence[str] = (),
    scrubber: Scrubber | None = None,
    redact: bool = False,
) -> dict[str, Any]:
    """What `build_result(...).model_dump()` gives, validated the same (strictly, from its JSON
    text), by `model.result_plain` first: an export that validates never builds the pydantic
    models (about 0.15 s of CPU). Raises as `published_text` does, and pydantic's
    ValidationError when the document does not validate."""
    text = published_text(run, card, findings, metrics=metrics, scrubber=scrubber, redact=redact)
    return validated(text)


def validated(text: bytes) -> dict[str, Any]:
    """result.json's JSON text, validated strictly: the values of
    `Result.from_json(text).model_dump()`, by `model.result_plain.check` when it accepts them
    (pydantic is then never imported), else by the model, which words the errors. Raises
    pydantic's ValidationError when invalid."""
    try:
        document = check(orjson.loads(text))
    except orjson.JSONDecodeError:
        document = None
    if document is None:
        from evalview.model.result import Result

        return Result.from_json(text).model_dump()
    return document


def published_text(
    run: Run,
    card: Scorecard,
    findings: Sequence[Finding],
    *,
    metrics: Sequence[str] = (),
    scrubber: Scrubber | None = None,
    redact: bool = False,
) -> bytes:
    """The scrubbed result as JSON text, before validation. Raises ExportRefused when the run
    cannot be published, and AuditRefused (EV606) when a published field holds a
    credential-shaped value, unless `redact`: then the value is replaced and listed in
    `redacted`."""
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if errors:
        raise ExportRefused(f"the audit finds {len(errors)} error(s); fix them before exporting.")
    if card.refusals:
        raise ExportRefused(" ".join(r.message for r in card.refusals))
    for key in metrics:
        if not key or "." in key or "/" in key:
            raise ExportRefused(
                f"--metric {key!r}: name one top-level key of an episode's metrics object "
                "(nested objects are never selected)."
            )
    scrubber = scrubber or Scrubber()
    document = build_document(run, card, findings, metrics=metrics)
    dropped = document.pop("redactions")
    # One walk scrubs every string and finds the credential-shaped ones (replaced if `redact`).
    clean, leaks = scrub_and_find_leaks(document, scrubber, redact=redact)
    if leaks and not redact:
        raise AuditRefused(
            f"{run.path}: {len(leaks)} published field value(s) look like credentials or "
            "machine details (API keys, tokens, e-mail addresses, host names, private IP "
            "addresses, stack traces); nothing was written. Remove them from the run, or pass "
            "--redact to publish them replaced (result.json and the page then list each one).",
            [leak_finding(run, leak) for leak in leaks],
        )
    if leaks:
        clean["redacted"] = [leak.to_json() for leak in leaks]
    clean["redactions"] = dropped + scrubber.redactions + len(leaks)
    # what was exported, said as its reader declares it (a reopened result.json keeps its own)
    label = _export_label(run)
    if label is not None:
        clean["source_format"] = label
    # Validated from this JSON text by the callers, as a reader validates the file (strict types).
    return orjson.dumps(clean, option=orjson.OPT_SERIALIZE_NUMPY)


def _export_label(run: Run) -> str | None:
    from evalview.load.registry import reader_named

    reader = reader_named(run.kind)
    return None if reader is None else reader.export_label


def leak_finding(run: Run, leak: Leak) -> Finding:
    """EV606 at the source of the leaked value: the episodes.jsonl line of a published episode,
    manifest.json for the run's identity and declarations, the file itself for a result.json."""
    from evalview.audit.checks.publication import CREDENTIAL_PUBLISHED

    file, line, episode_id = _source_of(run, leak.path)
    return CREDENTIAL_PUBLISHED(
        f"result.json {leak.path}: the field `{leak.field}` holds a value shaped like "
        f"{'an' if leak.kind[0] in 'AEIaei' else 'a'} {leak.kind}; it would be published. "
        "Remove it from the run, or export with --redact to publish it replaced.",
        file=file, line=line, episode_id=episode_id,
    )


_EPISODE_PATH = re.compile(r"^\$\.episodes\[(\d+)\]")
_MANIFEST_FIELDS = ("$.run_id", "$.benchmark", "$.policy", "$.method", "$.protocol")


def _source_of(run: Run, path: str) -> tuple[str, int | None, str | None]:
    if run.kind != "closed-run":
        return run.path.name, None, None
    match = _EPISODE_PATH.match(path)
    if match is not None:
        cases = run.scheduled()
        i = int(match.group(1))
        if i < len(cases):
            eid, file, line = str(cases.ids[i]), cases.file[i], int(cases.line[i])
            if not file:  # an unattempted case: its id is the manifest schedule's
                return "manifest.json", None, eid
            return str(file), line if line > 0 else None, eid
    if path.startswith(_MANIFEST_FIELDS):
        return "manifest.json", None, None
    return "episodes.jsonl", None, None  # task names and what the audit derived from records
