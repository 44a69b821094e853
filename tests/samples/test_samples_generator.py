"""The generator makes realistic, conforming, deterministic runs; the bundled path resolves."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson
import pytest

from evalview.samples import (
    FAULTS,
    build_closed_run,
    build_faulty_run,
    bundled_sample_path,
    generate_closed_run,
)
from evalview.samples import bundled as bundled_mod
from evalview.samples.__main__ import main as samples_main
from evalview.samples.usage import USAGE_FIELDS, sum_usage
from helpers.paths import SAMPLE_RUNS

CHECKPOINT = re.compile(r"^[A-Za-z][A-Za-z ]*: (\d+/\d+|True|False)$")


@pytest.fixture(scope="module")
def big() -> Any:
    return build_closed_run(tasks=24, seeds=50)


def test_same_options_same_bytes_and_another_seed_differs() -> None:
    a = build_closed_run(tasks=3, seeds=4).files()
    assert a == build_closed_run(tasks=3, seeds=4).files()
    assert a["episodes.jsonl"] != build_closed_run(tasks=3, seeds=4, rng_seed=1).files()[
        "episodes.jsonl"
    ]


def test_schedule_order_and_identical_result_files(big: Any) -> None:
    files = big.files()
    lines = files["episodes.jsonl"].splitlines()
    ids = [orjson.loads(line)["episode"]["id"] for line in lines]
    assert ids == big.manifest["protocol"]["episode_ids"]
    assert len(set(ids)) == 1200
    results = {rel: data for rel, data in files.items() if rel.startswith("episodes/")}
    assert len(results) == 1200
    assert sorted(data.rstrip(b"\n") for data in results.values()) == sorted(lines)


def test_per_task_rates_reach_floor_and_ceiling(big: Any) -> None:
    wins: dict[str, list[bool]] = defaultdict(list)
    for r in big.records:
        wins[r["episode"]["task"]].append(r["success"] is True)
    rates = sorted(sum(v) / len(v) for v in wins.values())
    assert rates[0] == 0.0 and rates[-1] == 1.0
    assert len({round(x, 1) for x in rates}) >= 8  # spread, not bimodal


def test_errors_of_every_category_with_paths_in_messages(big: Any) -> None:
    errored = [r for r in big.records if r["status"] == "error"]
    assert {r["error"]["category"] for r in errored} == {
        "policy", "protocol", "infrastructure", "evaluation"
    }
    for r in errored:
        assert r["success"] is None
        assert r["termination_reason"] == f"error:{r['error']['category']}"
        assert r["error"]["type"]
        assert re.search(r"/(home|opt|srv|var|tmp|run)/", r["error"]["message"])
    for r in big.records:
        if r["status"] == "completed":
            assert not r["termination_reason"].startswith("error:")


def test_completed_episodes_have_score_and_checkpoint_message(big: Any) -> None:
    for r in big.records:
        if r["status"] != "completed":
            assert r["metrics"] == {}
            continue
        m = r["metrics"]
        assert m["success"] is r["success"]
        assert 0 <= m["score"] <= 100
        parts = m["message"].split(", ")
        assert all(CHECKPOINT.match(p) for p in parts), m["message"]
        if not r["success"]:  # a failure misses at least one checkpoint
            assert any(p.endswith("False") or _unmet(p) for p in parts)


def _unmet(part: str) -> bool:
    value = part.rsplit(": ", 1)[1]
    if "/" not in value:
        return False
    actual, target = value.split("/")
    return int(actual) < int(target)


def test_counts_respect_protocol_limits(big: Any) -> None:
    proto = big.manifest["protocol"]
    for r in big.records:
        assert 0 <= r["action_decisions"] <= r["policy_calls"] <= proto["max_policy_calls"]
        assert r["action_decisions"] <= r["environment_steps"] <= proto["max_steps"]
        assert r["rejected_actions"] >= 0
        if r["termination_reason"] == "environment:truncated":
            assert r["environment_steps"] == proto["max_steps"]


def test_usage_is_partial_and_components_add_up(big: Any) -> None:
    declared = [m["id"] for m in big.manifest["method"]["models"]]
    known_tokens = [r["usage"]["input_tokens"] is not None for r in big.records]
    known_cost = [r["usage"]["estimated_cost_usd"] is not None for r in big.records]
    assert 0 < sum(known_tokens) < len(big.records)
    assert 0 < sum(known_cost) < sum(known_tokens)
    for r in big.records:
        assert tuple(r["usage"]) == USAGE_FIELDS
        assert list(r["component_usage"]) == declared
        assert r["usage"] == sum_usage(r["component_usage"][c] for c in declared)
        for part in (r["usage"], *r["component_usage"].values()):
            if part["cached_input_tokens"] is not None:
                assert part["cached_input_tokens"] <= part["input_tokens"]
        assert r["usage"]["calls"] >= r["policy_calls"]


def test_summary_totals_come_from_episodes_and_unknown_propagates(big: Any) -> None:
    s, recs = big.summary, big.records
    assert s["attempted"] == len(recs) == big.status["episodes_written"]
    assert s["completed"] + s["errors"] == s["attempted"]
    assert s["successes"] == sum(r["success"] is True for r in recs)
    assert s["policy_calls"] == sum(r["policy_calls"] for r in recs)
    assert s["usage"]["calls"] == sum(r["usage"]["calls"] for r in recs)
    assert s["usage"]["input_tokens"] is None  # some episode's tokens are unknown
    assert s["selected_success_rate"] == s["successes"] / 1200
    assert big.status["status"] == "completed_with_errors"


def test_fail_fast_stops_right_after_the_error() -> None:
    run = build_closed_run(tasks=4, seeds=5, fail_fast_after=7, components=False)
    assert run.manifest["protocol"]["fail_fast"] is True
    assert len(run.records) == 8
    assert [r["status"] for r in run.records] == ["completed"] * 7 + ["error"]
    assert "component_usage" not in run.records[0]
    assert run.manifest["method_origin"] == "legacy_policy_projection"


def test_faults_are_distinct_and_documented() -> None:
    run = build_faulty_run()
    assert len({f.name for f in FAULTS}) == len(FAULTS)
    assert run.manifest["method"]["configuration"]["openai_api_key"]
    assert run.summary["success_rate"] is True
    assert run.files()["episodes/insert-peg-seed1007/result.json"].count(b'"seed":') == 2


def test_generate_refuses_a_nonempty_directory(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        generate_closed_run(tmp_path, tasks=1, seeds=1)
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_main_reports_a_foreign_directory_instead_of_deleting_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "faulty").mkdir()
    (tmp_path / "faulty" / "notes.txt").write_text("not a run")
    assert samples_main([str(tmp_path)]) == 2
    assert "not a sample run" in capsys.readouterr().err
    assert (tmp_path / "faulty" / "notes.txt").exists()


def test_bundled_path_is_the_checkout_copy() -> None:
    path = bundled_sample_path()
    assert path == SAMPLE_RUNS / "robobench-24x50"


def test_bundled_path_without_checkout_generates_once_into_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundled_mod, "checkout_sample_runs", lambda: tmp_path / "absent")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = bundled_sample_path()
    assert path.is_relative_to(tmp_path / "cache" / "evalview")
    committed = SAMPLE_RUNS / "robobench-24x50"
    assert (path / "summary.json").read_bytes() == (committed / "summary.json").read_bytes()
    assert len(list((path / "episodes").iterdir())) == 1200
    stamp = (path / "manifest.json").stat().st_mtime_ns
    assert bundled_sample_path() == path
    assert (path / "manifest.json").stat().st_mtime_ns == stamp  # reused, not regenerated
    leftovers = [p.name for p in path.parent.iterdir() if p.name.startswith(".staging-")]
    assert leftovers == []
