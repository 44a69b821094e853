"""The audit: is the record consistent, and what must a reader know before publishing it?"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalview.audit.registry import CHECKS, RULES, Rule
from evalview.findings import Finding, sort_findings

if TYPE_CHECKING:
    from evalview.model.run import Run

__all__ = ["RULES", "Rule", "audit"]


def audit(run: Run) -> list[Finding]:
    """Reading findings plus every registered check, in a stable order."""
    import evalview.audit.checks  # noqa: F401  (registers the checks)
    from evalview.audit.checks._common import ids_computed_once

    findings = list(run.reading_findings)
    with ids_computed_once(run):
        for check in CHECKS:
            findings.extend(check(run))
    return sort_findings(findings)
