"""Bench: the seed bootstrap, B = 10,000 over 24 tasks × 50 seeds.

Budget (DESIGN.md): within 1.5x the time of drawing its words from `random.Random(7)`: the floor
is `getrandbits` of the same 12 million 32-bit words, in chunks of about 2^20 words (faster than
one call or one call per word), in the same process. Both are CPU times (`time.process_time`),
interleaved repeat by repeat so a busy neighbour slows both alike; the ratio is of the medians.

Run: `python bench/bench_bootstrap.py [--repeat N]`. Also prints the full `score_run` (audit
excluded) on the same data, and the interval, which must not change between repeats. Results go
to the "bootstrap" section of docs/performance.md.
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

BUDGET_RATIO = 1.5
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
    """CPU seconds of `repeat` calls (steadier than wall time on a shared machine)."""
    assert callable(fn)
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return times


def draw_words() -> None:
    """The floor: the bootstrap's B x 1,200 words from random.Random(7), nothing else."""
    rng = random.Random(7)
    n = B * TASKS * SEEDS
    chunk = (1 << 20) // (TASKS * SEEDS) * (TASKS * SEEDS)
    for first in range(0, n, chunk):
        rng.getrandbits(32 * min(chunk, n - first))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    outcomes = data()
    run = as_run(outcomes)
    first = bootstrap_interval(outcomes, B)
    floor: list[float] = []
    boot: list[float] = []
    for _ in range(args.repeat):  # interleaved
        floor += timed(draw_words, 1)
        boot += timed(lambda: bootstrap_interval(outcomes, B), 1)
    card = timed(lambda: score_run(run, bootstrap=B, findings=[]), args.repeat)
    assert bootstrap_interval(outcomes, B) == first, "the bootstrap is not reproducible"
    ratio = statistics.median(boot) / statistics.median(floor)
    print(f"floor, drawing the {B * TASKS * SEEDS:,} words from random.Random(7): "
          f"best {min(floor):.3f} s, median {statistics.median(floor):.3f} s CPU")
    print(f"bootstrap B={B:,} over {TASKS} tasks x {SEEDS} seeds: "
          f"best {min(boot):.3f} s, median {statistics.median(boot):.3f} s CPU")
    print(f"ratio bootstrap / floor (medians): {ratio:.2f}x (budget {BUDGET_RATIO}x) -> "
          f"{'OK' if ratio <= BUDGET_RATIO else 'OVER'}")
    print(f"score_run (same data, audit excluded): best {min(card):.3f} s, "
          f"median {statistics.median(card):.3f} s CPU")
    print(f"interval: [{first[0]:.6f}, {first[1]:.6f}]")


if __name__ == "__main__":
    main()
