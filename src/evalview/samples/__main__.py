"""`python -m evalview.samples OUTDIR`: (re)write the sample runs and their README under OUTDIR."""

from __future__ import annotations

import argparse
import sys

from evalview.samples.runs import SAMPLES, write_sample_runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evalview.samples",
        description="Write the deterministic sample runs (" +
        ", ".join(s.name for s in SAMPLES) + ") and README.md under OUTDIR.",
    )
    parser.add_argument("outdir", metavar="OUTDIR", help="e.g. sample_runs")
    args = parser.parse_args(argv)
    try:
        paths = write_sample_runs(args.outdir)
    except (OSError, ValueError) as exc:
        print(f"evalview.samples: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
