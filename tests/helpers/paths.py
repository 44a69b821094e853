"""Where the tests' inputs live: all inside this repository, so the suite runs from any checkout
and never depends on a directory beside it."""

from __future__ import annotations

from pathlib import Path

#: The repository root (the directory holding pyproject.toml).
REPO = Path(__file__).resolve().parents[2]
#: The committed sample runs (`python -m evalview.samples sample_runs` regenerates them).
SAMPLE_RUNS = REPO / "sample_runs"
#: The example closed run (12 episodes, 4 errored), vendored byte-identical to the one the format
#: ships with; tests/audit/test_vendored_example.py keeps the two identical.
EXAMPLE = REPO / "tests" / "audit" / "fixtures" / "closed-run-small"
#: Published miniVERL benchmark results (schema 1, 2, 3) and their own tables, byte-identical to
#: the harness's repository (tests/fixtures/miniverl/README.md names the commit and license).
MINIVERL = REPO / "tests" / "fixtures" / "miniverl"
