"""What evalview says when an lm-eval read cannot be scored or paired, in lm-eval's terms:
an aggregates-only results file lacks per-document samples (run lm-eval with --log_samples), not
a manifest.json; two reads of different documents are refused naming what lm-eval pairs need
(task, doc_id, doc_hash; n-shot; version; filter) and the first document that differs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from evalview.samples import inspect_ai as IG
from evalview.samples import lm_eval as G
from helpers.inspect_logs import edited, run_cli, small_log, write
from helpers.paths import REPO, SAMPLE_RUNS

PYTHIA = (REPO / "tests" / "fixtures" / "lm_eval" / "pythia-steer-group"
          / "results_2024-06-03T01-43-18.023720.json")
A = SAMPLE_RUNS / G.LM_EVAL_DIR / G.MODELS[0][0] / f"results_{G.MODELS[0][4]}.json"
LACKS = "read without samples files: it records each task's aggregates, not per-document samples"
FIX = "Run lm-eval with --log_samples"


def _said(text: str) -> None:
    assert LACKS in text and FIX in text, text
    assert "manifest.json" not in text and "episode_ids" not in text, text
    assert PYTHIA.name in text


def test_score_of_aggregates_says_what_the_format_lacks() -> None:
    done = run_cli(["score", PYTHIA, "--json", "--bootstrap", "0"])
    assert done.code == 1
    (no_cases,) = [r for r in done.json["refusals"] if r["code"] == "no-cases"]
    _said(" ".join(no_cases["message"].split()))
    text = run_cli(["score", PYTHIA, "--bootstrap", "0"]).text
    _said(text)
    assert "lm-evaluation-harness's own numbers" in text  # still shown, as recorded


def test_export_says_the_same(tmp_path: Path) -> None:
    done = run_cli(["export", PYTHIA, "--output-dir", tmp_path / "out"])
    assert done.code == 1, done.text
    _said(done.text)
    assert not (tmp_path / "out").exists()


def test_compare_refuses_aggregates_in_its_own_words() -> None:
    """Issue 27: compare's refusal is compare's (nothing to pair), not score's ("no selected
    case to score"), and still says what lm-eval lacks and how to get it."""
    done = run_cli(["compare", PYTHIA, PYTHIA])
    assert done.code == 1, done.text
    said = " ".join(done.text.split())
    assert "not compared, nothing to pair" in said, said
    assert "no selected case to score" not in said and "manifest.json" not in said, said
    assert "no per-document outcome" in said and FIX in said and PYTHIA.name in said, said
    assert said.index("not compared") < said.index("lm-evaluation-harness"), said


def _copy_of_a(dest: Path) -> Path:
    dest.mkdir()
    for f in A.parent.iterdir():
        shutil.copyfile(f, dest / f.name)
    return dest / A.name


def test_a_changed_doc_hash_is_named(tmp_path: Path) -> None:
    b = _copy_of_a(tmp_path / "b")
    samples = next(b.parent.glob("samples_arith_sub_*.jsonl"))
    lines = [json.loads(x) for x in samples.read_text().splitlines()]
    old = lines[7]["doc_hash"]
    lines[7]["doc_hash"] = "0" * 64
    samples.write_text("".join(json.dumps(x) + "\n" for x in lines))
    done = run_cli(["compare", A, b, "--json"])
    assert done.code == 1, done.text
    text = done.text
    assert (f"the first that differs is arith_sub/7, doc_hash {old} in A, doc_hash {'0' * 64} "
            "in B") in text
    assert ("Pairs need the same documents (task, doc_id and doc_hash), n-shot, task version and "
            "filter") in text
    assert "sample ids" not in text


def test_a_changed_n_shot_is_named(tmp_path: Path) -> None:
    b = _copy_of_a(tmp_path / "b")
    doc = json.loads(b.read_text())
    doc["n-shot"]["gen_em"] = 3
    b.write_text(json.dumps(doc, indent=2))
    done = run_cli(["compare", A, b, "--json"])
    assert done.code == 1, done.text
    assert "gen_em n-shot '5' vs '3'" in done.text
    assert "the first that differs" not in done.text  # the same documents


def test_inspect_keeps_its_own_words(tmp_path: Path) -> None:
    log = small_log([["C"], ["I"], ["C"]])
    a = write(log, tmp_path / "a.eval")

    def other_version(lg: IG.InspectLog) -> None:
        lg.header["eval"]["task_version"] = 7

    b = write(edited(log, other_version), tmp_path / "b.eval")
    done = run_cli(["compare", a, b, "--json"])
    assert done.code == 1, done.text
    assert "Pairs need the same task, task version, dataset and sample ids" in done.text


def test_the_document_limit_is_a_clear_exit_2(tmp_path: Path) -> None:
    """More documents than MAX_DOCS (here 100: model A has 60 + 30 + 30 + 40): exit 2 naming the
    results file, the limit, the samples file and line where it was reached, and what to do."""
    from unittest import mock

    from evalview.load.lm_eval import reader

    with mock.patch.object(reader, "MAX_DOCS", 100):
        for args in (["check", A], ["check", A, "--json"], ["score", A], ["compare", A, A]):
            done = run_cli(args)
            assert done.code == 2, (args, done.text)
            text = done.text
            assert str(A) in text and "more than 100 documents" in text, text
            assert f"samples_arith_sub_{G.MODELS[0][4]}.jsonl line 11" in text, text
            assert "Move some samples_<task>_<ts>.jsonl files" in text
            assert "Traceback" not in text
        folder = run_cli(["check", A.parent.parent, "--json"]).json
    (row,) = [r for r in folder["runs"] if r["path"].startswith(G.MODELS[0][0])]
    assert row["status"] == "unreadable" and "more than 100 documents" in row["error"]
    others = [r for r in folder["runs"] if not r["path"].startswith(G.MODELS[0][0])]
    assert others and all(r["status"] == "read" for r in others)  # the folder is still read
