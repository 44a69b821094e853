"""Issue 27: graded metrics compared by a paired bootstrap over documents (checked against a
plain-Python reference of the documented draw order and against scipy's bootstrap), the paper's
table with a column per task (aggregates-only reads too), and a model directory of one read
answered alike by every door (score, export, compare), as `check DIR` finds it."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import bootstrap

from evalview.compare.resampled import paired_bootstrap
from helpers.inspect_logs import run_cli
from helpers.paths import REPO, SAMPLE_RUNS
from load.test_inspect_views import _reference_bootstrap

FIX = REPO / "tests" / "fixtures" / "lm_eval"
PHI = FIX / "phi35-en-it-samples"
PHI_RESULTS = PHI / "results_2024-10-11T13-58-59.572420.json"
PHI_SAMPLES = PHI / "samples_en_it_public_2024-10-11T13-58-59.572420.jsonl"
QWEN = FIX / "qwen3-negotiationtom-limit" / "results_2026-07-08T18-15-33.115417.json"
MODEL_A = SAMPLE_RUNS / "lm-eval" / "org__model-a"


def _phi_b(dest: Path, bump: list[float]) -> Path:
    """A second model on the same four documents: each BLEU moved by `bump`, the results'
    bleu_score the mean of the documents (so the audit is clean)."""
    dest.mkdir()
    lines = [json.loads(x) for x in PHI_SAMPLES.read_text().splitlines() if x.strip()]
    for line, d in zip(lines, bump, strict=True):
        line["bleu_score"] = line["bleu_score"] + d
    (dest / PHI_SAMPLES.name).write_text("".join(json.dumps(x) + "\n" for x in lines))
    res = json.loads(PHI_RESULTS.read_text())
    res["results"]["en_it_public"]["bleu_score,none"] = sum(x["bleu_score"] for x in lines) / 4
    (dest / PHI_RESULTS.name).write_text(json.dumps(res))
    return dest / PHI_RESULTS.name


def test_graded_metric_compared_by_a_paired_bootstrap(tmp_path: Path) -> None:
    bump = [0.05, -0.02, 0.11, 0.03]
    b = _phi_b(tmp_path / "b", bump)
    done = run_cli(["compare", PHI_RESULTS, b, "--json"])
    assert done.code == 0, done.text
    (g,) = done.json["graded"]
    a_values = [json.loads(x)["bleu_score"] for x in PHI_SAMPLES.read_text().splitlines()]
    assert g["task"] == "en_it_public" and g["metric"] == "bleu_score,none" and g["pairs"] == 4
    assert g["mean_a"] == pytest.approx(np.mean(a_values), abs=1e-12)
    assert g["difference"] == pytest.approx(np.mean(bump), abs=1e-12)
    diffs = [(x + d) - x for x, d in zip(a_values, bump, strict=True)]
    assert g["difference_ci95"]["interval"] == pytest.approx(
        list(_reference_bootstrap(diffs)), abs=1e-12)
    assert "paired bootstrap over documents" in g["difference_ci95"]["method"]
    # no 0/1 pair: McNemar has nothing, and says why
    assert done.json["overall"]["pairs"] == 0
    assert "graded" in done.json["overall"]["verdict"]["text"]
    text = run_cli(["compare", PHI_RESULTS, b]).text
    assert "graded en_it_public bleu_score,none" in text and "not McNemar" in text
    # reproducible: the same interval again
    again = run_cli(["compare", PHI_RESULTS, b, "--json"]).json["graded"][0]
    assert again["difference_ci95"] == g["difference_ci95"]


def test_paired_bootstrap_against_scipy() -> None:
    """An independent bootstrap (scipy, another generator) agrees within Monte Carlo error."""
    rng = np.random.default_rng(3)
    d = rng.normal(0.02, 0.2, 400)
    ours = paired_bootstrap(d)
    theirs = bootstrap((d,), np.mean, n_resamples=10_000, method="percentile",
                       random_state=np.random.default_rng(5)).confidence_interval
    se = float(np.std(d, ddof=1) / np.sqrt(len(d)))
    assert ours[0] == pytest.approx(theirs.low, abs=0.05 * se * 4)
    assert ours[1] == pytest.approx(theirs.high, abs=0.05 * se * 4)
    assert ours == paired_bootstrap(d)  # seeded: the same draws every time


def test_table_has_a_column_per_task_aggregates_only_too() -> None:
    done = run_cli(["table", MODEL_A, QWEN, "--format", "json", "--bootstrap", "0"])
    rows = {Path(r["path"]).name: r for r in done.json["rows"]}
    qwen = rows[QWEN.name]["task_values"]
    recorded = json.loads(QWEN.read_text())["results"]
    assert qwen["negotiationtom_belief"]["value"] == recorded["negotiationtom_belief"]["acc,none"]
    assert qwen["negotiationtom"]["group"] is True
    a = next(r for name, r in rows.items() if name.startswith("results_2025-05-01"))
    a_recorded = json.loads(next(MODEL_A.glob("results_*.json")).read_text())["results"]
    for task, v in a["task_values"].items():
        metric = v["metric"]
        assert v["value"] == a_recorded[task][metric]
        assert v["stderr"] == a_recorded[task][metric.replace(",", "_stderr,", 1)]
    md = run_cli(["table", MODEL_A, QWEN, "--bootstrap", "0"]).stdout
    assert "Per task, as the tool recorded it" in md
    header = next(line for line in md.splitlines() if line.startswith("| read | mc\\_binary"))
    assert "negotiationtom\\_belief" in header
    csv_text = run_cli(["table", MODEL_A, QWEN, "--format", "csv", "--bootstrap", "0"]).stdout
    table = list(csv.DictReader(io.StringIO(csv_text)))
    qrow = next(r for r in table if r["path"].endswith(QWEN.name))
    assert float(qrow["value:negotiationtom_desire"]) == recorded["negotiationtom_desire"][
        "acc,none"]
    assert qrow["value:mc_binary"] == ""


def test_a_model_directory_is_its_one_read_at_every_door(tmp_path: Path) -> None:
    (results,) = MODEL_A.glob("results_*.json")
    by_dir = run_cli(["score", MODEL_A, "--bootstrap", "0", "--json"])
    by_file = run_cli(["score", results, "--bootstrap", "0", "--json"])
    assert by_dir.code == by_file.code == 0, by_dir.text
    assert {k: v for k, v in by_dir.json.items() if k != "path"} == {
        k: v for k, v in by_file.json.items() if k != "path"}
    assert run_cli(["check", MODEL_A]).code == 0
    done = run_cli(["export", MODEL_A, "--output-dir", tmp_path / "out", "--bootstrap", "0"])
    assert done.code == 0, done.text
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    selected = next(d for d in result["denominators"] if d["name"] == "selected")
    assert selected["denominator"] == by_file.json["denominators"]["selected"]
    same = run_cli(["compare", MODEL_A, MODEL_A, "--json"])
    assert same.code == 0 and same.json["overall"]["only_a"] == same.json["overall"]["only_b"] == 0


@pytest.mark.parametrize("door", ["score", "export", "compare"])
def test_a_folder_of_several_reads_names_them(door: str, tmp_path: Path) -> None:
    folder = SAMPLE_RUNS / "inspect"
    args = {"score": ["score", folder], "export": ["export", folder, "--output-dir",
                                                   tmp_path / "out"],
            "compare": ["compare", folder, folder]}[door]
    done = run_cli(args)
    assert done.code == 2, done.text
    assert "a folder of 2 reads" in done.text and "os-agent-model-a.eval" in done.text
    assert f"`evalview {door}` takes one read" in done.text
    assert not (tmp_path / "out").exists()


def test_a_logs_folder_of_one_log_is_that_log(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copyfile(SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval", logs / "a.eval")
    by_dir = run_cli(["score", logs, "--allow-errors", "--bootstrap", "0", "--json"])
    assert by_dir.code == 0, by_dir.text
    assert by_dir.json["denominators"]["selected"] == 600


def test_per_task_multiplicity_of_two_lm_eval_models_against_statsmodels() -> None:
    """Issue 27: the per-task breakdown of two models carries Holm and Benjamini-Hochberg
    adjusted mid-p over the family of tasks, each task's 2x2 table recounted from the samples
    files (the documents both models ran: model B ran with --limit 20)."""
    from scipy.stats import binom
    from statsmodels.stats.multitest import multipletests

    b_dir = SAMPLE_RUNS / "lm-eval" / "org__model-b"
    done = run_cli(["compare", MODEL_A, b_dir, "--allow-mismatch", "--json"])
    assert done.code == 0, done.text

    def outcomes(folder: Path) -> dict[tuple[str, int], int]:
        out = {}
        for f in sorted(folder.glob("samples_*.jsonl")):
            task = f.name.removeprefix("samples_").rsplit("_", 1)[0]
            for line in f.read_text().splitlines():
                doc = json.loads(line)
                metric = next(k for k in ("acc", "exact_match") if k in doc)
                out[(task, doc["doc_id"])] = int(doc[metric] == 1)
        return out

    a, b = outcomes(MODEL_A), outcomes(b_dir)
    tasks = done.json["tasks"]
    midp = []
    for t in tasks:
        keys = [k for k in a if k[0] == t["task"] and k in b]
        bb = sum(1 for k in keys if b[k] and not a[k])
        cc = sum(1 for k in keys if a[k] and not b[k])
        n, k = bb + cc, min(bb, cc)
        # mid-p McNemar (Fagerland et al. 2013): 2 P(X < k) + P(X = k), X ~ Bin(n, 1/2)
        p = min(1.0, 2 * binom.cdf(k - 1, n, 0.5) + binom.pmf(k, n, 0.5)) if n else 1.0
        assert t["pairs"] == len(keys) and t["mcnemar_midp"] == pytest.approx(p, abs=1e-12)
        midp.append(p)
    holm = multipletests(midp, method="holm")[1]
    bh = multipletests(midp, method="fdr_bh")[1]
    for t, h, q in zip(tasks, holm, bh, strict=True):
        assert t["adjusted_p"]["family"] == len(tasks) == 4
        assert t["adjusted_p"]["holm"] == pytest.approx(h, abs=1e-12)
        assert t["adjusted_p"]["benjamini_hochberg"] == pytest.approx(q, abs=1e-12)
