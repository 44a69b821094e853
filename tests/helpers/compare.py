"""The core's compare and contrast, fed each read's whole audit as the session gives it.

`compare_runs` and `contrast_runs` never audit (each read's findings come from its session,
`evalview.session.audit_read`); these wrappers hand them that audit, so the arithmetic and the
refusals are tested on `Run`s built in the tests, as the doors call them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evalview.compare.contrast import Contrast
from evalview.compare.contrast import contrast_runs as _contrast_runs
from evalview.compare.paired import Comparison
from evalview.compare.paired import compare_runs as _compare_runs
from evalview.findings import Finding
from evalview.model.run import Run
from evalview.session import audit_read


def compare_runs(a: Run, b: Run, **options: Any) -> Comparison:
    return _compare_runs(a, b, findings=(audit_read(a), audit_read(b)), **options)


def contrast_runs(
    a: list[tuple[str, Run, str]], b: list[tuple[str, Run, str]], **options: Any
) -> Contrast:
    seen: dict[int, Sequence[Finding]] = {}

    def findings_of(run: Run) -> Sequence[Finding]:
        if id(run) not in seen:
            seen[id(run)] = audit_read(run)
        return seen[id(run)]

    return _contrast_runs(a, b, findings_of=findings_of, **options)
