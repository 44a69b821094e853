"""Replicate contrasts: the reporting rules' arithmetic, the relative statistic, every refusal."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evalview.compare.contrast import relative_statistic
from evalview.compare.reads import Refused
from evalview.load import load_run
from evalview.model.run import Run
from helpers.closed_runs import outcomes_for, write_run
from helpers.compare import contrast_runs

Counts = dict[str, tuple[int, int]]


def _read(root: Path, name: str, counts: Counts, **manifest: Any) -> tuple[Run, str]:
    man: dict[str, Any] = {"run_id": name, "policy": {"version": name}}
    for key, value in manifest.items():
        if isinstance(value, dict) and isinstance(man.get(key), dict):
            man[key] = {**man[key], **value}
        else:
            man[key] = value
    path = write_run(root / name, outcomes_for(counts), manifest=man)
    return load_run(path), str(path)


def _items(root: Path, side: str, per_key: dict[str, Counts], **manifest: Any):  # type: ignore[no-untyped-def]
    out = []
    for key, counts in per_key.items():
        run, label = _read(root, f"{side}{key}", counts, **manifest)
        out.append((key, run, label))
    return out


def _mean_se(counts: Counts) -> tuple[float, float]:
    p = np.array([k / n for k, n in counts.values()])
    n = np.array([n for _, n in counts.values()])
    return float(p.mean()), float(np.sqrt(np.sum(p * (1 - p) / n)) / len(p))


A = {"42": {"t1": (6, 10), "t2": (4, 10)},
     "43": {"t1": (7, 10), "t2": (5, 10)},
     "44": {"t1": (9, 10), "t2": (2, 10)}}
B = {"42": {"t1": (5, 10), "t2": (3, 10)},
     "43": {"t1": (7, 10), "t2": (4, 10)},
     "44": {"t1": (6, 10), "t2": (1, 10)}}


def test_three_replicates_arithmetic(tmp_path: Path) -> None:
    c = contrast_runs(_items(tmp_path, "a", A), _items(tmp_path, "b", B))
    diffs = []
    for rep in c.replicates:
        ma, sa = _mean_se(A[rep.key])
        mb, sb = _mean_se(B[rep.key])
        assert rep.a.mean == pytest.approx(ma) and rep.a.se == pytest.approx(sa)
        assert rep.difference_points == pytest.approx(100 * (ma - mb))
        assert rep.eval_se_points == pytest.approx(100 * math.sqrt(sa**2 + sb**2))
        diffs.append(100 * (ma - mb))
    assert [r.key for r in c.replicates] == ["42", "43", "44"]
    assert diffs == pytest.approx([10.0, 5.0, 20.0])
    assert c.mean_points == pytest.approx(np.mean(diffs))
    assert c.sd_points == pytest.approx(np.std(diffs, ddof=1))
    assert c.label == "paired, n_seeds=3" and c.claim
    assert c.title == "a42+a43+a44 - b42+b43+b44"
    assert "A − B = +11.67 pt over 3 training replicates" in c.statement()
    assert not c.off_protocol


def test_fewer_than_three_pairs_is_descriptive(tmp_path: Path) -> None:
    two = {k: A[k] for k in ("42", "43")}
    c = contrast_runs(_items(tmp_path, "a", two), _items(tmp_path, "b", {k: B[k] for k in two}))
    assert c.label == "descriptive, n_seeds=2"
    assert not c.claim and c.statement().startswith("no claim")
    one = contrast_runs(
        _items(tmp_path / "1", "a", {"42": A["42"]}), _items(tmp_path / "1", "b", {"42": B["42"]})
    )
    assert one.label == "descriptive, n_seeds=1" and one.sd_points is None


def test_fine_tune_seed_that_differs_is_recorded(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", {"42": A["42"]}, policy={"fine_tune_seed": 1})
    b = _items(tmp_path, "b", {"42": B["42"]}, policy={"fine_tune_seed": 2})
    rep = contrast_runs(a, b).replicates[0]
    assert rep.fine_tune_seed_differs
    assert "fine-tune seed differs inside the pair: A 1, B 2" in rep.notes


def test_relative_with_b_as_the_bc_read(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", A)
    b = _items(tmp_path, "b", B)
    c = contrast_runs(a, b, bc=b, relative=True)
    for rep in c.replicates:
        ma, sa = _mean_se(A[rep.key])
        mb, sb = _mean_se(B[rep.key])
        g, h = 100 / mb, -100 * (ma - mb) / mb**2
        var = g**2 * (sa**2 + sb**2) + h**2 * sb**2 + 2 * g * h * (0 - sb**2)
        assert rep.relative == pytest.approx(100 * (ma - mb) / mb)
        assert rep.relative_se == pytest.approx(math.sqrt(var))
        assert any("BC read itself" in n for n in rep.notes)
    assert c.relative_mean == pytest.approx(np.mean([r.relative for r in c.replicates]))
    # Separate BC reads (other files, same counts as B) have no covariance: a larger SE here.
    other = contrast_runs(a, b, bc=_items(tmp_path, "bc", B), relative=True)
    for rep, sep in zip(c.replicates, other.replicates, strict=True):
        assert sep.relative == pytest.approx(rep.relative)
        assert sep.relative_se != pytest.approx(rep.relative_se)


def _simulated_sd(rng: np.random.Generator, pa: np.ndarray, pb: np.ndarray, pc: np.ndarray,
                  n: int, b_is_bc: bool, sims: int = 40_000) -> float:
    ka = rng.binomial(n, pa, size=(sims, pa.size)).mean(axis=1) / n
    kb = rng.binomial(n, pb, size=(sims, pb.size)).mean(axis=1) / n
    kc = kb if b_is_bc else rng.binomial(n, pc, size=(sims, pc.size)).mean(axis=1) / n
    return float(np.std(100 * (ka - kb) / kc))


@pytest.mark.parametrize("b_is_bc", [True, False])
def test_delta_method_se_against_simulation(b_is_bc: bool) -> None:
    rng = np.random.default_rng(20240607)
    n = 50
    pa = np.array([0.7, 0.5, 0.9, 0.4, 0.6, 0.8])
    pb = np.array([0.6, 0.4, 0.85, 0.3, 0.5, 0.7])
    pc = pb if b_is_bc else np.array([0.55, 0.45, 0.8, 0.35, 0.5, 0.65])

    def se(p: np.ndarray) -> float:
        return float(np.sqrt(np.sum(p * (1 - p) / n)) / p.size)

    _, delta_se = relative_statistic(
        pa.mean(), pb.mean(), pc.mean(), se(pa), se(pb), se(pc), b_is_bc=b_is_bc
    )
    assert delta_se == pytest.approx(_simulated_sd(rng, pa, pb, pc, n, b_is_bc), rel=0.05)


def test_relative_covariance_when_a_is_bc() -> None:
    r, se = relative_statistic(0.5, 0.6, 0.5, 0.02, 0.03, 0.02, a_is_bc=True)
    g, h = 100 / 0.5, -100 * (-0.1) / 0.25
    assert r == pytest.approx(-20.0)
    assert se == pytest.approx(math.sqrt(g**2 * (0.02**2 + 0.03**2) + h**2 * 0.02**2
                                         + 2 * g * h * 0.02**2))
    with pytest.raises(ValueError, match="SR_BC is 0"):
        relative_statistic(0.5, 0.6, 0.0, 0.02, 0.03, 0.0)


# ---- refusals -------------------------------------------------------------------------------


def test_refuses_mixed_benchmark_versions(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", {"42": A["42"]})
    b = _items(tmp_path, "b", {"42": B["42"]}, benchmark={"version": "9.9"})
    with pytest.raises(Refused, match=r"version '1\.2\.0'.*'9\.9'"):
        contrast_runs(a, b)


def test_refuses_mixed_seed_sets(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", {"42": A["42"]})
    b = _items(tmp_path, "b", {"42": B["42"]}, protocol={"seed_set": "development"})
    with pytest.raises(Refused, match="development-seed read"):
        contrast_runs(a, b)


def test_off_protocol_refused_then_labelled(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", A)
    b = _items(tmp_path, "b", {"42": B["42"]}, deviations=["camera moved"])
    b += _items(tmp_path, "b", {k: B[k] for k in ("43", "44")})
    with pytest.raises(Refused, match=r"b42.*deviations records 1 deviation.*--allow-off-protocol"):
        contrast_runs(a, b)
    c = contrast_runs(a, b, allow_off_protocol=True)
    assert c.off_protocol and "OFF-PROTOCOL" in c.labels
    assert c.replicates[0].b.off_protocol and not c.replicates[1].b.off_protocol


def test_execution_constants_that_differ_are_off_protocol(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", A)
    b = _items(tmp_path, "b", {"42": B["42"]}, protocol={"max_steps": 100, "episode_ids": []})
    b += _items(tmp_path, "b", {k: B[k] for k in ("43", "44")})
    with pytest.raises(Refused, match="max_steps 100 vs 400"):
        contrast_runs(a, b)
    off = _items(tmp_path / "x", "a", {"42": A["42"]}, off_protocol=True)
    with pytest.raises(Refused, match="started off-protocol"):
        contrast_runs(off, _items(tmp_path / "x", "b", {"42": B["42"]}))


def test_refuses_same_checkpoint_twice_on_one_side(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", {k: A[k] for k in ("42", "43")}, policy={"version": "ckpt-7"})
    b = _items(tmp_path, "b", {k: B[k] for k in ("42", "43")})
    with pytest.raises(Refused, match=r"--a holds checkpoint pi-test@ckpt-7 .* twice"):
        contrast_runs(a, b)


def test_refuses_same_path_twice_and_duplicate_keys(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", {"42": A["42"]})
    b = _items(tmp_path, "b", {"42": B["42"]})
    twice = [a[0], ("43", a[0][1], a[0][2])]
    with pytest.raises(Refused, match="the same read"):
        contrast_runs(twice, b)
    dup = [a[0], ("42", *_items(tmp_path, "c", {"42": A["43"]})[0][1:])]
    with pytest.raises(Refused, match="replicate 42 twice"):
        contrast_runs(dup, b)


def test_refuses_unpaired_keys_and_missing_bc(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", A)
    b = _items(tmp_path, "b", {k: B[k] for k in ("42", "43")})
    with pytest.raises(Refused, match="44 appear on one side only"):
        contrast_runs(a, b)
    b3 = b + _items(tmp_path, "b", {"44": B["44"]})
    with pytest.raises(Refused, match="needs the BC reads"):
        contrast_runs(a, b3, relative=True)
    with pytest.raises(Refused, match="none for 44"):
        contrast_runs(a, b3, bc=b3[:2], relative=True)


def test_refuses_a_read_the_scorer_refuses(tmp_path: Path) -> None:
    outcomes = outcomes_for({"t1": (5, 10), "t2": (3, 10)})
    outcomes["t1/seed1009"] = "e:infrastructure"
    path = write_run(tmp_path / "err", outcomes, manifest={"policy": {"version": "err"}})
    b = _items(tmp_path, "b", {"42": B["42"]})
    with pytest.raises(Refused, match="errored rollout"):
        contrast_runs([("42", load_run(path), str(path))], b)
    c = contrast_runs([("42", load_run(path), str(path))], b, allow_errors=True)
    assert any("not a publishable read" in lab for lab in c.labels)


def test_a_refused_read_is_named_once(tmp_path: Path) -> None:
    outcomes = outcomes_for({"t1": (5, 10), "t2": (3, 10)})
    outcomes["t1/seed1009"] = "e:infrastructure"
    path = write_run(tmp_path / "err", outcomes, manifest={"policy": {"version": "err"}})
    b = _items(tmp_path, "b", {"42": B["42"]})
    with pytest.raises(Refused) as exc:
        contrast_runs([("42", load_run(path), str(path))], b)
    assert str(exc.value).count(str(path)) == 1


def test_refuses_reads_of_different_task_sets(tmp_path: Path) -> None:
    a = _items(tmp_path, "a", {"42": A["42"]})
    b = _items(tmp_path, "b", {"42": {"t1": (5, 10), "t3": (3, 10)}})
    with pytest.raises(Refused, match="different tasks") as exc:
        contrast_runs(a, b)
    assert "only in" in str(exc.value) and "t2" in str(exc.value) and "t3" in str(exc.value)


def test_one_read_on_both_sides_has_no_eval_error(tmp_path: Path) -> None:
    (item,) = _items(tmp_path, "a", {"42": A["42"]})
    c = contrast_runs([item], [item])
    assert c.replicates[0].difference_points == 0.0
    assert c.replicates[0].eval_se_points == 0.0


def test_development_reads_contrast_with_the_label(tmp_path: Path) -> None:
    dev = {"protocol": {"seed_set": "development"}}
    c = contrast_runs(_items(tmp_path, "a", A, **dev), _items(tmp_path, "b", B, **dev))
    assert "[development seeds]" in c.labels
    plain = contrast_runs(_items(tmp_path / "t", "a", A), _items(tmp_path / "t", "b", B))
    assert "[development seeds]" not in plain.labels
