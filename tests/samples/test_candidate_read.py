"""The candidate read: a second, correlated read of the robobench-24x50 schedule for `compare`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from evalview.cli import main as cli_main
from evalview.samples import build_candidate_read, build_closed_run, generate_candidate_read
from evalview.samples.__main__ import main as samples_main
from evalview.samples.candidate import CANDIDATE_RATES
from helpers.paths import SAMPLE_RUNS

SAMPLE = SAMPLE_RUNS / "robobench-24x50"


@pytest.fixture(scope="module")
def candidate_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_candidate_read(tmp_path_factory.mktemp("cand") / "robobench-ckpt-52000")


@pytest.fixture(scope="module")
def comparison(candidate_dir: Path) -> dict[str, Any]:
    """`evalview compare --json --allow-errors` as a user runs it (one JSON document on stdout;
    both reads have errored rollouts, which compare refuses without the flag)."""
    done = subprocess.run(
        [sys.executable, "-m", "evalview", "compare", str(SAMPLE), str(candidate_dir), "--json",
         "--allow-errors"],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    doc: dict[str, Any] = orjson.loads(done.stdout)
    return doc


def test_same_options_same_bytes_other_seed_differs() -> None:
    first = build_candidate_read().files()
    assert first == build_candidate_read().files()
    other = build_candidate_read(rng_seed=1).files()
    assert other["episodes.jsonl"] != first["episodes.jsonl"]


def test_same_schedule_and_protocol_another_checkpoint() -> None:
    ref = build_closed_run(tasks=24, seeds=50).manifest
    cand = build_candidate_read().manifest
    assert cand["protocol"] == ref["protocol"]
    assert cand["benchmark"] == ref["benchmark"]
    assert (cand["run_id"], cand["policy"]["version"]) != (ref["run_id"], ref["policy"]["version"])
    assert cand["policy"]["name"] == ref["policy"]["name"]


def test_outcomes_follow_the_reference_per_episode() -> None:
    """Most pairs completed by both reads agree; with no concordance they agree far less."""
    ref = {r["episode"]["id"]: r["success"] for r in build_closed_run(tasks=24, seeds=50).records}

    def agreement(concordance: float) -> float:
        pairs = [
            (ref[r["episode"]["id"]], r["success"])
            for r in build_candidate_read(concordance=concordance).records
            if r["success"] is not None and ref[r["episode"]["id"]] is not None
        ]
        return float(sum(a == b for a, b in pairs)) / len(pairs)

    assert agreement(0.8) > 0.85
    assert agreement(0.0) < agreement(0.8) - 0.05


def test_unknown_task_or_bad_concordance_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no-such-task"):
        build_candidate_read(rates={"no-such-task": 0.5})
    with pytest.raises(ValueError, match="concordance"):
        build_candidate_read(concordance=1.5)
    assert set(CANDIDATE_RATES) == {
        r["episode"]["task"] for r in build_closed_run(tasks=24, seeds=50).records
    }


def test_compare_pairs_every_episode_and_is_not_refused(comparison: dict[str, Any]) -> None:
    assert comparison["only_in_a"] == [] and comparison["only_in_b"] == []
    # not OFF-PROTOCOL; only the errored rollouts' label (--allow-errors), their pairs listed
    assert [lab.split(":")[0] for lab in comparison["labels"]] == ["not a publishable read"]
    assert len(comparison["errored_pairs"]) == sum(comparison["overall"]["excluded_pairs"].values())
    assert len(comparison["tasks"]) == 24
    excluded = sum(comparison["overall"]["excluded_pairs"].values())
    assert comparison["overall"]["pairs"] + excluded >= 1200  # every id paired (errors aside)
    assert comparison["b"]["policy_version"] == "ckpt-52000"


def test_some_tasks_differ_significantly_and_several_do_not(comparison: dict[str, Any]) -> None:
    codes = [t["verdict"]["code"] for t in comparison["tasks"]]
    assert "b_better" in codes and "a_better" in codes
    assert codes.count("not_significant") >= 10
    for t in comparison["tasks"]:
        both, neither = t["both"], t["neither"]
        assert both + neither >= t["pairs"] * 0.6  # pairing matters: mostly concordant


def test_candidate_read_is_conforming(candidate_dir: Path) -> None:
    """`evalview check` finds no error (warnings about errored episodes are expected)."""
    assert cli_main(["check", str(candidate_dir)]) == 0


def test_samples_main_writes_the_candidate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cand"
    assert samples_main(["--candidate", str(out)]) == 0
    assert (out / "manifest.json").is_file() and not (tmp_path / "README.md").exists()
    assert str(out) in capsys.readouterr().out
    assert samples_main(["--candidate", str(out)]) == 2  # not empty: refused, not overwritten
    assert "not empty" in capsys.readouterr().err
