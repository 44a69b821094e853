"""`python -m evalview.samples OUTDIR`: (re)write the sample runs and their README under OUTDIR.

`--candidate` writes instead the second read of robobench-24x50 (a later checkpoint, not committed)
into OUTDIR, to compare with the sample: `evalview sample_runs/robobench-24x50 OUTDIR`.
"""

from __future__ import annotations

import argparse
import sys

from evalview.samples.candidate import generate_candidate_read
from evalview.samples.runs import SAMPLES, write_sample_runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evalview.samples",
        description="Write the deterministic sample runs (" +
        ", ".join(s.name for s in SAMPLES) + ") and README.md under OUTDIR.",
    )
    parser.add_argument("outdir", metavar="OUTDIR", help="e.g. sample_runs")
    parser.add_argument(
        "--candidate",
        action="store_true",
        help="write only the candidate read of robobench-24x50 (policy ckpt-52000) into OUTDIR, "
        "a new or empty directory; compare: evalview sample_runs/robobench-24x50 OUTDIR",
    )
    parser.add_argument(
        "--inspect",
        action="store_true",
        help="write only the Inspect AI sample logs, both models in both formats (.eval and "
        ".json), into OUTDIR",
    )
    args = parser.parse_args(argv)
    try:
        if args.inspect:
            from pathlib import Path

            from evalview.samples.inspect_ai import write_inspect_samples

            paths = write_inspect_samples(Path(args.outdir), ("eval", "json"))
        elif args.candidate:
            paths = [generate_candidate_read(args.outdir)]
        else:
            paths = write_sample_runs(args.outdir)
    except (OSError, ValueError) as exc:
        print(f"evalview.samples: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
