"""The app paints a read before its audit: `open_input(defer_audit=True)` then `finish_audit`.

Once the audit is in, the session must be the one the doors give (the same findings, counts,
verdict and card, refusals included), and before it nothing may claim a verdict it does not have.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import evalview.audit
from evalview.findings import audit_verdict
from evalview.session import (
    AUDIT_PENDING,
    Session,
    apply_audit,
    finish_audit,
    finish_bootstrap,
    open_input,
)
from helpers.paths import EXAMPLE, SAMPLE_RUNS

INPUTS = {
    "faulty": SAMPLE_RUNS / "faulty",
    "fail-fast": SAMPLE_RUNS / "fail-fast",
    "robobench": SAMPLE_RUNS / "robobench-24x50",
    "example": EXAMPLE,
    "lerobot": SAMPLE_RUNS / "lerobot" / "pusht-single-env.json",
    "inspect": SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval",
    "lm-eval": SAMPLE_RUNS / "lm-eval" / "org__model-a" / "results_2025-05-01T10-00-00.000001.json",
}


def _opened(path: Path, **kw: Any) -> Session:
    opened = open_input(path, defer_bootstrap=True, **kw)
    assert isinstance(opened, Session)
    return opened


def _finished(session: Session) -> dict[str, Any]:
    """What the app ends with: the audit applied, then the bootstrap added to that card."""
    apply_audit(session, finish_audit(session))
    card, why = finish_bootstrap(session)
    return {
        "findings": [f.to_json() for f in session.findings],
        "counts": session.counts,
        "verdict": session.verdict,
        "card": None if card is None else card.to_json(),
        "why": why,
    }


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_after_the_audit_the_session_is_the_audited_one(name: str) -> None:
    deferred = _opened(INPUTS[name], defer_audit=True)
    assert deferred.findings_pending and deferred.findings == []
    assert deferred.verdict == AUDIT_PENDING
    audited = _opened(INPUTS[name])
    assert not audited.findings_pending
    assert deferred.scorecard is not None and audited.scorecard is not None
    # the numbers shown before the audit are final: only refusals and labels may change
    before, after = deferred.scorecard.to_json(), audited.scorecard.to_json()
    assert {k for k in before if before[k] != after[k]} <= {
        "refusals", "refused", "publishable", "labels", "audit_errors",
    }
    assert _finished(deferred) == _finished(audited)
    assert deferred.verdict == audit_verdict(audited.counts)


def test_the_audit_may_add_a_refusal_the_first_card_did_not_have() -> None:
    """Why the panes show "pending" before the audit: faulty's audit errors refuse the read."""
    deferred = _opened(SAMPLE_RUNS / "faulty", defer_audit=True)
    assert deferred.scorecard is not None
    assert "audit-errors" not in {r.code for r in deferred.scorecard.refusals}
    apply_audit(deferred, finish_audit(deferred))
    assert deferred.scorecard is not None
    assert "audit-errors" in {r.code for r in deferred.scorecard.refusals}


def test_opening_with_a_deferred_audit_audits_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    real = evalview.audit.audit

    def counting(run: object) -> object:
        calls.append(run)
        return real(run)  # type: ignore[arg-type]

    monkeypatch.setattr(evalview.audit, "audit", counting)
    session = _opened(SAMPLE_RUNS / "faulty", defer_audit=True)
    assert calls == []
    finish_audit(session)
    assert len(calls) == 1


def test_a_reading_failure_is_known_before_the_audit(tmp_path: Path) -> None:
    """The run screen opens on Findings when the reader failed: decided before the audit, from
    the reader's own findings, and the same decision as after it."""
    run = Path(shutil.copytree(EXAMPLE, tmp_path / "run"))
    with (run / "episodes.jsonl").open("a", encoding="utf-8") as fh:
        fh.write("{not json\n")
    deferred = _opened(run, defer_audit=True)
    audited = _opened(run)
    assert audited.reading_failed
    assert deferred.reading_failed
    apply_audit(deferred, finish_audit(deferred))
    assert deferred.reading_failed
