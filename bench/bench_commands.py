"""Measure `score`, `export` and `psr` as whole processes on the 10,000-episode run.

Budgets (DESIGN.md): `export` within 3x `check` on the same run; `score` within 3x `check` plus
the bootstrap (the bootstrap's cost taken as `score` minus `score --bootstrap 0`). The commands
run interleaved (one of each, `--repeat` rounds after a warm-up round), so a busy neighbour
slows them alike; medians of wall clock and CPU, the largest peak RSS, and the ratios of the CPU
medians (steadier than wall time on a shared machine) are reported.

    python bench/gen_big_run.py                      # once: bench/out/big-run (~50 MB)
    python bench/bench_commands.py --write-docs      # rewrites the "commands" section
    python bench/bench_commands.py --before 9dbfc6c  # and the same commands at that revision
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
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
from userenv import as_a_user

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


def checkout_src(rev: str, into: Path) -> Path:
    """The src/ tree of git revision `rev`, extracted under `into` (nothing else is touched)."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "src"], capture_output=True,
                             check=False)
    if archive.returncode != 0:
        raise SystemExit(f"git archive {rev}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


def module_command(src: Path) -> list[str]:
    """`python -m evalview` with `src` first on the import path (this venv's dependencies)."""
    return ["env", f"PYTHONPATH={src}", sys.executable, "-m", "evalview"]


def summary(taken: list[Sample]) -> tuple[float, str]:
    """The CPU median and the cell that shows it."""
    wall = statistics.median(s.wall_s for s in taken)
    cpu = statistics.median(s.cpu_s for s in taken)
    rss = max(s.max_rss_bytes for s in taken) / 2**20
    return cpu, f"{cpu:.2f} s CPU ({wall:.2f} s wall, peak RSS {rss:.0f} MiB)"


def ratios(cpu: dict[str, float]) -> list[tuple[str, float]]:
    check, export = cpu["check --json"], cpu["export --metric score"]
    score = cpu["score --json --allow-errors (B = 10,000)"]
    boot = max(0.0, score - cpu["score --json --allow-errors --bootstrap 0"])
    return [("export / check", export / check),
            ("score / (check + bootstrap)", score / (check + boot))]


def main(argv: list[str] | None = None) -> int:
    as_a_user()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", nargs="?", type=Path, default=DEFAULT_RUN)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument(
        "--before", metavar="REV",
        help="also measure git revision REV (its src/ first on PYTHONPATH), interleaved with "
        "this tree; both then run as `python -m evalview`",
    )
    args = parser.parse_args(argv)
    if not (args.run / "manifest.json").exists():
        raise SystemExit(f"{args.run} is missing: run `python bench/gen_big_run.py` first")
    env_line = machine()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        variants = {"after": evalview_command()}
        if args.before:
            variants = {
                "before": module_command(checkout_src(args.before, out)),
                "after": module_command(REPO / "src"),
            }
        lines = commands(args.run, out)
        samples: dict[tuple[str, str], list[Sample]] = {
            (v, name): [] for v in variants for name in lines
        }
        for i in range(args.repeat + 1):
            for name, cmd in lines.items():
                for variant, exe in variants.items():
                    shutil.rmtree(out / "export", ignore_errors=True)
                    sample = measure(exe + cmd)
                    if i:  # the first round warms the caches
                        samples[variant, name].append(sample)
    cpu: dict[str, dict[str, float]] = {v: {} for v in variants}
    cells: dict[str, list[str]] = {}
    for name in lines:
        for variant in variants:
            cpu[variant][name], cell = summary(samples[variant, name])
            cells.setdefault(f"`evalview {name}`", []).append(cell)
    for variant in variants:
        for label, ratio in ratios(cpu[variant]):
            verdict = "within" if ratio <= 3 else "OVER"
            cells.setdefault(f"**{label}** (CPU)", []).append(
                f"**{ratio:.2f}x** ({verdict} the 3x budget)"
            )
    heads = [f"before ({args.before})", "after (this tree)"] if args.before else ["result"]
    for label, row in cells.items():
        print(f"{label:55s} " + " | ".join(row))
    if args.write_docs:
        mb = format_bytes(args.run) / 1e6
        intro = (
            "Budgets (DESIGN.md): `export` within 3x `check` on the same run; `score` within 3x "
            "`check` plus the bootstrap (its cost taken as `score` minus `score --bootstrap 0`). "
            f"Whole processes on the 10,000-episode run ({mb:.1f} MB read), medians of "
            f"{args.repeat} rounds after a warm-up; measured {dt.date.today().isoformat()} on "
            f"{env_line}. Interleaved (each command "
            + ("at both revisions, " if args.before else "")
            + "one after the other, round by round); the ratios are of the CPU medians."
        )
        body = [
            SECTION,
            "",
            *textwrap.wrap(intro, width=100, break_on_hyphens=False),
            "",
            "| command | " + " | ".join(heads) + " |",
            "| --- |" + " --- |" * len(heads),
            *[f"| {k} | " + " | ".join(v) + " |" for k, v in cells.items()],
            "",
            "Reproduce: `python bench/gen_big_run.py && python bench/bench_commands.py "
            + (f"--before {args.before} " if args.before else "")
            + "--write-docs`.",
            "",
        ]
        replace_section(SECTION, body)
        print(f"wrote the '{SECTION}' section of docs/performance.md under {REPO.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
