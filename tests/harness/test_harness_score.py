"""The harness table and the uncertainty added to it, checked against independent computations."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import pytest
from harness_docs import findings, read, shipped, three
from statsmodels.stats.proportion import proportion_confint

from evalview.harness.audit import SINGLE_SEED_LABEL, audit_harness
from evalview.harness.score import score_harness
from evalview.model.harness_plain import BenchmarkResult  # what is read (pydantic words errors)


def _score(doc: dict, tmp_path: Path, **kw: bool):  # type: ignore[no-untyped-def]
    hf = read(tmp_path, doc)
    assert hf.result is not None
    return score_harness(hf.result, audit_harness(hf), **kw)


def test_per_arm_table_is_the_harness_aggregate(tmp_path: Path) -> None:
    doc = shipped()
    card = _score(doc, tmp_path)
    assert not card.refused and card.reference == "cold-start-only"
    assert [a.name for a in card.arms][:2] == ["cold-start-only", "sft-continued"]
    for row in card.arms:
        rates = [a["success_rate"] for a in doc["arms"] if a["name"] == row.name]
        assert row.mean == pytest.approx(sum(rates) / len(rates))
        assert (row.min, row.max) == (min(rates), max(rates))
        assert len(row.reads) == 2
    steps = {a.name: a.optimizer_steps for a in card.arms}
    assert steps["cold-start-only"] == 0
    assert {v for k, v in steps.items() if k != "cold-start-only"} == {60}


def test_delta_is_over_the_reference_not_zero(tmp_path: Path) -> None:
    card = _score(shipped(), tmp_path)
    ref = next(a for a in card.arms if a.is_reference)
    assert ref.delta_vs_reference is None
    for row in card.arms:
        if not row.is_reference:
            assert row.delta_vs_reference == pytest.approx(row.mean - ref.mean)
            assert row.delta_vs_reference != pytest.approx(row.mean)


def test_no_reference_means_no_delta(tmp_path: Path) -> None:
    doc = shipped()
    doc["arms"] = [a for a in doc["arms"] if a["name"] != "cold-start-only"]
    card = _score(doc, tmp_path)
    assert card.reference is None
    assert all(a.delta_vs_reference is None and a.contrast is None for a in card.arms)
    assert any("no delta quoted" in label for label in card.labels)


def test_wilson_per_read_matches_statsmodels(tmp_path: Path) -> None:
    card = _score(shipped(), tmp_path)
    for row in card.arms:
        for r in row.reads:
            assert r.rollouts == 32 and r.solved == round(r.rate * 32)
            lo, hi = proportion_confint(r.solved, r.rollouts, alpha=0.05, method="wilson")
            assert r.wilson95 == pytest.approx((lo, hi), abs=1e-6)


def test_contrast_is_descriptive_below_three_seeds(tmp_path: Path) -> None:
    card = _score(shipped(), tmp_path)
    for row in card.arms:
        if row.is_reference:
            continue
        assert row.contrast is not None
        assert row.contrast.label == "descriptive, n_seeds=2" and not row.contrast.claim
        assert row.contrast.statement().startswith("no claim")


def test_contrast_with_three_seeds_is_paired(tmp_path: Path) -> None:
    doc = three()
    card = _score(doc, tmp_path)
    rate = {(a["name"], a["seed"]): a["success_rate"] for a in doc["arms"]}
    n = {(a["name"], a["seed"]): a["tasks"] for a in doc["arms"]}
    for row in card.arms:
        if row.is_reference:
            continue
        c = row.contrast
        assert c is not None and c.claim and c.label == "paired, n_seeds=3"
        diffs = [rate[(row.name, s)] - rate[("cold-start-only", s)] for s in doc["seeds"]]
        assert [d.difference for d in c.differences] == pytest.approx(diffs)
        assert c.mean == pytest.approx(statistics.mean(diffs))
        assert c.sd == pytest.approx(statistics.stdev(diffs))
        s = doc["seeds"][0]
        pa, pb = rate[(row.name, s)], rate[("cold-start-only", s)]
        se = math.sqrt(pa * (1 - pa) / n[(row.name, s)] + pb * (1 - pb) / n[("cold-start-only", s)])
        assert c.differences[0].eval_se == pytest.approx(se)


def test_single_seed_label_beside_every_number_and_no_claim(tmp_path: Path) -> None:
    doc = three()
    doc["seeds"] = [1234]
    doc["arms"] = [a for a in doc["arms"] if a["seed"] == 1234]
    card = _score(doc, tmp_path)
    assert card.single_seed and SINGLE_SEED_LABEL in card.labels
    doc_json = card.to_json()
    for row in doc_json["arms"]:
        assert SINGLE_SEED_LABEL in row["labels"]
        assert all(SINGLE_SEED_LABEL in r["labels"] for r in row["reads"])
        contrast = row["replicate_contrast"]
        assert contrast is None or not contrast["claim"]


def test_audit_errors_refuse_unless_allowed(tmp_path: Path) -> None:
    doc = shipped()
    doc["arms"][4]["optimizer_steps"] = 90
    assert _score(doc, tmp_path).refused
    allowed = _score(doc, tmp_path, allow_errors=True)
    assert not allowed.refused
    assert any("not a publishable result" in label for label in allowed.labels)


def test_measured_quantities_beside_the_rate(tmp_path: Path) -> None:
    doc = shipped()
    card = _score(doc, tmp_path)
    row = next(a for a in card.arms if a.name == "opd-exact")
    walls = [a["wall_seconds"] for a in doc["arms"] if a["name"] == "opd-exact"]
    assert row.measured["wall_seconds"] == pytest.approx(sum(walls) / 2)
    assert row.measured["peak_allocated_bytes"] is None  # CPU: not measured, not zero
    ref = next(a for a in card.arms if a.is_reference)
    assert ref.measured["cache_current_bytes"] is None


def test_contract_keys(tmp_path: Path) -> None:
    doc = _score(shipped(), tmp_path).to_json()
    assert {"arms", "single_seed", "reference", "labels", "findings"} <= set(doc)
    row = doc["arms"][1]
    assert {"name", "seeds", "mean", "min", "max", "optimizer_steps", "delta_vs_reference",
            "reads"} <= set(row)
    assert {"seed", "rollouts", "solved", "rate", "wilson95"} <= set(row["reads"][0])
    assert row["seeds"] == 2 and 0 <= row["reads"][0]["wilson95"][0] <= 1


def test_nan_is_never_shown_as_a_number(tmp_path: Path) -> None:
    doc = shipped()
    doc["arms"][4]["tokens_per_solved_task"] = float("nan")
    hf = read(tmp_path, doc)
    assert isinstance(hf.result, BenchmarkResult)
    card = score_harness(hf.result, findings(tmp_path, doc), allow_errors=True)
    row = next(a for a in card.arms if a.name == "opd-exact")
    assert row.reads[0].measured["tokens_per_solved_task"] is None
    assert row.measured["tokens_per_solved_task"] is None


def test_single_run_submission(tmp_path: Path) -> None:
    """`benchmark-submission.json`: one arm at one seed; no reference, no delta, no claim."""
    doc = shipped()
    doc["seeds"] = [1234]
    doc["arms"] = [a for a in doc["arms"] if a["name"] == "opd-exact" and a["seed"] == 1234]
    hf = read(tmp_path, doc)
    assert hf.result is not None and hf.result.submission
    found = audit_harness(hf)
    assert {f.code for f in found if f.severity.value == "warning"} == {"EV804", "EV805"}
    assert any("single-run submission" in f.message for f in found if f.code == "EV805")
    card = score_harness(hf.result, found)
    assert card.reference is None and card.arms[0].delta_vs_reference is None
    assert card.arms[0].contrast is None and SINGLE_SEED_LABEL in card.arms[0].labels
