"""The generated Inspect sample (sample_runs/inspect: 200 samples x 3 epochs, two models): its
numbers from the files themselves (standard library only), both formats alike, the paired
comparison's counts and McNemar p against scipy, a folder of logs, and an export that publishes
outcomes, never transcripts."""

from __future__ import annotations

import json
import random
import statistics
import zipfile
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from evalview.samples.inspect_ai import write_inspect_samples
from helpers.inspect_logs import run_cli
from helpers.paths import SAMPLE_RUNS

LOGS = SAMPLE_RUNS / "inspect"
A, B = LOGS / "os-agent-model-a.eval", LOGS / "os-agent-model-b.eval"


def _samples(path: Path) -> dict[tuple[int, int], dict[str, Any]]:
    with zipfile.ZipFile(path) as z:
        docs = [json.loads(z.read(n)) for n in z.namelist() if n.startswith("samples/")]
    return {(d["id"], d["epoch"]): d for d in docs}


def _outcome(d: dict[str, Any]) -> str:
    if d.get("error"):
        return "error"
    return "success" if d["scores"]["includes"]["value"] == "C" else "failure"


def test_numbers_from_the_files() -> None:
    docs = _samples(A)
    assert len(docs) == 600 and {e for _i, e in docs} == {1, 2, 3}
    outcomes = [_outcome(d) for d in docs.values()]
    card = run_cli(["score", A, "--json", "--bootstrap", "0", "--allow-errors"]).json
    d = card["denominators"]
    assert d["selected"] == 600
    assert d["successes"] == outcomes.count("success")
    assert d["errors"] == outcomes.count("error") == card["error_categories"]["infrastructure"]
    assert card["pending"] == outcomes.count("error")
    limits = sum(1 for x in docs.values() if x.get("limit"))
    assert sum(v for k, v in card["termination_reasons"].items() if k.startswith("limit:")) == \
        limits
    # Inspect's accuracy: per-sample means over the scored epochs, then their mean
    per_sample: dict[int, list[float]] = {}
    for (sid, _e), x in docs.items():
        if not x.get("error"):
            per_sample.setdefault(sid, []).append(1.0 if _outcome(x) == "success" else 0.0)
    reduced = [statistics.mean(v) for v in per_sample.values()]
    native = card["source"]["native"]["metrics"]
    assert native["accuracy"]["recorded"] == pytest.approx(statistics.mean(reduced))
    assert native["accuracy"]["recomputed"] == pytest.approx(statistics.mean(reduced))
    assert native["stderr"]["recomputed"] == pytest.approx(float(stats.sem(reduced)))
    # the score refuses an errored read without --allow-errors (the reporting rules)
    assert run_cli(["score", A]).code == 1


def test_check_finds_caveats_not_errors() -> None:
    for path in (A, B):
        check = run_cli(["check", path, "--json"]).json
        assert check["ok"] is True
        assert {f["code"] for f in check["findings"]} == {"EV003", "EV004", "EV006", "EV016"}


def test_the_json_twins_read_alike(tmp_path: Path) -> None:
    written = write_inspect_samples(tmp_path, ("eval", "json"))
    assert [p.read_bytes() for p in written if p.suffix == ".eval"] == [A.read_bytes(),
                                                                       B.read_bytes()]
    for stem in ("os-agent-model-a", "os-agent-model-b"):
        cards = [run_cli(["score", tmp_path / f"{stem}.{x}", "--json", "--bootstrap", "0",
                          "--allow-errors"]).json for x in ("eval", "json")]
        for key in ("denominators", "rates", "tasks", "termination_reasons", "errored"):
            a, b = cards[0][key], cards[1][key]
            if key == "errored":  # the record's file: the member, or the JSON log
                a = [{k: v for k, v in e.items() if k != "file"} for e in a]
                b = [{k: v for k, v in e.items() if k != "file"} for e in b]
            assert a == b, key


def test_compare_pairs_by_sample_and_epoch() -> None:
    da, db = _samples(A), _samples(B)
    cells = {"both": 0, "only_a": 0, "only_b": 0, "neither": 0}
    for key, x in da.items():
        oa, ob = _outcome(x), _outcome(db[key])
        if "error" in (oa, ob):
            continue
        cells[{("success", "success"): "both", ("success", "failure"): "only_a",
               ("failure", "success"): "only_b", ("failure", "failure"): "neither"}[
            (oa, ob)]] += 1
    refused = run_cli(["compare", A, B])
    assert refused.code == 1 and "errored rollout" in refused.text
    done = run_cli(["compare", A, B, "--json", "--allow-errors"])
    assert done.code == 0, done.text
    overall = done.json["overall"]
    assert {k: overall[k] for k in cells} == cells
    b, c = cells["only_b"], cells["only_a"]
    assert overall["mcnemar_p"] == pytest.approx(stats.binomtest(b, b + c, 0.5).pvalue)
    assert any("(sample id, epoch)" in n for n in done.json["notes"])


def test_compare_refuses_other_samples_unless_allowed(tmp_path: Path) -> None:
    """Model B run with `limit` 150: another selection of sample ids, refused; with
    --allow-mismatch compared over the 450 sample-epochs both select, labelled NOT MATCHED."""
    from evalview.samples import inspect_ai as G

    samples = G.task_samples(150)
    outs = G.outcomes(samples, G.MODELS[1][2], seed=G.hash_seed(G.MODELS[1][0]))
    rng = random.Random(3)
    results, reductions = G.results_of(outs)
    header = G.header_doc(G.MODELS[1][1], "LimitedEval000000000000", "RunLim00", samples,
                          results)
    header["eval"]["config"]["limit"] = 150
    header["eval"]["dataset"]["samples"] = 200
    log = G.InspectLog(header, [G.sample_doc(o, G.MODELS[1][1], rng) for o in outs],
                       reductions)
    other = G.write_eval(log, tmp_path / "limited.eval")
    done = run_cli(["compare", A, other, "--allow-errors"])
    assert done.code == 1 and "not two reads of the same samples" in done.text
    assert "--allow-mismatch" in done.text and "150 ids" in done.text
    allowed = run_cli(["compare", A, other, "--allow-errors", "--allow-mismatch", "--json"])
    assert allowed.code == 0, allowed.text
    doc = allowed.json
    assert doc["labels"][0].startswith("NOT MATCHED: sample ids and epochs")
    assert len(doc["only_in_a"]) == 150
    # every common sample-epoch is a completed pair or a pair with an errored side
    assert doc["overall"]["pairs"] + len(doc["errored_pairs"]) == 450


def test_a_logs_folder_is_a_folder_of_reads(tmp_path: Path) -> None:
    write_inspect_samples(tmp_path, ("eval", "json"))
    check = run_cli(["check", tmp_path, "--json"])
    assert check.code == 0, check.text
    assert len(check.json["runs"]) == 4
    table = run_cli(["table", tmp_path, "--format", "json", "--allow-errors"])
    rows = table.json["rows"] if table.stdout.strip() else []
    assert len(rows) == 4, table.text
    assert {r["benchmark"] for r in rows} == {"os_agent task_version 1"}


def test_export_publishes_outcomes_never_transcripts(tmp_path: Path) -> None:
    out = tmp_path / "export"
    done = run_cli(["export", A, "--output-dir", out])
    assert done.code == 0, done.text
    published = (out / "result.json").read_text(encoding="utf-8") + (
        out / "index.html").read_text(encoding="utf-8")
    docs = _samples(A)
    leaked = [
        "Read /srv/t",  # every sample's input
        "call_",  # tool call ids
        "cat /srv",  # tool call arguments
        "10.1.2.3",  # model_base_url
        "example-lab",  # model_args
        "Traceback",  # error tracebacks
        "sandbox exec failed",  # error messages
        docs[(1, 1)]["target"],  # the target and the answers
        docs[(1, 1)]["uuid"],
    ]
    for text in leaked:
        assert text not in published, text
    result = json.loads((out / "result.json").read_text(encoding="utf-8"))
    assert result["source_format"] == "inspect-ai/eval-log"
    assert any("outcomes only" in label for label in result["labels"])
    assert len(result["episodes"]) == 600
    assert run_cli(["check", out / "result.json"]).code == 0  # reopened: re-audited, clean
