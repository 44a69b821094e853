"""Measure a folder of reads: `evalview check DIR` in worker processes against 50 single checks
one after another in one process, and the Runs screen's first rows.

The folder: 50 reads of 1,200 episodes each (24 tasks x 50 seeds, the sample run's shape, each
with its own generator seed), written once to bench/out/folder-50x1200 (deterministic).

- sequential: one Python process that, for each read in turn, does what `evalview check READ
  --json` does (load with freeze and lazy_table, audit, the JSON document), whole process timed;
- check DIR: the installed `evalview check DIR --json` (default jobs: one per core), and with
  `-j 1` for reference, whole processes timed;
- Runs screen: Textual's pilot in this process (after the same `prestart` as `evalview DIR`):
  time from the app's start to the first row read, and to every row read.

    python bench/bench_folder.py                  # generate if missing, measure, print
    python bench/bench_folder.py --write-docs     # also rewrite the "folder" section of
                                                  # docs/performance.md
Budget (issue 13): check DIR faster than the sequential checks; the first rows within 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_check import replace_section
from userenv import as_a_user

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
DEFAULT_DIR = BENCH_DIR / "out" / "folder-50x1200"
SECTION = "## folder"
READS = 50

SEQUENTIAL = r"""
import sys, orjson
from pathlib import Path
from evalview.audit import audit
from evalview.findings import count_by_severity
from evalview.load import load_run
root = Path(sys.argv[1])
for d in sorted(p for p in root.iterdir() if p.is_dir()):
    run = load_run(d, freeze=True, lazy_table=True)
    findings = audit(run)
    counts = count_by_severity(findings)
    orjson.dumps({"path": str(d), "ok": counts["error"] == 0,
                  "findings": [f.to_json() for f in findings], "counts": counts})
"""


def generate(out: Path) -> None:
    from evalview.samples.closed_run import build_closed_run, write_closed_run

    if out.exists():
        if len([p for p in out.iterdir() if (p / "manifest.json").is_file()]) == READS:
            return
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for i in range(READS):
        run = build_closed_run(tasks=24, seeds=50, rng_seed=1000 + i,
                               run_id=f"robobench-bench-{i:02d}", policy_version=f"ckpt-{i:02d}")
        write_closed_run(run, out / f"read-{i:02d}")


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def evalview_command() -> list[str]:
    exe = shutil.which("evalview")
    return [exe] if exe else [sys.executable, "-m", "evalview"]


async def runs_screen(folder: Path) -> tuple[float, float, float]:
    from evalview.folder.parallel import prestart
    from evalview.tui.app import EvalViewApp
    from evalview.tui.runs_screen import RunsScreen

    prestart()
    t = time.perf_counter()
    listed = first = every = 0.0
    app = EvalViewApp(folder)
    async with app.run_test(size=(160, 48)) as pilot:
        while True:
            await pilot.pause(0.01)
            screen = app.screen
            if not isinstance(screen, RunsScreen):
                continue
            if not listed and screen.view:
                listed = time.perf_counter() - t
            if not first and any(e.row is not None for e in screen.entries):
                first = time.perf_counter() - t
            if screen.done and screen.entries:
                every = time.perf_counter() - t
                break
    return listed, first, every


def machine() -> str:
    load = os.getloadavg()[0]
    return (f"{os.cpu_count()} cores, load average {load:.1f} at start, Python "
            f"{platform.python_version()}")


def main(argv: list[str] | None = None) -> int:
    as_a_user()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args(argv)
    generate(args.dir)
    env = machine()
    ev = evalview_command()
    cmds = {
        "50 single checks, one after another, one process": [sys.executable, "-c", SEQUENTIAL,
                                                               str(args.dir)],
        "evalview check DIR --json (2 worker processes)": [*ev, "check", str(args.dir), "--json"],
        "evalview check DIR --json -j 1": [*ev, "check", str(args.dir), "--json", "-j", "1"],
    }
    for cmd in cmds.values():  # warm the page cache and the .pyc files
        timed(cmd)
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(args.repeat):
        for name, cmd in cmds.items():
            times[name].append(timed(cmd))
    screen = [asyncio.run(runs_screen(args.dir)) for _ in range(args.repeat)]
    med = {k: statistics.median(v) for k, v in times.items()}
    seq, par = med[next(iter(cmds))], med["evalview check DIR --json (2 worker processes)"]
    listed = statistics.median(s[0] for s in screen)
    first = statistics.median(s[1] for s in screen)
    every = statistics.median(s[2] for s in screen)
    rows = [(k, f"{v:.2f} s") for k, v in med.items()]
    rows += [
        ("speed-up of check DIR over the sequential checks", f"{seq / par:.2f}x"),
        ("Runs screen: the 50 rows listed, '… reading' (pilot, from the app's start)",
         f"{listed:.2f} s"),
        ("Runs screen: first row read (verdict and numbers)", f"{first:.2f} s"),
        ("Runs screen: all 50 rows read", f"{every:.2f} s"),
    ]
    verdicts = {"check DIR faster than the sequential checks": par < seq,
                "first rows listed within 1 s": listed < 1.0,
                "first row read within 1 s": first < 1.0}
    print(env)
    for k, v in rows:
        print(f"{k:62} {v}")
    for k, ok in verdicts.items():
        print(f"{k:62} {'pass' if ok else 'FAIL'}")
    if args.write_docs:
        write_docs(env, rows, verdicts, args.repeat)
    return 0 if all(verdicts.values()) else 1


NOTES = """\
How: `evalview.folder.parallel` maps the reads over a `ProcessPoolExecutor` (fork for the
command line; a forkserver for the app, which has threads), at most two reads in flight per
worker, results in scan order. Each worker sends back a small picklable document (the check JSON,
or the table row), never the parsed run. The Runs screen reads the first reads in its own worker
thread while the pool's forkserver starts (about a second of imports), then hands the rest to the
pool; `evalview DIR` starts multiprocessing's helper processes before Textual takes the terminal.
With `-j 1` the folder is checked in one process, the same work as the sequential script (their
gap in one measurement is the shared machine's noise).

Measured on a machine shared with five other jobs (load average about 10 on 2 cores), so the
ratios are what two cores gave under that contention, not on a quiet machine. The rows are listed
(paths, "… reading") within 1 s; the first *read* row took 2.4 s there, most of it the first use
of the core's imports and one 1,200-episode read competing for the cores: that budget is not met
as measured, and was not re-measured on a quiet machine."""


def write_docs(env: str, rows: list[tuple[str, str]], verdicts: dict[str, bool],
               repeat: int) -> None:
    today = dt.date.today().isoformat()
    body = [
        SECTION,
        "",
        f"A folder of {READS} reads x 1,200 episodes (`bench/out/folder-50x1200`, from",
        "`bench/bench_folder.py`). Budget (issue 13): `evalview check DIR` in less time than the",
        "50 single checks one after another in one process; the Runs screen's first rows within",
        "1 s.",
        "",
        f"Measured {today} on {env}; {repeat} interleaved repetitions after a warm-up, medians",
        "of wall-clock time, whole processes (start-up included) except the pilot.",
        "",
        "| measure | result |",
        "| --- | --- |",
        *[f"| {k} | {v} |" for k, v in rows],
        *[f"| {k} | {'pass' if ok else 'FAIL'} |" for k, ok in verdicts.items()],
        "",
        *NOTES.splitlines(),
        "",
        "Reproduce:",
        "",
        "```sh",
        "python bench/bench_folder.py --write-docs",
        "```",
        "",
    ]
    replace_section(SECTION, body)


if __name__ == "__main__":
    raise SystemExit(main())
