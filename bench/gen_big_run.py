"""Generate the benchmark's large closed run: 10,000 episodes, about 50 MB, into bench/out/.

Records are the realistic long kind (~2.5 KB each: a scene briefing in the instruction, scene
metadata, per-component usage, artifact entries), written twice as the format requires (a line of
episodes.jsonl and an identical episodes/<dir>/result.json). Deterministic: same bytes every time.

    python bench/gen_big_run.py                 # -> bench/out/big-run (replaced if present)
    python bench/gen_big_run.py --out DIR --tasks 50 --seeds 200
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from evalview.samples import generate_closed_run

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_OUT = BENCH_DIR / "out" / "big-run"


def generate(out: Path, *, tasks: int = 50, seeds: int = 200) -> Path:
    """(Re)generate the big run at `out`; only a previous run (with a manifest) is replaced."""
    if out.exists():
        if not (out / "manifest.json").is_file():
            raise SystemExit(f"{out}: exists and is not a generated run; move it away first.")
        shutil.rmtree(out)
    return generate_closed_run(
        out,
        tasks=tasks,
        seeds=seeds,
        rng_seed=10_000,
        run_id="robobench-bench-10k",
        verbose=True,
    )


def run_size(root: Path) -> tuple[int, int]:
    """(files, bytes) of the run."""
    files = [p for p in root.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--seeds", type=int, default=200)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    root = generate(args.out, tasks=args.tasks, seeds=args.seeds)
    files, size = run_size(root)
    print(
        f"{root}: {args.tasks * args.seeds:,} episodes, {files:,} files, {size / 1e6:.1f} MB "
        f"in {time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
