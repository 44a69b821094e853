"""Hostile inputs that used to hang a door (issue 24), timed: whole processes, wall clock.

Builds the inputs under bench/out/hostile (10,000 and 50,000 LeRobot tasks, a 10 MB task name,
a 100,000-character read key, a 4 MB arm name, 20,000 declared seeds over 5,000 arm records, a
folder of 30,000 links) and times each door on them with a guard of `--timeout` seconds. Run it
with another evalview on PYTHONPATH (a checkout of an earlier commit) to compare:

    python bench/bench_hostile.py                      # this checkout
    PYTHONPATH=/tmp/old/src python bench/bench_hostile.py --label before
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from userenv import as_a_user

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample_runs"
OUT = REPO / "bench" / "out" / "hostile"


def build() -> Path:
    inputs = OUT / "in"
    if (inputs / "done").exists():
        return inputs
    inputs.mkdir(parents=True, exist_ok=True)
    multi = json.loads((SAMPLES / "lerobot" / "smolvla-libero-20k.json").read_text())
    first = multi["per_task"][0]
    for tasks, episodes, name in ((10_000, 10, "tasks10k"), (50_000, 4, "tasks50k")):
        metrics = {k: first["metrics"][k][:episodes]
                   for k in ("successes", "sum_rewards", "max_rewards")}
        doc = {"per_task": [{"task_group": f"g{i % 10}", "task_id": i, "metrics": metrics}
                            for i in range(tasks)],
               "per_group": {f"g{i}": {} for i in range(10)}, "overall": {}}
        (inputs / f"{name}.json").write_text(json.dumps(doc))
    long_name = copy.deepcopy(multi)
    long_name["per_task"][0]["task_id"] = "a" * 10_000_000
    (inputs / "task10mb.json").write_text(json.dumps(long_name, indent=2))
    two = json.loads((SAMPLES / "lerobot" / "libero10-two-reads.json").read_text())
    two["k" * 100_000] = two.pop("eval_results_800")
    (inputs / "key100k.json").write_text(json.dumps(two, indent=2))
    harness = json.loads(
        (SAMPLES / "harness" / "gpu-calc-hard-equal-update-3seeds.json").read_text())
    arm = copy.deepcopy(harness)
    renamed = arm["arms"][0]["name"]
    for a in arm["arms"]:
        if a["name"] == renamed:
            a["name"] = "a" * 4_000_000
    (inputs / "arm4mb.json").write_text(json.dumps(arm, indent=2))
    seeds = copy.deepcopy(harness)
    one = seeds["arms"][1]
    seeds["arms"] = [one | {"seed": s, "run_id": f"r{s}"} for s in range(5_000)]
    seeds["arms"].append(harness["arms"][0])
    seeds["seeds"] = list(range(20_000))
    (inputs / "seeds.json").write_text(json.dumps(seeds))
    links = inputs / "links30k"
    links.mkdir(exist_ok=True)
    (links / "good.json").write_text((SAMPLES / "lerobot" / "pusht-single-env.json").read_text())
    for i in range(30_000):
        os.symlink("/dev/zero", links / f"l{i:06d}.json")
    (inputs / "done").write_text("")
    return inputs


def cases(inputs: Path, scratch: Path) -> list[tuple[str, list[str]]]:
    i = inputs
    return [
        ("LeRobot 10,000 tasks: score", ["score", f"{i}/tasks10k.json", "--json",
                                          "--bootstrap", "0", "--allow-errors"]),
        ("LeRobot 10,000 tasks: table --per-task", ["table", f"{i}/tasks10k.json", "--per-task",
                                                     "--bootstrap", "0", "--allow-errors"]),
        ("LeRobot 50,000 tasks: score", ["score", f"{i}/tasks50k.json", "--json",
                                          "--bootstrap", "0", "--allow-errors"]),
        ("LeRobot 10 MB task name: export", ["export", f"{i}/task10mb.json", "--output-dir",
                                              f"{scratch}/x1", "--bootstrap", "0"]),
        ("LeRobot 100,000-char read key: export --read",
         ["export", f"{i}/key100k.json", "--read", "k" * 100_000, "--output-dir",
          f"{scratch}/x2", "--bootstrap", "0"]),
        ("harness 4 MB arm name: export", ["export", f"{i}/arm4mb.json", "--output-dir",
                                            f"{scratch}/x3"]),
        ("harness 20,000 seeds x 5,000 reads: check", ["check", f"{i}/seeds.json", "--json"]),
        ("folder of 30,000 links: check", ["check", f"{i}/links30k"]),
        ("folder of 30,000 links: table", ["table", f"{i}/links30k", "--bootstrap", "0"]),
    ]


def main() -> None:
    as_a_user()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--label", default="this checkout")
    args = parser.parse_args()
    inputs = build()
    scratch = OUT / "scratch"
    print(f"| door ({args.label}) | exit | seconds | stdout bytes |")
    print("| --- | ---: | ---: | ---: |")
    for name, argv in cases(inputs, scratch):
        subprocess.run(["rm", "-rf", str(scratch)], check=True)
        scratch.mkdir(parents=True)
        start = time.monotonic()
        try:
            done = subprocess.run([sys.executable, "-m", "evalview", *argv], capture_output=True,
                                  timeout=args.timeout, stdin=subprocess.DEVNULL)
            code, size = str(done.returncode), len(done.stdout)
        except subprocess.TimeoutExpired:
            code, size = f"none in {args.timeout:.0f} s", 0
        print(f"| {name} | {code} | {time.monotonic() - start:.1f} | {size:,} |", flush=True)


if __name__ == "__main__":
    main()
