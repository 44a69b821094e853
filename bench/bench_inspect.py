"""The Inspect AI reader on a large `.eval` log, whole processes, interleaved against its floor.

Writes bench/out/inspect-2000x3.eval: the sample generator's agent task (evalview.samples
.inspect_ai) at 2,000 samples × 3 epochs (6,000 sample members, deflate, in the member order
Inspect's ZipLogFile writes), then times, each round once and interleaved so a busy neighbour
slows a command and its floor alike:

- the floor: open the zip and `orjson.loads` every member (what any reader must do);
- `evalview check LOG --json`;
- `evalview score LOG --json --allow-errors --bootstrap 0` and with the default bootstrap;
- `evalview score LOG --json --allow-errors --group-by category --bootstrap 0`.

Reports medians of wall clock and CPU (user + sys) and each command's ratio to the floor.

    python bench/bench_inspect.py [--repeat 7] [--samples 2000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
from pathlib import Path

from bench_check import Sample, machine, measure
from evalview.samples import inspect_ai as gen
from userenv import as_a_user

OUT = Path(__file__).resolve().parent / "out"

FLOOR = r"""
import sys, zipfile, orjson
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        orjson.loads(z.read(info))
"""


def generate(samples: int, path: Path) -> Path:
    """The generator's two-model task, `samples` samples × its 3 epochs, one model's log."""
    stem, model, ability, eval_id, run_id = gen.MODELS[0]
    tasks = gen.task_samples(samples)
    outs = gen.outcomes(tasks, ability, seed=gen.hash_seed(stem))
    import random

    rng = random.Random(gen.hash_seed(stem) + 1)
    docs = [gen.sample_doc(o, model, rng) for o in outs]
    rng.shuffle(docs)
    results, reductions = gen.results_of(outs)
    log = gen.InspectLog(gen.header_doc(model, eval_id, run_id, tasks, results), docs, reductions)
    path.parent.mkdir(parents=True, exist_ok=True)
    return gen.write_eval(log, path)


def main(argv: list[str] | None = None) -> int:
    as_a_user()
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args(argv)
    log = OUT / f"inspect-{args.samples}x3.eval"
    if not log.exists():
        generate(args.samples, log)
    exe = [sys.executable, "-m", "evalview"]
    rows: dict[str, list[str]] = {
        "floor: unzip + orjson every member": [sys.executable, "-c", FLOOR, str(log)],
        "check --json": [*exe, "check", str(log), "--json"],
        "score --bootstrap 0": [*exe, "score", str(log), "--json", "--allow-errors",
                                "--bootstrap", "0"],
        "score (B = 10,000)": [*exe, "score", str(log), "--json", "--allow-errors"],
        "score --group-by category --bootstrap 0": [
            *exe, "score", str(log), "--json", "--allow-errors", "--group-by", "category",
            "--bootstrap", "0"],
    }
    samples: dict[str, list[Sample]] = {k: [] for k in rows}
    for _ in range(args.repeat):
        for name, cmd in rows.items():
            samples[name].append(measure(cmd))
    floor_name = next(iter(rows))
    floor_wall = statistics.median(s.wall_s for s in samples[floor_name])
    floor_cpu = statistics.median(s.cpu_s for s in samples[floor_name])
    members = 3 * args.samples
    print(f"{dt.date.today()} · {machine()}")
    print(f"{log.name}: {log.stat().st_size / 2**20:.1f} MiB, {members:,} sample members; "
          f"medians of {args.repeat} interleaved rounds")
    print("| command | wall s | CPU s | / floor (wall) | / floor (CPU) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in rows:
        wall = statistics.median(s.wall_s for s in samples[name])
        cpu = statistics.median(s.cpu_s for s in samples[name])
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {wall / floor_wall:.2f}× | "
              f"{cpu / floor_cpu:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
