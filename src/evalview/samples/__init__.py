"""Deterministic generator of realistic closed runs (`starvla-rsi.eval/v1`).

Used for the committed sample runs (`python -m evalview.samples sample_runs`), the run `evalview`
opens with no PATH (`bundled_sample_path()`), and the benchmark's large run (bench/). Importable
without Textual; output depends only on the options (seeded `random.Random`, no clock, no paths).
"""

from __future__ import annotations

from evalview.samples.bundled import bundled_sample_path
from evalview.samples.candidate import build_candidate_read, generate_candidate_read
from evalview.samples.closed_run import (
    ClosedRun,
    build_closed_run,
    generate_closed_run,
    write_closed_run,
)
from evalview.samples.faults import FAULTS, build_faulty_run
from evalview.samples.runs import BUNDLED, SAMPLES, write_sample_runs

__all__ = [
    "BUNDLED",
    "FAULTS",
    "SAMPLES",
    "ClosedRun",
    "build_candidate_read",
    "build_closed_run",
    "build_faulty_run",
    "bundled_sample_path",
    "generate_candidate_read",
    "generate_closed_run",
    "write_closed_run",
    "write_sample_runs",
]
