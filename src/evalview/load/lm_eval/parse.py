"""lm-eval's results JSON and samples JSONL, as lm-eval writes them (read from its source).

`lm_eval/evaluator.py` builds the results dict: `results` (task or group -> {"METRIC,FILTER":
value, "METRIC_stderr,FILTER": value or "N/A", alias, ...}), `groups`, `group_subtasks`, `configs`,
`versions`, `n-shot`, `higher_is_better`, `n-samples` ({original, effective}), `config` (model,
model_args as a string or a dict, limit, seeds), `git_hash`, `date`, `task_hashes`, model_name...;
`EvaluationTracker` writes it as `results_<date_id>.json` with `json.dumps(default=
handle_non_serializable)`, so NaN is written as the bare token. With `--log_samples` each task's
documents go to `samples_<task>_<date_id>.jsonl`, one line per (document, filter): doc_id, doc,
target, arguments, resps, filtered_resps, filter, metrics (names), doc_hash, prompt_hash,
target_hash, and each metric's per-document value. Old files (v0 `-res.json`) hold only `results`
(keys without ",FILTER") and `versions`; files before 0.4.3 have no `filter`/`metrics` on sample
lines. Every value is checked for its type here; what is wrong is a finding, never a traceback.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

#: keys of a results entry that are not metrics
_NOT_METRICS = {"alias", "name", "sample_len", "sample_count", " ", "samples"}
#: metrics whose per-document value is 0 or 1 (a proportion of documents) in lm-eval's tasks
BINARY_METRICS = {"acc", "acc_norm", "exact_match", "acc_mutual_info", "pass@1"}


@dataclass(frozen=True, slots=True)
class Metric:
    """One recorded metric of a task or group: `value` None when not a finite number."""

    name: str
    filter: str
    value: float | None
    stderr: float | None
    #: how the stderr was written when it is not a number ("N/A", NaN, absent)
    stderr_text: str | None

    @property
    def key(self) -> str:
        return f"{self.name},{self.filter}"


@dataclass(slots=True)
class TaskResult:
    """What the results JSON says of one task or group."""

    name: str
    metrics: list[Metric] = field(default_factory=list)
    is_group: bool = False
    subtasks: tuple[str, ...] = ()
    original: int | None = None
    effective: int | None = None
    version: str | None = None
    n_shot: str | None = None
    task_hash: str | None = None
    #: metric name -> aggregation as the config names it ("mean", or a function's source)
    aggregation: dict[str, str] = field(default_factory=dict)
    filters: tuple[str, ...] = ()

    @property
    def headline(self) -> Metric | None:
        """The first metric with a value: lm-eval's table lists a task's metrics in this order."""
        return next((m for m in self.metrics if m.value is not None), None)


@dataclass(slots=True)
class Results:
    """The parsed results JSON."""

    tasks: dict[str, TaskResult]
    model: str | None
    model_name: str | None
    model_args: Any
    limit: float | None
    git_hash: str | None
    task_hashes: dict[str, str] | None
    has_n_samples: bool
    date: str | None
    lm_eval_version: str | None
    seeds: dict[str, Any]


def number(v: Any) -> float | None:
    """A finite float from a JSON number (never a bool), else None."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    f = float(v)
    return f if math.isfinite(f) else None


def _text(v: Any) -> str | None:
    if v is None or isinstance(v, dict | list):
        return None
    return str(v)


def split_key(key: str) -> tuple[str, str]:
    """`acc,none` -> (acc, none); an old key without a filter is the `none` filter."""
    name, sep, filt = key.partition(",")
    return name, (filt if sep else "none")


def looks_like_results(value: Any) -> bool:
    """lm-eval's results dict: `results` an object of objects, and `versions` or `n-samples` or
    `configs` an object beside it (v0 files hold only results and versions)."""
    if not isinstance(value, dict) or "format" in value:
        return False
    res = value.get("results")
    if not isinstance(res, dict) or not res or not all(isinstance(v, dict) for v in res.values()):
        return False
    return any(isinstance(value.get(k), dict) for k in ("versions", "n-samples", "configs"))


def _metrics(entry: dict[str, Any]) -> list[Metric]:
    """The metrics of one results entry, in file order, each with its stderr."""
    out: list[Metric] = []
    for key, v in entry.items():
        name, filt = split_key(key)
        if key in _NOT_METRICS or name in _NOT_METRICS or name.endswith("_stderr"):
            continue
        if isinstance(v, dict | list) or (isinstance(v, str) and v != "N/A"):
            continue
        skey = f"{name}_stderr,{filt}" if "," in key else f"{name}_stderr"
        raw = entry.get(skey)
        se = number(raw)
        se_text = None
        if se is None:
            se_text = "absent" if skey not in entry else (
                "NaN" if isinstance(raw, float) else repr(raw) if not isinstance(raw, str) else raw)
        out.append(Metric(name, filt, number(v), se, se_text))
    return out


def _obj(doc: dict[str, Any], key: str) -> dict[str, Any]:
    v = doc.get(key)
    return v if isinstance(v, dict) else {}


def read_results(doc: dict[str, Any], bad: Callable[[str], None]) -> Results:
    """The results dict as `Results`; `bad(message)` for each value of the wrong type."""
    groups: dict[str, Any] = doc["groups"] if isinstance(doc.get("groups"), dict) else {}
    entries: dict[str, dict[str, Any]] = {}
    for section in (doc["results"], groups):
        for name, entry in section.items():
            if isinstance(entry, dict):
                entries.setdefault(str(name), entry)
    subtasks_doc = doc.get("group_subtasks")
    subtasks: dict[str, tuple[str, ...]] = {}
    if isinstance(subtasks_doc, dict):
        for g, subs in subtasks_doc.items():
            if isinstance(subs, list) and subs:
                subtasks[str(g)] = tuple(str(s) for s in subs)
            elif not isinstance(subs, list):
                bad(f"$.group_subtasks.{g} is not a list")
    ns = doc.get("n-samples")
    versions: dict[str, Any] = _obj(doc, "versions")
    nshot: dict[str, Any] = _obj(doc, "n-shot")
    configs: dict[str, Any] = _obj(doc, "configs")
    hashes = doc.get("task_hashes")
    tasks: dict[str, TaskResult] = {}
    for name, entry in entries.items():
        t = TaskResult(name, _metrics(entry))
        t.is_group = name in subtasks or name in groups
        t.subtasks = subtasks.get(name, ())
        if isinstance(ns, dict) and name in ns:
            n = ns[name]
            o = n.get("original") if isinstance(n, dict) else None
            e = n.get("effective") if isinstance(n, dict) else None
            if isinstance(o, int) and isinstance(e, int) and not isinstance(o | e, bool) \
                    and o >= 0 and e >= 0:
                t.original, t.effective = o, e
            else:
                bad(f"$.n-samples.{name} is not {{original, effective}} whole numbers")
        t.version = _text(versions.get(name))
        t.n_shot = _text(nshot.get(name))
        if isinstance(hashes, dict) and isinstance(hashes.get(name), str):
            t.task_hash = hashes[name]
        tcfg = configs.get(name)
        if isinstance(tcfg, dict):
            for m in tcfg.get("metric_list") or []:
                if isinstance(m, dict) and isinstance(m.get("metric"), str):
                    agg = m.get("aggregation")
                    t.aggregation[m["metric"]] = agg if isinstance(agg, str) else "mean"
            fl = tcfg.get("filter_list")
            if isinstance(fl, list):
                t.filters = tuple(str(f.get("name")) for f in fl if isinstance(f, dict))
        for m in t.metrics:
            if m.value is None and m.name not in ("alias",):
                bad(f"$.results.{name}[{m.key!r}] is not a finite number")
        tasks[name] = t
    cfg: dict[str, Any] = _obj(doc, "config")
    limit = number(cfg.get("limit"))
    seed_keys = ("random_seed", "numpy_seed", "torch_seed", "fewshot_seed")
    seeds: dict[str, Any] = {k: cfg.get(k) for k in seed_keys if k in cfg}
    return Results(
        tasks=tasks,
        model=_text(cfg.get("model")),
        model_name=_text(doc.get("model_name")),
        model_args=cfg.get("model_args"),
        limit=limit,
        git_hash=doc.get("git_hash") if isinstance(doc.get("git_hash"), str) else None,
        task_hashes={str(k): str(v) for k, v in hashes.items()}
        if isinstance(hashes, dict) else None,
        has_n_samples=isinstance(ns, dict),
        date=_text(doc.get("date")),
        lm_eval_version=_text(doc.get("lm_eval_version")),
        seeds=seeds,
    )


class Doc(NamedTuple):
    """One samples line: a document's outcome under one filter (never its text). A named tuple:
    one is made per document, and a frozen dataclass's __init__ (an object.__setattr__ per
    field) cost five times as much."""

    task: str
    doc_id: int
    filter: str
    doc_hash: str | None
    target_hash: str | None
    #: metric name -> per-document value (a number; lists and tuples, as F1's (gold, pred), are
    #: left out: their aggregation is not a mean)
    values: dict[str, float]
    file: str
    line: int


_SAMPLE_KEYS = {"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter",
                "metrics", "doc_hash", "prompt_hash", "target_hash"}


def read_doc(task: str, value: Any, file: str, line: int, bad: Callable[[str, int], None]
             ) -> Doc | None:
    """One samples line as a `Doc`, or None (said through `bad(message, line)`) when it is not
    one."""
    if not isinstance(value, dict):
        bad(f"{file} line {line}: not a JSON object", line)
        return None
    did = value.get("doc_id")
    if isinstance(did, bool) or not isinstance(did, int):
        bad(f"{file} line {line}: doc_id is not a whole number", line)
        return None
    names = value.get("metrics")
    keys = [n for n in names if isinstance(n, str)] if isinstance(names, list) else \
        [k for k in value if k not in _SAMPLE_KEYS]
    values: dict[str, float] = {}
    for k in keys:
        v = value.get(k)
        if isinstance(v, int | float):  # a bool is an int: True is 1.0
            values[k] = float(v)
    filt = value.get("filter")
    dh, th = value.get("doc_hash"), value.get("target_hash")
    return Doc(task, did, filt if isinstance(filt, str) else "none",
               dh if isinstance(dh, str) else None, th if isinstance(th, str) else None,
               values, file, line)
