"""The run screen is painted before the audit (issue 25): the header, the denominators and the
tables at once, the verdict "… auditing" until the audit lands, then the real verdict, findings
and refusals, the same as a session audited before it was shown.

The audit is held on an event here, so "before" is observed on any machine, however fast.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from textual.widgets import Input, Static
from tui_helpers import FAULTY, SIZE, audited, run, screen_lines, showing, wait_for

import evalview.session
from evalview.findings import audit_verdict
from evalview.session import AUDIT_PENDING, Audited, Session, open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.findings_view import FindingsPane
from evalview.tui.run_screen import RunScreen
from helpers.closed_runs import outcomes_for, write_run


@pytest.fixture
def held_audit(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The app's audit waits until the returned event is set."""
    go = threading.Event()
    real = evalview.session.finish_audit

    def held(session: Session) -> Audited:
        assert go.wait(60), "the test never let the audit run"
        return real(session)

    monkeypatch.setattr(evalview.session, "finish_audit", held)
    return go


def _text(screen: RunScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def test_the_run_screen_shows_its_numbers_before_the_audit(held_audit: threading.Event) -> None:
    final = open_session(FAULTY)  # what a session audited before it is shown ends with
    assert final.scorecard is not None and final.counts["error"] > 0

    async def main() -> None:
        app = EvalViewApp(FAULTY)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunScreen))
            screen = app.screen
            assert isinstance(screen, RunScreen)
            session = app.session
            assert session is not None and session.findings_pending
            await pilot.pause()
            # the header: every number, and no verdict yet
            assert _text(screen, "#verdict") == AUDIT_PENDING[1]
            assert screen.query_one("#verdict").has_class("verdict-pending")
            d = final.scorecard.denominators
            assert f"{d.successes:,} / {d.selected:,}" in _text(screen, "#headline")
            # the Overview: the denominators, and no claim about reportability either way
            shown = "\n".join(screen_lines(app))
            assert "auditing" in shown
            assert "✓ publishable" not in shown and "not reportable: the audit" not in shown
            assert "`a` scores" not in shown and not app.check_action("allow_errors", ())
            # the Findings tab says the audit is running; a search typed meanwhile is kept
            await pilot.press("5")
            await wait_for(pilot, lambda: bool(screen.query(FindingsPane)))
            pane = screen.query_one(FindingsPane)
            assert "auditing" in str(pane.query_one("#findings-title", Static).render())
            await pilot.press("slash", "e", "v", "2")
            field = pane.query_one("#findings-search", Input)
            await wait_for(pilot, lambda: field.value == "ev2")
            assert pane.findings == []

            held_audit.set()
            await wait_for(pilot, lambda: audited(app))
            await wait_for(pilot, lambda: _text(screen, "#verdict") != AUDIT_PENDING[1])
            kind, verdict = audit_verdict(final.counts)
            assert _text(screen, "#verdict") == verdict
            assert screen.query_one("#verdict").has_class(f"verdict-{kind}")
            assert session.findings == final.findings
            # the search typed while the audit ran now filters its findings
            ev2 = [f for f in final.findings if "ev2" in f" {f.code} {f.message}".lower()]
            assert ev2 and pane.findings and len(pane.findings) <= len(final.findings)
            assert all(f.code.lower().startswith("ev2") or "ev2" in f.message.lower()
                       or "ev2" in f.location.lower() for f in pane.findings)
            await pilot.press("escape", "1")
            await wait_for(pilot, lambda: not session.bootstrap_pending)
            await pilot.pause()
            shown = "\n".join(screen_lines(app))
            assert "not reportable" in shown and "auditing" not in shown
            assert app.check_action("allow_errors", ())
            assert session.scorecard is not None
            assert session.scorecard.to_json() == final.scorecard.to_json()

    run(main())


def test_leaving_before_the_audit_lands_is_quiet(held_audit: threading.Event) -> None:
    """q while the audit runs quits at once; the audit landing afterwards changes nothing."""

    async def main() -> None:
        app = EvalViewApp(FAULTY)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunScreen))
            await pilot.press("q")
            held_audit.set()
            await wait_for(pilot, lambda: not app.is_running)

    run(main())


@pytest.mark.parametrize("broken", [False, True], ids=["clean", "summary-contradicts"])
def test_publishable_is_said_only_once_the_audit_is_in(
    held_audit: threading.Event, tmp_path: Path, broken: bool
) -> None:
    """A read with no errored rollout is "publishable" before the audit as far as its card
    knows; the audit alone says whether it is (a summary that contradicts the records refuses
    it). Before the audit neither word is shown."""
    root = write_run(tmp_path / "run", outcomes_for({"t": (1, 3), "u": (2, 3)}, 3))
    if broken:
        summary = json.loads((root / "summary.json").read_text())
        summary["successes"] += 1
        (root / "summary.json").write_text(json.dumps(summary))

    async def main() -> None:
        app = EvalViewApp(root)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: showing(app, RunScreen))
            await pilot.pause()
            assert app.session is not None and app.session.findings_pending
            card = app.session.scorecard
            assert card is not None and card.publishable  # as far as the card can know
            shown = "\n".join(screen_lines(app))
            assert "auditing" in shown
            assert "✓ publishable" not in shown and "not reportable" not in shown
            held_audit.set()
            await wait_for(pilot, lambda: audited(app))
            await pilot.pause()
            shown = "\n".join(screen_lines(app))
            if broken:
                assert "not reportable" in shown and "✓ publishable read" not in shown
            else:
                assert "✓ publishable read" in shown and "not reportable" not in shown
            assert "auditing" not in shown

    run(main())


def test_an_audit_that_raises_ends_the_app_with_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the audit, now after the paint, still ends as a failed open did: exit 2 and a
    message (cli/open.py prints `app.failure`), never a traceback or a verdict left pending."""

    def broken(session: Session) -> Audited:
        raise RuntimeError("boom")

    monkeypatch.setattr(evalview.session, "finish_audit", broken)

    async def main() -> None:
        app = EvalViewApp(FAULTY)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: not app.is_running)
        assert app.return_value == 2  # the exit code `evalview` returns (cli/open.py)
        assert app.failure is not None and "RuntimeError: boom" in app.failure[0]

    run(main())
