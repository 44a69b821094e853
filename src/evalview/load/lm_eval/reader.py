"""lm-evaluation-harness `results_<ts>.json` → one `Run`, audited while read (EV05x–EV06x).

Detected by content (never by name): a JSON object whose `results` is an object of objects with
`versions`, `n-samples` or `configs` beside it. The samples lm-eval wrote with `--log_samples`
are found beside it by lm-eval's own naming (`samples_<task>_<ts>.jsonl`, the results file's
`<ts>`): then each document of a task is an episode (`task/doc_id`, seed = doc_id), its success the
task's headline metric when that metric is 0 or 1 per document. Without them the read holds the
aggregates only (no episode): `check` recomputes what the numbers allow and `score` shows each
task's recorded value ± stderr (source.native). What is checked: checks.py. docs/lm-eval.md is
the user's page.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

from evalview.findings import Finding
from evalview.load import builtin
from evalview.load.errors import InputError
from evalview.load.lm_eval import rules as R
from evalview.load.reader import NamedRun, Reading, ReadOptions
from evalview.load.safe_json import parse_lenient
from evalview.load.source import Source
from evalview.model.run import Identity, Protocol, Run

FORMAT = "lm-eval"
#: How two models' documents pair (compare's notes): lm-eval records no per-document seed.
PAIRS_BY = (
    "task and doc_id: the same document in both models' samples files (its doc_hash, n-shot, "
    "task version and filter checked equal); lm-eval records no per-document seed and the "
    "pairing needs none"
)
#: Documents per results file evalview reads (over all its samples files).
MAX_DOCS = 500_000
LEFT_OUT = (
    "exported from lm-evaluation-harness output: metrics and per-document outcomes only; every "
    "document's text, prompt (arguments), target, responses and filtered responses, the task "
    "configs, and the values of model_args were left out"
)
_RESULTS_NAME = re.compile(r"^results_(?P<ts>.+)\.json$")


def _detect(source: Source) -> bool:
    """lm-eval's results dict by its content; never raises for another format."""
    from evalview.load.lm_eval.parse import looks_like_results

    try:
        if source.is_dir or source.size is None:
            return False
        head = source.head()
    except InputError:
        return False
    if b'"results"' not in head and b'"results"' not in source.raw[:1 << 16]:
        return False
    value, problem = _parsed(source)
    return problem is None and looks_like_results(value)


def _parsed(source: Source) -> tuple[Any, Any]:
    """Strict JSON, except the bare NaN lm-eval's json.dumps writes for a NaN stderr."""
    value, problem = source.parsed
    if problem is not None and problem.kind == "nonfinite-number":
        # bounded as the strict parse is (depth, lone surrogates), never json.loads (issue 24)
        lenient, repeated, bad = parse_lenient(source.raw)
        if bad is not None or repeated:
            return None, bad or problem
        return lenient, None
    return value, problem


def _read(source: Source, options: ReadOptions) -> Reading:
    return Reading(source.path, FORMAT, runs=(NamedRun(None, read_results(source, options)),))


def read_with_results(name: str, siblings: list[str]) -> bool:
    """True for an lm-eval samples file whose results file (same `<ts>`) is a sibling: a folder
    scan leaves it to that read instead of offering it as a read of its own."""
    if not (name.startswith("samples_") and name.endswith(".jsonl")):
        return False
    return any(
        (m := _RESULTS_NAME.match(s)) is not None and name.endswith(f"_{m.group('ts')}.jsonl")
        for s in siblings
    )


def samples_files(path: Path, tasks: list[str]) -> dict[str, Path]:
    """task -> its samples file beside `path`, by lm-eval's naming (same `<ts>` as the results)."""
    m = _RESULTS_NAME.match(path.name)
    if m is None:
        return {}
    ts = m.group("ts")
    try:
        names = set(os.listdir(path.parent))
    except OSError:
        return {}
    found = {}
    for t in tasks:
        name = f"samples_{t}_{ts}.jsonl"
        if name in names:
            found[t] = path.parent / name
    return found


def read_results(source: Source, options: ReadOptions | None = None) -> Run:
    """The `Run` of one results JSON (and its samples files when beside it). With
    `options.lazy_table` (`check`) the episode table is built on first use, so never, and numpy
    is not imported (it was half of the check of a 5,000-document output)."""
    from evalview.load.lm_eval.checks import check_aggregates, check_docs
    from evalview.load.lm_eval.parse import Doc, read_doc
    from evalview.load.lm_eval.parse import read_results as parse_results
    from evalview.model.run import build_table, run_with_table

    path = source.path
    file = path.name
    value, problem = _parsed(source)
    if problem is not None or not isinstance(value, dict):
        raise InputError(f"{path}: not an lm-eval results JSON ({problem})")
    findings: list[Finding] = []
    res = parse_results(value, lambda msg: findings.append(R.STRUCTURE(f"{file}: {msg}.",
                                                                         file=file)))
    findings.extend(check_aggregates(res, file))
    leaves = [t for t, r in res.tasks.items() if not r.is_group]
    files = samples_files(path, leaves)
    docs: dict[str, list[Doc]] = {}
    total = 0
    for task, sp in files.items():
        sfile = sp.name
        src = Source(sp)
        src.check()
        got: list[Doc] = []

        def bad(msg: str, line: int, _f: str = sfile) -> None:
            findings.append(R.SAMPLES_LINE(f"{msg}; it was not read.", file=_f, line=line))

        for i, raw_line in enumerate(src.raw.splitlines(), start=1):
            if not raw_line.strip():
                continue
            obj, repeated, problem = parse_lenient(raw_line, first_line=i)
            if problem is not None or repeated:
                why = (problem.detail if problem is not None
                       else f"the key {repeated[0][:60]!r} appears twice in one object")
                findings.append(R.SAMPLES_LINE(
                    f"{sfile} line {i}: not valid JSON ({why}); it was not read.",
                    file=sfile, line=i))
                continue
            d = read_doc(task, obj, sfile, i, bad)
            if d is not None:
                got.append(d)
            total += 1
            if total > MAX_DOCS:
                raise InputError(too_many_documents(path, sfile, i))
        docs[task] = got
    rows, recomputed = _rows(res, docs)
    findings.extend(check_docs(res, docs, recomputed, file))
    if not files:
        findings.append(R.AGGREGATES_ONLY(
            f"{file}: no samples_<task>_<ts>.jsonl beside it: a read of the recorded aggregates "
            f"of {len(res.tasks)} task(s) and group(s); no per-document outcome.", file=file))
    model = res.model_name or _model_from_args(res.model_args) or res.model
    tasks_sorted = sorted(res.tasks)
    return run_with_table(
        lambda: build_table(_row_dicts(rows)),
        lazy=options is not None and options.lazy_table,
        path=path,
        kind=FORMAT,
        identity=Identity(
            run_id=path.stem,
            benchmark_name=", ".join(leaves[:6]) + (" ..." if len(leaves) > 6 else ""),
            benchmark_version=", ".join(
                f"{t} v{res.tasks[t].version}" for t in tasks_sorted[:6]
                if res.tasks[t].version is not None) or None,
            source_revision=f"lm-eval git {res.git_hash}" if res.git_hash else None,
            policy_name=model,
        ),
        protocol=Protocol(),
        schedule=tuple(r[0] for r in rows),
        reading_findings=findings,
        bytes_read=len(source.raw),
        source_format=_describe(res, files),
        records_errors=False,
        pairing=_pairing(res, docs),
        pair_keys={r[0]: f"doc_hash {r[2].doc_hash}" for r in rows if r[2].doc_hash},
        native=_native(res, recomputed, bool(files)),
        pairs_by=PAIRS_BY,
        left_out=(LEFT_OUT,),
    )


def too_many_documents(path: Path, sfile: str, line: int) -> str:
    """Why a results file whose samples files hold more than MAX_DOCS documents is not read
    (exit 2): the file, the limit, where it was reached, and what to do."""
    return (
        f"{path}: its samples files hold more than {MAX_DOCS:,} documents, the most evalview "
        f"reads with one results JSON (reached at {sfile} line {line}); not read. Move some "
        "samples_<task>_<ts>.jsonl files to another folder to read the others, or all of them "
        "to read the results alone (aggregates)."
    )


def _model_from_args(args: Any) -> str | None:
    """The `pretrained=` name of model_args when it is a hub id (never a local path)."""
    if isinstance(args, dict):
        name = args.get("pretrained")
    elif isinstance(args, str):
        m = re.search(r"(?:^|,)pretrained=([^,]+)", args)
        name = m.group(1) if m else None
    else:
        name = None
    if not isinstance(name, str) or name.startswith(("/", ".", "~")) or "\\" in name:
        return None
    return name


#: One episode: its id, task, document, headline value and whether that value is a success.
_Row = tuple[str, str, Any, float, bool]


def _rows(res: Any, docs: dict[str, list[Any]]) -> tuple[list[_Row], dict[str, Any]]:
    """Episode rows (one per document under the headline filter) and each task's metrics
    recomputed from its documents ({task: {"metric,filter": (mean, n)}}). The rows are tuples,
    made into the table's dicts (`_row_dicts`) only when the table is built: `check` never is."""
    rows: list[_Row] = []
    recomputed: dict[str, dict[str, tuple[float, int, bool]]] = {}
    for task, ds in docs.items():
        t = res.tasks[task]
        by: dict[str, list[float]] = {}
        for d in ds:
            filt = d.filter
            for name, v in d.values.items():
                by.setdefault(f"{name},{filt}", []).append(v)
        recomputed[task] = {
            k: (sum(v) / len(v), len(v), all(x in (0.0, 1.0) for x in v))
            for k, v in by.items() if v
        }
        head = t.headline
        hkey = head.key if head is not None else None
        if hkey is None or hkey not in recomputed[task]:
            hkey = next(iter(recomputed[task]), None)
        if hkey is None:
            continue
        hname, hfilter = hkey.split(",", 1)
        # a success only where the headline is 0 or 1 per document; a graded one (BLEU, F1)
        # has no success per document: its value is the score, compared by a paired bootstrap
        unit = all(d.values.get(hname, 0.0) in (0.0, 1.0) for d in ds)
        seen: set[int] = set()
        for d in ds:
            if d.filter != hfilter or d.doc_id in seen or hname not in d.values:
                continue
            seen.add(d.doc_id)
            rows.append((f"{task}/{d.doc_id}", task, d, d.values[hname], unit))
    return rows, recomputed


def _row_dicts(rows: list[_Row]) -> list[dict[str, Any]]:
    """The rows as `build_table` takes them."""
    return [
        {
            "id": rid, "task": task, "seed": d.doc_id, "status": "completed",
            "success": (v == 1.0) if unit else None, "score": v, "in_schedule": True,
            "file": d.file, "line": d.line, "termination_reason": None, "doc_hash": d.doc_hash,
        }
        for rid, task, d, v, unit in rows
    ]


def _describe(res: Any, files: dict[str, Path]) -> str:
    leaves = sum(1 for t in res.tasks.values() if not t.is_group)
    groups = len(res.tasks) - leaves
    what = f"with samples of {len(files)} task(s)" if files else "aggregates only (no samples)"
    limit = f", limit {res.limit:g}" if res.limit is not None else ""
    return (f"lm-evaluation-harness results JSON, {what}; {leaves} task(s), {groups} group(s)"
            f"{limit}")


def _pairing(res: Any, docs: dict[str, list[Any]]) -> dict[str, str]:
    """What another results file must share to be compared with this one, document by document:
    each task's version, n-shot, filters and task hash, and the (task, doc_id, doc_hash) set."""
    out: dict[str, str] = {}
    for name in sorted(docs):
        t = res.tasks[name]
        out[f"{name} version"] = str(t.version)
        out[f"{name} n-shot"] = str(t.n_shot)
        out[f"{name} filters"] = ",".join(sorted({d.filter for d in docs[name]}))
    h = hashlib.sha256()  # the same digest as one update per document, in one call
    h.update("".join(
        f"{name}\0{d.doc_id}\0{d.doc_hash}\n"
        for name in sorted(docs)
        for d in sorted(docs[name], key=lambda d: (d.doc_id, d.filter))
    ).encode())
    if docs:
        n = sum(len({d.doc_id for d in ds}) for ds in docs.values())
        out["documents"] = f"{n} (task, doc_id, doc_hash), sha256 {h.hexdigest()[:16]}"
    return out


def _native(res: Any, recomputed: dict[str, Any], has_samples: bool) -> dict[str, Any]:
    """lm-eval's own numbers per task and group, as recorded (and recomputed), for `score`."""
    from evalview.load.lm_eval.checks import binary_count, wilson

    rows = []
    metrics: dict[str, dict[str, float | None]] = {}
    for name, t in res.tasks.items():
        for m in t.metrics:
            if m.value is None:
                continue
            again = recomputed.get(name, {}).get(m.key)
            k = binary_count(m, t)
            iv = wilson(k, t.effective) if k is not None and t.effective else None
            row = {
                "task": name, "group": t.is_group, "metric": m.key, "value": m.value,
                "stderr": m.stderr if m.stderr is not None else m.stderr_text,
                "n": t.effective, "original": t.original,
                "recomputed": None if again is None else again[0],
                "wilson95": None if iv is None else list(iv),
            }
            rows.append(row)
            metrics[f"{name} {m.key}"] = {"recorded": m.value,
                                           "recomputed": row["recomputed"]}
    lines = []
    for r in rows:
        se = r["stderr"]
        se_s = f" ± {se:.4f}" if isinstance(se, float) else f" ± {se}"
        n = f", n={r['n']}" if r["n"] is not None else ""
        if r["original"] is not None and r["n"] is not None and r["n"] < r["original"]:
            n += f" of {r['original']} (limit)"
        iv = r["wilson95"]
        w = f", Wilson 95% {iv[0]:.4f}–{iv[1]:.4f}" if iv else ""
        again = f", {r['recomputed']:.4f} recomputed" if r["recomputed"] is not None else ""
        kind = "group " if r["group"] else ""
        lines.append(f"{kind}{r['task']} {r['metric']} {r['value']:.4f}{se_s}{w}{n}{again}")
    return {
        "tool": "lm-evaluation-harness",
        "scorer": "each task's metrics",
        "denominator": "each task's n-samples effective (its documents)" + (
            "" if has_samples else "; no samples logged, numbers as recorded"),
        "tasks": rows,
        "lines": lines,
        "metrics": {},
    }


#: Its declaration (evalview.load.builtin: the registry asks it without importing this module).
READER = builtin.LM_EVAL
