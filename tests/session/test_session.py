"""The headless session: one read, one audit, one score; the bootstrap added without rescoring."""

from __future__ import annotations

import pytest

import evalview.audit
from evalview.session import (
    ScoreOptions,
    finish_bootstrap,
    open_run,
    open_session,
    score_session,
)
from evalview.stats import score_run, with_bootstrap
from helpers.paths import SAMPLE_RUNS

ROBO = SAMPLE_RUNS / "robobench-24x50"
FAULTY = SAMPLE_RUNS / "faulty"


def test_opening_audits_once_and_scoring_never_audits(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    real = evalview.audit.audit

    def counting(run: object) -> object:
        calls.append(run)
        return real(run)  # type: ignore[arg-type]

    monkeypatch.setattr(evalview.audit, "audit", counting)
    session = open_session(FAULTY, defer_bootstrap=True)
    assert len(calls) == 1
    finish_bootstrap(session)
    score_session(session, ScoreOptions(bootstrap=0, allow_errors=True))
    assert len(calls) == 1


def test_the_deferred_bootstrap_equals_scoring_with_it() -> None:
    deferred = open_session(ROBO, defer_bootstrap=True)
    assert deferred.scorecard is not None and deferred.scorecard.aggregate.bootstrap is None
    card, why = finish_bootstrap(deferred)
    assert why is None and card is not None
    full = open_session(ROBO)
    assert full.scorecard is not None
    assert card.to_json() == full.scorecard.to_json()
    assert card.aggregate.bootstrap is not None


@pytest.mark.parametrize("resamples", [0, 37, 500])
def test_with_bootstrap_changes_only_the_interval(resamples: int) -> None:
    session = open_run(FAULTY)
    base = score_run(session.run, findings=session.findings, bootstrap=0, allow_errors=True)
    added = with_bootstrap(base, resamples).to_json()
    direct = score_run(
        session.run, findings=session.findings, bootstrap=resamples, allow_errors=True
    ).to_json()
    assert added == direct
    assert {k for k in added if added[k] != base.to_json()[k]} <= {"aggregate"}


def test_score_session_uses_the_options() -> None:
    session = open_run(ROBO)
    refused = score_session(session, ScoreOptions(bootstrap=0))
    allowed = score_session(session, ScoreOptions(bootstrap=0, allow_errors=True))
    assert refused.refused and [r.code for r in refused.refusals] == ["errored-rollouts"]
    assert not allowed.refused and allowed.aggregate.resamples == 0
