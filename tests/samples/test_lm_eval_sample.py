"""sample_runs/lm-eval is what evalview.samples.lm_eval writes, holds the documents
sample_runs/README.md says it holds, and its two models compare as documented: refused for
differing documents, NOT MATCHED with --allow-mismatch, paired by (task, doc_id)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from evalview.load import load_run
from evalview.samples import lm_eval as G
from helpers.inspect_logs import run_cli
from helpers.paths import SAMPLE_RUNS

ROOT = SAMPLE_RUNS / G.LM_EVAL_DIR
A, B = (ROOT / m[0] / f"results_{m[4]}.json" for m in G.MODELS)


def _tree(top: Path) -> dict[str, bytes]:
    return {p.relative_to(top).as_posix(): p.read_bytes() for p in top.rglob("*") if p.is_file()}


def test_committed_sample_is_what_the_generator_writes(tmp_path: Path) -> None:
    G.write(tmp_path)
    committed, written = _tree(ROOT), _tree(tmp_path)
    assert sorted(committed) == sorted(written)
    assert [n for n in committed if committed[n] != written[n]] == [], (
        "regenerate with `python -m evalview.samples sample_runs`"
    )


def _samples(results: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """(task, doc_id) -> its samples line, read here with json alone."""
    ts = results.stem.removeprefix("results_")
    out = {}
    for f in sorted(results.parent.glob(f"samples_*_{ts}.jsonl")):
        task = f.name.removeprefix("samples_").removesuffix(f"_{ts}.jsonl")
        for line in f.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            out[(task, d["doc_id"])] = d
    return out


def test_counts_are_those_the_readme_documents() -> None:
    readme = " ".join((SAMPLE_RUNS / "README.md").read_text(encoding="utf-8").split())
    assert f"## `{G.LM_EVAL_DIR}/`" in readme
    for path, folder in ((A, G.MODELS[0][0]), (B, G.MODELS[1][0])):
        run = load_run(path)
        per_task = Counter(run.episodes.task)
        assert per_task == Counter(t for t, _ in _samples(path))  # one episode per document
        said = ", ".join(f"{t} {n}" for t, n in per_task.items())
        assert f"`{folder}/`" in readme
        assert f"{len(run.episodes)} documents ({said})" in readme, (said, readme[-2000:])
    assert "--limit 20" in readme


def test_the_two_models_are_refused_without_allow_mismatch() -> None:
    done = run_cli(["compare", A, B, "--json"])
    assert done.code == 1, done.text
    text = done.text
    # lm-eval's terms, not Inspect's; the first document B lacks named
    assert "Pairs need the same documents (task, doc_id and doc_hash), n-shot, task version and "\
        "filter" in text
    assert "sample ids" not in text
    assert "the first that differs is mc_binary/20, in A only (doc_hash " in text
    assert "--allow-mismatch" in text


def test_allow_mismatch_pairs_by_task_and_doc_id_labelled_not_matched() -> None:
    done = run_cli(["compare", A, B, "--json", "--allow-mismatch"])
    assert done.code == 0, done.text
    doc = done.json
    assert any(lbl.startswith("NOT MATCHED") for lbl in doc["labels"]), doc["labels"]
    # the 2x2 of each task made here from the samples files, paired by (task, doc_id)
    sa, sb = _samples(A), _samples(B)
    cells: dict[str, Counter[str]] = {}
    for (task, i), db in sb.items():
        da = sa[(task, i)]
        assert da["doc_hash"] == db["doc_hash"]  # the same document
        m = da["metrics"][0]
        cell = {(1, 1): "both", (1, 0): "only_a", (0, 1): "only_b", (0, 0): "neither"}[
            (int(da[m]), int(db[m]))]
        cells.setdefault(task, Counter())[cell] += 1
    got = {t["task"]: Counter({k: t[k] for k in ("both", "only_a", "only_b", "neither")})
           for t in doc["tasks"]}
    assert {t: +c for t, c in got.items()} == cells
    assert doc["overall"]["pairs"] == len(sb) == 80
    assert doc["only_in_b"] == []
    assert sorted(doc["only_in_a"]) == sorted(f"{t}/{i}" for t, i in sa if (t, i) not in sb)
