"""Screenshots of the app in a real terminal (tmux), as a user sees them: screenshots/*.svg and
*.png (the PNG when headless Chromium is installed).

    python scripts/tmux_screenshots.py                      # every capture, into screenshots/
    python scripts/tmux_screenshots.py --out /tmp/shots     # elsewhere
    python scripts/tmux_screenshots.py --only 13-compare    # one capture (repeatable)
    python scripts/tmux_screenshots.py --list               # the names

scripts/screenshots.py draws the screens with Textual's own renderer, inside a test harness
(`run_test`); this one runs the real command, `python -m evalview ARGS`, in a tmux pane of the
capture's size, presses the keys a person would (waiting, after each, for what it should show
and for the screen to stop changing), and reads the pane back with `tmux capture-pane -e`: the
cells and colours the terminal holds, what a user sees. rich turns them into an SVG
(`Console.export_svg`, titled with the command), and Chromium the SVG into a PNG. The names are
screenshots.py's, so the README's images can come from either.

Every input is opened by a path relative to the working directory the pane starts in, so the
screens name no machine path (but the export dialog, which proposes an absolute directory, as
the app does). The compare pairs the sample with its candidate read
(`evalview.samples.candidate`), generated into a temporary directory as screenshots.py does.
Needs tmux; run from a checkout (the inputs are its sample_runs/ and tests/fixtures/).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.text import Text

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "screenshots"
#: The size of the wide captures (screenshots.py's SIZE) and of the small terminal every screen
#: must still fit.
WIDE = (150, 44)
NARROW = (80, 24)
#: Seconds to wait for what a key should show; the screen is taken once it has not changed for
#: STILL seconds (tab underlines slide, tables fill in over several paints).
TIMEOUT = 60.0
STILL = 0.6
POLL = 0.05
#: The app's escape delay in ms (ESCDELAY, which Textual reads) and the pause after Escape:
#: Textual reads ESC and a key that follows within ESCDELAY + 0.1 s as alt+key.
ESCDELAY = 25
ESC_PAUSE = 0.3

# ------------------------------------------------------------------------------ the capture plan


@dataclass(frozen=True)
class Press:
    """Press `keys` (tmux key names), then wait for the screen to stop changing."""

    keys: tuple[str, ...]

    def __init__(self, *keys: str) -> None:
        object.__setattr__(self, "keys", keys)


@dataclass(frozen=True)
class Wait:
    """Wait until every one of `texts` is on screen (and `absent`, if given, is not)."""

    texts: tuple[str, ...]
    absent: str | None = None

    def __init__(self, *texts: str, absent: str | None = None) -> None:
        object.__setattr__(self, "texts", texts)
        object.__setattr__(self, "absent", absent)


@dataclass(frozen=True)
class Tab:
    """Wait until the tab bar's underline sits under `label` (it slides there)."""

    label: str


Step = Press | Wait | Tab


@dataclass(frozen=True)
class Shot:
    """One capture: `evalview ARGS` started in `cwd` ("repo", "sample": the sample run's
    parent, or "pair": the compare's two reads), at `size`, after `steps`. `still`: wait for
    the screen to stop changing before taking it (not for the loading screen, gone in a
    second)."""

    name: str
    args: tuple[str, ...]
    steps: tuple[Step, ...] = ()
    size: tuple[int, int] = WIDE
    cwd: str = "repo"
    still: bool = True


#: The run screen's tabs, by key: (capture, tab label).
TABS = {
    "1": ("01-overview", "1 Overview"),
    "2": ("02-tasks", "2 Tasks"),
    "3": ("03-episodes", "3 Episodes"),
    "4": ("04-errors", "4 Errors"),
    "5": ("05-findings", "5 Findings"),
    "6": ("06-partial-credit", "6 Partial credit"),
}
#: The run screen, ready: the header's headline, the tab bar, the seed bootstrap done.
RUN_READY = Wait("successes / selected", "1 Overview", absent="computing…")
#: The Episodes tab showing errored episodes only: `/` puts the focus in the search field, three
#: shift+tabs back reach the status filter, whose list opens on Enter (its options: the
#: prompt, completed, error).
EPISODES: tuple[Step, ...] = (Press("3"), Tab("3 Episodes"), Wait("episodes of"))
STATUS_ERROR: tuple[Step, ...] = tuple(
    Press(key) for key in ("/", "BTab", "BTab", "BTab", "Enter", "Down", "Down", "Enter")
)
ERRORS_ONLY = (*EPISODES, *STATUS_ERROR, Wait("status=error"))
RECORD = (*EPISODES, Press("Down"), Press("Down"), Press("Enter"), Wait("from episodes.jsonl"))


def shots(sample: str) -> list[Shot]:
    """Every capture, in the order of screenshots/: `sample` is the sample run's directory
    name (opened from its parent)."""
    run = (sample,)
    plan = [Shot("00-loading", run, (Wait("Opening"),), cwd="sample", still=False)]
    plan += [
        Shot(name, run, (RUN_READY, Press(key), Tab(label)), cwd="sample")
        for key, (name, label) in TABS.items()
    ]
    plan += [
        Shot("07-episodes-errors", run, (RUN_READY, *ERRORS_ONLY), cwd="sample"),
        Shot("08-record", run, (RUN_READY, *RECORD), cwd="sample"),
        Shot("09-help", run, (RUN_READY, Press("?"), Wait("evalview keys")), cwd="sample"),
        Shot(
            "10-palette",
            run,
            (RUN_READY, Press("C-p"), Wait("Search for commands"), Press(*"seed1003")),
            cwd="sample",
        ),
        Shot("11-export", run, (RUN_READY, Press("e"), Wait("Destination")), cwd="sample"),
        Shot(
            "12-checkpoint-inputs",
            (
                "sample_runs/psr/checkpoint-inputs.json",
                "--bare-targets",
                "sample_runs/psr/bare-targets.json",
                "--catalog",
                "sample_runs/psr/catalog.json",
            ),
            (Wait("checkpoints of"),),
        ),
        # The cursor on hang-mug, a task B significantly improved: its 2x2 table below.
        Shot(
            "13-compare",
            COMPARE_PAIR,
            (Wait("McNemar", "pairs completed by both reads"), Press(*["Down"] * 7)),
            cwd="pair",
        ),
        Shot(
            "14-harness-arms",
            ("sample_runs/harness/gpu-calc-hard-single-seed.json",),
            (Wait("benchmark-harness result", "1 Arms"),),
        ),
        Shot(
            "15-harness-controls",
            ("sample_runs/harness/gpu-calc-hard-undeclared-difference.json",),
            (Wait("benchmark-harness result", "1 Arms"), Press("3"), Tab("3 Controls")),
        ),
        # A LeRobot eval_info.json: the Tasks tab on one task group (g cycles the groups).
        Shot(
            "16-lerobot-tasks",
            ("sample_runs/lerobot/smolvla-libero-40k.json",),
            (RUN_READY, Press("2"), Tab("2 Tasks"), Press("g", "g", "g", "g")),
        ),
        # A file of several named reads asks which one to open.
        Shot(
            "17-lerobot-reads",
            ("sample_runs/lerobot/libero10-two-reads.json",),
            (Wait("choose one to open"),),
        ),
        Shot("18-narrow-overview", run, (RUN_READY,), NARROW, cwd="sample"),
        Shot(
            "19-narrow-tasks",
            run,
            (RUN_READY, Press("2"), Tab("2 Tasks")),
            NARROW,
            cwd="sample",
        ),
        Shot("20-narrow-episodes-errors", run, (RUN_READY, *ERRORS_ONLY), NARROW, cwd="sample"),
        Shot("21-narrow-record", run, (RUN_READY, *RECORD), NARROW, cwd="sample"),
        # `evalview sample_runs/`: every read of the folder, the cursor on a replicate.
        Shot(
            "22-runs",
            ("sample_runs",),
            (Wait("sorted by", absent="read so far"), Press("Down", "Down", "Down")),
        ),
        # `evalview sample_runs/replicates`: planner-a's three replicates marked A, planner-b's
        # B (scan order: a's three rows, then b's), then `x` and its result.
        Shot(
            "23-runs-contrast",
            ("sample_runs/replicates",),
            (
                Wait("sorted by", absent="read so far"),
                Press("Home", *("A", "Down") * 3, *("B", "Down") * 3, "x"),
                Wait("evalview contrast", absent="Contrasting"),
            ),
        ),
        # miniVERL's published RecoveryBench result (schema 3): the Recovery tab.
        Shot(
            "24-harness-recovery",
            ("tests/fixtures/miniverl/recoverybench-v1-equal-wall-time.json",),
            (Wait("benchmark-harness result", "5 Recovery"), Press("5"), Tab("5 Recovery")),
        ),
        # An Inspect AI log: the Samples tab (rates by a metadata key, each sample over its
        # epochs), wide and at 80 x 24; two models' logs compared by (sample id, epoch).
        Shot("25-inspect-samples", INSPECT_A, (*INSPECT_READY, Press("7"), Tab("7 Samples"))),
        Shot(
            "26-narrow-inspect-samples",
            INSPECT_A,
            (*INSPECT_READY, Press("7"), Tab("7 Samples"), Press("g")),
            NARROW,
        ),
        Shot(
            "27-inspect-compare",
            (*INSPECT_A, "sample_runs/inspect/os-agent-model-b.eval"),
            (Wait("McNemar"),),
        ),
        # lm-eval output directories of two models: a row per model, a column per task
        # (scrolled right to the task columns).
        Shot(
            "28-lm-eval-runs",
            ("sample_runs/lm-eval",),
            (Wait("sorted by", absent="read so far"), Press(*["Right"] * 150), Wait("arith_add")),
        ),
    ]
    return plan


INSPECT_A = ("sample_runs/inspect/os-agent-model-a.eval",)
#: An Inspect log's run screen, ready (its headline, the bar with the Samples tab).
INSPECT_READY: tuple[Step, ...] = (Wait("successes / selected", "7 Samples", absent="computing…"),)

#: The compare's two reads, relative to the directory `candidate_pair` fills.
COMPARE_PAIR = ("sample_runs/robobench-24x50", "robobench-ckpt-52000")


def candidate_pair(where: Path) -> None:
    """The sample (regenerated, byte-identical to the committed copy) and its candidate read,
    under `where` as COMPARE_PAIR names them: two reads of one schedule, not committed."""
    from evalview.samples import generate_candidate_read, write_sample_runs

    sample = Path(COMPARE_PAIR[0])
    write_sample_runs(where / sample.parent, names=(sample.name,))
    generate_candidate_read(where / COMPARE_PAIR[1])


# ------------------------------------------------------------------------------------- the terminal


class Terminal:
    """A tmux server on its own socket, no user configuration; one session per capture."""

    def __init__(self, socket_dir: Path) -> None:
        tmux = shutil.which("tmux")
        if tmux is None:
            raise SystemExit("tmux_screenshots: tmux is not installed (apt-get install tmux)")
        socket = socket_dir / f"shots-{uuid.uuid4().hex[:8]}"
        self.base = [tmux, "-f", os.devnull, "-S", str(socket)]
        # The panes' environment is this process's os.environ: not the C-level environment,
        # where an imported readline exports COLUMNS and LINES (the app would draw 80 x 24).
        self.env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        # A reviewer's home, so the export dialog's proposal names no machine path, and a state
        # directory of its own, so it is not the last directory this machine exported into.
        self.env["HOME"] = "/home/reviewer"
        self.env["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="evalview-shots-state-")

    def tmux(self, *args: str, check: bool = True) -> str:
        return subprocess.run(
            [*self.base, *args], capture_output=True, text=True, check=check, env=self.env
        ).stdout

    @contextmanager
    def pane(self, command: list[str], size: tuple[int, int], cwd: Path) -> Iterator[Pane]:
        name = f"shot-{uuid.uuid4().hex[:8]}"
        self.tmux(
            "new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]),
            "-c", str(cwd), "-e", f"ESCDELAY={ESCDELAY}", "-e", "COLORTERM=truecolor",
            shlex.join(command) + "; echo EVALVIEW-EXIT=$?; sleep 600",
        )
        try:
            yield Pane(self, f"={name}:")
        finally:
            self.tmux("kill-session", "-t", f"={name}", check=False)

    def kill(self) -> None:
        self.tmux("kill-server", check=False)


@dataclass
class Pane:
    terminal: Terminal
    target: str
    log: list[str] = field(default_factory=list)

    def text(self) -> str:
        return self.terminal.tmux("capture-pane", "-p", "-t", self.target, check=False)

    def ansi(self) -> str:
        """The cells with their colours (-e), trailing spaces kept (-N: backgrounds reach the
        right edge)."""
        return self.terminal.tmux("capture-pane", "-e", "-N", "-p", "-t", self.target)

    def press(self, *keys: str) -> None:
        for key in keys:
            self.terminal.tmux("send-keys", "-t", self.target, key)
            self.log.append(key)
            if key == "Escape":
                time.sleep(ESC_PAUSE)

    def wait(self, ok: Callable[[str], bool], what: str) -> str:
        end = time.monotonic() + TIMEOUT
        screen = self.text()
        while not ok(screen):
            if time.monotonic() > end:
                raise RuntimeError(
                    f"{what} not on screen within {TIMEOUT:g} s after keys "
                    f"{' '.join(self.log) or '(none)'}; screen:\n{screen}"
                )
            time.sleep(POLL)
            screen = self.text()
        return screen

    def still(self) -> None:
        """Until the screen's text has not changed for STILL seconds (at most TIMEOUT); its
        colours are not compared, as a focused field's cursor blinks."""
        end = time.monotonic() + TIMEOUT
        last, since = self.text(), time.monotonic()
        while time.monotonic() - since < STILL and time.monotonic() < end:
            time.sleep(POLL)
            now = self.text()
            if now != last:
                last, since = now, time.monotonic()


def active_tab(screen: str) -> str | None:
    """The tab label the underline's highlight (between ╸ and ╺, on the line under the tab
    bar) sits under; None when no tab bar is on screen."""
    lines = screen.split("\n")
    for i, line in enumerate(lines[:-1]):
        labels = list(re.finditer(r"\S+(?: \S+)*", line))
        under = lines[i + 1].strip()
        if len(labels) < 2 or not all(re.fullmatch(r"\d \S.*", m.group()) for m in labels):
            continue
        if not under or not set(under) <= set("━╸╺─"):
            continue
        left = lines[i + 1].find("╸")
        right = lines[i + 1].find("╺", left + 1)
        right = len(lines[i + 1]) if right < 0 else right
        for m in labels:
            if left < (m.start() + m.end()) // 2 < right:
                return m.group()
    return None


def shows(step: Wait | Tab) -> Callable[[str], bool]:
    """The test of a screen that `step` waits for."""
    if isinstance(step, Tab):
        return lambda s: active_tab(s) == step.label
    return lambda s: all(t in s for t in step.texts) and (
        step.absent is None or step.absent not in s
    )


def run_steps(pane: Pane, shot: Shot) -> None:
    for step in shot.steps:
        if isinstance(step, Press):
            pane.press(*step.keys)
            if shot.still:
                pane.still()
        else:
            pane.wait(shows(step), str(step))
    if shot.still:
        # Every screen ends with its footer on the last row; a redraw can blank it a moment.
        height = shot.size[1]
        pane.wait(lambda s: len(s.rstrip("\n").split("\n")) == height, "the footer")
        pane.still()
    if "EVALVIEW-EXIT=" in pane.text():
        raise RuntimeError(f"{shot.name}: the app is no longer running")


# ------------------------------------------------------------------------------ SVG and PNG


def to_svg(ansi: str, size: tuple[int, int], title: str, path: Path) -> None:
    """The captured cells as rich draws them (`Text.from_ansi` keeps the colours), `size[0]`
    columns by `size[1]` rows, into an SVG titled `title`."""
    # One stream, not line by line: tmux writes a colour once and the next lines keep it.
    text = Text.from_ansi(ansi.rstrip("\n"), no_wrap=True)
    console = Console(
        record=True,
        width=size[0],
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
    )
    for line in text.split("\n")[: size[1]]:
        console.print(line, no_wrap=True, crop=True)
    path.write_text(console.export_svg(title=title), encoding="utf-8")


def to_png(svg: Path) -> bool:
    """Rasterize with headless Chromium if present (Debian's `chromium` package), the window
    the SVG's own size."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return False
    m = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg.read_text(encoding="utf-8"))
    if m is None:
        return False
    width, height = (round(float(x)) for x in m.groups())
    result = subprocess.run(
        [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--screenshot={svg.with_suffix('.png')}", f"--window-size={width},{height}",
            svg.resolve().as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    return result.returncode == 0


# ---------------------------------------------------------------------------------------- main


def capture(terminal: Terminal, shot: Shot, cwd: Path, out: Path, *, png: bool) -> str:
    """Take `shot`; the line to print about it."""
    command = [sys.executable, "-m", "evalview", *shot.args]
    with terminal.pane(command, shot.size, cwd) as pane:
        run_steps(pane, shot)
        ansi = pane.ansi()
    svg = out / f"{shot.name}.svg"
    title = shlex.join(["evalview", *shot.args])
    to_svg(ansi, shot.size, title, svg)
    note = ""
    if png:
        note = " + png" if to_png(svg) else " (no png: chromium missing or failed)"
    return f"{svg}{note}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (screenshots/)")
    parser.add_argument(
        "--run", type=Path, default=None, help="the run the sample captures open (the bundled one)"
    )
    parser.add_argument("--no-png", action="store_true", help="write the SVGs only")
    parser.add_argument(
        "--only", action="append", metavar="NAME", help="only this capture (repeatable)"
    )
    parser.add_argument("--list", action="store_true", help="list the captures and exit")
    args = parser.parse_args(argv)
    if args.run is None:
        from evalview.samples import bundled_sample_path

        args.run = bundled_sample_path()
    run = args.run.resolve()
    plan = shots(run.name)
    if args.list:
        print("\n".join(s.name for s in plan))
        return 0
    wanted = [s for s in plan if args.only is None or s.name in args.only]
    unknown = set(args.only or ()) - {s.name for s in plan}
    if unknown:
        parser.error(f"no capture named {', '.join(sorted(unknown))} (see --list)")
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="evalview-tmux-shots-") as tmp:
        terminal = Terminal(Path(tmp))
        pair = Path(tmp, "pair")
        try:
            if any(s.cwd == "pair" for s in wanted):
                candidate_pair(pair)
            for shot in wanted:
                cwd = {"repo": ROOT, "sample": run.parent, "pair": pair}[shot.cwd]
                try:
                    print(capture(terminal, shot, cwd, args.out, png=not args.no_png), flush=True)
                except RuntimeError as exc:
                    failed += 1
                    print(f"{shot.name}: not captured: {exc}", file=sys.stderr, flush=True)
        finally:
            terminal.kill()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
