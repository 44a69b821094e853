"""Smoke walk in a real terminal (issue 23): every kind of input the app opens, at 80 x 24 (and
one of each screen kind at 160 x 48), every tab and every documented key, failing on a key trap,
an empty screen or a missing header.

Pilot tests drive the app from inside; a trap a reviewer met (a search field keeping every later
key) only showed in a terminal, where keys arrive as bytes, Escape is a prefix of other keys and
the focus moves between paints. So this drives the installed `evalview` command in tmux, waits on
what the pane shows (never on fixed sleeps, except the terminal's own Escape delay) and checks,
after each key:

- the header that identifies the input (the read's name and its audit verdict) is on screen,
  above the tab bar, not scrolled away;
- the body under it is not empty;
- no trap: after `/` (or the export dialog, the palette, the help) and Escape, a tab key still
  switches tabs; `?` opens the help and Escape closes it; `q` ends the process with exit 0.

Each walk records every problem it meets (the input, the size, the keys pressed so far and the
screen) and goes on where it still can, so one failure lists all of them. When the file runs
alone, three walks run at once (WALKERS; each mostly waits on its own pane); under xdist each
worker runs one at a time.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from helpers.paths import REPO, SAMPLE_RUNS

pytestmark = pytest.mark.e2e

#: Seconds to wait for the first screen (reading, auditing and scoring under load).
OPEN_TIMEOUT = 40.0
#: Seconds to wait for one key's effect; a trap shows as this wait running out.
STEP_TIMEOUT = 15.0
#: Seconds for a screen reached to show its header, body and footer (a few paints).
SETTLE_TIMEOUT = 8.0
#: Seconds between two looks at the pane.
POLL = 0.05
#: The app's escape delay in ms (curses' ESCDELAY, which Textual reads): ESC then a key within
#: it reads as alt+key, as in any terminal program. Textual only notices the delay is over when
#: its input poll (0.1 s) wakes with nothing to read, so a key that follows ESC by less than
#: ESCDELAY + 0.1 s may still join it. Where Escape shows something the walk waits for that;
#: where it does not (leaving a search field) it pauses ESC_PAUSE seconds before the next key
#: (the default 100 ms delay would need more). No person types faster.
ESCDELAY = 25
ESC_PAUSE = 0.3
#: What is typed into a search field. `q` in it must be text, not quit the app.
TOKEN = "zqz"
#: A body shows at least this many lines with a letter or digit in them: a table's column
#: headers alone, or a title alone, is an empty screen.
MIN_BODY_LINES = 2
#: The Overview's seed bootstrap line while its worker runs (tui/overview.py).
BOOTSTRAPPING = "computing… (B ="
#: The command palette's prompt (Textual's).
PALETTE = "Search for commands"
#: The record view's title line (`Episode ID`).
RECORD = re.compile(r"(?m)^ ?Episode \S")
#: The audit verdict every header carries (`evalview.findings.audit_verdict`).
VERDICT = re.compile(r"✗ \d+ errors?, \d+ warnings?|⚠ \d+ warnings?|✓ clean")
SIZES = {"160x48": (160, 48), "80x24": (80, 24)}

# ----------------------------------------------------------------------------------- the inputs


@dataclass(frozen=True)
class Input:
    """One input as a person opens it: `evalview ARGS`, from the repository (or, for the
    compare, from the directory holding its two reads)."""

    id: str
    args: tuple[str, ...]
    #: What its first screen is: run, harness, inputs, picker, folder or compare.
    kind: str
    #: Texts the first screen's header must show (besides the verdict, where it has one).
    identity: tuple[str, ...]
    #: picker / folder: the identity of the read Enter opens.
    opens: tuple[str, ...] = ()
    #: picker / folder / compare: the two reads compared, as each side's header names them.
    compare: tuple[str, str] | None = None
    #: folder: mark three replicates A and three B, then `x` (the contrast).
    contrast: bool = False
    #: The tab a run opens on (Findings when parts of it could not be read).
    first: str = "1 Overview"
    #: How many tabs a run has (an Inspect log with epochs or metadata: a Samples tab too).
    tabs: int = 6


def _harness(path: Path) -> Input:
    """A harness result: its header names the result as the file does (`name`)."""
    name = json.loads(path.read_text(encoding="utf-8"))["name"]
    return Input(f"harness-{path.stem}", (str(path.relative_to(REPO)),), "harness", (name,))


RECOVERYBENCH = REPO / "tests" / "fixtures" / "miniverl-recoverybench"
PSR = "sample_runs/psr/"

INPUTS = [
    # A run's header names it by its run id and its checkpoint (the policy's version).
    Input("sample", (), "run", ("robobench-pi-test-001", "ckpt-40000")),
    Input(
        "fail-fast", ("sample_runs/fail-fast",), "run", ("robobench-pi-test-failfast", "ckpt-38000")
    ),
    Input(
        "faulty",
        ("sample_runs/faulty",),
        "run",
        ("robobench-faulty-demo", "ckpt-40000"),
        first="5 Findings",
    ),
    Input(
        "lerobot", ("sample_runs/lerobot/smolvla-libero-40k.json",), "run", ("smolvla-libero-40k",)
    ),
    Input(
        "lerobot-two-reads",
        ("sample_runs/lerobot/libero10-two-reads.json",),
        "picker",
        ("libero10-two-reads.json", "2 named reads"),
        opens=("eval_results_400",),
        compare=("eval_results_400", "eval_results_800"),
    ),
    # Three of the five sample harness results, one of each kind: warnings and the single-seed
    # label; refused (audit errors, schema 1); errors with a name that wraps at 80 columns.
    # (The other two, clean schema-2 files, add nothing the three do not and cost a walk each.)
    *(
        _harness(SAMPLE_RUNS / "harness" / f"{name}.json")
        for name in (
            "gpu-calc-hard-single-seed",
            "cpu-toy-calc-equal-update-v1",
            "gpu-calc-hard-undeclared-difference",
        )
    ),
    # RecoveryBench (miniVERL): a schema-3 result (the Recovery tab) and the task-level results,
    # a file of 60 named reads.
    _harness(RECOVERYBENCH / "recoverybench-v1-equal-updates.json"),
    Input(
        "recoverybench-task-results",
        (str((RECOVERYBENCH / "recoverybench-v1-task-results.jsonl").relative_to(REPO)),),
        "picker",
        ("recoverybench-v1-task-results.jsonl", "60 named reads"),
        opens=("equal_gpu_wall_time/continued-sft",),
    ),
    # Inspect AI: a .eval log (seven tabs: the Samples tab too); lm-eval: a results file
    # with its samples beside it.
    Input(
        "inspect",
        ("sample_runs/inspect/os-agent-model-a.eval",),
        "run",
        ("Cq3xWdV8nYh2Lk5Rt7Pm9s", "mockllm/agent-a"),
        tabs=7,
    ),
    Input(
        "lm-eval",
        ("sample_runs/lm-eval/org__model-a/results_2025-05-01T10-00-00.000001.json",),
        "run",
        ("org/model-a",),
    ),
    Input(
        "psr-inputs",
        (
            f"{PSR}checkpoint-inputs.json",
            *("--bare-targets", f"{PSR}bare-targets.json", "--catalog", f"{PSR}catalog.json"),
        ),
        "inputs",
        ("checkpoint-inputs file", "checkpoint-inputs.json"),
    ),
    Input(
        "replicates",
        ("sample_runs/replicates",),
        "folder",
        ("sample_runs/replicates", "6 reads"),
        opens=("robobench-planner-a-ft1", "ft1-step-30000"),
        compare=("planner-a/ft-seed-1", "planner-a/ft-seed-2"),
        contrast=True,
    ),
    Input(
        "sample-runs",
        ("sample_runs",),
        "folder",
        ("sample_runs", " reads · "),  # its count grows with every new format's samples
        opens=("robobench-pi-test-failfast", "ckpt-38000"),
    ),
    # Two reads of one schedule (the sample and its candidate read), by relative paths.
    Input(
        "compare",
        ("sample_runs/robobench-24x50", "robobench-ckpt-52000"),
        "compare",
        (),
        compare=("robobench-24x50", "robobench-ckpt-52000"),
    ),
]

#: Every input at 80 x 24, where every fault this walk has found showed (cut headers, a tab bar
#: pushed off, a trap); at 160 x 48 one input of each screen kind, to keep the wide layout walked
#: without doubling the walk's share of CI (each case costs 10-17 s of one worker).
WIDE = {"sample", "lerobot-two-reads", "harness-recoverybench-v1-equal-updates", "replicates",
        "compare"}
CASES = [(i, "80x24") for i in INPUTS] + [(i, "160x48") for i in INPUTS if i.id in WIDE]
assert len(WIDE) == sum(i.id in WIDE for i in INPUTS), "a WIDE id names no input"


def case_id(case: tuple[Input, str]) -> str:
    """`sample-80x24`: the test id, and the tmux session's name."""
    return f"{case[0].id}-{case[1]}"


# ------------------------------------------------------------------------------------ the pane


class Walked(Exception):
    """A walk cannot go on (the app did not reach the state the next keys need)."""


@dataclass
class Problem:
    """One thing a walk found wrong: what was expected, after which keys, and the screen;
    `also`: the other screens where the same header fault showed."""

    what: str
    keys: str
    screen: str
    also: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        more = f"\n  also on: {'; '.join(self.also)}" if self.also else ""
        return (
            f"- {self.what}{more}\n  keys: {self.keys or '(none)'}\n"
            f"  screen:\n{_indent(self.screen)}"
        )


def _indent(text: str) -> str:
    lines = text.rstrip("\n").split("\n")
    return "\n".join(f"    |{line}" for line in lines)


class Server:
    """One tmux server on its own socket for the whole module, with no user configuration;
    each walk is a session of it (its own window size)."""

    def __init__(self, socket_dir: Path) -> None:
        tmux = shutil.which("tmux")
        if tmux is None:
            raise AssertionError(
                "tmux is not installed; the end-to-end walk needs it (apt-get install tmux)"
            )
        self.base = [tmux, "-f", os.devnull, "-S", str(socket_dir / f"walk-{uuid.uuid4().hex[:8]}")]
        # Kept alive between walks: a server with no session would exit.
        self.tmux("start-server", ";", "set-option", "-g", "exit-empty", "off")

    def tmux(self, *args: str, check: bool = True) -> str:
        # os.environ, not the inherited C environment: importing readline (pytest does) exports
        # COLUMNS=80 and LINES=24 there, and the app would draw 80 x 24 in any pane.
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        return subprocess.run(
            [*self.base, *args], capture_output=True, text=True, check=check, env=env
        ).stdout

    def kill(self) -> None:
        self.tmux("kill-server", check=False)


class Pane:
    """The session running one `evalview` command: keys in, plain-text screens out, and the keys
    pressed so far (every problem names them)."""

    def __init__(self, server: Server, name: str, command: str, size: tuple[int, int], cwd: Path):
        self.server = server
        self.name = name
        self.sent: list[str] = []
        wrapped = f"{command}; echo EVALVIEW-EXIT=$?; sleep 300"
        server.tmux(
            "new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]),
            "-c", str(cwd), "-e", f"ESCDELAY={ESCDELAY}", wrapped,
        )

    def screen(self) -> str:
        return self.server.tmux("capture-pane", "-p", "-t", f"={self.name}:", check=False)

    def keys(self, *keys: str, pause: bool = False) -> None:
        """Send `keys` (tmux key names) one by one, pausing ESC_PAUSE after an Escape that
        another key follows (`pause`: after the last one too, when the walk's next key comes
        without waiting for something Escape shows)."""
        for i, key in enumerate(keys):
            self.server.tmux("send-keys", "-t", f"={self.name}:", key)
            self.sent.append(key)
            if key == "Escape" and (pause or i < len(keys) - 1):
                time.sleep(ESC_PAUSE)

    def idle(self, quiet: float = 0.3, timeout: float = SETTLE_TIMEOUT) -> None:
        """Until the screen has not changed for `quiet` seconds: the app has drawn what the keys
        asked for, so the thread that reads keys gets its turn (a busy app can hold it past the
        escape delay, and ESC then joins the next key)."""
        end = time.monotonic() + timeout
        last, since = self.screen(), time.monotonic()
        while time.monotonic() - since < quiet and time.monotonic() < end:
            time.sleep(POLL)
            now = self.screen()
            if now != last:
                last, since = now, time.monotonic()

    def wait(self, test: Callable[[str], bool], timeout: float = STEP_TIMEOUT) -> tuple[bool, str]:
        """(True, screen) once `test(screen)` holds, else (False, the last screen)."""
        end = time.monotonic() + timeout
        screen = self.screen()
        while not test(screen):
            if time.monotonic() > end:
                return False, screen
            time.sleep(POLL)
            screen = self.screen()
        return True, screen

    def close(self) -> None:
        self.server.tmux("kill-session", "-t", f"={self.name}", check=False)


# ------------------------------------------------------------------------- reading a screen


def lines_of(screen: str) -> list[str]:
    return screen.rstrip("\n").split("\n")


def tab_bar(screen: str) -> tuple[int, list[tuple[str, int]]] | None:
    """(line index, [(label, centre column)]) of the tab bar: a line of `N Title` labels with
    an underline line below it. None when the screen has no tab bar."""
    lines = lines_of(screen)
    for i, line in enumerate(lines[:-1]):
        labels = [m for m in re.finditer(r"\S+(?: \S+)*", line)]
        if len(labels) < 2 or not all(re.fullmatch(r"\d \S.*", m.group()) for m in labels):
            continue
        under = lines[i + 1]
        if under.strip() and set(under.strip()) <= set("━╸╺─"):
            return i, [(m.group(), (m.start() + m.end()) // 2) for m in labels]
    return None


def active_tab(screen: str) -> str | None:
    """The label the tab underline's highlight (between ╸ and ╺) sits under."""
    bar = tab_bar(screen)
    if bar is None:
        return None
    row, labels = bar
    under = lines_of(screen)[row + 1]
    left = under.find("╸")
    right = under.find("╺", left + 1)
    right = len(under) if right < 0 else right
    for label, centre in labels:
        if left < centre < right:
            return label
    return None


def on_tab(label: str) -> Callable[[str], bool]:
    """A test of a screen: the tab `label` is the active one."""
    return lambda screen: active_tab(screen) == label


def tab_labels(screen: str) -> list[str]:
    bar = tab_bar(screen)
    return [] if bar is None else [label for label, _ in bar[1]]


def header_lines(screen: str, rows: int = 4) -> list[str]:
    """The lines above the tab bar; without one, the first `rows` lines."""
    bar = tab_bar(screen)
    lines = lines_of(screen)
    return lines[: bar[0]] if bar is not None else lines[:rows]


def body_lines(screen: str) -> list[str]:
    """The lines under the tab bar's underline (under the header when there is none) and above
    the footer (the last line) that hold a letter or a digit: borders and scrollbars alone do
    not count."""
    bar = tab_bar(screen)
    lines = lines_of(screen)
    start = bar[0] + 2 if bar is not None else 2
    return [line for line in lines[start:-1] if re.search(r"[^\W_]", line)]


def exited(screen: str) -> str | None:
    """The exit status the wrapper printed once the command ended, else None."""
    m = re.search(r"EVALVIEW-EXIT=(\d+)", screen)
    return m.group(1) if m else None


# ------------------------------------------------------------------------------------ the walk


Header = Callable[[str], str]


@dataclass
class Walk:
    """Walks one input at one size; `problems` is what it found."""

    pane: Pane
    input: Input
    size: str
    problems: list[Problem] = field(default_factory=list)
    #: Header faults already recorded (the same header sits over every tab): fault -> problem.
    known: dict[str, Problem] = field(default_factory=dict)

    # -- recording ---------------------------------------------------------------------------

    def problem(self, what: str, screen: str) -> None:
        self.problems.append(Problem(what, " ".join(self.pane.sent), screen))

    def need(self, test: Callable[[str], bool], what: str, timeout: float = STEP_TIMEOUT) -> str:
        """Wait for `test`; if it never holds, record `what` and stop the walk."""
        ok, screen = self.pane.wait(test, timeout)
        if not ok:
            self.problem(what, screen)
            raise Walked(what)
        return screen

    # -- what every screen must show ---------------------------------------------------------

    @staticmethod
    def header(identity: tuple[str, ...], *, verdict: bool = True) -> Header:
        """A test naming what the header lacks ("" when nothing): `identity`'s texts and the
        audit verdict. A header may wrap at 80 columns: its lines are read as one."""

        def lacks(screen: str) -> str:
            head = re.sub(r"\s+", " ", " ".join(header_lines(screen)))
            gone = [text for text in identity if text not in head]
            if verdict and not VERDICT.search(head):
                gone.append("the audit verdict")
            return ", ".join(gone)

        return lacks

    def unfilled(self, screen: str) -> str:
        """How the app fails to draw the whole pane ("" when it does not): every screen ends
        with its footer on the last row, as wide as the pane. (An app that took its size from
        COLUMNS and LINES, or whose content pushed the footer out, would not.)"""
        width, height = SIZES[self.size]
        lines = lines_of(screen)
        if len(lines) < height:
            return "the last row is blank (no footer)"
        if len(lines[-1]) < width - 2:
            return f"the last row is {len(lines[-1])} columns wide in a {width}-column pane"
        return ""

    def faults(self, screen: str, header: Header) -> list[str]:
        """What is wrong with `screen`: the header, an empty body, the pane not filled."""
        found = []
        if lacks := header(screen):
            found.append(f"header lacks {lacks}")
        if len(body_lines(screen)) < MIN_BODY_LINES:
            found.append(f"empty screen (fewer than {MIN_BODY_LINES} lines of text)")
        if gap := self.unfilled(screen):
            found.append(gap)
        return found

    def settled(
        self, ready: Callable[[str], bool], header: Header, where: str, *, first: bool = False
    ) -> str:
        """Wait for `ready` (the state a key should reach; `first`: the input's first screen,
        read, audited and scored meanwhile), then for its header, body and footer (a screen
        fills in over several paints). Not reached: recorded, and the walk stops; reached with
        something missing: recorded, and the walk goes on."""
        self.need(ready, f"{where}: not reached", OPEN_TIMEOUT if first else STEP_TIMEOUT)
        # A header fault seen before is not waited out again on every tab: recorded once, with
        # the other screens it showed on.
        _, screen = self.pane.wait(
            lambda s: ready(s) and set(self.faults(s, header)) <= self.known.keys(),
            SETTLE_TIMEOUT,
        )
        for fault in self.faults(screen, header):
            if fault in self.known:
                self.known[fault].also.append(where)
                continue
            self.problem(f"{where}: {fault}", screen)
            if fault.startswith("header lacks"):
                self.known[fault] = self.problems[-1]
        return screen

    # -- keys every screen has ---------------------------------------------------------------

    def help_opens_and_closes(
        self, where: str, back: Callable[[str], bool], header: Header
    ) -> None:
        """`?` shows the help over the screen; Escape closes it, back to the same screen."""
        self.pane.keys("?")
        ok, screen = self.pane.wait(lambda s: "evalview keys" in s)
        if not ok:
            self.problem(f"{where}: `?` did not open the help", screen)
            return
        self.pane.keys("Escape")
        self.settled(
            lambda s: "evalview keys" not in s and back(s), header, f"{where}, ? then Escape"
        )

    def quits(self, where: str) -> None:
        """`q` ends the command with exit status 0."""
        self.pane.keys("q")
        ok, screen = self.pane.wait(lambda s: exited(s) is not None)
        if not ok:
            self.problem(f"{where}: `q` did not end the app", screen)
        elif exited(screen) != "0":
            self.problem(f"{where}: `q` ended the app with exit status {exited(screen)}", screen)

    def searched(self, where: str) -> None:
        """`/` and TOKEN typed at once, as a person types: the token shows in a field (so the
        `q` in it was text)."""
        self.pane.keys("/", *TOKEN)
        self.need(lambda s: TOKEN in s, f"{where}: `/` then {TOKEN} not typed in a field")
        self.pane.idle()  # the filter drawn before Escape, which shows nothing else

    # -- a run: six tabs ---------------------------------------------------------------------

    def run_screen(self, identity: tuple[str, ...]) -> None:
        """Every tab by its key, with its own keys and its search left by Escape (the next tab
        key is the trap check); the app's keys (`?`, `e`, ctrl+p, `w`); a record and its find
        bar; then `q`."""
        header = self.header(identity)
        start = self.input.first if self.input.kind == "run" else "1 Overview"
        # The tab it opens on, once the underline is there and, on the Overview, the seed
        # bootstrap is done (a person waits for the screen; and the bootstrap's thread, holding
        # the interpreter, can delay the app's reading of keys past an Escape's delay).
        first = self.settled(
            lambda s: on_tab(start)(s) and BOOTSTRAPPING not in s,
            header,
            f"run screen, opened on {start}",
            first=True,
        )
        labels = tab_labels(first)
        if len(labels) != self.input.tabs:
            self.problem(f"run screen: tabs {labels}, expected {self.input.tabs}", first)
        n = len(labels)
        for label in [labels[(labels.index(start) + k) % n] for k in range(1, n + 1)]:
            self.pane.keys(label[0])
            self.settled(on_tab(label), header, f"run screen, tab {label} (key {label[0]})")
            self.tab_keys(label[2:])

        def back(s: str) -> bool:  # the walk ends on the tab it started on
            return active_tab(s) == start

        self.help_opens_and_closes("run screen", back, header)
        self.pane.keys("e")
        self.need(lambda s: "Destination" in s, "run screen: `e` did not open the export dialog")
        self.pane.keys("Escape")
        self.settled(lambda s: "Destination" not in s and back(s), header,
                     "run screen, e then Escape")
        self.pane.keys("C-p")
        self.need(lambda s: PALETTE in s, "run screen: ctrl+p did not open the palette")
        self.pane.keys("Escape")
        self.settled(lambda s: PALETTE not in s and back(s), header,
                     "run screen, ctrl+p then Escape")
        self.pane.keys("w")
        self.need(lambda s: "Watch on" in s, "run screen: `w` did not turn watching on")
        self.pane.keys("w")
        self.need(lambda s: "Watch off" in s, "run screen: `w` did not turn watching off")
        self.record_view(header)
        self.quits("run screen")

    def tab_keys(self, title: str) -> None:
        """A tab's own keys (the help's table for it), then its search left by Escape."""
        where = f"run screen, {title}"
        if title == "Tasks":
            # g g: the next task groups (a LeRobot suite's), then s sorts by the next column and
            # r reverses it: the ▼ shows once all four are done.
            self.pane.keys("g", "g", "s", "r")
            self.need(lambda s: "sorted by" in s and "▼" in s, f"{where}: g g s r did not sort")
            self.searched(where)
            self.pane.keys("Escape", pause=True)  # the next tab key is the trap check
        elif title == "Episodes":
            self.searched(where)
            self.pane.keys("Escape", "x")  # x clears the filters, the search's text with them
            self.need(
                lambda s: TOKEN not in s, f"{where}: after / {TOKEN} Escape, `x` did not clear it"
            )
        elif title == "Findings":
            self.pane.keys("c")  # copies the finding under the cursor, if there is one
            self.need(
                lambda s: "Copied the finding" in s or "0 errors  ⚠ 0 warnings  ℹ 0 info" in s,
                f"{where}: `c` did not copy the finding",
            )
            self.searched(where)
            self.pane.keys("Escape", pause=True)

    def record_view(self, header: Header) -> None:
        """The first episode's record under the run's header; its find bar (`/` and a word
        typed at once); Escape leaves the find bar and keeps the record (`c` then copies the
        record's JSON: a `c` typed into the bar, or copying an episode id, would not); Escape
        back to Episodes, where `s` and `r` sort."""
        self.pane.keys("3")
        self.need(on_tab("3 Episodes"), "run screen: key 3 did not switch")
        self.pane.keys("Home", "Enter")
        record = self.settled(lambda s: RECORD.search(s) is not None, header, "record view")
        if '"' in record:  # a record with JSON to find in (not an unattempted case)
            self.pane.keys("/", *TOKEN)
            ok, screen = self.pane.wait(lambda s: TOKEN in s or exited(s) is not None)
            if exited(screen) is not None:
                self.problem(
                    f"record view: `/` then {TOKEN} typed at once: the q quit the app", screen
                )
                raise Walked("record view")
            if not ok:
                self.problem(
                    f"record view: `/` then {TOKEN} typed at once: not all of it reached the "
                    "find bar",
                    screen,
                )
            self.pane.idle()
            self.pane.keys("Escape", "c")
            _, screen = self.pane.wait(
                lambda s: any(t in s for t in ("Copied the record", "Copied the episode"))
                or exited(s) is not None
            )
            if "Copied the episode id" in screen:
                self.problem("record view: Escape in the find bar closed the whole record", screen)
            elif "Copied the record JSON" not in screen:
                self.problem(
                    "record view: after Escape in the find bar, `c` did not copy the record "
                    "(typed into the bar?)",
                    screen,
                )
                raise Walked("record view")
        if RECORD.search(self.pane.screen()):
            self.pane.keys("Escape")
        self.need(
            on_tab("3 Episodes"),
            "record view: Escape did not go back to the Episodes tab",
        )
        self.pane.keys("s", "r")
        self.need(lambda s: "sorted by" in s and "▼" in s, "Episodes: `s` then `r` did not sort")

    # -- a benchmark-harness result ----------------------------------------------------------

    def harness_screen(self, identity: tuple[str, ...]) -> None:
        """Every tab by its key (`5` says why when there is no Recovery tab), `?`, `e`, `q`."""
        # the file's name and the verdict (the kind, "benchmark-harness result", may be cut at
        # 80 columns beside a long name: the verdict box keeps its place on the right)
        header = self.header(identity)
        first = self.settled(
            on_tab("1 Arms"), header, "harness, opened on 1 Arms", first=True
        )
        labels = tab_labels(first)
        if labels[:4] != ["1 Arms", "2 Measured", "3 Controls", "4 Findings"]:
            self.problem(f"harness: tabs {labels}", first)
        for label in [*labels[1:], labels[0]]:
            self.pane.keys(label[0])
            self.settled(on_tab(label), header, f"harness, tab {label} (key {label[0]})")
        if "5 Recovery" not in labels:
            self.pane.keys("5")
            ok, screen = self.pane.wait(lambda s: "schema-3" in s)
            if not ok:
                self.problem("harness: `5` (no Recovery tab) said nothing", screen)

        def back(s: str) -> bool:
            return active_tab(s) == "1 Arms"

        self.help_opens_and_closes("harness", back, header)
        self.pane.keys("e")
        self.need(lambda s: "Destination" in s, "harness: `e` did not open the export dialog")
        self.pane.keys("Escape")
        self.settled(lambda s: "Destination" not in s and back(s), header, "harness, e then Escape")
        self.pane.keys("2")
        self.settled(on_tab("2 Measured"), header, "harness, then key 2")
        self.quits("harness")

    # -- a PSR checkpoint-inputs file --------------------------------------------------------

    def inputs_screen(self, identity: tuple[str, ...]) -> None:
        """The partial-credit viewer: its tables (↑↓, tab), `?`, `q`."""
        header = self.header(identity, verdict=False)  # refused inputs never open

        def ready(s: str) -> bool:
            return "checkpoints of" in s

        self.settled(ready, header, "checkpoint inputs, opened", first=True)
        self.pane.keys("Down", "Tab", "Down", "Tab")
        self.help_opens_and_closes("checkpoint inputs", ready, header)
        self.quits("checkpoint inputs")

    # -- a file of several named reads -------------------------------------------------------

    def picker_screen(self, identity: tuple[str, ...]) -> None:
        """The list of reads (not audited yet: no verdict); space, ↓, space, `c` compares two
        (Escape back); `?`; Enter opens one, walked as a run."""
        header = self.header(identity, verdict=False)

        def ready(s: str) -> bool:
            return "choose one to open" in s

        self.settled(ready, header, "read picker, opened", first=True)
        if self.input.compare is not None:
            self.pane.keys("Space", "Down", "Space", "c")
            self.compare_screen(self.input.compare, "read picker, space ↓ space c")
            self.pane.keys("Escape")
            self.settled(ready, header, "read picker, compare then Escape")
            self.pane.keys("Up")
        self.help_opens_and_closes("read picker", ready, header)
        self.pane.keys("Enter")
        self.run_screen(self.input.opens)

    # -- a folder: the Runs screen -----------------------------------------------------------

    def folder_screen(self, identity: tuple[str, ...]) -> None:
        """Sorts, verdict filter, the text filter left by Escape; Enter opens a read (a tab
        key there, Escape back); marks and `c` compare; `A` `B` and `x` contrast; `?`; `q`."""
        header = self.header(identity, verdict=False)  # each row has its own verdict

        def ready(s: str) -> bool:
            return "read so far" not in s and "… reading" not in s and "sorted by" in s

        self.settled(ready, header, "Runs screen, every read read", first=True)
        # v cycles five verdict filters (back to all), s five sorts, r reverses. Each wait is
        # for a state the keys before it cannot show, so the next keys go to a settled screen.
        self.pane.keys(*"vvvvv", "s", "s", "r")
        self.need(
            lambda s: "sorted by read (reversed)" in s and "verdict:" not in s,
            "Runs screen: v x5, s s, r did not sort by read, reversed, all verdicts",
        )
        self.pane.keys("s", "s", "s", "r")
        self.need(
            lambda s: "sorted by scan order" in s and "reversed" not in s,
            "Runs screen: s x3, r did not come back to scan order",
        )
        self.searched("Runs screen")
        self.need(lambda s: f"filter: '{TOKEN}'" in s, "Runs screen: the filter did not apply")
        self.pane.keys("Escape")
        self.settled(lambda s: TOKEN not in s and ready(s), header, "Runs screen, / then Escape")
        opened = self.header(self.input.opens)
        self.pane.keys("Home", "Enter")
        self.settled(on_tab("1 Overview"), opened, "Runs screen, Enter")
        self.pane.keys("2")
        self.settled(on_tab("2 Tasks"), opened, "Runs screen, Enter then 2")
        self.pane.keys("Escape")
        self.settled(
            lambda s: ready(s) and active_tab(s) is None, header, "Runs screen, back by Escape"
        )
        if self.input.compare is not None:
            self.pane.keys("Home", "Space", "Down", "Space", "c")
            self.compare_screen(self.input.compare, "Runs screen, space ↓ space c")
            self.pane.keys("Escape")
            self.settled(ready, header, "Runs screen, compare then Escape")
        if self.input.contrast:
            self.pane.keys("Home", *("A", "Down") * 3, *("B", "Down") * 3, "x")
            self.need(
                lambda s: "evalview contrast" in s and "Contrasting" not in s,
                "Runs screen: `x` did not show the contrast",
            )
            self.pane.keys("Escape")
            self.settled(ready, header, "Runs screen, contrast then Escape")
        self.help_opens_and_closes("Runs screen", ready, header)
        self.quits("Runs screen")

    # -- the compare screen ------------------------------------------------------------------

    def compare_screen(self, names: tuple[str, str], where: str) -> Header:
        """The comparison, each read's header line (`A`/`B`, its verdict, successes / selected,
        its name) on top, then ↓ through the tasks. Returns the header's test."""

        def lacks(s: str) -> str:
            gone = []
            for letter, name in zip("AB", names, strict=True):
                if not any(
                    line.lstrip().startswith(f"{letter} ")
                    and VERDICT.search(line)
                    and "successes / selected" in line
                    # whole, or (at 80 columns, cut in its middle) its distinguishing tail
                    and (name in line or name[-8:] in line)
                    for line in header_lines(s)
                ):
                    gone.append(f"a line {letter} with its verdict, successes / selected, {name}")
            return "; ".join(gone)

        def ready(s: str) -> bool:
            return "McNemar" in s and "pairs completed by both reads" in s

        self.settled(ready, lacks, where, first=True)
        self.pane.keys("Down", "Down", "Down")
        return lacks

    def compare_app(self, names: tuple[str, str]) -> None:
        """`evalview A B`: the comparison, `?`, `q`."""
        header = self.compare_screen(names, "compare")
        self.help_opens_and_closes("compare", lambda s: "McNemar" in s, header)
        self.quits("compare")

    # -- dispatch ----------------------------------------------------------------------------

    def run(self) -> None:
        kind, ident = self.input.kind, self.input.identity
        try:
            if kind == "run":
                self.run_screen(ident)
            elif kind == "harness":
                self.harness_screen(ident)
            elif kind == "inputs":
                self.inputs_screen(ident)
            elif kind == "picker":
                self.picker_screen(ident)
            elif kind == "folder":
                self.folder_screen(ident)
            else:
                assert self.input.compare is not None
                self.compare_app(self.input.compare)
        except Walked:
            pass


# ----------------------------------------------------------------------------- running walks


def _evalview() -> str:
    exe = Path(sys.executable).parent / "evalview"
    found = str(exe) if exe.exists() else shutil.which("evalview")
    assert found, "the evalview command is not installed (pip install -e .)"
    return found


@dataclass
class Result:
    """What a walk found, and how many keys it pressed."""

    problems: list[Problem]
    keys: int


def pair_of_reads(root: Path) -> Path:
    """`evalview A B`'s two reads of one schedule under `root`: the sample (regenerated,
    byte-identical to the committed copy) and its candidate read, opened by relative paths."""
    from evalview.samples import generate_candidate_read, write_sample_runs

    write_sample_runs(root / "sample_runs", names=("robobench-24x50",))
    generate_candidate_read(root / "robobench-ckpt-52000")
    return root


class Walker:
    """Runs walks on a thread pool: a test asks for its case's result, which starts that walk
    and the next ones of `order`, `workers` at a time (each mostly waits on its own pane)."""

    def __init__(
        self, server: Server, scratch: Path, order: list[tuple[Input, str]], workers: int
    ) -> None:
        self.server = server
        self.scratch = scratch
        self.order = order
        self.workers = workers
        self.pool = ThreadPoolExecutor(max_workers=workers)
        self.futures: dict[str, Future[Result]] = {}
        self._pair: Path | None = None
        self._pair_lock = threading.Lock()

    def pair_dir(self) -> Path:
        """The compare's two reads, written the first time a walk needs them."""
        with self._pair_lock:
            if self._pair is None:
                self._pair = pair_of_reads(self.scratch / "pair")
            return self._pair

    def result(self, case: tuple[Input, str]) -> Result:
        at = self.order.index(case) if case in self.order else len(self.order)
        for later in [case, *self.order[at + 1 : at + self.workers]]:
            if case_id(later) not in self.futures:
                self.futures[case_id(later)] = self.pool.submit(self.walk, *later)
        return self.futures[case_id(case)].result()

    def walk(self, inp: Input, size: str) -> Result:
        cwd = self.pair_dir() if inp.kind == "compare" else REPO
        # The server's environment is this process's (PYTHONPATH included), and so the pane's.
        command = shlex.join([_evalview(), *inp.args])
        pane = Pane(self.server, case_id((inp, size)), command, SIZES[size], cwd)
        try:
            walk = Walk(pane, inp, size)
            walk.run()
            return Result(walk.problems, len(pane.sent))
        finally:
            pane.close()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="module")
def walker(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Walker]:
    server = Server(tmp_path_factory.mktemp("tmux"))
    # The cases this run selected, in the order they run. Alone, WALKERS (3) walks at once;
    # under xdist one per worker, the workers already share the cores.
    ids = {
        item.callspec.id
        for item in request.session.items
        if isinstance(item, pytest.Function) and item.module is request.module
    }
    chosen = [case for case in CASES if case_id(case) in ids]
    workers = 1 if os.environ.get("PYTEST_XDIST_WORKER") else int(os.environ.get("WALKERS", "3"))
    w = Walker(server, tmp_path_factory.mktemp("walk"), chosen, workers)
    try:
        yield w
    finally:
        w.close()
        server.kill()


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_walk_every_tab_and_key(walker: Walker, case: tuple[Input, str]) -> None:
    result = walker.result(case)
    inp, size = case
    assert not result.problems, (
        f"{inp.id} ({' '.join(inp.args) or 'no PATH'}) at {size}: "
        f"{len(result.problems)} problem(s) after {result.keys} keys\n"
        + "\n".join(str(p) for p in result.problems)
    )
