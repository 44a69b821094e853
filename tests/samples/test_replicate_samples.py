"""The replicate reads in sample_runs/replicates: two methods x three fine-tuning seeds, clean,
each replicate its own checkpoint, and what `evalview contrast` pairs by replicate."""

from __future__ import annotations

import pytest

from evalview.audit import audit
from evalview.cli import main
from evalview.compare.reads import read_facts
from evalview.folder import discover
from evalview.load import load_run
from helpers.paths import SAMPLE_RUNS

REPLICATES = SAMPLE_RUNS / "replicates"


def test_two_methods_three_replicates_each_clean_and_small() -> None:
    reads = discover(REPLICATES).reads
    assert [r.rel for r in reads] == [
        f"planner-{m}/ft-seed-{k}" for m in "ab" for k in (1, 2, 3)
    ]
    seen = set()
    for cand in reads:
        run = load_run(REPLICATES / cand.rel)
        assert len(run.schedule) == 48
        assert [f for f in audit(run) if f.severity.value in ("error", "warning")] == []
        facts = read_facts(run)
        assert facts.fine_tune_seed == cand.rel[-1]
        seen.add(facts.checkpoint)
    assert len(seen) == 6  # each replicate its own training run, its own checkpoint


def test_contrast_pairs_the_methods_by_replicate(capsys: pytest.CaptureFixture[str]) -> None:
    a = [f"{k}={REPLICATES}/planner-a/ft-seed-{k}" for k in (1, 2, 3)]
    b = [f"{k}={REPLICATES}/planner-b/ft-seed-{k}" for k in (1, 2, 3)]
    assert main(["contrast", "--a", *a, "--b", *b]) == 0
    assert "over 3 training replicates" in capsys.readouterr().out
