"""The audit: is the record consistent, and what must a reader know before publishing it?"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalview.audit.registry import CHECKS, RULES, Rule
from evalview.findings import Finding, sort_findings

if TYPE_CHECKING:
    from evalview.model.run import Run

__all__ = ["RULES", "Rule", "audit", "has_closed_run_parts"]


def audit(run: Run) -> list[Finding]:
    """Reading findings plus every registered check, in a stable order.

    The registered checks read a closed run's parts only (`has_closed_run_parts`). A read with
    none of them (a LeRobot file, an lm-eval results JSON, an Inspect log: their readers make
    their findings while reading) gets no finding from any check, so for it the checks are
    neither imported nor run: about 9 ms, a sixth of such a file's `check` over its parse floor
    (tests/audit/test_audit_gate.py runs every check on such reads to keep this true)."""
    findings = list(run.reading_findings)
    if has_closed_run_parts(run):
        import evalview.audit.checks  # noqa: F401  (registers the checks)
        from evalview.audit.checks._common import ids_computed_once

        with ids_computed_once(run):
            for check in CHECKS:
                findings.extend(check(run))
    return sort_findings(findings)


def has_closed_run_parts(run: Run) -> bool:
    """Whether `run` holds anything the registered checks read: a parsed manifest, status or
    summary document, an episodes.jsonl record or a result file."""
    return (
        any(doc is not None for doc in run.documents.values())
        or bool(run.records)
        or bool(run.result_files)
    )
