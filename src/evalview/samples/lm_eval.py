"""Generated lm-evaluation-harness output: two models, three tasks, with --log_samples.

Laid out as lm-eval lays out `--output_path OUT --log_samples`: `OUT/<model>/results_<ts>.json`
and `samples_<task>_<ts>.jsonl` beside it, with the keys lm-eval 0.4.x writes (evaluator.py,
evaluation_tracker.py). Tasks: `mc_binary` (multiple choice, acc), the group `arith` of
`arith_add` and `arith_sub` (acc, size-weighted), and `gen_em` (generation, exact_match under the
`strict-match` filter). Model B was run with `--limit 20`. Every aggregate is computed here from
the documents as lm-eval computes it (mean, sample stderr), so `evalview check` finds no error.
`python -m evalview.samples DIR` writes it under DIR/lm-eval with the other samples
(sample_runs/lm-eval), and its paragraph of sample_runs/README.md (`readme_section`).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from pathlib import Path
from typing import Any

#: The directory (under sample_runs/) of the lm-eval output.
LM_EVAL_DIR = "lm-eval"
#: (task, documents, metric, filter, version, n-shot)
TASKS = (
    ("mc_binary", 60, "acc", "none", 1.0, 0),
    ("arith_add", 30, "acc", "none", 2.0, 5),
    ("arith_sub", 30, "acc", "none", 2.0, 5),
    ("gen_em", 40, "exact_match", "strict-match", 3.0, 5),
)
GROUPS = {"arith": ("arith_add", "arith_sub")}
#: (directory, model name, skill per task, limit, timestamp)
MODELS = (
    ("org__model-a", "org/model-a", {"mc_binary": 0.70, "arith_add": 0.80, "arith_sub": 0.60,
                                     "gen_em": 0.45}, None, "2025-05-01T10-00-00.000001"),
    ("org__model-b", "org/model-b", {"mc_binary": 0.62, "arith_add": 0.75, "arith_sub": 0.55,
                                     "gen_em": 0.35}, 20, "2025-05-02T11-30-00.000002"),
)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _doc(task: str, i: int) -> dict[str, Any]:
    """The document as the dataset holds it (the same for both models)."""
    return {"question": f"{task} question {i}", "answer": str((i * 7) % 10)}


def _stderr(values: list[float]) -> float:
    n = len(values)
    return statistics_sd(values) / math.sqrt(n) if n > 1 else float("nan")


def statistics_sd(values: list[float]) -> float:
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def build(index: int) -> dict[str, bytes]:
    """File name -> bytes of model `index`'s output directory."""
    folder, name, skill, limit, ts = MODELS[index]
    rng = random.Random(f"lm-eval-sample-{index}")
    results: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    sizes: dict[str, int] = {}
    for task, n_docs, metric, filt, _version, _shot in TASKS:
        n = min(n_docs, limit) if limit else n_docs
        lines = []
        values = []
        for i in range(n):
            doc = _doc(task, i)
            ok = rng.random() < skill[task]
            v = 1.0 if ok else 0.0
            values.append(v)
            target = doc["answer"]
            resp = target if ok else str((int(target) + 1) % 10)
            line = {
                "doc_id": i, "doc": doc, "target": target,
                "arguments": [[f"Q: {doc['question']}\nA:", {"until": ["\n"]}]],
                "resps": [[f" {resp}"]], "filtered_resps": [resp], "filter": filt,
                "metrics": [metric],
                "doc_hash": _sha(json.dumps(doc, indent=2, ensure_ascii=False)),
                "prompt_hash": _sha(f"Q: {doc['question']}\nA:"),
                "target_hash": _sha(target), metric: v,
            }
            lines.append(json.dumps(line, ensure_ascii=False))
        files[f"samples_{task}_{ts}.jsonl"] = ("\n".join(lines) + "\n").encode()
        mean = sum(values) / n
        results[task] = {"alias": task if task not in ("arith_add", "arith_sub") else f" - {task}",
                         f"{metric},{filt}": mean, f"{metric}_stderr,{filt}": _stderr(values)}
        sizes[task] = n
    groups = {}
    for g, subs in GROUPS.items():
        total = sum(sizes[s] for s in subs)
        mean = sum(results[s]["acc,none"] * sizes[s] for s in subs) / total
        pooled = math.sqrt(sum((sizes[s] - 1) * results[s]["acc_stderr,none"] ** 2 * sizes[s]
                               for s in subs) / (total - len(subs)) / total)
        groups[g] = {"alias": g, "acc,none": mean, "acc_stderr,none": pooled}
    doc = {
        "results": {"mc_binary": results["mc_binary"], **groups, "arith_add": results["arith_add"],
                    "arith_sub": results["arith_sub"], "gen_em": results["gen_em"]},
        "groups": groups,
        "group_subtasks": {"mc_binary": [], "arith": list(GROUPS["arith"]), "gen_em": []},
        "configs": {t: {"task": t, "num_fewshot": s, "metric_list": [
            {"metric": m, "aggregation": "mean", "higher_is_better": True}],
            "filter_list": [{"name": f, "filter": [{"function": "take_first"}]}],
            "metadata": {"version": v}} for t, _, m, f, v, s in TASKS},
        "versions": {**{t: v for t, _, _, _, v, _ in TASKS}, "arith": 1.0},
        "n-shot": {t: s for t, _, _, _, _, s in TASKS},
        "higher_is_better": {t: {m: True} for t, _, m, _, _, _ in TASKS},
        "n-samples": {t: {"original": n, "effective": sizes[t]} for t, n, *_ in TASKS},
        "config": {"model": "hf", "model_args": f"pretrained={name},dtype=bfloat16",
                   "batch_size": "8", "batch_sizes": [], "device": "cuda:0", "use_cache": None,
                   "limit": float(limit) if limit else None, "bootstrap_iters": 100000,
                   "gen_kwargs": None, "random_seed": 0, "numpy_seed": 1234,
                   "torch_seed": 1234, "fewshot_seed": 1234},
        "git_hash": "4e7e0d47",
        "date": 1746093600.0,
        "task_hashes": {t: _sha(f"{t} documents") for t, *_ in TASKS},
        "model_source": "hf",
        "model_name": name,
        "model_name_sanitized": folder,
        "lm_eval_version": "0.4.8",
    }
    files[f"results_{ts}.json"] = json.dumps(doc, indent=2, ensure_ascii=False).encode()
    return files


def write(dest: Path) -> list[Path]:
    """Both models' output directories under `dest` (created); the paths written."""
    written = []
    for i, (folder, *_rest) in enumerate(MODELS):
        d = dest / folder
        d.mkdir(parents=True, exist_ok=True)
        for fname, data in build(i).items():
            (d / fname).write_bytes(data)
            written.append(d / fname)
    return written


def documents(index: int) -> dict[str, int]:
    """Task -> the documents model `index` was run on (its --limit applied)."""
    limit = MODELS[index][3]
    return {t: min(n, limit) if limit else n for t, n, *_ in TASKS}


def readme_section() -> list[str]:
    """The lm-eval paragraph of sample_runs/README.md."""
    def counts(i: int) -> str:
        docs = documents(i)
        return f"{sum(docs.values())} documents ({', '.join(f'{t} {n}' for t, n in docs.items())})"

    a, b = (f"{LM_EVAL_DIR}/{m[0]}/results_{m[4]}.json" for m in MODELS)
    tasks = ", ".join(f"`{t}` ({m}, filter `{f}`, {s}-shot)" for t, _, m, f, _, s in TASKS)
    return [
        f"## `{LM_EVAL_DIR}/`",
        "",
        "lm-evaluation-harness output (see `docs/lm-eval.md`), laid out as `lm_eval --output_path "
        f"{LM_EVAL_DIR} --log_samples` lays it out: a folder per model holding its "
        "`results_<ts>.json` and one `samples_<task>_<ts>.jsonl` per task. Four tasks: "
        f"{tasks}; `arith_add` and `arith_sub` make the group `arith` (size-weighted). The data "
        "is synthetic; every aggregate is computed from the documents as lm-eval computes it, "
        "so `check` finds no error.",
        "",
        f"- `{MODELS[0][0]}/` ({MODELS[0][1]}): {counts(0)}; `check` finds nothing.",
        f"- `{MODELS[1][0]}/` ({MODELS[1][1]}, `--limit {MODELS[1][3]}`): {counts(1)}; `check` "
        "warns EV051 (not the benchmark's numbers).",
        "",
        "Compare them (pairs are (task, doc_id)): refused, since model B ran on only the first "
        f"{MODELS[1][3]} documents of each task (the refusal names the first document B lacks); "
        "with `--allow-mismatch` the documents both ran on are paired, labelled NOT MATCHED.",
        "",
        "```sh",
        f"evalview check sample_runs/{LM_EVAL_DIR}/",
        f"evalview score sample_runs/{a}",
        f"evalview compare sample_runs/{a} sample_runs/{b} --allow-mismatch",
        "```",
        "",
    ]
