"""What an export says when it is done: one wording for `evalview export` and the app's dialog.

Both views only style these lines (rich markup, a Text); what they say, and which warnings a
person must read before publishing, is decided here once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from evalview.fmt import count, pct

if TYPE_CHECKING:
    from evalview.report.export import Exported
    from evalview.report.harness_export import HarnessExported


@dataclass(frozen=True, slots=True)
class ExportSummary:
    """The headline count, the files written, and the warnings to read before publishing."""

    destination: Path
    #: e.g. "4/12 successes / selected (33.3 %)"
    headline: str
    files: tuple[Path, ...]
    warnings: tuple[str, ...]


def export_summary(done: Exported) -> ExportSummary:
    """Summarise a finished export (nothing is re-read or recomputed)."""
    r = done.document  # the plain values: the summary needs no pydantic model
    head = r["denominators"][0]
    warnings: list[str] = []
    pending = r["pending_infrastructure_errors"]
    if pending:
        warnings.append(
            f"{pending} infrastructure error(s) pending a re-run are "
            "shown as a warning on the page."
        )
    if r["audit_warnings"]:
        warnings.append(f"{len(r['audit_warnings'])} audit warning(s) are listed on the page.")
    episodes = r["episodes"]
    for key in r["metrics_selected"]:
        missing = sum(1 for e in episodes if e["metrics"].get(key) is None)
        if missing:
            warnings.append(
                f"--metric {key}: {missing} of {len(episodes)} episode(s) have no numeric or "
                "boolean value; published as null."
            )
    for item in r["redacted"] or ():
        kind = item["kind"]
        warnings.append(
            f"--redact: {item['path']} held {'an' if kind[0] in 'AEIaei' else 'a'} "
            f"{kind}; published as [redacted {kind}]."
        )
    if r["redactions"]:
        warnings.append(
            f"{r['redactions']} string(s) held a local path, a user name or a credential-named key "
            "and were redacted. Read the files before you publish them."
        )
    return ExportSummary(
        destination=done.destination,
        headline=(
            f"{head['successes']}/{head['denominator']} successes / selected "
            f"({pct(head['rate'])})"
        ),
        files=tuple(done.files),
        warnings=tuple(warnings),
    )


def harness_export_summary(done: HarnessExported) -> ExportSummary:
    """The same for an exported benchmark-harness result: its arms and seeds as the headline,
    the caveat labels it keeps, its audit warnings and what was redacted."""
    doc = done.document
    warnings = [f"{label} (kept on the page and in result.json)" for label in doc["labels"]]
    audit_warnings = [f for f in doc["findings"] if f["severity"] == "warning"]
    if audit_warnings:
        warnings.append(f"{len(audit_warnings)} audit warning(s) are listed on the page.")
    for item in doc.get("redacted") or ():
        warnings.append(
            f"--redact: {item['path']} held {'an' if item['kind'][0] in 'AEIaei' else 'a'} "
            f"{item['kind']}; published as [redacted {item['kind']}]."
        )
    if done.redactions:
        warnings.append(
            f"{done.redactions} string(s) held a local path, a host or a user name and were "
            "redacted. Read the files before you publish them."
        )
    return ExportSummary(
        destination=done.destination,
        headline=(
            f"benchmark-harness result {doc['name']}, {count(len(doc['arms']), 'arm')} × "
            f"{count(len(doc['seeds']), 'seed')}"
        ),
        files=tuple(done.files),
        warnings=tuple(warnings),
    )
