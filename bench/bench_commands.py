"""Measure `score`, `export` and `psr` as whole processes on the 10,000-episode run.

DESIGN.md sets no budget for these; they are measured so a regression shows, and so a user knows
what to expect. Each command runs once to warm caches, then `--repeat` times; medians of wall
clock and CPU, and the largest peak RSS, are reported.

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
        for name, cmd in commands(args.run, out).items():
            samples: list[Sample] = []
            for i in range(args.repeat + 1):
                shutil.rmtree(out / "export", ignore_errors=True)
                sample = measure(exe + cmd)
                if i:  # the first run warms the caches
                    samples.append(sample)
            wall = statistics.median(s.wall_s for s in samples)
            cpu = statistics.median(s.cpu_s for s in samples)
            rss = max(s.max_rss_bytes for s in samples) / 2**20
            line = f"{wall:.2f} s wall, {cpu:.2f} s CPU, peak RSS {rss:.0f} MiB"
            rows.append((f"`evalview {name}`", line))
            print(f"{name:45s} {line}")
    if args.write_docs:
        mb = format_bytes(args.run) / 1e6
        body = [
            SECTION,
            "",
            f"Whole processes on the 10,000-episode run ({mb:.1f} MB read), medians of "
            f"{args.repeat} runs after a warm-up; measured {dt.date.today().isoformat()} on "
            f"{env_line}. No budget is set for these; `check` is here for scale.",
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
