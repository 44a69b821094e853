"""Bench: CPU time of the installed `evalview RUN` until its loading screen, then its run screen,
are on a real terminal (tmux), against the floor of importing textual and parsing the run.

Budgets (DESIGN.md): the loading screen within 0.5 CPU-s of start; the run screen within 2x the
floor. CPU time (user + system of the app's process, from /proc/PID/stat, read the moment
capture-pane shows the screen) rather than wall time, so the other jobs on a shared machine
matter less; the floor is a fresh `python` that imports `textual.app` and reads and parses the
run's files with orjson (bench_check.py's parse floor), measured alternately with the app.
`evalview check RUN --json` is measured in the same rounds: it reads and audits the run with the
same reader and audit the app runs, so "run screen minus check" is the app's own share
(Textual's frames, the loading worker, the episode table, scoring and imports). Since issue 25
the app paints the run screen before its audit (the verdict reads "… auditing"): "verdict in"
is the CPU when the audit's verdict has replaced it. `--type-ahead` adds a round per repeat
that types `3/seed1042` while the loading screen shows and waits until the Episodes search has
filtered the table (issue 25: every key lands); it reports whether the keys landed.

    python bench/gen_big_run.py                     # once: bench/out/big-run
    python bench/bench_first_paint.py [RUN] [--repeat 5]
    python bench/bench_first_paint.py [RUN] --phases     # the CPU at each step, in process
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench_check import DEFAULT_RUN, PARSE_FLOOR, evalview_command, measure
from first_paint_phases import NOT_A_STEP
from userenv import as_a_user

TICK = os.sysconf("SC_CLK_TCK")
LOADING, RUN_SCREEN = "Opening", "successes / selected"
#: The verdict line before the audit is in (evalview.session.AUDIT_PENDING).
AUDITING = "… auditing"
VERDICT = "verdict in"
#: What `3/seed1042` typed during loading ends on: the search, 50 rows of the 10,000.
TYPED_KEYS = ("3", "/", *"seed1042")
TYPED_DONE = ("50 episodes of 10,000", "“seed1042”")
TYPED = "type-ahead landed"


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far (10 ms resolution)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


def app_cpu(run: Path, *, type_ahead: bool = False) -> dict[str, float]:
    """CPU seconds of the app when the loading screen, then the run screen, then the audit's
    verdict first show. With `type_ahead`, `3/seed1042` is typed the moment the loading screen
    shows, and TYPED is the CPU once the filtered Episodes tab is on screen (absent: the keys
    did not land within the time limit)."""
    tmux = shutil.which("tmux")
    if tmux is None:
        raise SystemExit("tmux is needed (apt-get install tmux)")
    sock_dir = tempfile.mkdtemp(prefix="evalview-bench-")
    base = [tmux, "-S", str(Path(sock_dir) / f"tmux-{uuid.uuid4().hex[:8]}")]
    out: dict[str, float] = {}
    try:
        cmd = " ".join(evalview_command())
        subprocess.run(
            [*base, "new-session", "-d", "-x", "160", "-y", "48", f"exec {cmd} {run}"], check=True
        )
        pid = int(
            subprocess.run(
                [*base, "display-message", "-p", "#{pane_pid}"],
                capture_output=True, text=True, check=True,
            ).stdout
        )
        end = time.monotonic() + 120
        typed_at = 0.0

        def finished() -> bool:
            if type_ahead:
                return TYPED in out or (typed_at > 0 and time.monotonic() > typed_at + 60)
            return VERDICT in out

        while time.monotonic() < end and not finished():
            screen = subprocess.run(
                [*base, "capture-pane", "-p"], capture_output=True, text=True, check=False
            ).stdout
            now = cpu_of(pid)
            if LOADING not in out and (LOADING in screen or RUN_SCREEN in screen):
                out[LOADING] = now
                if type_ahead:
                    subprocess.run([*base, "send-keys", *TYPED_KEYS], check=True)
                    typed_at = time.monotonic()
            if RUN_SCREEN not in out and RUN_SCREEN in screen:
                out[RUN_SCREEN] = now
            if VERDICT not in out and RUN_SCREEN in screen and AUDITING not in screen:
                out[VERDICT] = now
            if type_ahead and all(t in screen for t in TYPED_DONE):
                out[TYPED] = now
            time.sleep(0.01)
        subprocess.run([*base, "send-keys", "q"], check=False)
    finally:
        subprocess.run([*base, "kill-server"], capture_output=True, check=False)
        shutil.rmtree(sock_dir, ignore_errors=True)
    if RUN_SCREEN not in out:
        raise SystemExit("the run screen did not appear within 120 s")
    return out


def phases(run: Path) -> dict[str, float]:
    """One run of first_paint_phases.py in a real 160x48 terminal: CPU seconds at each step."""
    tmux = shutil.which("tmux")
    if tmux is None:
        raise SystemExit("tmux is needed (apt-get install tmux)")
    work = Path(tempfile.mkdtemp(prefix="evalview-phases-"))
    base = [tmux, "-S", str(work / "tmux")]
    out = work / "marks.json"
    probe = Path(__file__).with_name("first_paint_phases.py")
    try:
        subprocess.run(
            [*base, "new-session", "-d", "-x", "160", "-y", "48",
             f"exec {sys.executable} {probe} {run} {out}"],
            check=True,
        )
        end = time.monotonic() + 120
        while time.monotonic() < end and not out.exists():
            time.sleep(0.05)
        if not out.exists():
            raise SystemExit("the phases probe did not finish within 120 s")
        time.sleep(0.05)  # the file is written in one call; let it close
        marks: dict[str, float] = json.loads(out.read_text())
        return marks
    finally:
        subprocess.run([*base, "kill-server"], capture_output=True, check=False)
        shutil.rmtree(work, ignore_errors=True)


def print_phases(run: Path, repeat: int) -> None:
    """The median CPU time at each step, and each step's own share."""
    samples = [phases(run) for _ in range(repeat)]
    apart = [k for k in samples[0] if k.startswith(NOT_A_STEP)]
    names = sorted(
        (k for k in samples[0] if k not in apart),
        key=lambda k: statistics.median(s[k] for s in samples),
    )
    print(f"where the CPU goes on the way to the run screen (median of {repeat}, CPU-s):")
    before = 0.0
    for name in names:
        at = statistics.median(s[name] for s in samples)
        print(f"  {at:5.2f}  (+{at - before:4.2f})  {name}")
        before = at
    for name in apart:
        value = statistics.median(s[name] for s in samples)
        print(f"  {value:5.3f}  {name.removeprefix(NOT_A_STEP)}")


def main(argv: list[str] | None = None) -> int:
    as_a_user()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", nargs="?", type=Path, default=DEFAULT_RUN)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--type-ahead", action="store_true",
        help="also type `3/seed1042` while loading, once per repeat, and check it lands",
    )
    parser.add_argument(
        "--phases", action="store_true",
        help="instead: where the CPU goes, step by step (bench/first_paint_phases.py)",
    )
    args = parser.parse_args(argv)
    if not (args.run / "manifest.json").exists():
        raise SystemExit(f"{args.run} is missing: run `python bench/gen_big_run.py` first")
    if args.phases:
        print_phases(args.run, args.repeat)
        return 0
    floor_cmd = [sys.executable, "-c", "import textual.app\n" + PARSE_FLOOR, str(args.run)]
    check_cmd = [*evalview_command(), "check", str(args.run), "--json"]
    measure(floor_cmd)  # warm the page cache and .pyc files
    measure(check_cmd)
    app_cpu(args.run)
    floors: list[float] = []
    checks: list[float] = []
    loading: list[float] = []
    shown: list[float] = []
    verdicts: list[float] = []
    typed: list[float | None] = []
    ratios: list[float] = []
    for _ in range(args.repeat):
        floors.append(measure(floor_cmd).cpu_s)
        checks.append(measure(check_cmd).cpu_s)
        seen = app_cpu(args.run)
        loading.append(seen[LOADING])
        shown.append(seen[RUN_SCREEN])
        verdicts.append(seen.get(VERDICT, float("nan")))
        ratios.append(seen[RUN_SCREEN] / floors[-1])
        if args.type_ahead:
            typed.append(app_cpu(args.run, type_ahead=True).get(TYPED))
    floor, check, first, full = (statistics.median(x) for x in (floors, checks, loading, shown))
    print(f"floor (import textual.app + parse the run): median {floor:.2f} CPU-s "
          f"(min {min(floors):.2f}, max {max(floors):.2f})")
    print(f"evalview check --json (read + audit, the same code): median {check:.2f} CPU-s "
          f"= {check / floor:.2f}x the floor")
    print(f"loading screen on the terminal: median {first:.2f} CPU-s "
          f"(min {min(loading):.2f}, max {max(loading):.2f}; budget 0.5) -> "
          f"{'OK' if first <= 0.5 else 'OVER'}")
    print(f"run screen on the terminal: median {full:.2f} CPU-s "
          f"(min {min(shown):.2f}, max {max(shown):.2f}) = {full / floor:.2f}x the floor "
          f"(budget 2x) -> {'OK' if full <= 2 * floor else 'OVER'}")
    print(f"run screen / floor, per round (interleaved): "
          f"{', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f}x")
    print(f"audit verdict on the terminal: median {statistics.median(verdicts):.2f} CPU-s "
          f"= {statistics.median(verdicts) / floor:.2f}x the floor")
    print(f"run screen minus check (the app's own share): {full - check:.2f} CPU-s")
    if args.type_ahead:
        landed = [t for t in typed if t is not None]
        print(f"type-ahead `3/seed1042` during loading: landed in {len(landed)} of {len(typed)}"
              + (f"; filtered table on screen at median {statistics.median(landed):.2f} CPU-s"
                 if landed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
