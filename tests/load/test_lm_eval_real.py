"""Real lm-eval output (tests/fixtures/lm_eval, from lm-eval's own repository): evalview's reading
against an independent computation made here with the standard library and scipy only."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

from scipy import stats

from evalview.load.registry import load_run
from helpers.paths import REPO

FIX = REPO / "tests" / "fixtures" / "lm_eval"
PHI = FIX / "phi35-en-it-samples" / "results_2024-10-11T13-58-59.572420.json"
PYTHIA = FIX / "pythia-steer-group" / "results_2024-06-03T01-43-18.023720.json"
QWEN = FIX / "qwen3-negotiationtom-limit" / "results_2026-07-08T18-15-33.115417.json"
ANLI = FIX / "old-v0" / "anli_r1-v0-res.json"


def _codes(path: Path) -> list[str]:
    return sorted(f.code for f in load_run(path).reading_findings)


def _doc(path: Path) -> Any:
    return json.loads(path.read_text())


def test_old_v0_layout_is_read_and_its_stderr_is_lm_evals() -> None:
    d = _doc(ANLI)["results"]["anli_r1"]
    # the anli r1 test split has 1000 documents; lm-eval's mean_stderr is sample sd / sqrt(n)
    assert math.isclose(d["acc_stderr"], math.sqrt(0.334 * 0.666 / 999), rel_tol=1e-9)
    assert _codes(ANLI) == ["EV053", "EV060", "EV061"]
    run = load_run(ANLI)
    assert run.kind == "lm-eval" and len(run.episodes) == 0
    assert run.native["tasks"][0]["metric"] == "acc,none"


def test_group_is_the_size_weighted_mean_of_its_subtasks() -> None:
    doc = _doc(PYTHIA)
    subs = doc["group_subtasks"]["steer"]
    n = {s: doc["n-samples"][s]["effective"] for s in subs}
    mean = sum(doc["results"][s]["acc,none"] * n[s] for s in subs) / sum(n.values())
    assert math.isclose(mean, doc["results"]["steer"]["acc,none"], rel_tol=1e-9)
    for s in subs:  # each subtask's stderr is sqrt(p(1-p)/(n-1))
        p = doc["results"][s]["acc,none"]
        assert math.isclose(doc["results"][s]["acc_stderr,none"],
                            math.sqrt(p * (1 - p) / (n[s] - 1)), rel_tol=1e-6)
    # evalview: no EV055/EV056 (it agrees), the empty task_hashes and the local path said
    assert _codes(PYTHIA) == ["EV053", "EV054", "EV061"]
    rows = {r["task"]: r for r in load_run(PYTHIA).native["tasks"]}
    k = round(doc["results"]["steer9"]["acc,none"] * 990)
    lo, hi = stats.binomtest(k, 990).proportion_ci(method="wilson")
    assert rows["steer9"]["wilson95"] == [lo, hi] or all(
        math.isclose(a, b, rel_tol=1e-9) for a, b in zip(rows["steer9"]["wilson95"], [lo, hi],
                                                           strict=True))
    assert rows["steer"]["group"] and rows["steer"]["wilson95"] is None


def test_limit_and_na_stderr_are_caveats_and_the_group_agrees() -> None:
    doc = _doc(QWEN)
    r = doc["results"]
    assert math.isclose(r["negotiationtom"]["acc,none"],
                        (r["negotiationtom_belief"]["acc,none"] * 20
                         + r["negotiationtom_desire"]["acc,none"] * 20) / 40)
    codes = _codes(QWEN)
    assert codes.count("EV051") == 1 and codes.count("EV052") == 4
    assert "EV055" not in codes and "EV056" not in codes and "EV053" not in codes
    assert "EV054" not in codes  # pretrained=Qwen/Qwen3-8B is a hub id
    run = load_run(QWEN)
    assert run.identity.policy_name == "Qwen/Qwen3-8B"
    assert any("13812" in f.message for f in run.reading_findings if f.code == "EV051")


def test_samples_are_episodes_and_every_metric_is_their_mean() -> None:
    doc = _doc(PHI)
    lines = [json.loads(x) for x in PHI.with_name(
        "samples_en_it_public_2024-10-11T13-58-59.572420.jsonl").read_text().splitlines()]
    for metric in ("bleu_score", "chrf_score", "bleurt_score", "comet_score"):
        mean = statistics.fmean(x[metric] for x in lines)
        assert math.isclose(mean, doc["results"]["en_it_public"][f"{metric},none"], rel_tol=1e-9)
    run = load_run(PHI)
    assert list(run.episodes.ids) == [f"en_it_public/{i}" for i in range(4)]
    assert [float(s) for s in run.episodes.score] == [x["bleu_score"] for x in lines]
    assert _codes(PHI) == ["EV063"]
    assert "documents" in run.pairing and run.left_out
    rec = {r["metric"]: r["recomputed"] for r in run.native["tasks"]}
    assert math.isclose(rec["chrf_score,none"], statistics.fmean(x["chrf_score"] for x in lines))
