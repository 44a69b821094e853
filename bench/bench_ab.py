"""Two trees in the same rounds: each of bench_issue25's commands at `--before` and `--after`.

bench_issue25.py measures one tree at a time; on the shared machine the load moves between two
such runs (minutes apart) more than a change moves the numbers. Here every round runs each
command at both trees one after the other (floors once), so both meet the same load. Medians of
wall clock and CPU (user + sys, waited-for children included), and each row's ratio against its
floor at both trees.

    python bench/bench_ab.py --before /path/to/main/src --after src --repeat 9 \\
        --only 'two-run floor' 'compare --allow-errors' 'compare (refused)' check export
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench_check import Sample, machine, measure
from bench_issue25 import RATIOS, commands, inputs
from userenv import as_a_user


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="src/ of the reference tree")
    parser.add_argument("--after", type=Path, required=True, help="src/ of the tree measured")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--only", nargs="+", metavar="CMD", required=True,
                        help="commands as named in bench_issue25.commands(), floors included")
    args = parser.parse_args(argv)
    inputs()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    for src in trees.values():
        as_a_user(src)
    ev = [sys.executable, "-m", "evalview"]
    load = os.getloadavg()
    samples: dict[tuple[str, str], list[Sample]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cmds = {k: v for k, v in commands(ev, Path(tmp)).items() if k in args.only}
        for round_ in range(args.repeat + 1):  # round 0 warms the caches and is dropped
            for name, cmd in cmds.items():
                for tag, src in trees.items():
                    if "floor" in name and tag == "after":
                        continue  # a floor runs no evalview code
                    os.environ["PYTHONPATH"] = str(src)
                    shutil.rmtree(Path(tmp) / "x", ignore_errors=True)
                    s = measure(cmd)
                    if round_:
                        samples.setdefault((name, tag), []).append(s)
    end = os.getloadavg()
    wall = {k: statistics.median(s.wall_s for s in v) for k, v in samples.items()}
    cpu = {k: statistics.median(s.cpu_s for s in v) for k, v in samples.items()}
    print(f"{machine()}")
    print(f"before {trees['before']}, after {trees['after']}; load average {load[0]:.2f} at "
          f"start, {end[0]:.2f} at end; {args.repeat} rounds, medians (wall / CPU, s)")
    for (name, tag), w in wall.items():
        print(f"  {name:32} {tag:6} {w:6.2f} / {cpu[(name, tag)]:5.2f}")
    for label, num, den, budget in RATIOS:
        if (num, "before") not in wall or (den, "before") not in wall:
            continue
        ratios = []
        for tag in trees:
            d = (den, "before") if "floor" in den else (den, tag)
            ratios.append(f"{tag} {wall[(num, tag)] / wall[d]:.2f}x / "
                          f"{cpu[(num, tag)] / cpu[d]:.2f}x")
        print(f"{label:62} {'; '.join(ratios)}  ({budget})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
