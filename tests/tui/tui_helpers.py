"""Helpers for the TUI tests: run a pilot without pytest-asyncio, wait for a screen, paths."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from evalview.session import Session
from evalview.tui.app import EvalViewApp
from evalview.tui.run_screen import RunScreen
from helpers.paths import SAMPLE_RUNS

FAULTY = SAMPLE_RUNS / "faulty"
SIZE = (140, 40)

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one pilot coroutine (no pytest-asyncio needed)."""
    return asyncio.run(coro)


async def wait_for(pilot: Pilot[Any], cond: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll `cond` between frames; fail with a clear message after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError(f"condition not met within {timeout} s")
        await pilot.pause(0.05)


def showing(app: App[Any], kind: type[Screen[Any]]) -> bool:
    """True once `kind` is the current screen and has mounted its widgets. A pushed screen is
    current at once but composes over the next turns of the loop, so a query made as soon as
    it is current can find nothing (on a loaded machine, often)."""
    screen = app.screen
    return isinstance(screen, kind) and screen.is_mounted


def audited(app: EvalViewApp) -> bool:
    """True once the app's read has its audit (the run screen paints before it)."""
    return app.session is not None and not app.session.findings_pending


async def opened(pilot: Pilot[Any]) -> RunScreen:
    """Wait until the app shows its run screen and return it."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RunScreen))
    screen = pilot.app.screen
    assert isinstance(screen, RunScreen)
    await wait_for(pilot, lambda: screen.all_mounted)
    await pilot.pause()
    return screen


def with_app(session: Session, body: Callable[[Pilot[Any], EvalViewApp], Awaitable[None]]) -> None:
    """Open a preloaded session in a pilot and run `body`."""

    async def main() -> None:
        app = EvalViewApp(session.path, session=session)
        async with app.run_test(size=SIZE) as pilot:
            await opened(pilot)
            await body(pilot, app)

    run(main())


def screen_lines(app: App[Any]) -> list[str]:
    """What the terminal shows, line by line, as text: the whole composed screen (what a person
    sees, after cuts, scrolling and overlays), not one widget's idea of its content."""
    update = app.screen._compositor.render_full_update()
    return ["".join(seg.text for strip in line for seg in strip) for line in update.strips]
