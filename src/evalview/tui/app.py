"""The evalview terminal app: open a run in a worker, then browse it tab by tab."""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.worker import get_current_worker

from evalview.tui.commands import ExportProvider, JumpProvider
from evalview.tui.keygate import KeyGate
from evalview.tui.loading import LoadingScreen
from evalview.tui.theme import EVALVIEW_THEME
from evalview.tui.words import ALLOW_ERRORS_KEY

# numpy's OpenBLAS starts a thread per core when numpy is imported (by the loading worker), and
# that thread spins for about 0.1 s before it sleeps: CPU on the other core, on the way to the run
# screen (about 0.15 CPU-s of the 10,000-episode run's, docs/performance.md). evalview calls no
# BLAS routine (the bootstrap's einsum does not use it), so one thread loses nothing. Set before
# numpy is imported (tests/tui/test_app_imports.py); a value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

#: Refusals the scorer lifts when told to score errors as non-successes (`allow_errors`).
ERROR_REFUSALS = ("errored-rollouts", "audit-errors")

# Only what the loading screen needs is imported with this module (tests/tui/test_app_imports.py
# keeps it so): the run screen, the reader, the export dialog (pydantic, Jinja2), numpy and the
# help's Markdown are imported where first used, so the first frame is not spent on imports.
if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.theme import Theme

    from evalview.model.address import Address
    from evalview.psr import CheckpointReport, RunPsrReport
    from evalview.session import Audited, HarnessSession, NamedReads, PsrFiles, Session
    from evalview.stats import Scorecard
    from evalview.tui.run_screen import RunScreen


def unreadable_hint() -> str:
    """What evalview opens, from the reader registry's declarations (every format listed)."""
    from evalview.load.registry import formats_sentence

    return formats_sentence()

REFUSED_HINT = "Fix the row it names and open it again (`evalview psr PATH` says the same)."

#: Keys that act at once while a read loads, when no key is waiting before them: quitting
#: must not wait for a 50 MB read, and Escape goes back to the Runs screen (it stops the read).
LOADING_PASSTHROUGH = frozenset({"q", "ctrl+q", "ctrl+c", "escape"})

#: Keys after which the next key waits until this one's effects are in: the messages it set off,
#: from the widget that took it up to the app. Enter commits (a filter, the read picked from a
#: list, a row opened) and moves the following keys elsewhere; dispatched at once, as Textual
#: does, the keys typed after it reached the old screen before the new one existed.
SETTLE_AFTER = frozenset({"enter"})
#: Rounds of waiting per widget (a message a key set off may set off one more), and at most this
#: many seconds in all: a safety net, never reached unless a handler hangs.
SETTLE_ROUNDS = 2
SETTLE_LIMIT = 10.0

#: At most this many seconds the audit worker waits for the verdict to be painted before it goes
#: on to the partial credit and the bootstrap (it is normally a frame).
VERDICT_PAINT_WAIT = 2.0

#: Descriptions of the workers that take a session. Without one, Textual's `@work` describes a
#: worker by the repr of its arguments, computed on the UI thread as it starts: the dataclass
#: repr of a Session is the repr of every record of its run, about 0.4 CPU-s for 10,000
#: episodes between the run screen's paint and the start of the audit (docs/performance.md).
WORKER_AUDIT = "audit, partial credit and bootstrap of the open read"
WORKER_SCORE_ANYWAY = "score the open read with errors as non-successes"

#: The loading worker's description (without one, Textual names a worker after its arguments).
WORKER_LOAD = "read the open path for its screen"

#: Seconds between looks at a watched read's files, and how long they must be still.
WATCH_INTERVAL = 0.5
WATCH_SETTLE = 0.5


def _counts_change(old: Session | HarnessSession | None, new: Session | HarnessSession) -> str:
    """`2 errors, 1 warning (was 3 errors, 1 warning)`: what the re-read changed."""

    def tally(c: dict[str, int]) -> str:
        e, w = c.get("error", 0), c.get("warning", 0)
        return f"{e} error{'s' * (e != 1)}, {w} warning{'s' * (w != 1)}"

    now = tally(new.counts)
    if old is None:
        return now
    before = tally(old.counts)
    return now if now == before else f"{now} (was {before})"


async def _drained(node: MessagePump) -> bool:
    """Wait until `node` has handled every message queued for it so far. False when it is
    closed, or closes meanwhile (a screen dismissed): nothing more will be handled there."""
    done = asyncio.Event()
    if not node.call_later(done.set):
        return False
    while not done.is_set():
        try:
            await asyncio.wait_for(done.wait(), 0.25)
        except TimeoutError:
            if not node.is_running:
                return False
    return True


class EvalViewApp(App[int]):
    """`EvalViewApp(path)` loads in a thread; `EvalViewApp(path, session=...)` shows it at once.

    PATH may also be a PSR checkpoint-inputs JSON: the worker scores it and the app shows the
    partial-credit viewer instead of the run screen (`self.inputs` holds the report).
    """

    #: Absolute, so a subclass elsewhere (tests, extensions) finds it too.
    CSS_PATH = Path(__file__).with_name("evalview.tcss")
    #: Seconds between two repaints of the loading bar within one stage (see `_load`).
    PROGRESS_INTERVAL: ClassVar[float] = 0.1
    TITLE = "evalview"
    #: Below 110 columns the overview stacks its cards (`.-narrow` in evalview.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012 (Textual's API)
    #: Below 36 rows panes with stacked tables give the lower ones less room (`.-short`).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]  # noqa: RUF012 (Textual's API)
    COMMANDS: ClassVar = App.COMMANDS | {JumpProvider, ExportProvider}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("e", "export", "Export", id="app.export"),
        Binding(
            ALLOW_ERRORS_KEY,
            "allow_errors",
            "Score anyway",
            id="app.allow-errors",
        ),
        Binding("ctrl+p", "command_palette", "Jump", show=False, id="app.palette"),
        Binding("escape", "back_to_runs", "Runs", id="app.runs"),
        Binding("w", "toggle_watch", "Watch", id="app.watch"),
    ]

    class Progress(Message):
        def __init__(self, index: int, stage: str, done: float = 0.0) -> None:
            super().__init__()
            self.index = index
            self.stage = stage
            self.done = done

    class Loaded(Message):
        def __init__(self, session: Session | HarnessSession) -> None:
            super().__init__()
            self.session = session

    class AuditDone(Message):
        """The audit of a read painted before it has run: its findings, and the card scored
        with them (which may refuse what the first card did not)."""

        def __init__(self, session: Session, audited: Audited) -> None:
            super().__init__()
            self.session = session
            self.audited = audited
            #: Set once the verdict is painted (or will not be): the worker waits for it
            #: before the partial credit and the bootstrap, which would take the GIL from it.
            self.shown = threading.Event()

    class AuditFailed(Message):
        """The audit raised (a bug in the core): the app ends with the message, exit 2."""

        def __init__(self, session: Session, message: str) -> None:
            super().__init__()
            self.session = session
            self.message = message

    class Scored(Message):
        """The full scorecard (with the seed bootstrap) is ready."""

        def __init__(self, scorecard: Scorecard | None, refusal: str | None) -> None:
            super().__init__()
            self.scorecard = scorecard
            self.refusal = refusal

    class InputsLoaded(Message):
        """PATH was a checkpoint-inputs JSON, scored."""

        def __init__(self, report: CheckpointReport) -> None:
            super().__init__()
            self.report = report

    class PsrScored(Message):
        """The deferred partial-credit report is ready."""

        def __init__(self, report: RunPsrReport | None, refusal: str | None) -> None:
            super().__init__()
            self.report = report
            self.refusal = refusal

    class Failed(Message):
        def __init__(self, message: str, *, exit_code: int = 2, refused: bool = False) -> None:
            super().__init__()
            self.message = message
            self.exit_code = exit_code
            self.refused = refused

    class ChooseRead(Message):
        """The file holds several named reads and none was chosen (`--read KEY`); the reading
        is kept, so the one picked is opened without reading the file again."""

        def __init__(self, reads: NamedReads) -> None:
            super().__init__()
            self.reads = reads
            self.names = list(reads.summaries)
            self.summaries = reads.summaries

    def __init__(
        self,
        path: Path,
        *,
        session: Session | None = None,
        psr_files: PsrFiles | None = None,
        read: str | None = None,
        jobs: int | None = None,
        watch: bool = False,
    ) -> None:
        super().__init__()
        self._use_theme(EVALVIEW_THEME)
        self.path = path
        self.session: Session | None = session
        #: The opened benchmark-harness result (its screen is the Harness screen), else None.
        self.harness: HarnessSession | None = None
        self.psr_files = psr_files
        self.inputs: CheckpointReport | None = None
        #: The named read to open in a file of several (LeRobot); None: ask when there are several.
        self.read = read
        #: True once the reviewer chose to score errors as non-successes (key `a`).
        self.allow_errors = False
        #: (message, what to do) when PATH could not be opened; the app has exited with its code.
        self.failure: tuple[str, str] | None = None
        #: Worker processes of the Runs screen (None: one per core).
        self.jobs = jobs
        #: Re-read what is shown when its files change (`--watch`, or `w`).
        self.watching = watch
        #: Keys typed while a screen gets ready wait here (tui/keygate.py).
        self.key_gate = KeyGate()
        #: The wait after an Enter before the keys typed after it go on (`_settle`).
        self._settling: asyncio.Future[None] | None = None
        #: True while the gate is held for a loading screen: the keys typed while a read loads
        #: belong to the screen that will show it, and are replayed there once it is mounted.
        self._loading_hold = False
        #: Whether the loaded run was moved to the collector's permanent generation.
        self._frozen = False
        #: True while the app holds the collector paused for a read (`_hold_collector`).
        self._collector_held = False
        #: A file's named reads, read once, while the one picked from them loads.
        self.chosen: NamedReads | None = None

    def _use_theme(self, theme: Theme) -> None:
        """Start with `theme`, before any CSS is parsed. Setting `App.theme` once the app runs
        (as on_mount did) re-parses every stylesheet read so far with the new variables and
        leaves the parse cache empty, so the next widget's CSS parses them all a third time:
        about 0.01-0.02 CPU-s before the loading screen and again on the way to the run screen
        (docs/performance.md). What the theme's watcher would do then is done here: the
        stylesheet's variables and the app's theme classes."""
        self.register_theme(theme)
        self.set_reactive(App.theme, theme.name)
        self.stylesheet.set_variables(self.get_css_variables())
        self.set_class(True, f"-theme-{theme.name}")
        self.set_class(theme.dark, "-dark-mode")
        self.set_class(not theme.dark, "-light-mode")

    @property
    def address(self) -> Address:
        """What is open, as one value (path, read name, side files): the export, watch and a
        re-read re-enter through it."""
        from evalview.model.address import Address

        files = self.psr_files
        return Address(
            self.path,
            self.read,
            None if files is None else files.bare_targets,
            None if files is None else files.catalog,
        )

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self._loading_hold and event.key in LOADING_PASSTHROUGH and not self.key_gate.held:
                await super().on_event(event)  # quit or go back now, not after the read
                return
            if self.key_gate.take(event):
                return
            await self._dispatch_key(event)
            return
        await super().on_event(event)

    async def _dispatch_key(self, key: events.Key) -> None:
        """Hand `key` on as Textual does; after Enter, hold the keys that follow until its
        effects are in (`SETTLE_AFTER`), then replay them."""
        target: DOMNode | None = None
        if key.key in SETTLE_AFTER and self.screen_stack:  # none: the app is closing
            target = self.focused or self.screen
        if target is None:
            await super().on_event(key)
            return
        self.hold_keys()
        try:
            await super().on_event(key)
        finally:
            self._settling = asyncio.ensure_future(self._settle(target))

    async def _settle(self, target: DOMNode) -> None:
        """Wait until `target` and each of its ancestors, bottom up, has handled what was queued
        for it: a key's messages bubble up (Enter in a list: the list's Selected, the screen's
        handler, the app's callback), so each level is waited for after the one below."""
        try:
            async with asyncio.timeout(SETTLE_LIMIT):
                for node in [target, *target.ancestors]:
                    for _ in range(SETTLE_ROUNDS):
                        if not await _drained(node):
                            break
        except TimeoutError:
            pass
        finally:
            self.release_keys()

    def hold_keys(self) -> None:
        """Keep the keys typed from now on until `release_keys` (then they run, in order)."""
        self.key_gate.hold()

    def release_keys(self) -> None:
        self.key_gate.release()
        self.call_later(self._replay_keys)

    def _hold_for_loading(self) -> None:
        """Hold the keys typed from now until the read's own screen is mounted (at most once)."""
        if not self._loading_hold:
            self._loading_hold = True
            self.hold_keys()

    def keys_ready(self) -> None:
        """The screen shown has what the keys typed meanwhile act on (the Runs screen, once the
        folder is listed): replay them."""
        self._end_loading_hold()

    def _end_loading_hold(self) -> None:
        """The screen that owns the keys is there (or the read was left): replay them."""
        if self._loading_hold:
            self._loading_hold = False
            self.release_keys()

    async def _show_loaded(self, screen: Screen[None]) -> None:
        """Show the read's screen in place of the loading screen; the keys typed meanwhile are
        replayed once it is mounted and painted (its bindings and first pane are there), and
        the collector resumes then."""
        await self.switch_screen(screen)
        self.call_after_refresh(self._resume_collector)
        self.call_after_refresh(self._end_loading_hold)

    def _hold_collector(self) -> None:
        """Pause the cyclic collector from the moment a read is asked for until the screen that
        shows it is painted (`_resume_collector`; also when the read fails, is left or a list of
        reads is shown). Nothing on that path makes garbage worth collecting, and with the
        collector on, building the loading screen, the reader's imports and composing the run
        screen each set off collections over everything Textual holds (about 0.05 CPU-s of the
        10,000-episode run's path to the run screen, docs/performance.md). On the UI thread."""
        if not self._collector_held and gc.isenabled():
            gc.disable()
            self._collector_held = True

    def _resume_collector(self) -> None:
        if self._collector_held:
            self._collector_held = False
            gc.enable()

    async def _replay_keys(self) -> None:
        # Stops early if a replayed key holds the gate again; the rest wait for that release.
        while (key := self.key_gate.next_key()) is not None:
            await self._dispatch_key(key)

    def on_unmount(self) -> None:
        self._resume_collector()
        if self._settling is not None:
            self._settling.cancel()
        if self._frozen:  # the run may be freed now (pilot tests run many apps in one process)
            gc.unfreeze()
            self._frozen = False

    def on_mount(self) -> None:
        self.sub_title = str(self.path)
        if self.session is not None:
            from evalview.tui.run_screen import RunScreen

            self.push_screen(RunScreen(self.session))
            return
        from evalview.folder.discover import is_folder

        if is_folder(self.path):
            from evalview.tui.runs_screen import RunsScreen

            # The keys typed before the folder is listed wait for its rows (`keys_ready`).
            self._hold_for_loading()
            self.push_screen(RunsScreen(self.path, jobs=self.jobs))
            return
        self._hold_for_loading()
        self._hold_collector()  # from here: the loading screen is built with it paused too
        self.push_screen(LoadingScreen(self.path))
        # Read once the loading screen is on the terminal: a reader started now would hold the
        # GIL while Textual builds the first frame (docs/performance.md, "First paint").
        self.call_after_refresh(self._load)
        if self.watching:
            self._watch_read(self.path)

    # -- the Runs screen: open a read, come back ---------------------------------------------

    def _runs_screen(self) -> Screen[None] | None:
        # Asked by `check_action` at every refresh of the footer: a module not imported yet has
        # no screen on the stack, and importing it (the Runs screen, folder reading, about
        # 0.01 CPU-s) on the UI thread while a read loads would be for nothing.
        module = sys.modules.get("evalview.tui.runs_screen")
        if module is None:
            return None
        runs_screen: type[Screen[None]] = module.RunsScreen
        return next((s for s in self.screen_stack if isinstance(s, runs_screen)), None)

    def open_read(self, path: Path, read: str | None = None) -> None:
        """Open one read of the folder as `evalview PATH [--read KEY]` would; Escape comes
        back. `read`: the named read of a file of several (LeRobot), None for a plain read."""
        self.session, self.inputs, self.harness = None, None, None
        self.path = path
        self.read = read
        self.sub_title = str(path) if read is None else f"{path} [{read}]"
        self._hold_for_loading()
        self.push_screen(LoadingScreen(path))
        self._load()
        if self.watching:
            self._watch_read(path)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer Escape-to-Runs only over a Runs screen; `a` only while the card is refused
        for errors the reviewer may score anyway; `e` over an opened read (and while one loads,
        when it says so), not over the Runs screen or the list of a file's reads, where there is
        nothing to export."""
        if action == "export":
            opened = self.session is not None or self.harness is not None
            return opened or isinstance(self.screen, LoadingScreen)
        if action == "back_to_runs":
            runs = self._runs_screen()
            return runs is not None and self.screen is not runs
        if action == "allow_errors":
            card = self.session.scorecard if self.session is not None else None
            return (
                not self.allow_errors
                and self.session is not None
                and not self.session.findings_pending  # its findings are part of the score
                and card is not None
                and any(r.code in ERROR_REFUSALS for r in card.refusals)
            )
        return True

    def action_back_to_runs(self) -> None:
        """Back to the Runs screen, its cursor where it was; the read's workers stop."""
        runs = self._runs_screen()
        if runs is None or self.screen is runs:
            return
        self.workers.cancel_group(self, "load")
        self._resume_collector()
        self.workers.cancel_group(self, "bootstrap")
        self.workers.cancel_group(self, "watch")
        self.workers.cancel_group(self, "reload")
        self._end_loading_hold()
        while self.screen is not runs:
            self.pop_screen()
        self.session, self.inputs, self.harness = None, None, None
        self.path = runs.root  # type: ignore[attr-defined]
        self.read = None
        self.sub_title = str(self.path)

    def _load(self) -> None:
        """Read `self.address` in a worker, the collector held paused until its screen shows."""
        self._hold_collector()
        self._read()

    @work(thread=True, exclusive=True, group="load", description=WORKER_LOAD)
    def _read(self) -> None:
        worker = get_current_worker()

        shown = [-1, -1.0, 0.0]  # the last (stage, fraction, monotonic time) posted

        def progress(index: int, stage: str, done: float) -> None:
            """Post each new stage, and within one at most every 5 % and PROGRESS_INTERVAL
            seconds: each repaint takes the GIL from the reader (22 repaints for the
            10,000-episode run at 5 % alone, 9 with the interval)."""
            if worker.is_cancelled:
                return
            now = time.monotonic()
            if index == shown[0] and (
                done - shown[1] < 0.05 or now - shown[2] < self.PROGRESS_INTERVAL
            ):
                return
            shown[:] = [index, done, now]
            self.post_message(self.Progress(index, stage, done))

        # The collector is paused (`_load`) while the run is read and scored, and the run then
        # moved to its permanent generation (it lives as long as the app; `on_unmount` undoes
        # it): with the collector on, every full collection re-traversed its records, about
        # 0.7 CPU-s of the 10,000-episode run's path to the run screen (docs/performance.md).
        from evalview.errors import InputError, Refused
        from evalview.session import NamedReads, Session, open_input

        try:
            # the one read of the input, whichever format; a file of several named reads comes
            # back unaudited with its reads listed, and the one picked opens from that reading
            opened = (
                open_input(self.address, progress, defer_bootstrap=True, defer_audit=True)
                if self.chosen is None
                else self._open_chosen(self.chosen, progress)
            )
            if isinstance(opened, NamedReads):
                self.post_message(self.ChooseRead(opened))
                return
            if isinstance(opened, Session) and not worker.is_cancelled:
                # The run screen's modules (numpy, the panes), here rather than on the UI thread.
                import evalview.tui.run_screen  # noqa: F401

                gc.freeze()
                self._frozen = True
        except InputError as exc:
            self.post_message(self.Failed(str(exc)))
            return
        except Refused as exc:  # a checkpoint-inputs file evalview psr would refuse (exit 1)
            self.post_message(self.Failed(str(exc), exit_code=1, refused=True))
            return
        except Exception as exc:  # a bug must still end in a message, not a traceback
            self.post_message(
                self.Failed(f"evalview failed while opening the run ({type(exc).__name__}: {exc}).")
            )
            return
        if worker.is_cancelled:
            return
        from evalview.session import HarnessSession

        if isinstance(opened, Session | HarnessSession):
            self.post_message(self.Loaded(opened))
        else:
            self.post_message(self.InputsLoaded(opened))

    def _open_chosen(
        self, reads: NamedReads, progress: Callable[[int, str, float], None]
    ) -> Session | HarnessSession:
        """The read picked from a file's list, from the reading already read (no second read)."""
        from evalview.session import open_named

        self.chosen = None
        return open_named(
            reads.reading, reads.address.with_read(self.read), progress, defer_bootstrap=True,
            defer_audit=True,
        )

    @work(thread=True, exclusive=True, group="bootstrap", description=WORKER_AUDIT)
    def _bootstrap(self, session: Session) -> None:
        """The audit (when the run screen was painted before it), partial credit, then the seed
        bootstrap, started once the run screen has painted (they all hold the GIL)."""
        from dataclasses import replace

        from evalview.session import finish_audit, finish_bootstrap, finish_partial_credit

        if session.findings_pending:
            # The collector paused as while loading (the audit builds many small objects).
            paused = gc.isenabled()
            gc.disable()
            try:
                audited = finish_audit(session)
            except Exception as exc:  # a bug: end as a failed open did before the paint
                self.post_message(self.AuditFailed(session, f"evalview failed while auditing "
                                                   f"the run ({type(exc).__name__}: {exc})."))
                return
            finally:
                if paused:
                    gc.enable()
            if get_current_worker().is_cancelled:
                return
            done = self.AuditDone(session, audited)
            self.post_message(done)
            done.shown.wait(VERDICT_PAINT_WAIT)
            # The bootstrap is added to the audited card; the UI thread puts that card into
            # the session when it takes the message, maybe after this line: use it from here.
            session = replace(
                session, scorecard=audited.scorecard, score_refusal=audited.score_refusal,
                findings=audited.findings, counts=audited.counts, findings_pending=False,
            )
        if session.psr_pending:
            psr, why = finish_partial_credit(session)
            if get_current_worker().is_cancelled:
                return
            self.post_message(self.PsrScored(psr, why))
        if not session.bootstrap_pending:
            return
        card, refusal = finish_bootstrap(session)
        if not get_current_worker().is_cancelled:
            self.post_message(self.Scored(card, refusal))

    async def on_eval_view_app_choose_read(self, message: ChooseRead) -> None:
        """Ask which read to open, over the loading screen; then load that one. The keys typed
        while the file was read go to the list (they pick the read), then wait again."""
        from evalview.tui.read_picker import ReadPickerScreen

        def chosen(name: str | None) -> None:
            if name is None:
                return
            self.read = name
            self.chosen = message.reads
            self.sub_title = f"{self.path} [{name}]"
            self._hold_for_loading()
            self._load()

        picker = ReadPickerScreen(self.path, message.names, message.summaries)
        await self.push_screen(picker, chosen)
        self.call_after_refresh(self._resume_collector)  # the list waits for the reviewer
        self.call_after_refresh(self._end_loading_hold)

    def _loading(self) -> bool:
        """True while a LoadingScreen waits for the worker (not after Escape went back)."""
        return isinstance(self.screen, LoadingScreen)

    def on_eval_view_app_progress(self, message: Progress) -> None:
        if isinstance(self.screen, LoadingScreen):
            self.screen.set_stage(message.index, message.stage, message.done)

    async def on_eval_view_app_loaded(self, message: Loaded) -> None:
        if not self._loading():
            self._resume_collector()
            return
        from evalview.session import HarnessSession

        if isinstance(message.session, HarnessSession):
            from evalview.tui.harness_screen import HarnessScreen

            self.harness = message.session
            await self._show_loaded(HarnessScreen(message.session))
            return
        from evalview.tui.run_screen import RunScreen

        self.session = message.session
        await self._show_loaded(RunScreen(message.session))
        s = message.session
        if s.findings_pending or s.bootstrap_pending or s.psr_pending:
            self.call_after_refresh(self._bootstrap, s)  # after the run screen's first paint

    def on_eval_view_app_audit_failed(self, message: AuditFailed) -> None:
        """As a failure to open did when the audit ran before the run screen: a message and
        exit 2 (`cli/open.py` prints it); from the Runs screen, a notice instead."""
        if self.session is not message.session:
            return
        if self._runs_screen() is not None:
            self.notify(message.message, title="Audit failed", severity="error", markup=False)
            return
        self.failure = (message.message, unreadable_hint())
        self.exit(2)

    def on_eval_view_app_audit_done(self, message: AuditDone) -> None:
        """The audit landed: the verdict, the findings and the card scored with them."""
        session = self.session
        if session is None or session is not message.session:
            message.shown.set()
            return  # a read left (Escape) or replaced (--watch) since
        from evalview.session import apply_audit

        apply_audit(session, message.audited)
        if not self.screen_stack:  # the app is closing
            message.shown.set()
            return
        self.call_after_refresh(message.shown.set)
        self.refresh_bindings()  # `a` may now be offered (the card may refuse for errors)
        from evalview.tui.header import RunHeader
        from evalview.tui.run_screen import RunScreen

        for screen in self.screen_stack:
            if isinstance(screen, RunScreen):
                screen.audit_updated()
            else:  # a record or file screen over it keeps the run's header too
                for header in screen.query(RunHeader):
                    header.audit_updated()

    def on_eval_view_app_psr_scored(self, message: PsrScored) -> None:
        session = self.session
        if session is None:
            return
        session.psr, session.psr_refusal = message.report, message.refusal
        session.psr_pending = False
        from evalview.tui.run_screen import RunScreen

        for screen in self.screen_stack:
            if isinstance(screen, RunScreen):
                screen.psr_updated()

    def on_eval_view_app_scored(self, message: Scored) -> None:
        session = self.session
        if session is None:
            return
        if message.scorecard is not None and message.scorecard.allow_errors != self.allow_errors:
            return  # the deferred bootstrap of the refused card, after `a` rescored it
        session.scorecard, session.score_refusal = message.scorecard, message.refusal
        session.bootstrap_pending = False
        from evalview.tui.run_screen import RunScreen

        for screen in self.screen_stack:
            if isinstance(screen, RunScreen):
                screen.scores_updated()

    async def on_eval_view_app_inputs_loaded(self, message: InputsLoaded) -> None:
        from evalview.tui.partial_credit import CheckpointInputsScreen

        if not self._loading():
            self._resume_collector()
            return
        self.inputs = message.report
        await self._show_loaded(CheckpointInputsScreen(message.report))

    async def on_eval_view_app_failed(self, message: Failed) -> None:
        """Not a run. Opened from the Runs screen: say why there (Escape goes back). Opened
        from the command line: leave the app at once and say why on stderr, as for a path that
        does not exist (`cli/open.py` prints `self.failure`), never a screen with nothing to do."""
        self._resume_collector()
        if not self._loading():
            return
        hint = REFUSED_HINT if message.refused else unreadable_hint()
        if any(type(s).__name__ == "RunsScreen" for s in self.screen_stack):
            from evalview.tui.loading import UnreadableScreen

            await self._show_loaded(
                UnreadableScreen(self.path, message.message, exit_code=message.exit_code, hint=hint)
            )
            return
        self.failure = (message.message, hint)
        self.exit(message.exit_code)

    # -- watching: re-read the read when its files change --------------------------------------

    class WatchState(Message):
        def __init__(self, path: Path, state: str) -> None:
            super().__init__()
            self.path = path
            self.state = state

    class Reloaded(Message):
        def __init__(
            self,
            path: Path,
            opened: Session | HarnessSession | CheckpointReport | None,
            problem: str | None,
        ) -> None:
            super().__init__()
            self.path = path
            self.opened = opened
            self.problem = problem

    def action_toggle_watch(self) -> None:
        self.watching = not self.watching
        runs = self._runs_screen()
        reading = runs is None or self.screen is not runs
        if self.watching:
            if reading:
                self._watch_read(self.path)
            self.notify(
                "Watching: what is shown is re-read when its files change (w stops).",
                title="Watch on",
            )
        else:
            self.workers.cancel_group(self, "watch")
            self.sub_title = str(self.path)
            self.notify("No longer watching for changes.", title="Watch off")
        if runs is not None:
            runs.set_watching(self.watching)  # type: ignore[attr-defined]

    @work(thread=True, exclusive=True, group="watch")
    def _watch_read(self, path: Path) -> None:
        from evalview.folder.watch import Watcher

        worker = get_current_worker()
        watcher = Watcher(path, settle=WATCH_SETTLE)
        while not worker.is_cancelled:
            time.sleep(WATCH_INTERVAL)
            if worker.is_cancelled:
                return
            state = watcher.poll()
            if state != "same":
                self.post_message(self.WatchState(path, state))

    def on_eval_view_app_watch_state(self, message: WatchState) -> None:
        if message.path != self.path or not self.watching:
            return
        if message.state == "changing":
            self.sub_title = f"{self.path} · changing…"
            return
        self._reload(message.path)

    @work(thread=True, exclusive=True, group="reload")
    def _reload(self, path: Path) -> None:
        """Re-read what is shown through its address (the named read and side files kept)."""
        from evalview.errors import InputError, Refused
        from evalview.session import NamedReads, open_input

        try:
            got = open_input(self.address, defer_bootstrap=True)
            if isinstance(got, NamedReads):  # a lone read became a file of several
                raise InputError(f"{path}: now holds several named reads; open one of them.")
            opened: Session | HarnessSession | CheckpointReport = got
        except (InputError, Refused) as exc:
            self.post_message(self.Reloaded(path, None, str(exc)))
            return
        except Exception as exc:  # a bug must still end in a message, not a traceback
            self.post_message(self.Reloaded(path, None, f"{type(exc).__name__}: {exc}"))
            return
        if not get_current_worker().is_cancelled:
            self.post_message(self.Reloaded(path, opened, None))

    async def on_eval_view_app_reloaded(self, message: Reloaded) -> None:
        """Replace the read's screens with the re-read one (same tab), and say what changed."""
        if message.path != self.path or not self.watching:
            return
        self.sub_title = str(self.path)
        if message.opened is None:
            self.notify(message.problem or "", title="Cannot be read now", severity="error")
            return
        from evalview.session import HarnessSession, Session
        from evalview.tui.run_screen import RunScreen

        old = self.session
        runs = self._runs_screen()
        base = 1 if runs is None else self.screen_stack.index(runs) + 1
        tab = None
        shown = self.screen_stack[base] if len(self.screen_stack) > base else None
        if isinstance(shown, RunScreen):
            from textual.widgets import TabbedContent

            tab = shown.query_one(TabbedContent).active or None
        # Pop (and wait for) the old screens first: the new run screen reuses their ids.
        while len(self.screen_stack) > base:
            await self.pop_screen()
        if isinstance(message.opened, HarnessSession):
            from evalview.tui.harness_screen import HarnessScreen

            old_harness = self.harness
            self.harness = message.opened
            await self.push_screen(HarnessScreen(message.opened))
            self.notify(_counts_change(old_harness, message.opened), title="Re-read")
            return
        if not isinstance(message.opened, Session):  # checkpoint inputs, scored again
            from evalview.tui.partial_credit import CheckpointInputsScreen

            self.inputs = message.opened
            await self.push_screen(CheckpointInputsScreen(message.opened))
            self.notify("The checkpoint inputs were read again.", title="Re-read")
            return
        await self.push_screen(RunScreen(message.opened))
        self.session = message.opened
        if tab:
            self.call_after_refresh(self.show_tab, tab)
        self.call_after_refresh(self._bootstrap, message.opened)
        self.notify(_counts_change(old, message.opened), title="Re-read")

    @property
    def export_blocked(self) -> str | None:
        """Why `e` cannot export now (None when it can): export publishes an opened run."""
        if self.inputs is not None:
            return (
                "Export publishes a closed run; a checkpoint-inputs file has none. "
                "`evalview psr INPUT OUTPUT.json` writes its full report."
            )
        if self.session is None and self.harness is None:
            return "Nothing to export yet: the run is still loading."
        return None

    # -- actions reachable from bindings and the command palette ----------------------------

    def action_help(self) -> None:
        from evalview.tui.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen.for_screen(self.screen))

    def action_export(self) -> None:
        from evalview.tui.export_screen import open_export

        open_export(self)

    def action_allow_errors(self) -> None:
        """Score the read with errored cases as non-successes, labelled not publishable
        (`evalview score --allow-errors`); the bootstrap runs in a worker."""
        if self.session is None or not self.check_action("allow_errors", ()):
            return
        self.allow_errors = True
        self.refresh_bindings()
        self.notify(
            "Scoring with errors as non-successes: the numbers are not publishable.",
            title="Scoring anyway",
        )
        self._score_allowing_errors(self.session)

    @work(thread=True, exclusive=True, group="bootstrap", description=WORKER_SCORE_ANYWAY)
    def _score_allowing_errors(self, session: Session) -> None:
        from evalview.stats import score_run

        try:
            card = score_run(session.run, findings=session.findings, allow_errors=True)
        except Exception as exc:  # a bug in the core: say so where the numbers would be
            self.post_message(self.Scored(None, f"the scorer failed ({type(exc).__name__})"))
            return
        if not get_current_worker().is_cancelled:
            self.post_message(self.Scored(card, None))

    def _run_screen(self) -> RunScreen | None:
        from evalview.tui.run_screen import RunScreen

        runs = [s for s in self.screen_stack if isinstance(s, RunScreen)]
        if not runs:
            return None
        while self.screen is not runs[-1]:
            self.pop_screen()
        return runs[-1]

    def show_tab(self, tab_id: str) -> None:
        if (screen := self._run_screen()) is not None:
            screen.show_tab(tab_id)

    def show_task(self, task: str) -> None:
        from evalview.tui.episodes import EpisodeFilter

        if (screen := self._run_screen()) is not None:
            screen.show_episodes(EpisodeFilter(task=task))

    def show_episode(self, row: int) -> None:
        if (screen := self._run_screen()) is not None:
            screen.open_record(row)
