"""The commands that import numpy (score, compare, export, table) start no BLAS thread: it spun
on the other core for about 0.1 s, and evalview calls no BLAS routine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import SAMPLE_RUNS

SCORE = f"""
import os, sys
from evalview.cli import main
out = os.dup(1)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
main(["score", {str(SAMPLE_RUNS / "robobench-24x50")!r}, "--json", "--bootstrap", "0"])
sys.stdout.flush()
os.dup2(out, 1)
assert "numpy" in sys.modules  # imported by the scorer
print(len(os.listdir("/proc/self/task")), os.environ.get("OPENBLAS_NUM_THREADS"))
"""


def _threads(code: str, **env: str) -> tuple[int, str]:
    base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**base, **env}).stdout.split()
    return int(out[0]), out[1]


@pytest.mark.skipif(
    not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2,
    reason="counts threads in /proc; OpenBLAS starts none on one core",
)
def test_score_imports_numpy_with_one_blas_thread() -> None:
    alone = _threads("import os, numpy\nprint(len(os.listdir('/proc/self/task')), None)")[0]
    assert alone > 1, "numpy started no BLAS thread here: nothing to check"
    assert _threads(SCORE) == (1, "1")
    assert _threads(SCORE, OPENBLAS_NUM_THREADS="2") == (2, "2")  # the user's value is kept
