"""Measure `score`, `export` and `psr` as whole processes on the 10,000-episode run.

Budgets (DESIGN.md): `export` within 3x `check` on the same run; `score` within 3x `check` plus
the bootstrap (the bootstrap's cost taken as `score` minus `score --bootstrap 0`). The commands
run interleaved (one of each, `--repeat` rounds after a warm-up round), so a busy neighbour
slows them alike; medians of wall clock and CPU, the largest peak RSS, and the ratios of the CPU
medians (steadier than wall time on a shared machine) are reported.

    python bench/gen_big_run.py                      # once: bench/out/big-run (~50 MB)
    python bench/bench_commands.py --write-docs      # rewrites the "commands" section
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench_check import (
    DEFAULT_RUN,
    REPO,
    Sample,
    evalview_command,
    format_bytes,
    machine,
    measure,
    replace_section,
)

SECTION = "## commands"


def commands(run: Path, out_dir: Path) -> dict[str, list[str]]:
    """The measured command lines; export writes to a fresh directory each time."""
    return {
        "check --json": ["check", str(run), "--json"],
        "score --json --allow-errors (B = 10,000)": [
            "score", str(run), "--json", "--allow-errors"
        ],
        "score --json --allow-errors --bootstrap 0": [
            "score", str(run), "--json", "--allow-errors", "--bootstrap", "0"
        ],
        "export --metric score": [
            "export", str(run), "--output-dir", str(out_dir / "export"), "--metric", "score"
        ],
        "psr --json": ["psr", str(run), "--json"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", nargs="?", type=Path, default=DEFAULT_RUN)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args(argv)
    if not (args.run / "manifest.json").exists():
        raise SystemExit(f"{args.run} is missing: run `python bench/gen_big_run.py` first")
    exe = evalview_command()
    env_line = machine()
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        lines = commands(args.run, out)
        samples: dict[str, list[Sample]] = {name: [] for name in lines}
        for i in range(args.repeat + 1):
            for name, cmd in lines.items():
                shutil.rmtree(out / "export", ignore_errors=True)
                sample = measure(exe + cmd)
                if i:  # the first round warms the caches
                    samples[name].append(sample)
        cpu: dict[str, float] = {}
        for name, taken in samples.items():
            wall = statistics.median(s.wall_s for s in taken)
            cpu[name] = statistics.median(s.cpu_s for s in taken)
            rss = max(s.max_rss_bytes for s in taken) / 2**20
            line = f"{wall:.2f} s wall, {cpu[name]:.2f} s CPU, peak RSS {rss:.0f} MiB"
            rows.append((f"`evalview {name}`", line))
            print(f"{name:45s} {line}")
        check, export = cpu["check --json"], cpu["export --metric score"]
        score = cpu["score --json --allow-errors (B = 10,000)"]
        boot = max(0.0, score - cpu["score --json --allow-errors --bootstrap 0"])
        for label, ratio in (
            ("export / check (CPU)", export / check),
            ("score / (check + bootstrap) (CPU)", score / (check + boot)),
        ):
            verdict = "within" if ratio <= 3 else "OVER"
            rows.append((label, f"{ratio:.2f}x ({verdict} the 3x budget)"))
            print(f"{label:45s} {ratio:.2f}x ({verdict} the 3x budget)")
    if args.write_docs:
        mb = format_bytes(args.run) / 1e6
        body = [
            SECTION,
            "",
            f"Whole processes on the 10,000-episode run ({mb:.1f} MB read), medians of "
            f"{args.repeat} rounds after a warm-up; measured {dt.date.today().isoformat()} on "
            f"{env_line}. Interleaved; the ratios are of the CPU medians.",
            "",
            "| command | result |",
            "| --- | --- |",
            *[f"| {k} | {v} |" for k, v in rows],
            "",
            "Reproduce: `python bench/gen_big_run.py && python bench/bench_commands.py "
            "--write-docs`.",
            "",
        ]
        replace_section(SECTION, body)
        print(f"wrote the '{SECTION}' section of docs/performance.md under {REPO.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
