"""The lm-eval reader on realistic `--log_samples` output, whole processes, interleaved.

Writes bench/out/lm-eval-20x250/: what `lm_eval --output_path OUT --log_samples` writes for an
MMLU-like run (lm-eval 0.4.x keys, as evalview.samples.lm_eval writes them): 20 multiple-choice
subtasks of 250 documents in 4 size-weighted groups, `results_<ts>.json` and one
`samples_<task>_<ts>.jsonl` per subtask, each line a document with its four loglikelihood
requests (the prompt, four choices), responses, hashes and `acc` (5,000 lines, ~12 MB). Every
aggregate is computed from the documents as lm-eval computes it (mean, sample stderr, groups
size-weighted with the pooled stderr), so `evalview check` finds no error. Then times, each
round once and interleaved so a busy neighbour slows both alike:

- the floor: read the results JSON and every samples file, `orjson.loads` each document (the
  least any reader of it must do);
- `evalview check RESULTS --json`.

Reports medians of wall clock and CPU (user + sys) and the ratio (budget: <= 2x).

    python bench/bench_lm_eval.py [--repeat 9]
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import math
import os
import random
import statistics
import sys
from pathlib import Path
from typing import Any

from bench_check import Sample, machine, measure
from userenv import as_a_user

OUT = Path(__file__).resolve().parent / "out"
TS = "2025-06-01T12-00-00.000001"
GROUPS = {
    "stem": ("abstract_algebra", "anatomy", "astronomy", "college_physics", "virology"),
    "humanities": ("philosophy", "prehistory", "world_religions", "formal_logic", "law"),
    "social_sciences": ("econometrics", "geography", "sociology", "psychology", "politics"),
    "other": ("business_ethics", "marketing", "nutrition", "management", "medicine"),
}

FLOOR = r"""
import os, sys, orjson
results = sys.argv[1]
with open(results, "rb") as fh:
    orjson.loads(fh.read())
folder, ts = os.path.dirname(results), os.path.basename(results)[8:-5]
for name in sorted(os.listdir(folder)):
    if name.startswith("samples_") and name.endswith(f"_{ts}.jsonl"):
        with open(os.path.join(folder, name), "rb") as fh:
            for line in fh.read().splitlines():
                if line.strip():
                    orjson.loads(line)
"""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _stderr(values: list[float]) -> float:
    n = len(values)
    m = sum(values) / n
    return math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) / math.sqrt(n)


def _line(task: str, subject: str, i: int, rng: random.Random, skill: float) -> tuple[str, float]:
    """One samples line as lm-eval writes a multiple-choice document (and its acc)."""
    choices = [f"{subject} option {i}-{c} " + " ".join(rng.choice("abcdefgh") * rng.randint(2, 7)
                                                    for _ in range(6)) for c in range(4)]
    question = (f"Question {i} about {subject.replace('_', ' ')}: "
                + " ".join(rng.choice(("which", "of", "the", "following", "is", "most", "likely",
                                       "true", "given", "that", "a", "system", "holds"))
                           for _ in range(40)) + "?")
    answer = rng.randrange(4)
    doc = {"question": question, "subject": subject, "choices": choices, "answer": answer}
    prompt = (f"The following are multiple choice questions (with answers) about "
              f"{subject.replace('_', ' ')}.\n\n{question}\n"
              + "".join(f"{'ABCD'[c]}. {choices[c]}\n" for c in range(4)) + "Answer:")
    ok = rng.random() < skill
    logliks = [-rng.uniform(0.5, 6.0) for _ in range(4)]
    best = answer if ok else (answer + 1 + rng.randrange(3)) % 4
    logliks[best] = max(logliks) + rng.uniform(0.01, 1.0)
    acc = 1.0 if best == answer else 0.0
    line = {
        "doc_id": i, "doc": doc, "target": answer,
        "arguments": {f"gen_args_{c}": {"arg_0": prompt, "arg_1": f" {'ABCD'[c]}"}
                      for c in range(4)},
        "resps": [[[str(ll), "False"]] for ll in logliks],
        "filtered_resps": [[str(ll), "False"] for ll in logliks],
        "filter": "none", "metrics": ["acc"],
        "doc_hash": _sha(json.dumps(doc, indent=2, ensure_ascii=False)),
        "prompt_hash": _sha(prompt), "target_hash": _sha(str(answer)), "acc": acc,
    }
    return json.dumps(line, ensure_ascii=False), acc


def generate(dest: Path, docs: int = 250) -> Path:
    """Write the output directory; the path of its results JSON."""
    rng = random.Random(25)
    dest.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    sizes: dict[str, int] = {}
    for subjects in GROUPS.values():
        for subject in subjects:
            task = f"mmlu_{subject}"
            skill = rng.uniform(0.3, 0.8)
            lines, values = [], []
            for i in range(docs):
                text, acc = _line(task, subject, i, rng, skill)
                lines.append(text)
                values.append(acc)
            (dest / f"samples_{task}_{TS}.jsonl").write_text("\n".join(lines) + "\n",
                                                            encoding="utf-8")
            results[task] = {"alias": f"  - {subject}", "acc,none": sum(values) / docs,
                             "acc_stderr,none": _stderr(values)}
            sizes[task] = docs
    groups = {}
    for group, subjects in GROUPS.items():
        subs = [f"mmlu_{s}" for s in subjects]
        total = sum(sizes[s] for s in subs)
        mean = sum(results[s]["acc,none"] * sizes[s] for s in subs) / total
        pooled = math.sqrt(sum((sizes[s] - 1) * results[s]["acc_stderr,none"] ** 2 * sizes[s]
                               for s in subs) / (total - len(subs)) / total)
        groups[f"mmlu_{group}"] = {"alias": f" - {group}", "acc,none": mean,
                                   "acc_stderr,none": pooled}
    tasks = list(results)
    doc = {
        "results": {**groups, **results},
        "groups": groups,
        "group_subtasks": {**{g: [f"mmlu_{s}" for s in subs]
                              for g, subs in zip(groups, GROUPS.values(), strict=True)},
                           **{t: [] for t in tasks}},
        "configs": {t: {"task": t, "num_fewshot": 0, "output_type": "multiple_choice",
                        "metric_list": [{"metric": "acc", "aggregation": "mean",
                                         "higher_is_better": True}],
                        "metadata": {"version": 1.0}} for t in tasks},
        "versions": {**{t: 1.0 for t in tasks}, **{g: 2.0 for g in groups}},
        "n-shot": {t: 0 for t in tasks},
        "higher_is_better": {t: {"acc": True} for t in tasks},
        "n-samples": {t: {"original": docs, "effective": docs} for t in tasks},
        "config": {"model": "hf", "model_args": "pretrained=org/model-7b,dtype=bfloat16",
                   "batch_size": "auto", "batch_sizes": [64], "device": "cuda:0",
                   "use_cache": None, "limit": None, "bootstrap_iters": 100000,
                   "gen_kwargs": None, "random_seed": 0, "numpy_seed": 1234,
                   "torch_seed": 1234, "fewshot_seed": 1234},
        "git_hash": "4e7e0d47",
        "date": 1748779200.0,
        "task_hashes": {t: _sha(f"{t} documents") for t in tasks},
        "model_source": "hf",
        "model_name": "org/model-7b",
        "model_name_sanitized": "org__model-7b",
        "lm_eval_version": "0.4.8",
    }
    results_path = dest / f"results_{TS}.json"
    results_path.write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")
    return results_path


def main(argv: list[str] | None = None) -> int:
    as_a_user()
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--docs", type=int, default=250, help="documents per subtask")
    args = parser.parse_args(argv)
    dest = OUT / f"lm-eval-20x{args.docs}"
    results = dest / f"results_{TS}.json"
    if not results.exists():
        generate(dest, args.docs)
    rows: dict[str, list[str]] = {
        "floor: orjson the results and every samples line": [sys.executable, "-c", FLOOR,
                                                             str(results)],
        "check --json": [sys.executable, "-m", "evalview", "check", str(results), "--json"],
    }
    samples: dict[str, list[Sample]] = {k: [] for k in rows}
    load = os.getloadavg()
    for round_ in range(args.repeat + 1):  # round 0 warms the caches and is dropped
        for name, cmd in rows.items():
            s = measure(cmd)
            if round_:
                samples[name].append(s)
    floor_name = next(iter(rows))
    floor_wall = statistics.median(s.wall_s for s in samples[floor_name])
    floor_cpu = statistics.median(s.cpu_s for s in samples[floor_name])
    size = sum(p.stat().st_size for p in dest.iterdir())
    print(f"{dt.date.today()} · {machine()}")
    print(f"{dest.name}: {size / 2**20:.1f} MiB, {len(GROUPS) * 5 * args.docs:,} documents; "
          f"load average {load[0]:.2f} at start, {os.getloadavg()[0]:.2f} at end; medians of "
          f"{args.repeat} interleaved rounds")
    print("| command | wall s | CPU s | / floor (wall) | / floor (CPU) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in rows:
        wall = statistics.median(s.wall_s for s in samples[name])
        cpu = statistics.median(s.cpu_s for s in samples[name])
        print(f"| {name} | {wall:.3f} | {cpu:.3f} | {wall / floor_wall:.2f}× | "
              f"{cpu / floor_cpu:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
