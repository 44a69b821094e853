"""`compare_runs`: pairing by episode id, the 2×2 tables, refusals and what is not hidden."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from scipy.stats import norm
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportions_ztest

from evalview.compare.paired import paired_counts, verdict
from evalview.compare.reads import Refused
from evalview.load import load_run
from helpers.closed_runs import outcomes_for, write_run
from helpers.compare import compare_runs


def _ids(task: str, n: int) -> list[str]:
    return [f"{task}/seed{1000 + i}" for i in range(n)]


def _spec_pair(tmp_path: Path) -> tuple[Path, Path]:
    """Twenty pairs, b = 8 (only B), c = 2 (only A), 6 both, 4 neither: the spec's example."""
    ids = _ids("task-x", 20)
    a_out = ["s"] * 6 + ["f"] * 8 + ["s"] * 2 + ["f"] * 4
    b_out = ["s"] * 6 + ["s"] * 8 + ["f"] * 2 + ["f"] * 4
    a = write_run(tmp_path / "a", dict(zip(ids, a_out, strict=True)))
    b = write_run(tmp_path / "b", dict(zip(ids, b_out, strict=True)),
                  manifest={"run_id": "run-2", "policy": {"version": "ckpt-2"}})
    return a, b


def test_spec_example_table_and_verdict(tmp_path: Path) -> None:
    a, b = _spec_pair(tmp_path)
    cmp = compare_runs(load_run(a), load_run(b))
    t = cmp.tasks[0]
    assert (t.both, t.only_a, t.only_b, t.neither) == (6, 2, 8, 4)
    assert t.mcnemar_p == pytest.approx(0.109375)
    assert t.rate_a == pytest.approx(8 / 20) and t.rate_b == pytest.approx(14 / 20)
    assert t.difference == pytest.approx(0.30)
    assert t.verdict.code == "not_significant"
    assert "p = 0.109" in t.verdict.text and "B won 8 of the 10 discordant pairs" in t.verdict.text
    sm = mcnemar([[6, 2], [8, 4]], exact=True).pvalue
    assert t.mcnemar_p == pytest.approx(sm)
    _, zp = proportions_ztest([14, 8], [20, 20])
    assert t.z_p == pytest.approx(zp)
    assert cmp.overall.pairs == 20
    assert cmp.only_in_a == [] and cmp.only_in_b == []


def test_resolving_sizes_use_the_observed_gap(tmp_path: Path) -> None:
    a, b = _spec_pair(tmp_path)
    t = compare_runs(load_run(a), load_run(b)).tasks[0]
    za, zb = norm.ppf(0.975), norm.ppf(0.8)
    # ψ = 10/20, Δ = 6/20: (1.96·√.5 + .8416·√(.5 − .09))² / .09 = 41.2 → 42
    assert t.resolve_paired == math.ceil((za * 0.5**0.5 + zb * 0.41**0.5) ** 2 / 0.09) == 42
    # p 40 % vs 70 %: 2(2.8016)²·.55·.45/.09 = 43.2 → 44
    assert t.resolve_unpaired == math.ceil(2 * (za + zb) ** 2 * 0.55 * 0.45 / 0.09) == 44


def test_significant_verdict_names_the_winner() -> None:
    t = paired_counts("t", both=10, only_a=20, only_b=2, neither=10)
    assert t.verdict.code == "a_better"
    assert "A is better, winning 20 of the 22 discordant pairs" in t.verdict.text
    assert t.difference == pytest.approx(-18 / 42)


def test_no_discordant_pairs_declares_nothing() -> None:
    v = verdict(5, 0, 0, 5, 1.0, 0.05)
    assert v.code == "not_significant" and "no discordant pair" in v.text
    t = paired_counts("t", 5, 0, 0, 5)
    assert t.resolve_paired is None and t.resolve_unpaired is None


def test_errored_and_unattempted_pairs_are_excluded_and_listed(tmp_path: Path) -> None:
    ids = _ids("task-x", 6)
    # A: fail_fast stopped it after the infrastructure error, so its last case is unattempted
    fail_fast = {"protocol": {"fail_fast": True}}
    a_out = ["s", "f", "s", "s", "e:infrastructure", "u"]
    b_out = ["s", "s", "s", "e:policy", "s", "f"]
    a = write_run(tmp_path / "a", dict(zip(ids, a_out, strict=True)), manifest=fail_fast)
    b = write_run(tmp_path / "b", dict(zip(ids, b_out, strict=True)), manifest=fail_fast)
    with pytest.raises(Refused, match=r"errored rollout.*--allow-errors"):
        compare_runs(load_run(a), load_run(b))
    cmp = compare_runs(load_run(a), load_run(b), allow_errors=True)
    t = cmp.tasks[0]
    assert (t.both, t.only_a, t.only_b, t.neither) == (2, 0, 1, 0)
    assert t.excluded == {"A error": 1, "B error": 1, "A unattempted": 1}
    assert cmp.overall.excluded == t.excluded
    assert [p["episode_id"] for p in cmp.errored_pairs] == [ids[3], ids[4]]
    assert any(label.startswith("not a publishable read") for label in cmp.labels)


def test_episodes_in_only_one_read_are_reported(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", dict.fromkeys([*_ids("t1", 4), *_ids("t2", 2)], "s"))
    b = write_run(tmp_path / "b", dict.fromkeys([*_ids("t1", 5)], "f"))
    cmp = compare_runs(load_run(a), load_run(b))
    assert cmp.only_in_a == _ids("t2", 2)
    assert cmp.only_in_b == ["t1/seed1004"]
    assert [t.task for t in cmp.tasks] == ["t1"]
    assert cmp.overall.only_a == 4


def test_refuses_different_benchmark_versions(tmp_path: Path) -> None:
    ids = _ids("t", 3)
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"))
    b = write_run(tmp_path / "b", dict.fromkeys(ids, "s"),
                  manifest={"benchmark": {"version": "2.0"}})
    with pytest.raises(Refused, match=r"version '1\.2\.0'.*'2\.0'"):
        compare_runs(load_run(a), load_run(b))


def test_refuses_different_benchmarks_naming_the_field(tmp_path: Path) -> None:
    ids = _ids("t", 3)
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"))
    b = write_run(tmp_path / "b", dict.fromkeys(ids, "s"),
                  manifest={"benchmark": {"name": "otherbench"}})
    with pytest.raises(Refused, match=r"benchmark 'robobench'.*'otherbench'.*benchmark\.name"):
        compare_runs(load_run(a), load_run(b))


def test_refuses_mixed_seed_sets(tmp_path: Path) -> None:
    ids = _ids("t", 3)
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"))
    b = write_run(tmp_path / "b_dev", dict.fromkeys(ids, "s"))
    with pytest.raises(Refused, match=r"test-seed read.*development-seed read"):
        compare_runs(load_run(a), load_run(b))
    c = write_run(tmp_path / "c", dict.fromkeys(ids, "s"),
                  manifest={"protocol": {"seed_set": "dev"}})
    with pytest.raises(Refused, match=r"manifest\.protocol\.seed_set"):
        compare_runs(load_run(a), load_run(c))


def test_refuses_disjoint_schedules(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", dict.fromkeys(_ids("t", 3), "s"))
    b = write_run(tmp_path / "b", dict.fromkeys(_ids("u", 3), "s"))
    with pytest.raises(Refused, match="no episode id in common"):
        compare_runs(load_run(a), load_run(b))


def test_execution_differences_and_off_protocol_are_noted(tmp_path: Path) -> None:
    ids = _ids("t", 3)
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"))
    b = write_run(tmp_path / "b", dict.fromkeys(ids, "f"),
                  manifest={"protocol": {"max_steps": 200}, "off_protocol": True})
    # The reporting rules: an off-protocol read is read only with --allow-off-protocol.
    with pytest.raises(Refused, match=r"off_protocol is true.*max_steps 400 vs 200.*--allow-off"):
        compare_runs(load_run(a), load_run(b))
    c = compare_runs(load_run(a), load_run(b), allow_off_protocol=True)
    notes = " | ".join(c.notes)
    assert "max_steps 400 vs 200" in notes
    assert "OFF-PROTOCOL" in notes
    assert c.labels == ["OFF-PROTOCOL"] and c.to_json()["labels"] == ["OFF-PROTOCOL"]


def test_executed_unlike_alone_is_off_protocol(tmp_path: Path) -> None:
    ids = _ids("t", 3)
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"))
    b = write_run(tmp_path / "b", dict.fromkeys(ids, "f"), manifest={"protocol": {"max_steps": 9}})
    with pytest.raises(Refused, match="not executed alike"):
        compare_runs(load_run(a), load_run(b))
    assert compare_runs(load_run(a), load_run(b), allow_off_protocol=True).labels == [
        "OFF-PROTOCOL"
    ]


def test_development_reads_are_labelled(tmp_path: Path) -> None:
    ids = _ids("t", 3)
    dev = {"protocol": {"seed_set": "development"}}
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"), manifest=dev)
    b = write_run(tmp_path / "b", dict.fromkeys(ids, "f"), manifest=dev)
    c = compare_runs(load_run(a), load_run(b))
    assert c.labels == ["[development seeds]"]
    plain = write_run(tmp_path / "c", dict.fromkeys(ids, "f"))
    assert compare_runs(load_run(plain), load_run(plain)).labels == []


def test_a_read_conditioned_on_quality_tag_0_is_refused(tmp_path: Path) -> None:
    # Reporting rules: "Tag 0 is the trainer's untagged sentinel, so a server conditioned on it
    # is refused" (the scorer's own check, applied to both reads of a comparison).
    ids = _ids("t", 3)
    a = write_run(tmp_path / "a", dict.fromkeys(ids, "s"))
    b = write_run(tmp_path / "b", dict.fromkeys(ids, "f"),
                  manifest={"policy": {"name": "p", "quality_tag": 0}})
    with pytest.raises(Refused, match=r"quality tag 0 \(manifest\.policy\.quality_tag = 0\)"):
        compare_runs(load_run(a), load_run(b))
    c = write_run(tmp_path / "c", dict.fromkeys(ids, "f"),
                  manifest={"policy": {"name": "p", "quality_tag": 3}})
    assert compare_runs(load_run(a), load_run(c)).labels == []


def test_many_per_task_tests_carry_a_multiplicity_note(tmp_path: Path) -> None:
    rates = {f"t{i:02d}": (5, 10) for i in range(24)}
    a = write_run(tmp_path / "a", outcomes_for(rates, seeds=10))
    b = write_run(tmp_path / "b", outcomes_for(rates, seeds=10))
    comparison = compare_runs(load_run(a), load_run(b))
    note = next(n for n in comparison.notes if "per-task tests" in n)
    assert "24 per-task tests" in note and "about 1.2 would come out significant" in note
    one = write_run(tmp_path / "one", outcomes_for({"t00": (5, 10)}, seeds=10))
    single = compare_runs(load_run(one), load_run(one))
    assert not any("per-task tests" in n for n in single.notes)
