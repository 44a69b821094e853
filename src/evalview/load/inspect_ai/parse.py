"""What evalview keeps of an Inspect log: its spec and results, and each sample's outcome.

The fields are Inspect's (`inspect_ai/log/_log.py`: EvalLog, EvalSpec, EvalResults, EvalSample);
everything else a sample holds (messages, output, events, store, attachments: the transcript) is
dropped here, as soon as the sample is parsed, and never reaches the `Run`. Older logs are read
too: version 1 wrote `results.scorer` + `results.metrics` and a sample's single `score`; metrics
once carried `options` where they now carry `params`; `sample_ids`, `limit`, `epochs_reducer`,
`reducer`, `scored_samples` appeared over time. A key Inspect does not write is ignored; a key
evalview needs with the wrong type is an EV001 finding at its JSON path.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from evalview.findings import Finding
from evalview.load.inspect_ai import rules as R
from evalview.load.inspect_ai.container import Doc

#: The log versions evalview reads: 1 and 2 (the JSON recorder refuses above 2), and 3, which
#: some .eval logs carry (a message pool beside the samples; the fields read here are the same).
KNOWN_VERSIONS = (1, 2, 3)
STATUSES = ("started", "success", "cancelled", "error")


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _text(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def id_text(v: Any) -> str | None:
    """A sample id as Inspect names it (`samples/<id>_epoch_<n>.json`, `str(id)`)."""
    if isinstance(v, str) or _is_int(v):
        return str(v)
    return None


@dataclass(frozen=True, slots=True)
class MetricRecord:
    key: str
    name: str
    value: Any
    #: JSON path of the value (`$.results.scores[0].metrics.accuracy.value`)
    where: str
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ScoreRecord:
    """One `results.scores[i]`: a scorer's metrics, under one reducer (None: the implicit one)."""

    index: int
    name: str
    scorer: str
    reducer: str | None
    scored_samples: Any
    unscored_samples: Any
    metrics: tuple[MetricRecord, ...]
    where: str


@dataclass
class Spec:
    """The log's eval spec and results, as recorded."""

    where: str  # the header's member (`header.json`) or the JSON log's name
    version: int | None = None
    status: str | None = None
    task: str = "?"
    task_version: str = "0"
    eval_id: str | None = None
    run_id: str | None = None
    model: str | None = None
    dataset_name: str | None = None
    dataset_location: str | None = None
    dataset_samples: int | None = None
    sample_ids: list[Any] | None = None
    limit: Any = None
    sample_id: Any = None
    epochs: int = 1
    epochs_declared: bool = False
    epochs_reducer: list[str] | None = None
    scorer_names: list[str] = field(default_factory=list)
    total_samples: Any = None
    completed_samples: Any = None
    scores: list[ScoreRecord] = field(default_factory=list)
    has_results: bool = False
    findings: list[Finding] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SampleFacts:
    """One sample-epoch: what evalview scores, and where it is written."""

    id: Any
    key: str  # id_text(id)
    epoch: int
    where: str
    #: scorer name -> value (a sample's single `score` of a version-1 log under the scorer's name)
    scores: dict[str, Any]
    #: the exception's class name when the sample errored ("error" when it cannot be told)
    error: str | None
    #: the limit it hit ("token", "message", "time", "working", ...)
    limit: str | None
    #: metadata values that are plain scalars (for views by a metadata key)
    metadata: dict[str, str | int | float | bool]


def _add(spec: Spec, message: str) -> None:
    spec.findings.append(R.STRUCTURE(message, file=spec.where))


def read_spec(header: Doc, file: str) -> Spec:
    """The spec and results of the header document; EV001 for what cannot be read."""
    doc = header.value
    spec = Spec(where=file)
    here = "" if header.where == file else f"{header.where} "
    if not isinstance(doc, dict):
        _add(spec, f"{here}is not a JSON object; the log's spec was not read.")
        return spec
    version = doc.get("version")
    spec.version = version if _is_int(version) else None
    status = doc.get("status")
    spec.status = status if isinstance(status, str) else None
    if status is not None and status not in STATUSES:
        _add(spec, f"{here}$.status is {status!r}, not one of {', '.join(STATUSES)}.")
    ev = doc.get("eval")
    if not isinstance(ev, dict):
        _add(spec, f"{here}$.eval is not an object: the eval spec (task, dataset, model) is "
             "missing.")
        return spec
    task = ev.get("task")
    if isinstance(task, str) and task:
        spec.task = task
    else:
        _add(spec, f"{here}$.eval.task is {task!r}, not the task's name.")
    tv = ev.get("task_version", 0)
    spec.task_version = str(tv) if isinstance(tv, str) or _is_int(tv) else "?"
    spec.eval_id = _text(ev.get("eval_id")) or None
    spec.run_id = _text(ev.get("run_id")) or None
    spec.model = _text(ev.get("model"))
    _read_dataset(spec, ev.get("dataset"), here)
    _read_config(spec, ev.get("config"), here)
    scorers = ev.get("scorers")
    if isinstance(scorers, list):
        spec.scorer_names = [s["name"] for s in scorers
                             if isinstance(s, dict) and isinstance(s.get("name"), str)]
    _read_results(spec, doc.get("results"), here)
    return spec


def _read_dataset(spec: Spec, ds: Any, here: str) -> None:
    if not isinstance(ds, dict):
        _add(spec, f"{here}$.eval.dataset is not an object.")
        return
    spec.dataset_name = _text(ds.get("name"))
    spec.dataset_location = _text(ds.get("location"))
    n = ds.get("samples")
    spec.dataset_samples = n if _is_int(n) and n >= 0 else None
    ids = ds.get("sample_ids")
    if ids is None:
        return
    if not isinstance(ids, list) or not all(id_text(i) is not None for i in ids):
        _add(spec, f"{here}$.eval.dataset.sample_ids is not a list of string or integer ids; "
             "the selected samples are taken from the samples the log holds.")
        return
    spec.sample_ids = ids


def _read_config(spec: Spec, config: Any, here: str) -> None:
    if not isinstance(config, dict):
        _add(spec, f"{here}$.eval.config is not an object.")
        return
    spec.limit = config.get("limit")
    spec.sample_id = config.get("sample_id")
    epochs = config.get("epochs")
    if epochs is not None:
        if _is_int(epochs) and epochs >= 1:
            spec.epochs, spec.epochs_declared = epochs, True
        else:
            _add(spec, f"{here}$.eval.config.epochs is {epochs!r}, not a positive integer; "
                 "read as 1.")
    reducers = config.get("epochs_reducer")
    if isinstance(reducers, list) and all(isinstance(r, str) for r in reducers):
        spec.epochs_reducer = reducers


def _read_results(spec: Spec, results: Any, here: str) -> None:
    if results is None:
        return
    if not isinstance(results, dict):
        _add(spec, f"{here}$.results is not an object.")
        return
    spec.has_results = True
    spec.total_samples = results.get("total_samples")
    spec.completed_samples = results.get("completed_samples")
    scores = results.get("scores")
    if scores is None and isinstance(results.get("scorer"), dict):  # version 1
        scorer = results["scorer"]
        name = scorer.get("name") if isinstance(scorer.get("name"), str) else "?"
        metrics = _metrics(spec, results.get("metrics"), "$.results.metrics", here)
        spec.scores.append(ScoreRecord(0, name, name, None, None, None, metrics,
                                       "$.results.scorer"))
        return
    if scores is None:
        return
    if not isinstance(scores, list):
        _add(spec, f"{here}$.results.scores is not a list.")
        return
    for i, s in enumerate(scores):
        where = f"$.results.scores[{i}]"
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            _add(spec, f"{here}{where} is not a score object with a name; not read.")
            continue
        reducer = s.get("reducer")
        spec.scores.append(ScoreRecord(
            index=i, name=s["name"],
            scorer=s["scorer"] if isinstance(s.get("scorer"), str) else s["name"],
            reducer=reducer if isinstance(reducer, str) else None,
            scored_samples=s.get("scored_samples"), unscored_samples=s.get("unscored_samples"),
            metrics=_metrics(spec, s.get("metrics"), f"{where}.metrics", here), where=where,
        ))


def _metrics(spec: Spec, metrics: Any, where: str, here: str) -> tuple[MetricRecord, ...]:
    if metrics is None:
        return ()
    if not isinstance(metrics, dict):
        _add(spec, f"{here}{where} is not an object of metrics.")
        return ()
    out = []
    for key, m in metrics.items():
        if not isinstance(m, dict):
            _add(spec, f"{here}{where}.{key} is not a metric object.")
            continue
        value = m.get("value")
        if isinstance(value, bool) or not isinstance(value, int | float):
            _add(spec, f"{here}{where}.{key}.value is {value!r}, not a number.")
            continue
        params = m.get("params", m.get("options"))
        out.append(MetricRecord(
            key=str(key), name=m["name"] if isinstance(m.get("name"), str) else str(key),
            value=value, where=f"{where}.{key}.value",
            params=params if isinstance(params, dict) else {},
        ))
    return tuple(out)


# -- samples -------------------------------------------------------------------------------

_TRACE_LAST = r"^([A-Za-z_][\w.]*)(?::|$)"  # compiled on first use: errored samples only


def error_type(error: Any) -> str | None:
    """The exception's class from an EvalError's traceback (its last line, `ValueError: ...`),
    or "error": never its message (which can hold a prompt, a path or a key)."""
    if error is None:
        return None
    if isinstance(error, dict):
        trace = error.get("traceback")
        if isinstance(trace, str):
            for line in reversed(trace.strip().splitlines()):
                m = re.match(_TRACE_LAST, line.strip())
                if m is not None and not line.startswith(" "):
                    return m.group(1).rsplit(".", 1)[-1][:80]
    return "error"


def _scalar_metadata(meta: Any) -> dict[str, str | int | float | bool]:
    if not isinstance(meta, dict):
        return {}
    out: dict[str, str | int | float | bool] = {}
    for k, v in meta.items():
        plain = isinstance(v, bool | int) or (isinstance(v, float) and math.isfinite(v))
        if plain or (isinstance(v, str) and len(v) <= 200):
            out[str(k)] = v
    return out


def read_sample(
    doc: Doc, headline: str | None, bad: Callable[[str, str | None], None]
) -> SampleFacts | None:
    """The facts of one sample document, or None (with `bad(message, id)` told why) when it has
    no usable id and epoch. `headline`: the scorer a version-1 sample's `score` belongs to."""
    s = doc.value
    if not isinstance(s, dict):
        bad(f"{doc.where} is not a JSON object; the sample was not read.", None)
        return None
    key = id_text(s.get("id"))
    epoch = s.get("epoch", 1)
    if key is None:
        bad(f"{doc.where}: id is {s.get('id')!r}, not a string or an integer; the sample was "
            "not read.", None)
        return None
    if not _is_int(epoch) or epoch < 1:
        bad(f"{doc.where}: epoch is {epoch!r}, not a positive integer; the sample was not read.",
            key)
        return None
    scores: dict[str, Any] = {}
    raw_scores = s.get("scores")
    if isinstance(raw_scores, dict):
        for name, sc in raw_scores.items():
            scores[str(name)] = sc.get("value", _MISSING) if isinstance(sc, dict) else _MISSING
    elif raw_scores is not None:
        bad(f"{doc.where}: scores is not an object of scorer -> score; no score was read.", key)
    elif isinstance(s.get("score"), dict):  # version 1: one score, its scorer's name elsewhere
        scores[headline or "score"] = s["score"].get("value", _MISSING)
    limit = s.get("limit")
    limit_type = (
        limit.get("type") if isinstance(limit, dict) and isinstance(limit.get("type"), str)
        else limit if isinstance(limit, str) else None
    )
    return SampleFacts(
        id=s.get("id"), key=key, epoch=epoch, where=doc.where,
        scores=scores,
        error=error_type(s.get("error")) if s.get("error") is not None else None,
        limit=limit_type,
        metadata=_scalar_metadata(s.get("metadata")),
    )


class _Missing:
    """A score object without a value (never a value Inspect writes)."""

    def __repr__(self) -> str:
        return "no value"


_MISSING = _Missing()


def is_missing(value: Any) -> bool:
    return value is _MISSING


@dataclass(frozen=True, slots=True)
class SummaryFacts:
    key: str
    epoch: int
    scores: dict[str, Any]
    error: bool
    limit: str | None
    where: str


def read_summaries(doc: Doc) -> list[SummaryFacts] | None:
    """summaries.json's rows (EvalSampleSummary), or None when it is not a list of them."""
    if not isinstance(doc.value, list):
        return None
    out = []
    for i, row in enumerate(doc.value):
        if not isinstance(row, dict):
            continue
        key, epoch = id_text(row.get("id")), row.get("epoch")
        if key is None or not _is_int(epoch):
            continue
        scores = row.get("scores")
        values = {
            str(k): v.get("value", _MISSING) if isinstance(v, dict) else _MISSING
            for k, v in (scores.items() if isinstance(scores, dict) else ())
        }
        limit = row.get("limit")
        out.append(SummaryFacts(key, epoch, values, row.get("error") is not None,
                                limit if isinstance(limit, str) else None,
                                f"{doc.where} $[{i}]"))
    return out
