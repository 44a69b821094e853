"""What each door answers about one input, normalized so the answers can be compared.

An `Answer` is what every door must agree on: whether the input is a read at all, the audit's
findings as (code, severity, episode) triples, the counts by severity, the verdict (no error),
and the headline numbers (successes / selected; for a benchmark-harness file, solved / rollouts
of every (arm, seed) read). The reference is `evalview check PATH --json` (findings, verdict)
with the denominators `evalview score PATH --json --allow-errors` prints beside it.

The app is reached the way a person reaches it: `evalview PATH [--read KEY] --watch` through
`evalview.cli.main`, with `App.run` replaced by a stand-in that hands the app it was about to
run to a Textual pilot. One pilot per input looks at the overview, exports from the `e` dialog,
then touches the input and takes the re-read answer (`AppObservation`); each door's test then
asserts on its part, so a failure still names one door.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any
from unittest import mock

from contract_inputs import HARNESS, CliResult, Input, run_cli

Finding = tuple[str, str, str]
SIZE = (140, 40)
#: Seconds a pilot waits for something that should happen (a loaded read, a written export).
PATIENCE = 60.0


@dataclass(frozen=True)
class Answer:
    """One door's answer about one input."""

    is_read: bool
    findings: tuple[Finding, ...] = ()
    counts: tuple[tuple[str, int], ...] = ()
    #: ("run", successes, selected) or ("arms", ((arm, ((seed, solved, rollouts), ...)), ...))
    headline: Any = None
    #: for an input that is not a read: what the door said instead
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.is_read and dict(self.counts).get("error", 0) == 0

    @property
    def errors(self) -> int:
        return dict(self.counts).get("error", 0)

    def core(self) -> tuple[Any, ...]:
        """What must be equal between doors (not the wording)."""
        return (self.is_read, self.findings, self.counts, self.ok, self.headline)


def findings_of(items: list[dict[str, Any]]) -> tuple[Finding, ...]:
    """(code, severity, episode id) of each finding, sorted: what a reviewer acts on."""
    return tuple(sorted((f["code"], f["severity"], f.get("episode_id") or "") for f in items))


def counts_of(counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple((k, int(counts.get(k, 0))) for k in ("error", "warning", "info"))


def arms_headline(arms: list[dict[str, Any]] | None) -> Any:
    if arms is None:
        return None
    return (
        "arms",
        tuple(sorted(
            (a["name"], tuple(sorted((r["seed"], r["solved"], r["rollouts"]) for r in a["reads"])))
            for a in arms
        )),
    )


def arm_totals(headline: Any) -> dict[str, tuple[int, int]]:
    """arm -> (solved, rollouts) summed over its seeds: a harness arm's row in `table` and on
    the Runs screen (docs/folders.md: one row per arm)."""
    assert headline is not None and headline[0] == "arms", headline
    return {
        name: (sum(solved or 0 for _seed, solved, _n in reads), sum(n for _s, _k, n in reads))
        for name, reads in headline[1]
    }


def run_headline(successes: int | None, selected: int | None) -> Any:
    return ("run", successes, selected)


def names_the_file(inp: Input, text: str) -> bool:
    return inp.path.name in text


def names_the_audit(text: str) -> bool:
    """A refusal that says the audit is why (or sends the reader to `evalview check`)."""
    return "audit" in text or "evalview check" in text


# -- the reference: evalview check (and the denominators of evalview score) ------------------


def check_args(inp: Input) -> list[str]:
    return ["check", inp.path, "--json", *inp.read_args]


def score_args(inp: Input, *, allow_errors: bool) -> list[str]:
    extra = ["--allow-errors"] if allow_errors else []
    return ["score", inp.path, "--json", "--bootstrap", "0", *extra, *inp.read_args]


#: What a person reads of the aggregate (issue 22), which every door must show alike: the all-T
#: mean as the one rounded text, and the "SE zero by design" label when every task is 0/n or n/n
#: (None when the door has no mean, or no such label).
Shown = tuple[str | None, str | None]


def shown_of(mean: float | None, labels: list[str] | tuple[str, ...]) -> Shown:
    from evalview.fmt import pct
    from evalview.stats.policy import ZERO_SPREAD

    return (
        None if mean is None else pct(mean),
        next((lbl for lbl in labels if lbl.startswith(ZERO_SPREAD)), None),
    )


def shown_of_score(doc: dict[str, Any]) -> Shown | None:
    """The reference's `Shown`, from `score --json` (None for a harness file or no score)."""
    agg = doc.get("aggregate")
    if not isinstance(agg, dict) or "mean" not in agg:
        return None
    return shown_of(agg["mean"], doc.get("labels") or [])


def headline_of_score(inp: Input, doc: dict[str, Any]) -> Any:
    if inp.kind == HARNESS:
        return arms_headline(doc.get("arms"))
    d = doc.get("denominators") or {}
    return run_headline(d.get("successes"), d.get("selected"))


@dataclass
class Reference:
    check: CliResult
    score: CliResult
    answer: Answer
    #: the aggregate as `score --json --allow-errors` gives it (None: a harness file, no score)
    shown: Shown | None = None
    #: why `score --allow-errors` finds no case to score (its no-cases refusal, without the
    #: path), when it does: an aggregates-only read. Every door that scores says the same.
    no_cases: str | None = None


def reference(inp: Input) -> Reference:
    check = run_cli(check_args(inp))
    score = run_cli(score_args(inp, allow_errors=True))
    if check.code == 2:
        return Reference(check, score, Answer(False, message=check.text))
    doc = check.json
    headline = headline_of_score(inp, score.json) if score.code in (0, 1) else None
    answer = Answer(True, findings_of(doc["findings"]), counts_of(doc["counts"]), headline)
    shown = shown_of_score(score.json) if score.code in (0, 1) and inp.kind != HARNESS else None
    no_cases = None
    if score.code == 1 and inp.kind != HARNESS:  # a harness file's refusals are sentences
        for r in score.json.get("refusals") or []:
            if r["code"] == "no-cases":
                no_cases = " ".join(r["message"].partition("no selected case to score")[2].split())
    return Reference(check, score, answer, shown, no_cases)


# -- how often the input is read -------------------------------------------------------------


@dataclass
class ReadCount:
    """Reads of the input's bytes (a file: `Source` reading it; a closed run: its manifest)
    and strict parses of a file input, while `counting()` is active."""

    target: Path
    reads: int = 0
    parses: int = 0

    def _mine(self, path: object) -> bool:
        try:
            return Path(str(path)).absolute() == self.target.absolute()
        except (OSError, ValueError):
            return False

    @contextlib.contextmanager
    def counting(self) -> Iterator[ReadCount]:
        from evalview.load import closed_run
        from evalview.load import source as source_module

        real_read = source_module.read_input_file
        real_parsed = source_module.Source.__dict__["parsed"]
        real_reader_read = closed_run._Reader.read
        manifest = self.target / "manifest.json"

        def read_input_file(path: Path, *args: Any, **kwargs: Any) -> bytes:
            if self._mine(path):
                self.reads += 1
            return real_read(path, *args, **kwargs)

        def parsed(source: Any) -> Any:
            if self._mine(source.path):
                self.parses += 1
            return real_parsed.func(source)

        def reader_read(reader: Any, rel: str, size: int = 0) -> bytes | None:
            if rel == "manifest.json" and Path(reader.base + rel).absolute() == manifest.absolute():
                self.reads += 1
            return real_reader_read(reader, rel, size)

        counted = cached_property(parsed)
        counted.__set_name__(source_module.Source, "parsed")
        with mock.patch.object(source_module, "read_input_file", read_input_file), \
                mock.patch.object(source_module.Source, "parsed", counted), \
                mock.patch.object(closed_run._Reader, "read", reader_read):
            yield self

    def as_tuple(self) -> tuple[int, int]:
        return (self.reads, self.parses)


# -- the app: one pilot per input ------------------------------------------------------------


@dataclass
class ExportOutcome:
    #: "ok", "refused", "no-dialog" (e offered nothing), or "not-reached" (see AppObservation)
    outcome: str
    text: str = ""
    result: dict[str, Any] | None = None
    written: bool = False


@dataclass
class WatchOutcome:
    #: the app said it watches (the attribute `watching`); a harness app has none
    watching: bool
    #: the re-read read's answer (None: no re-read happened)
    reread: Answer | None = None
    #: what the app notified after the touch (title: message), errors first
    problems: list[str] = field(default_factory=list)
    #: an input that is not a read still shows as the partial-credit viewer after the touch
    still_inputs: bool | None = None


@dataclass
class AppObservation:
    #: the app's kind: "run" (a read's run screen), "harness" (the Harness screen), "inputs" (the
    #: partial-credit viewer of checkpoint inputs), "failed" (the app ended with a message),
    #: "none" (evalview ran no app)
    kind: str
    overview: Answer | None = None
    failure: str = ""
    exit_code: int | None = None
    reads: tuple[int, int] = (0, 0)
    #: the app's partial credit: (report JSON, refusal) of the read, or the checkpoint-inputs
    #: report JSON
    psr: dict[str, Any] | None = None
    psr_refusal: str | None = None
    export: ExportOutcome = field(default_factory=lambda: ExportOutcome("not-reached"))
    watch: WatchOutcome = field(default_factory=lambda: WatchOutcome(False))
    #: steps the pilot could not finish (a timeout, the app crashing), by step: "open",
    #: "export", "watch"
    broken: dict[str, str] = field(default_factory=dict)
    #: the Overview's aggregate: what its scorecard holds, and the text its card shows
    shown: Shown | None = None
    aggregate_text: str = ""
    #: the Samples tab (an Inspect log): None when the app has no such tab, else its numbers
    #: under each grouping key it offers (`SamplesPane.numbers()`, keyed by the key; "" for
    #: the tab as it opens) and the keys it offers
    samples: dict[str, Any] | None = None
    samples_keys: tuple[str, ...] = ()
    #: the step the pilot is at
    step: str = "open"


@contextlib.contextmanager
def captured_apps() -> Iterator[list[Any]]:
    """`evalview PATH` builds its app and calls `app.run()`: hand the app over instead."""
    import textual.app

    import evalview.folder.parallel as parallel
    import evalview.tui.app as app_module

    apps: list[Any] = []

    def run(self: Any, *args: Any, **kwargs: Any) -> None:
        apps.append(self)

    # Look often and settle fast (as tests/tui/test_watch.py does); no helper processes for a
    # folder of one read (they would outlive the pilot: the read is read in this process).
    with mock.patch.object(textual.app.App, "run", run), \
            mock.patch.object(app_module, "WATCH_INTERVAL", 0.1), \
            mock.patch.object(app_module, "WATCH_SETTLE", 0.2), \
            mock.patch.object(parallel, "prestart", lambda *a, **k: None):
        yield apps


async def wait_for(pilot: Any, cond: Callable[[], bool], timeout: float = PATIENCE) -> bool:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            return False
        await pilot.pause(0.05)
    return True


def session_answer(session: Any) -> Answer:
    card = session.scorecard
    d = None if card is None else card.denominators
    return Answer(
        True,
        findings_of([f.to_json() for f in session.findings]),
        counts_of(session.counts),
        run_headline(None if d is None else d.successes, None if d is None else d.selected),
    )


def harness_answer(screen: Any) -> Answer:
    """The Harness screen's answer: its session's findings and the card it shows."""
    from evalview.findings import count_by_severity

    card = screen.card
    return Answer(
        True,
        findings_of([f.to_json() for f in screen.findings]),
        counts_of(count_by_severity(screen.findings)),
        None if card is None else arms_headline(card.to_json()["arms"]),
    )


def _harness_screen(app: Any) -> Any:
    from evalview.tui.harness_screen import HarnessScreen

    screen = app.screen
    if isinstance(screen, HarnessScreen) and screen.is_mounted:
        return screen
    return None


def _settled(app: Any) -> bool:
    """The read is open and its partial credit has arrived (or the app ended)."""
    if getattr(app, "failure", None) is not None or getattr(app, "inputs", None) is not None:
        return True
    if app.return_code is not None:
        return True
    if getattr(app, "harness", None) is not None:
        return _harness_screen(app) is not None
    session = getattr(app, "session", None)
    from evalview.tui.run_screen import RunScreen

    # the seed bootstrap may still be running: no number compared here depends on it
    return session is not None and isinstance(app.screen, RunScreen) and not session.psr_pending


def observe_app(inp: Input, workdir: Path) -> AppObservation:
    """Open `inp` as `evalview PATH [--read KEY] [side files] --watch` does, in a pilot."""
    count = ReadCount(inp.path)
    with captured_apps() as apps:
        with count.counting():
            args = [str(inp.path), *inp.read_args, *inp.spec.side, "--watch"]
            done = run_cli(args)
            if not apps:
                return AppObservation("none", failure=done.text, exit_code=done.code)
            app = apps[0]
        obs = AppObservation("none")
        try:
            asyncio.run(_observe(app, obs, inp, workdir, count))
        except Exception as exc:  # the app crashed: a finding about the app, for its doors
            obs.broken[obs.step] = f"the app crashed: {type(exc).__name__}: {exc}"
        return obs


async def _observe(
    app: Any, obs: AppObservation, inp: Input, workdir: Path, count: ReadCount
) -> None:
    notes: list[tuple[str, str, str]] = []
    real_notify = app.notify

    def notify(message: str, *, title: str = "", severity: str = "information", **kw: Any) -> None:
        notes.append((severity, title, str(message)))
        real_notify(message, title=title, severity=severity, **kw)  # type: ignore[arg-type]

    app.notify = notify
    with count.counting():
        async with app.run_test(size=SIZE) as pilot:
            if not await wait_for(pilot, lambda: _settled(app)):
                obs.broken["open"] = f"the read did not open within {PATIENCE} s"
                return
            obs.reads = count.as_tuple()
            await _look(app, obs)
            if obs.kind in ("failed", "none"):
                return
            if obs.kind == "run":
                obs.step = "samples"
                await _samples(pilot, app, obs)
            obs.step = "export"
            await _export(pilot, app, obs, workdir / "app-export", notes)
            obs.step = "watch"
            await _watch(pilot, app, obs, inp, notes)
            obs.step = "closing"


async def _look(app: Any, obs: AppObservation) -> None:
    if getattr(app, "harness", None) is not None:
        obs.kind = "harness"
        obs.overview = harness_answer(_harness_screen(app))
        return
    if app.failure is not None:
        obs.kind, obs.failure = "failed", " ".join(app.failure)
        obs.exit_code = app.return_code
        return
    if app.inputs is not None:
        obs.kind = "inputs"
        obs.overview = Answer(False, message="the partial-credit viewer of checkpoint inputs")
        obs.psr = app.inputs.to_json()
        return
    session = app.session
    obs.kind = "run"
    obs.overview = session_answer(session)
    card = session.scorecard
    if card is not None:
        obs.shown = shown_of(card.aggregate.mean, card.labels)
        # what the terminal shows (the Overview is the first tab), line by line
        update = app.screen._compositor.render_full_update()
        obs.aggregate_text = "\n".join(
            "".join(seg.text for strip in line for seg in strip) for line in update.strips
        )
    obs.psr = None if session.psr is None else session.psr.to_json()
    obs.psr_refusal = session.psr_refusal


async def _samples(pilot: Any, app: Any, obs: AppObservation) -> None:
    """The Samples tab's numbers as it opens and under each key it offers (issues 26/27: the
    app shows what `score --json --group-by KEY` prints), then back to the Overview."""
    from evalview.stats.breakdown import group_keys
    from evalview.tui.samples_view import SamplesPane

    screen = app.screen
    if all(t.id != "samples" for t in screen.tabs):
        return
    screen.show_tab("samples")
    if not await wait_for(pilot, lambda: bool(screen.query(SamplesPane))):
        obs.broken["samples"] = f"the Samples tab did not mount within {PATIENCE} s"
        return
    pane = screen.query_one(SamplesPane)
    obs.samples = {"": pane.numbers()}
    obs.samples_keys = group_keys(app.session.run)
    for key in obs.samples_keys:
        pane.set_key(key)
        obs.samples[key] = pane.numbers()
    screen.show_tab("overview")
    await pilot.pause()


async def _export(
    pilot: Any, app: Any, obs: AppObservation, dest: Path, notes: list[tuple[str, str, str]]
) -> None:
    from textual.widgets import Input as InputField
    from textual.widgets import Static

    from evalview.tui.export_screen import ExportScreen

    def dialog() -> ExportScreen | None:
        screen = app.screen
        return screen if isinstance(screen, ExportScreen) and screen.is_mounted else None

    if not app.check_action("export", ()):
        obs.export = ExportOutcome("no-dialog", "e (export) is not offered")
        return
    before = len(notes)
    await pilot.press("e")
    if not await wait_for(pilot, lambda: dialog() is not None or len(notes) > before):
        obs.broken["export"] = f"e opened no dialog and said nothing within {PATIENCE} s"
        return
    screen = dialog()
    if screen is None:
        said = "; ".join(f"{t}: {m}" for _s, t, m in notes[before:])
        obs.export = ExportOutcome("no-dialog", said)
        return
    screen.query_one("#export-dest", InputField).value = str(dest)
    await pilot.click("#export-go")
    if not await wait_for(pilot, lambda: screen.outcome is not None):
        obs.broken["export"] = f"the export dialog gave no outcome within {PATIENCE} s"
        return
    text = " ".join(str(screen.query_one("#export-status", Static).render()).split())
    result_file = dest / "result.json"
    result = json.loads(result_file.read_text(encoding="utf-8")) if result_file.is_file() else None
    obs.export = ExportOutcome(screen.outcome or "", text, result, dest.exists())
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), timeout=5.0)


def touch(path: Path) -> None:
    """A reviewer saves the file again: same bytes, a later modification time."""
    st = path.stat()
    later = max(st.st_mtime_ns, time.time_ns()) + 2_000_000_000
    os.utime(path, ns=(later, later))


async def _watch(
    pilot: Any, app: Any, obs: AppObservation, inp: Input, notes: list[tuple[str, str, str]]
) -> None:
    watching = bool(getattr(app, "watching", False))
    obs.watch = WatchOutcome(watching)
    if not watching:
        return
    if obs.kind == "harness":
        await _watch_harness(pilot, app, obs, inp, notes)
        return
    before_session = getattr(app, "session", None)
    before_notes = len(notes)
    touch(inp.touch_target)

    def problems() -> list[str]:
        return [f"{t}: {m}" for s, t, m in notes[before_notes:] if s == "error"]

    if obs.kind == "inputs":
        # nothing to re-read into a run: the viewer must stay, and nothing may be reported
        # broken (a re-read is due within half a second: interval 0.1 s, settle 0.2 s)
        await wait_for(pilot, lambda: bool(problems()), timeout=3.0)
        obs.watch.problems = problems()
        obs.watch.still_inputs = app.inputs is not None and app.session is None
        return
    reread = await wait_for(
        pilot, lambda: app.session is not before_session or bool(problems()), timeout=20.0
    )
    obs.watch.problems = problems()
    if not reread:
        obs.broken["watch"] = "the touched input was not re-read within 20 s"
        return
    if app.session is not before_session and app.session is not None:
        obs.watch.reread = session_answer(app.session)
        # let the re-read's screen finish mounting before the pilot leaves (leaving while it
        # mounts is a race of its own, not this door's question)
        from evalview.tui.run_screen import RunScreen

        def mounted() -> bool:
            screen = app.screen
            return (
                isinstance(screen, RunScreen)
                and screen.session is app.session
                and screen.all_mounted
            )

        await wait_for(pilot, mounted, timeout=10.0)
        await pilot.pause()


async def _watch_harness(
    pilot: Any, app: Any, obs: AppObservation, inp: Input, notes: list[tuple[str, str, str]]
) -> None:
    """A harness result is watched as a run is: touched, it is re-read into a new screen."""
    before, before_notes = app.harness, len(notes)
    touch(inp.touch_target)

    def problems() -> list[str]:
        return [f"{t}: {m}" for s, t, m in notes[before_notes:] if s == "error"]

    def reread() -> bool:
        screen = _harness_screen(app)
        return app.harness is not before and screen is not None and screen.session is app.harness

    if not await wait_for(pilot, lambda: reread() or bool(problems()), timeout=20.0):
        obs.broken["watch"] = "the touched input was not re-read within 20 s"
        return
    obs.watch.problems = problems()
    if reread():
        obs.watch.reread = harness_answer(_harness_screen(app))
        await pilot.pause()


# -- the Runs screen: `evalview DIR` -----------------------------------------------------------


@dataclass
class RunsRowSeen:
    rel: str
    read: str | None
    status: str
    counts: dict[str, int]
    successes: int | None
    selected: int | None
    reason: str | None
    #: a benchmark-harness result's arm (one row per arm), else None
    arm: str | None = None


def observe_runs_screen(folder: Path) -> tuple[list[RunsRowSeen], str]:
    """Every entry of the Runs screen of `evalview FOLDER` once it is done, and its title."""
    with captured_apps() as apps:
        done = run_cli([str(folder)])
        assert apps, f"`evalview {folder}` started no app: {done.text}"
        app = apps[0]
        # Read in this process, as `EvalViewApp(folder, jobs=1)` does in tests/tui (the rows
        # are the same `row_of_item` a worker process computes; no pool outlives the pilot).
        app.jobs = 1

        async def main() -> tuple[list[RunsRowSeen], str]:
            from textual.widgets import Static

            from evalview.tui.runs_screen import RunsScreen

            async with app.run_test(size=(150, 30)) as pilot:
                shown = await wait_for(
                    pilot, lambda: isinstance(app.screen, RunsScreen) and app.screen.done
                )
                assert shown, f"the Runs screen on {folder} did not finish within {PATIENCE} s"
                screen = app.screen
                title = " ".join(str(screen.query_one("#runs-title", Static).render()).split())
                rows = [
                    RunsRowSeen(
                        e.candidate.rel,
                        None if e.row is None else e.row.read,
                        "pending" if e.row is None else e.row.status,
                        {} if e.row is None else dict(e.row.counts),
                        None if e.row is None else e.row.successes,
                        None if e.row is None else e.row.selected,
                        None if e.row is None else e.row.reason,
                        None if e.row is None else e.row.arm,
                    )
                    for e in screen.entries
                ]
                return rows, title

        return asyncio.run(main())
