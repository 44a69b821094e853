"""The app's workers never describe themselves by the repr of an opened read (issue 25).

Textual's `@work` names a worker after the repr of its arguments unless given a description,
and computes it on the UI thread as the worker starts. The audit worker takes the session: its
dataclass repr is the repr of every record of the run, about 0.4 CPU-s on the 10,000-episode
run, spent between the run screen's paint and the audit's start (docs/performance.md).
"""

from __future__ import annotations

from typing import Any

import pytest
from tui_helpers import FAULTY, SIZE, audited, run, showing, wait_for

from evalview.model.run import Run
from evalview.session import Session
from evalview.tui.app import EvalViewApp
from evalview.tui.run_screen import RunScreen


@pytest.fixture
def reprs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the classes whose repr was asked for (a session's, a run's)."""
    asked: list[str] = []

    def counting(cls: type[Any]) -> None:
        real = cls.__repr__

        def spy(self: Any) -> str:
            asked.append(cls.__name__)
            return str(real(self))

        monkeypatch.setattr(cls, "__repr__", spy)

    counting(Session)
    counting(Run)
    return asked


def test_opening_auditing_and_scoring_anyway_never_repr_the_session(reprs: list[str]) -> None:
    async def main() -> None:
        app = EvalViewApp(FAULTY)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunScreen))
            await wait_for(pilot, lambda: audited(app))
            session = app.session
            assert session is not None
            await wait_for(pilot, lambda: not session.bootstrap_pending)
            # the faulty sample's card is refused for its errors: `a` scores it anyway
            assert app.check_action("allow_errors", ())
            await pilot.press("a")
            await wait_for(
                pilot,
                lambda: session.scorecard is not None and session.scorecard.allow_errors,
            )

    run(main())
    assert reprs == []
