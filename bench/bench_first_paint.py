"""Bench: CPU time of the installed `evalview RUN` until its loading screen, then its run screen,
are on a real terminal (tmux), against the floor of importing textual and parsing the run.

Budgets (DESIGN.md): the loading screen within 0.5 CPU-s of start; the run screen within 2x the
floor. CPU time (user + system of the app's process, from /proc/PID/stat, read the moment
capture-pane shows the screen) rather than wall time, so the other jobs on a shared machine
matter less; the floor is a fresh `python` that imports `textual.app` and reads and parses the
run's files with orjson (bench_check.py's parse floor), measured alternately with the app.
`evalview check RUN --json` is measured in the same rounds: it reads and audits the run with the
same reader and audit the app runs before its run screen, so "run screen minus check" is the
app's own share (Textual's frames, the loading worker, the episode table, scoring and imports).

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
from userenv import as_a_user

TICK = os.sysconf("SC_CLK_TCK")
LOADING, RUN_SCREEN = "Opening", "successes / selected"


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far (10 ms resolution)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


def app_cpu(run: Path) -> dict[str, float]:
    """CPU seconds of the app when the loading screen, then the run screen, first show."""
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
        while time.monotonic() < end and RUN_SCREEN not in out:
            screen = subprocess.run(
                [*base, "capture-pane", "-p"], capture_output=True, text=True, check=False
            ).stdout
            now = cpu_of(pid)
            if LOADING not in out and (LOADING in screen or RUN_SCREEN in screen):
                out[LOADING] = now
            if RUN_SCREEN in screen:
                out[RUN_SCREEN] = now
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
    names = sorted(samples[0], key=lambda k: statistics.median(s[k] for s in samples))
    print(f"where the CPU goes on the way to the run screen (median of {repeat}, CPU-s):")
    before = 0.0
    for name in names:
        at = statistics.median(s[name] for s in samples)
        print(f"  {at:5.2f}  (+{at - before:4.2f})  {name}")
        before = at


def main(argv: list[str] | None = None) -> int:
    as_a_user()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", nargs="?", type=Path, default=DEFAULT_RUN)
    parser.add_argument("--repeat", type=int, default=5)
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
    for _ in range(args.repeat):
        floors.append(measure(floor_cmd).cpu_s)
        checks.append(measure(check_cmd).cpu_s)
        seen = app_cpu(args.run)
        loading.append(seen[LOADING])
        shown.append(seen[RUN_SCREEN])
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
    print(f"run screen minus check (the app's own share): {full - check:.2f} CPU-s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
