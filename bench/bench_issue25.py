"""Every command-line row of issue 25 as a ratio against its floor, whole processes, interleaved.

Each round runs every command once (floors included), so a busy neighbour on the shared machine
slows a command and its floor alike; medians over `--repeat` rounds of wall clock and of CPU
(user + sys of the process and the workers it waited for, from os.wait4). Rows:

- `check` of the 10,000-episode run / its orjson parse floor (bench_check.PARSE_FLOOR);
- `compare` of two 10,000-episode reads (`--allow-errors`) / the floor of parsing both, and the
  refused `compare` (no `--allow-errors`) / the same floor;
- `score` of a read it refuses / `score --bootstrap 0` of it (1.0: no bootstrap computed);
- `table` of a folder of 50 reads / `check` of the same folder (both `-j 1`);
- LeRobot `check` (2,000 episodes) / parsing the file; harness `check` / parsing the file;
  lm-eval `check` of a 5,000-document `--log_samples` output / parsing it (bench_lm_eval.py);
- `export` / `check` of the 10,000-episode run;
- `check DIR -j 2` / `-j 1` on 200 reads (wall; and the CPU split: parent vs workers).

The single-file rows (LeRobot, harness, lm-eval) and their floors take 0.03-0.2 s each, so each
runs `SMALL_REPEATS` times a round (medians over all of them).

    python bench/bench_issue25.py --repeat 7
    python bench/bench_issue25.py --src /path/to/other/src    # the same against another tree
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_check import DEFAULT_RUN, PARSE_FLOOR, Sample, machine, measure
from bench_lm_eval import FLOOR as LM_EVAL_FLOOR
from bench_lm_eval import TS as LM_EVAL_TS
from bench_lm_eval import generate as generate_lm_eval
from userenv import as_a_user

BENCH_DIR = Path(__file__).resolve().parent
OUT = BENCH_DIR / "out"
RUN_B = OUT / "big-run-b"
FOLDER_50 = OUT / "folder-50x1200"
FOLDER_200 = OUT / "folder-200x240"
LEROBOT = OUT / "lerobot-40x50.json"
HARNESS = BENCH_DIR.parent / "sample_runs" / "harness" / "gpu-calc-hard-equal-update-3seeds.json"
LM_EVAL = OUT / "lm-eval-20x250"

FILE_FLOOR = r"""
import sys, orjson
with open(sys.argv[1], "rb") as fh:
    orjson.loads(fh.read())
"""

TWO_RUN_FLOOR = "import sys\nfor root in sys.argv[1:]:\n    sys.argv[1] = root\n" + "\n".join(
    "    " + line for line in PARSE_FLOOR.strip().splitlines()
)

#: `check DIR` in this process, then the CPU of this process (the parent) and of its workers.
CPU_SPLIT = r"""
import resource, sys
from evalview.cli import main
main(sys.argv[1:])
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write(f"SPLIT {me.ru_utime + me.ru_stime} {kids.ru_utime + kids.ru_stime}\n")
"""


def inputs() -> None:
    """Write what is missing under bench/out (deterministic)."""
    if not DEFAULT_RUN.exists():
        subprocess.run([sys.executable, str(BENCH_DIR / "gen_big_run.py")], check=True)
    if not RUN_B.exists():
        shutil.copytree(DEFAULT_RUN, RUN_B)
    if not FOLDER_50.exists():
        gen = "import bench_folder as b; b.generate(b.DEFAULT_DIR)"
        subprocess.run([sys.executable, "-c", gen], cwd=BENCH_DIR, check=True)
    if not FOLDER_200.exists():
        from evalview.samples.closed_run import build_closed_run, write_closed_run

        FOLDER_200.mkdir(parents=True)
        for i in range(200):
            run = build_closed_run(tasks=12, seeds=20, rng_seed=5000 + i,
                                   run_id=f"robobench-j-{i:03d}", policy_version=f"ckpt-{i:03d}")
            write_closed_run(run, FOLDER_200 / f"read-{i:03d}")
    if not LEROBOT.exists():
        import json
        import random

        from evalview.samples.lerobot import SUITES, multi_task_info

        rng = random.Random(2000)  # 4 suites x 10 tasks x 50 episodes, as bench_lerobot writes
        rates = {(s, t): rng.uniform(0.2, 0.98) for s in SUITES for t in range(10)}
        difficulty = {k: [rng.random() for _ in range(50)] for k in rates}
        doc = multi_task_info(rates, difficulty, run_dir="/home/me/outputs/eval/b",
                              newer_keys=True, rng=rng)
        LEROBOT.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    if not (LM_EVAL / f"results_{LM_EVAL_TS}.json").exists():
        generate_lm_eval(LM_EVAL)


def commands(ev: list[str], out_dir: Path) -> dict[str, list[str]]:
    py = [sys.executable, "-c"]
    big, b = str(DEFAULT_RUN), str(RUN_B)
    return {
        "floor": [*py, PARSE_FLOOR, big],
        "check": [*ev, "check", big, "--json"],
        "two-run floor": [*py, TWO_RUN_FLOOR, big, b],
        "compare --allow-errors": [*ev, "compare", big, b, "--json", "--allow-errors"],
        "compare (refused)": [*ev, "compare", big, b, "--json"],
        "score (refused)": [*ev, "score", big, "--json"],
        "score (refused) --bootstrap 0": [*ev, "score", big, "--json", "--bootstrap", "0"],
        "export": [*ev, "export", big, "--output-dir", str(out_dir / "x"), "--metric", "score"],
        "check DIR -j 1": [*ev, "check", str(FOLDER_50), "--json", "-j", "1"],
        "table DIR -j 1": [*ev, "table", str(FOLDER_50), "--format", "json", "-j", "1"],
        "lerobot floor": [*py, FILE_FLOOR, str(LEROBOT)],
        "lerobot check": [*ev, "check", str(LEROBOT), "--json"],
        "harness floor": [*py, FILE_FLOOR, str(HARNESS)],
        "harness check": [*ev, "check", str(HARNESS), "--json"],
        "lm-eval floor": [*py, LM_EVAL_FLOOR, str(LM_EVAL / f"results_{LM_EVAL_TS}.json")],
        "lm-eval check": [*ev, "check", str(LM_EVAL / f"results_{LM_EVAL_TS}.json"), "--json"],
        "check DIR200 -j 1": [*ev, "check", str(FOLDER_200), "--json", "-j", "1"],
        "check DIR200 -j 2": [*ev, "check", str(FOLDER_200), "--json", "-j", "2"],
    }


#: The short commands (a single file's check and its floor), measured this many times a round.
SMALL = {"lerobot floor", "lerobot check", "harness floor", "harness check", "lm-eval floor",
         "lm-eval check"}
SMALL_REPEATS = 3

RATIOS = [
    ("`check` 10,000 episodes / parse floor", "check", "floor", "<= 2x"),
    ("`compare` two 10,000-episode reads / two-run floor", "compare --allow-errors",
     "two-run floor", "<= 2x"),
    ("`compare` refused / two-run floor", "compare (refused)", "two-run floor", "—"),
    ("`score` of a refused read / the same with `--bootstrap 0`", "score (refused)",
     "score (refused) --bootstrap 0", "1.0 (no bootstrap)"),
    ("`table` of 50 reads / `check` of the folder (`-j 1`)", "table DIR -j 1", "check DIR -j 1",
     "<= 1.5x"),
    ("LeRobot `check` (2,000 episodes) / its floor", "lerobot check", "lerobot floor", "<= 2x"),
    ("harness `check` / its floor", "harness check", "harness floor", "<= 2x"),
    ("lm-eval `check` (5,000 documents) / its floor", "lm-eval check", "lm-eval floor",
     "<= 2x"),
    ("`export` / `check`", "export", "check", "<= 2.5x"),
]


def cpu_split(ev_env: dict[str, str], jobs: int) -> tuple[float, float]:
    """(parent CPU, workers' CPU) of `check DIR200 -j jobs --json`, in one process."""
    done = subprocess.run(
        [sys.executable, "-c", CPU_SPLIT, "check", str(FOLDER_200), "--json", "-j", str(jobs)],
        capture_output=True, text=True, env=ev_env, check=False,
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("SPLIT"))
    _, me, kids = line.split()
    return float(me), float(kids)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--src", type=Path, help="measure this src/ tree instead of the repo's")
    parser.add_argument("--only", nargs="+", metavar="CMD",
                        help="run only these commands (names as in the medians line, e.g. "
                             "floor check 'harness floor' 'harness check'); rows need both sides")
    args = parser.parse_args(argv)
    inputs()
    src = args.src or BENCH_DIR.parent / "src"
    as_a_user(src)  # the tree measured, `--src` included
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src)
    os.environ["PYTHONPATH"] = str(src)
    ev = [sys.executable, "-m", "evalview"]
    load = os.getloadavg()
    samples: dict[str, list[Sample]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(ev, Path(tmp))
        if args.only:
            cmds = {k: v for k, v in cmds.items() if k in args.only}
        for round_ in range(args.repeat + 1):  # round 0 warms the caches and is dropped
            for name, cmd in cmds.items():
                # a file's check and its floor take 0.03-0.2 s: one scheduler hiccup is a
                # tenth of that, so they run SMALL_REPEATS times a round (their floors too)
                for _ in range(SMALL_REPEATS if name in SMALL else 1):
                    shutil.rmtree(Path(tmp) / "x", ignore_errors=True)
                    s = measure(cmd)
                    if round_:
                        samples.setdefault(name, []).append(s)
    splits = {j: [cpu_split(env, j) for _ in range(3)] for j in (1, 2)
              if not args.only or "check DIR200 -j 2" in args.only}
    wall = {k: statistics.median(s.wall_s for s in v) for k, v in samples.items()}
    cpu = {k: statistics.median(s.cpu_s for s in v) for k, v in samples.items()}
    end = os.getloadavg()
    print(f"{dt.date.today()}  {machine()}")
    print(f"src {src}; load average {load[0]:.2f} at start, {end[0]:.2f} at end; "
          f"{args.repeat} interleaved rounds, medians")
    print(f"{'row':62} {'wall':>7} {'CPU':>7}  budget")
    for label, num, den, budget in RATIOS:
        if num not in wall or den not in wall:
            continue
        print(f"{label:62} {wall[num] / wall[den]:6.2f}x {cpu[num] / cpu[den]:6.2f}x  {budget}")
    if "check DIR200 -j 1" in wall and "check DIR200 -j 2" in wall:
        print(f"{'`check DIR -j 2` speed-up over `-j 1`, 200 reads':62} "
              f"{wall['check DIR200 -j 1'] / wall['check DIR200 -j 2']:6.2f}x "
              f"{cpu['check DIR200 -j 1'] / cpu['check DIR200 -j 2']:6.2f}x  >= 1.7x (wall)")
    for j, rows in splits.items():
        me = statistics.median(r[0] for r in rows)
        kids = statistics.median(r[1] for r in rows)
        print(f"  -j {j}: parent CPU {me:.2f} s, workers' CPU {kids:.2f} s, "
              f"total {me + kids:.2f} s")
    print("medians (wall / CPU, s): " + ", ".join(
        f"{k} {wall[k]:.2f}/{cpu[k]:.2f}" for k in samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
