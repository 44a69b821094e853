"""Bench: the seed bootstrap, B = 10,000 over 24 tasks × 50 seeds (budget < 0.3 s).

Run: `python bench/bench_bootstrap.py [--repeat N]`. Prints the best and median wall time of the
bootstrap alone and of the full `score_run` (audit excluded) on the same data, and the interval,
which must not change between repeats. Results go to the "bootstrap" section of
docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from evalview.model.run import Identity, Protocol, Run, build_table
from evalview.stats import score_run
from evalview.stats.bootstrap import bootstrap_interval

BUDGET_S = 0.3
TASKS, SEEDS, B = 24, 50, 10_000


def data(seed: int = 0) -> list[list[int]]:
    r = random.Random(seed)
    rates = [r.choice([0.0, 1.0]) if t < 4 else r.random() for t in range(TASKS)]
    return [[int(r.random() < p) for _ in range(SEEDS)] for p in rates]


def as_run(outcomes: list[list[int]]) -> Run:
    rows = [
        {"id": f"task-{t:02d}/seed{s}", "task": f"task-{t:02d}", "seed": s,
         "status": "completed", "success": bool(x), "in_schedule": True,
         "file": "episodes.jsonl", "line": t * SEEDS + s + 1}
        for t, xs in enumerate(outcomes) for s, x in enumerate(xs)
    ]
    return Run(Path("bench"), "closed-run", Identity(), Protocol(),
               tuple(r["id"] for r in rows), build_table(rows))


def timed(fn: object, repeat: int) -> list[float]:
    assert callable(fn)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    outcomes = data()
    run = as_run(outcomes)
    first = bootstrap_interval(outcomes, B)
    boot = timed(lambda: bootstrap_interval(outcomes, B), args.repeat)
    card = timed(lambda: score_run(run, bootstrap=B, findings=[]), args.repeat)
    assert bootstrap_interval(outcomes, B) == first, "the bootstrap is not reproducible"
    print(f"bootstrap B={B:,} over {TASKS} tasks x {SEEDS} seeds: "
          f"best {min(boot):.3f} s, median {statistics.median(boot):.3f} s "
          f"(budget {BUDGET_S} s) -> {'OK' if statistics.median(boot) < BUDGET_S else 'OVER'}")
    print(f"score_run (same data, audit excluded): best {min(card):.3f} s, "
          f"median {statistics.median(card):.3f} s")
    print(f"interval: [{first[0]:.6f}, {first[1]:.6f}]")


if __name__ == "__main__":
    main()
