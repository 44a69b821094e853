"""Run `evalview RUN` as the console script does, recording the process's CPU time at each step
of the way to the run screen, then quit. Used by `bench_first_paint.py --phases`; run it in a
real terminal (tmux), where Textual draws to a real screen.

    python bench/first_paint_phases.py RUN OUT.json

Steps (process CPU seconds, `time.process_time`, both threads): the app imported; the loading
screen composed and its first frame refreshed; the worker's read and score (from the stage
callbacks; since issue 25 the audit is not on this path); the Loaded message on the UI thread;
the run screen's first frame written by its compositor; then, after the first paint and in
parallel, the other tabs mounted and the audit's verdict in. The process quits once both are
done (the partial credit and the seed bootstrap that follow are not measured). Apart from the
steps: the seconds spent in the cyclic collector before the run screen's frame (gc.callbacks).
"""

from __future__ import annotations

import contextlib
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

#: Marks that are not steps on the way (seconds, not process CPU at a moment): printed apart.
NOT_A_STEP = "not a step: "
COLLECTING = NOT_A_STEP + "cyclic collector, seconds collecting before the run screen's frame"


def main() -> None:
    run, out = sys.argv[1], Path(sys.argv[2])
    marks: dict[str, float] = {COLLECTING: 0.0}

    def mark(name: str) -> None:
        marks.setdefault(name, time.process_time())

    collecting: list[float] = []

    def collector(phase: str, info: dict[str, int]) -> None:
        """Time in the cyclic collector until the run screen's first frame (any thread)."""
        if phase == "start":
            collecting[:] = [time.perf_counter()]
        elif collecting and "run screen: first frame painted" not in marks:
            marks[COLLECTING] += time.perf_counter() - collecting[0]

    gc.callbacks.append(collector)

    from evalview.tui import app as app_module
    from evalview.tui import loading

    mark("imports: the app module (textual.app and the loading screen)")
    app_cls: Any = app_module.EvalViewApp

    def loading_mounted(self: Any) -> None:
        self.call_after_refresh(lambda: mark("loading screen: first frame refreshed"))

    loading.LoadingScreen.on_mount = loading_mounted  # type: ignore[attr-defined]

    stages = {
        0: "worker: reading started",
        1: "worker: read (auditing starts; code before issue 25)",
        2: "worker: scoring starts",
    }
    original_post = app_cls.post_message

    def post_message(self: Any, message: Any) -> bool:
        name = type(message).__name__
        if name == "Progress" and message.index in stages:
            mark(stages[message.index])
        elif name == "Loaded":
            mark("worker: scored, run screen modules imported")
        return bool(original_post(self, message))

    app_cls.post_message = post_message
    original_loaded = app_cls.on_eval_view_app_loaded

    done: set[str] = set()

    def finished(self: Any, what: str) -> None:
        mark(what)
        done.add(what)
        if len(done) == 2:
            self.exit()

    async def on_loaded(self: Any, message: Any) -> None:
        mark("UI thread: Loaded message taken")
        run_screen = sys.modules["evalview.tui.run_screen"]  # imported by the worker by now
        original_rest = run_screen.RunScreen._mount_rest

        async def mount_rest(screen: Any) -> None:
            await original_rest(screen)
            finished(self, "after it: the other five tabs mounted")

        run_screen.RunScreen._mount_rest = mount_rest
        await original_loaded(self, message)
        if not getattr(message.session, "findings_pending", False):
            finished(self, "after it: audit verdict in (audited before the paint)")

    app_cls.on_eval_view_app_loaded = on_loaded
    original_audit_done = app_cls.on_eval_view_app_audit_done

    def on_audit_done(self: Any, message: Any) -> None:
        original_audit_done(self, message)
        finished(self, "after it: audit verdict in (audit worker)")

    app_cls.on_eval_view_app_audit_done = on_audit_done

    from textual.screen import Screen

    original_refresh = Screen._compositor_refresh

    def compositor_refresh(self: Any) -> None:
        """The run screen's first frame is when its compositor first writes it out; the other
        tabs are mounted after that (`_mount_rest`), off the path to the first paint. (Matched
        by name: importing the run screen's module here would move its imports before the
        loading screen.)"""
        original_refresh(self)
        if type(self).__name__ == "RunScreen":
            mark("run screen: first frame painted")

    Screen._compositor_refresh = compositor_refresh  # type: ignore[method-assign]

    from evalview.cli import main as evalview_main

    sys.argv = ["evalview", run]
    with contextlib.suppress(SystemExit):
        evalview_main()
    out.write_text(json.dumps(marks))


if __name__ == "__main__":
    main()
