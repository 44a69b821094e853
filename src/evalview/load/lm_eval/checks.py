"""What evalview checks in lm-eval output, and recomputes from it.

From the results JSON alone: `--limit` (effective < original, config.limit), 'N/A' or NaN stderrs,
a missing git_hash or task_hashes, model_args holding a local path or a token, each group's metric
against the size-weighted mean of its subtasks (lm-eval's aggregate_subtask_metrics, weighted by
n-samples effective), and a proportion's stderr against sqrt(p(1-p)/(n-1)) (lm-eval's mean_stderr
of 0/1 values). With samples: every mean-aggregated metric recomputed from its documents, the
document count against n-samples effective, and doc_id / doc_hash duplicates.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from evalview.findings import Finding
from evalview.load.lm_eval import rules as R
from evalview.load.lm_eval.parse import BINARY_METRICS, Doc, Metric, Results, TaskResult

#: agreement of a recorded number with its recomputation (lm-eval writes full float repr)
REL_TOL = 1e-6
ABS_TOL = 1e-9
Z95 = 1.959963984540054
_TOKEN = re.compile(
    r"(?i)(token|api[_-]?key|secret|password|hf_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9]{16,})"
)
_LOCAL = re.compile(r"(^|[=,\s'\"])(/|~/|\./|\.\./|[A-Za-z]:\\)")


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of k successes in n, exact at 0/n and n/n."""
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if k == 0 else lo, 1.0 if k == n else hi)


def binary_count(m: Metric, t: TaskResult) -> int | None:
    """k when the metric is a proportion of t's effective documents (a 0/1 metric whose value is
    k/n for a whole k), else None."""
    n = t.effective
    if m.name not in BINARY_METRICS or m.value is None or not n or t.is_group:
        return None
    k = round(m.value * n)
    return k if close(k / n, m.value) else None


def mean_stderr(p: float, n: int) -> float:
    """lm-eval's stderr of a mean of n 0/1 values: sample stddev / sqrt(n)."""
    return math.sqrt(p * (1 - p) / (n - 1))


def check_aggregates(res: Results, file: str) -> list[Finding]:
    """What the results JSON alone says (see the module docstring)."""
    out: list[Finding] = []
    limited = [t for t in res.tasks.values()
               if t.effective is not None and t.original is not None and t.effective < t.original]
    if limited or res.limit is not None:
        shown = ", ".join(f"{t.name} {t.effective} of {t.original}" for t in limited[:5])
        more = f" and {len(limited) - 5} more" if len(limited) > 5 else ""
        lim = f"config.limit is {res.limit:g}; " if res.limit is not None else ""
        out.append(R.LIMIT(
            f"{file}: {lim}documents evaluated below the benchmark's: {shown or 'none recorded'}"
            f"{more}. These are not the benchmark's numbers and not publishable as such.",
            file=file))
    for t in res.tasks.values():
        for m in t.metrics:
            if m.value is not None and m.stderr is None:
                out.append(R.STDERR_NA(
                    f"{file}: {t.name} {m.key} = {m.value:.4g} has stderr {m.stderr_text}.",
                    file=file))
    missing = []
    if res.git_hash is None:
        missing.append("git_hash")
    if not res.task_hashes:
        missing.append("task_hashes (empty)" if res.task_hashes == {} else "task_hashes")
    if missing:
        out.append(R.PROVENANCE(
            f"{file}: {' and '.join(missing)} missing: the code or the documents behind the "
            "numbers cannot be checked against a re-run.", file=file))
    out.extend(_model_args(res.model_args, file))
    if not res.has_n_samples:
        out.append(R.NOT_RECOMPUTED(
            f"{file}: no n-samples (an old results layout): no stderr or group mean can be "
            "recomputed; numbers shown as recorded.", file=file))
    out.extend(_groups(res, file))
    out.extend(_stderrs(res, file))
    return out


def _model_args(args: Any, file: str) -> list[Finding]:
    """A local path or token-shaped value in model_args (said without quoting the value)."""
    items: Iterable[tuple[str, Any]]
    if isinstance(args, dict):
        items = ((str(k), v) for k, v in args.items())
    elif isinstance(args, str):
        items = (tuple(p.split("=", 1)) if "=" in p else (p, "")  # type: ignore[misc]
                 for p in args.split(","))
    else:
        return []
    local, token = [], []
    for k, v in items:
        text = str(v)
        if _LOCAL.search(f"={text}"):
            local.append(k)
        if _TOKEN.search(k) or _TOKEN.search(text):
            token.append(k)
    out = []
    if local:
        out.append(R.MODEL_ARGS(
            f"{file}: config.model_args {', '.join(sorted(set(local)))} hold(s) a local path: the "
            "model is not identified by it, and the value is never published.", file=file))
    if token:
        out.append(R.MODEL_ARGS(
            f"{file}: config.model_args {', '.join(sorted(set(token)))} look(s) like a token or "
            "secret: never published; rotate it if this file was shared.", file=file))
    return out


def _size(res: Results, name: str, metric: str, seen: frozenset[str] = frozenset()) -> int | None:
    t = res.tasks.get(name)
    if t is None or name in seen:
        return None
    if not t.is_group:
        return t.effective
    sizes = [_size(res, s, metric, seen | {name}) for s in t.subtasks
             if any(m.key == metric for m in res.tasks.get(s, TaskResult(s)).metrics)]
    return None if not sizes or any(s is None for s in sizes) else sum(s for s in sizes if s)


def _groups(res: Results, file: str) -> list[Finding]:
    """Each group's metric against the size-weighted mean of its subtasks' recorded values."""
    out: list[Finding] = []
    for g in res.tasks.values():
        if not g.subtasks:
            continue
        for m in g.metrics:
            if m.value is None:
                continue
            parts = []
            for s in g.subtasks:
                sub = res.tasks.get(s)
                sm = next((x for x in sub.metrics if x.key == m.key), None) if sub else None
                if sm is None or sm.value is None:
                    continue
                parts.append((sm.value, _size(res, s, m.key)))
            if not parts:
                continue
            if any(n is None for _, n in parts):
                out.append(R.NOT_RECOMPUTED(
                    f"{file}: group {g.name} {m.key}: a subtask has no n-samples; its mean is "
                    "not recomputed.", file=file))
                continue
            total = sum(n for _, n in parts if n)
            if not total:
                continue
            weighted = sum(v * n for v, n in parts if n) / total
            plain = sum(v for v, _ in parts) / len(parts)
            if close(weighted, m.value):
                continue
            if close(plain, m.value):
                out.append(R.NOT_RECOMPUTED(
                    f"{file}: group {g.name} {m.key} = {m.value:.6g} is the unweighted mean of "
                    f"its {len(parts)} subtasks (weight_by_size false), not the mean over "
                    f"their {total} documents ({weighted:.6g}).", file=file))
                continue
            out.append(R.GROUP_MISMATCH(
                f"{file}: group {g.name} {m.key} records {m.value:.6g}; the size-weighted mean "
                f"of its {len(parts)} subtasks over {total} documents is {weighted:.6g}.",
                file=file))
    return out


def _stderrs(res: Results, file: str) -> list[Finding]:
    """A proportion's stderr against lm-eval's mean_stderr of its value and n."""
    out: list[Finding] = []
    for t in res.tasks.values():
        n = t.effective
        for m in t.metrics:
            if m.name not in BINARY_METRICS or m.value is None or not n or n < 2 or t.is_group:
                continue
            k = binary_count(m, t)
            if k is None:
                out.append(R.STDERR_MISMATCH(
                    f"{file}: {t.name} {m.key} = {m.value!r} is not k/{n} for any whole k "
                    f"(n-samples effective {n}).", file=file))
                continue
            if m.stderr is None:
                continue
            want = mean_stderr(m.value, n)
            if not math.isclose(m.stderr, want, rel_tol=1e-4, abs_tol=1e-9):
                out.append(R.STDERR_MISMATCH(
                    f"{file}: {t.name} {m.key}_stderr records {m.stderr:.6g}; "
                    f"sqrt(p(1-p)/(n-1)) of {k}/{n} is {want:.6g}.", file=file))
    return out


def check_docs(res: Results, docs: dict[str, list[Doc]], recomputed: dict[str, Any],
               file: str) -> list[Finding]:
    """Each task's documents against what the results record (see the module docstring)."""
    out: list[Finding] = []
    for task, ds in docs.items():
        t = res.tasks[task]
        sfile = ds[0].file if ds else task
        seen: dict[tuple[int, str], Doc] = {}
        by_hash: dict[str, Doc] = {}
        for d in ds:
            if (d.doc_id, d.filter) in seen:
                first = seen[(d.doc_id, d.filter)]
                out.append(R.DUPLICATE_DOC(
                    f"{d.file} line {d.line}: doc_id {d.doc_id} (filter {d.filter}) again "
                    f"(first at line {first.line}).", file=d.file, line=d.line))
                continue
            seen[(d.doc_id, d.filter)] = d
            if d.doc_hash is None:
                continue
            other = by_hash.get(d.doc_hash)
            if other is None or other.filter != d.filter:
                by_hash[d.doc_hash] = d
            elif other.doc_id != d.doc_id:
                out.append(R.DUPLICATE_DOC(
                    f"{d.file} line {d.line}: doc_id {d.doc_id} has the doc_hash of doc_id "
                    f"{other.doc_id} (line {other.line}): one document counted twice.",
                    file=d.file, line=d.line))
            if other is not None and other.doc_id == d.doc_id and other.target_hash \
                    and d.target_hash and other.target_hash != d.target_hash:
                out.append(R.DUPLICATE_DOC(
                    f"{d.file} line {d.line}: doc_id {d.doc_id} has two target_hashes.",
                    file=d.file, line=d.line))
        ids = {d.doc_id for d in ds}
        if t.effective is not None and len(ids) != t.effective:
            out.append(R.COUNT_MISMATCH(
                f"{sfile}: {len(ids)} documents; the results record n-samples effective "
                f"{t.effective} for {task}.", file=sfile))
        again = recomputed.get(task, {})
        head = t.headline
        if head is not None and head.key in again and not again[head.key][2]:
            out.append(R.GRADED(
                f"{file}: {task}'s headline {head.key} is not 0 or 1 per document; evalview's "
                "successes / selected is not its number (see lm-eval's own, recomputed, in "
                "`score`).", file=file))
        for m in t.metrics:
            if m.value is None:
                continue
            agg = t.aggregation.get(m.name, "mean")
            got = again.get(m.key)
            if agg != "mean" or got is None:
                why = "its aggregation is not a mean" if agg != "mean" else \
                    "no per-document value of it in the samples file"
                out.append(R.NOT_RECOMPUTED(
                    f"{file}: {task} {m.key} = {m.value:.6g} not recomputed: {why}.",
                    file=file))
                continue
            if not close(got[0], m.value):
                out.append(R.METRIC_MISMATCH(
                    f"{file}: {task} {m.key} records {m.value:.6g}; the mean of its {got[1]} "
                    f"documents in {sfile} is {got[0]:.6g}.", file=file))
    return out
