"""Issue 26: an Inspect log by sample metadata (score and compare `--group-by KEY`, `--view KEY`),
per-sample Wilson intervals over epochs, the other scorers' mean and SE, the sample-level
comparison; every number against an independent computation from the log's own members
(zipfile + json, statsmodels, a plain-Python bootstrap with the documented draw order)."""

from __future__ import annotations

import json
import math
import random
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from helpers.inspect_logs import edited, run_cli, small_log, write
from helpers.paths import SAMPLE_RUNS

A = SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval"
B = SAMPLE_RUNS / "inspect" / "os-agent-model-b.eval"


def _members(path: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """(sample id, epoch) -> the sample document, straight from the zip (the last of a name)."""
    out = {}
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.startswith("samples/"):
                doc = json.loads(z.read(name))
                out[(str(doc["id"]), doc["epoch"])] = doc
    return out


def _success(doc: dict[str, Any]) -> int:
    return int(doc.get("error") is None and doc.get("scores", {}).get("includes", {})
               .get("value") == "C")


def _wilson(k: int, n: int) -> list[float]:
    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    return [max(0.0, float(lo)), min(1.0, float(hi))]


@pytest.mark.parametrize("option", ["--group-by", "--view"])
def test_score_by_category_against_the_members(option: str) -> None:
    done = run_cli(["score", A, "--allow-errors", "--bootstrap", "0", "--json", option,
                    "category"])
    assert done.code == 0, done.text
    groups = done.json["groups"]
    assert groups["key"] == "category"
    want: dict[str, list[int]] = {}
    for doc in _members(A).values():
        cell = want.setdefault(doc["metadata"]["category"], [0, 0])
        cell[0] += _success(doc)
        cell[1] += 1
    got = {g["group"]: g for g in groups["groups"]}
    assert sorted(got) == sorted(want)
    for name, (k, n) in want.items():
        g = got[name]
        assert (g["successes"], g["selected"]) == (k, n)
        assert g["rate"] == k / n
        assert g["wilson95"] == pytest.approx(_wilson(k, n), abs=1e-7)  # z 1.959964 vs exact
    # the aggregate is the read's, not a group's
    assert done.json["denominators"]["selected"] == sum(n for _k, n in want.values())


def test_score_text_shows_the_groups_and_an_unknown_key_is_refused() -> None:
    text = run_cli(["score", A, "--allow-errors", "--bootstrap", "0", "--group-by",
                    "difficulty"]).text
    assert "by difficulty" in text and "Wilson 95 %" in text and "hard" in text
    done = run_cli(["score", A, "--allow-errors", "--bootstrap", "0", "--group-by", "nope"])
    assert done.code == 1
    assert "no grouping 'nope'" in done.text and "category, difficulty" in done.text


def test_per_sample_wilson_over_epochs() -> None:
    doc = run_cli(["score", A, "--allow-errors", "--bootstrap", "0", "--json"]).json
    samples = doc["samples"]
    assert samples["key"] == "sample" and len(samples["groups"]) == 200
    members = _members(A)
    for g in samples["groups"]:
        k = sum(_success(members[(g["group"], e)]) for e in (1, 2, 3))
        assert (g["successes"], g["selected"]) == (k, 3)
        assert g["wilson95"] == pytest.approx(_wilson(k, 3), abs=1e-7)  # z 1.959964 vs exact
    text = run_cli(["score", A, "--allow-errors", "--bootstrap", "0"]).text
    assert "per sample (3 epochs each): 200 samples" in text


def test_one_epoch_has_no_per_sample_breakdown(tmp_path: Path) -> None:
    log = write(small_log([["C"], ["I"], ["C"]]), tmp_path / "one.eval")
    doc = run_cli(["score", log, "--bootstrap", "0", "--json"]).json
    assert "samples" not in doc


def _with_second_scorer(log: Any) -> Any:
    def edit(copy: Any) -> None:
        for i, s in enumerate(copy.samples):
            if "scores" in s:
                s["scores"]["efficiency"] = {"value": round(0.1 + 0.07 * i, 3)}
    return edited(log, edit)


def test_other_scorers_mean_and_se_left_out_of_wilson(tmp_path: Path) -> None:
    base = small_log([["C", "I"], ["I", "I"], ["C", "C"], ["C", None]])
    path = write(_with_second_scorer(base), tmp_path / "two.eval")
    doc = run_cli(["score", path, "--allow-errors", "--bootstrap", "0", "--json"]).json
    (other,) = doc["other_scorers"]
    values = [s["scores"]["efficiency"]["value"] for s in _with_second_scorer(base).samples
              if "scores" in s and s.get("error") is None]
    assert other["scorer"] == "efficiency" and other["n"] == len(values) == 7
    assert other["missing"] == 1 and other["binary"] is False
    assert other["mean"] == pytest.approx(float(np.mean(values)), abs=1e-12)
    assert other["se"] == pytest.approx(float(np.std(values, ddof=1) / math.sqrt(7)), abs=1e-12)
    # the outcome is still the headline's: 4 successes of 8, the efficiency values nowhere in it
    assert doc["denominators"]["successes"] == 4 and doc["denominators"]["selected"] == 8
    text = run_cli(["score", path, "--allow-errors", "--bootstrap", "0"]).text
    assert "other scorer efficiency" in text and "left out of the rates" in text
    assert "Wilson" in text


def _pairs() -> list[tuple[str, int, int, str]]:
    """(sample id, A success, B success, category) of every sample-epoch completed on both."""
    ma, mb = _members(A), _members(B)
    out = []
    for key, da in ma.items():
        db = mb.get(key)
        if db is None or da.get("error") is not None or db.get("error") is not None:
            continue
        out.append((key[0], _success(da), _success(db), da["metadata"]["category"]))
    return out


def _mid_p(b: int, c: int) -> float:
    n, low = b + c, min(b, c)
    if b == c:
        return 1 - math.comb(n, low) / 2 ** (n + 1)
    tail = sum(math.comb(n, k) for k in range(low + 1))
    return (2 * tail - math.comb(n, low)) / 2**n


def test_compare_by_category_with_holm_and_bh() -> None:
    done = run_cli(["compare", A, B, "--allow-errors", "--json", "--group-by", "category"])
    assert done.code == 0, done.text
    groups = done.json["groups"]
    rows = {r["group"]: r for r in groups["rows"]}
    pairs = _pairs()
    names = sorted({p[3] for p in pairs})
    assert sorted(rows) == names and groups["family"] == len(names)
    mids = []
    for name in names:
        mine = [p for p in pairs if p[3] == name]
        b = sum(1 for p in mine if p[2] and not p[1])
        c = sum(1 for p in mine if p[1] and not p[2])
        r = rows[name]
        assert (r["pairs"], r["only_b"], r["only_a"]) == (len(mine), b, c)
        assert r["mcnemar_midp"] == pytest.approx(_mid_p(b, c), abs=1e-12)
        mids.append(r["mcnemar_midp"])
    holm = multipletests(mids, method="holm")[1]
    bh = multipletests(mids, method="fdr_bh")[1]
    for name, h, q in zip(names, holm, bh, strict=True):
        assert rows[name]["adjusted_p"]["holm"] == pytest.approx(h, abs=1e-12)
        assert rows[name]["adjusted_p"]["benjamini_hochberg"] == pytest.approx(q, abs=1e-12)
    text = run_cli(["compare", A, B, "--allow-errors", "--group-by", "category"]).text
    assert "by category" in text and "Holm" in text
    refused = run_cli(["compare", A, B, "--allow-errors", "--group-by", "subject"])
    assert refused.code == 1 and "no grouping 'subject'" in refused.text


def _reference_bootstrap(diffs: list[float], resamples: int = 10_000) -> tuple[float, float]:
    """The documented draw order in plain Python: index = (getrandbits(32) * n) >> 32."""
    rng = random.Random(7)
    n = len(diffs)
    stats = []
    for _ in range(resamples):
        total = 0.0
        for _i in range(n):
            total += diffs[(rng.getrandbits(32) * n) >> 32]
        stats.append(total / n)
    lo, hi = np.percentile(stats, [2.5, 97.5])
    return float(lo), float(hi)


def test_sample_level_comparison_against_a_reference() -> None:
    doc = run_cli(["compare", A, B, "--allow-errors", "--json"]).json
    level = doc["sample_level"]
    per: dict[str, list[int]] = {}
    for sid, sa, sb, _cat in _pairs():
        cell = per.setdefault(sid, [0, 0, 0])
        cell[0] += 1
        cell[1] += sa
        cell[2] += sb
    ids = [p["sample"] for p in level["per_sample"]]
    assert sorted(ids) == sorted(per)
    for p in level["per_sample"]:
        assert [p["pairs"], p["successes_a"], p["successes_b"]] == per[p["sample"]]
    diffs = [(per[s][2] - per[s][1]) / per[s][0] for s in ids]
    assert level["samples"] == len(diffs) == 200
    assert level["difference"] == pytest.approx(math.fsum(diffs) / len(diffs), abs=1e-12)
    assert level["b_higher"] == sum(d > 0 for d in diffs)
    assert level["difference_ci95"]["interval"] == pytest.approx(
        list(_reference_bootstrap(diffs)), abs=1e-12)
    assert "paired bootstrap over samples" in level["difference_ci95"]["method"]
