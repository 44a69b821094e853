"""Inspect AI eval logs (`.eval`, `.json`) → one `Run` each, audited while read (EV0xx).

Detected by content: a zip whose first member is `_journal/start.json` or `header.json` (or
whose members include one of them), or a JSON document with Inspect's top-level keys (version,
status, eval with task, dataset and model). What a log becomes is model.py's docstring; what is
checked, checks.py's. docs/inspect.md is the user's page.
"""

from __future__ import annotations

from typing import Any

from evalview.findings import Finding
from evalview.load import builtin
from evalview.load.errors import InputError
from evalview.load.inspect_ai import container as C
from evalview.load.inspect_ai import rules as R
from evalview.load.reader import NamedRun, Reading, ReadOptions
from evalview.load.safe_json import JsonProblem
from evalview.load.source import Source
from evalview.model.run import Identity, Protocol, Run

FORMAT = "inspect-ai"
#: How two logs' sample-epochs pair (compare's notes): Inspect records no seed, and needs none.
PAIRS_BY = (
    "sample id and epoch: the same dataset sample (its input and target) at the same epoch "
    "number in both logs, the selected sample ids and epochs checked equal; Inspect records no "
    "per-sample seed and the pairing needs none (an epoch repeats a sample, the model's own "
    "sampling differs between epochs and between logs)"
)
#: Sample-epochs per log evalview reads (a sample member each in a .eval).
MAX_SAMPLES = 200_000
#: What an export of an Inspect log says it left out (result.json's labels, and the page).
LEFT_OUT = (
    "exported from an Inspect AI log: outcomes only; every sample's input, messages, model "
    "output, tool calls, events, store, metadata and score explanations, the error messages and "
    "tracebacks, and the values of model_args and model_base_url were left out"
)


def _detect(source: Source) -> bool:
    """An Inspect log by its content (never by its name); never raises for another format."""
    try:
        if source.is_dir or source.size is None:
            return False
        head = source.head()
    except InputError:
        return False
    if head.startswith(C.ZIP_MAGIC):
        if C.looks_like_eval(head):
            return True
        names = C.zip_members(source.raw)
        return names is not None and (C.HEADER in names or C.START in names)
    if C.looks_like_json_log(head):
        return True
    if b'"eval"' not in head and b'"eval"' not in source.raw[:1 << 16]:
        return False
    value, problem = source.parsed
    if problem is not None and problem.kind == "nonfinite-number":
        value, problem = C.parse_doc(source.raw)
    return problem is None and C.is_log_document(value)


def _read(source: Source, options: ReadOptions) -> Reading:
    return Reading(source.path, FORMAT, runs=(NamedRun(None, read_log(source, options)),))


def read_log(source: Source, options: ReadOptions | None = None) -> Run:
    """The `Run` of one Inspect log (InputError when the log cannot be read as a whole)."""
    from evalview.load.inspect_ai.checks import Context, check_all
    from evalview.load.inspect_ai.model import build_rows, headline_scorer, select, table_rows
    from evalview.load.inspect_ai.parse import (
        KNOWN_VERSIONS,
        SampleFacts,
        read_sample,
        read_spec,
        read_summaries,
    )
    from evalview.model.run import build_table, run_with_table
    from evalview.rules import PROBLEM_RULES

    path, raw = source.path, source.raw
    file = path.name
    findings: list[Finding] = []
    unreadable: dict[tuple[str, int], str] = {}

    def on_bad(member: str, problem: JsonProblem) -> None:
        at = f" (line {problem.line})" if problem.line is not None else ""
        findings.append(PROBLEM_RULES[problem.kind](
            f"{file}: member {member} is not valid JSON: {problem.detail}{at}; it was not read.",
            file=file, episode_id=None,
        ))
        key = C.sample_key_of_member(member)
        if key is not None:
            unreadable[key] = member

    progress = options.progress if options is not None else None
    if raw.startswith(C.ZIP_MAGIC):
        log = C.read_eval(path, raw, on_bad, progress)
    else:
        log = C.read_json(path, raw, source.parsed)
    spec = read_spec(log.header, file)
    if spec.version is not None and spec.version > max(KNOWN_VERSIONS):
        raise InputError(
            f"{path}: version {spec.version} of Inspect's log format, newer than evalview reads "
            f"({', '.join(map(str, KNOWN_VERSIONS))}); Inspect itself refuses a version it does "
            "not know. Upgrade evalview, or convert the log with the Inspect that wrote it."
        )
    if spec.version is None:
        spec.findings.append(R.STRUCTURE(
            f"{log.header.where}: $.version is missing or not an integer; read as version 2.",
            file=file))
    if log.sample_count > MAX_SAMPLES:
        raise InputError(
            f"{path}: {log.sample_count:,} samples, over the bound of {MAX_SAMPLES:,} per log; "
            "it was not read. Split the eval."
        )
    headline_hint = spec.scores[0].name if spec.scores else None

    def bad(message: str, key: str | None) -> None:
        findings.append(R.STRUCTURE(message, file=file))

    samples: list[SampleFacts] = []
    for doc in log.samples():
        facts = read_sample(doc, headline_hint, bad)
        if facts is not None:
            samples.append(facts)
    headline = headline_scorer(spec, samples)
    sel = select(spec, samples, unreadable)
    first: dict[tuple[str, int], SampleFacts] = {}
    for s in samples:
        if s not in sel.duplicates and s not in sel.unknown:
            first.setdefault((s.key, s.epoch), s)
    build_rows(sel, first, unreadable, headline)
    summaries = read_summaries(log.summaries) if log.summaries is not None else None
    ctx = Context(
        file=file,
        header_where="" if log.container == "json" else f"{log.header.where} ",
        spec=spec, samples=samples, sel=sel, headline=headline, summaries=summaries,
        reductions=None if log.reductions is None else log.reductions.value,
        reductions_where="" if log.reductions is None else log.reductions.where,
        superseded=log.superseded, complete=log.complete,
    )
    findings = [*spec.findings, *findings, *check_all(ctx)]
    member = log.container == "eval"

    def table() -> Any:
        return build_table(table_rows(sel, spec.task,
                                      lambda r: r.where if member and r.where else file))

    tv = spec.task_version
    # `check` never reads the table: built on first use (its rows too), numpy is not imported
    return run_with_table(
        table,
        lazy=options is not None and options.lazy_table,
        path=path,
        kind=FORMAT,
        identity=Identity(
            run_id=spec.eval_id or spec.run_id or path.stem,
            benchmark_name=spec.task,
            benchmark_version=f"task_version {tv}",
            policy_name=spec.model,
        ),
        protocol=Protocol(),
        schedule=tuple(r.id for r in sel.rows),
        reading_findings=findings,
        bytes_read=log.size,
        source_format=_describe(log, spec, headline, sel.epochs),
        records_errors=True,
        pairing=_pairing(spec, sel),
        native=_native(ctx),
        left_out=(LEFT_OUT,),
        groupings=groupings(sel),
        repeats={r.id: r.key for r in sel.rows} if sel.epochs > 1 else {},
        scorers=other_scorers(sel, headline),
        pairs_by=PAIRS_BY,
    )


#: A sample metadata key is offered as a grouping (`--group-by KEY`) when its values are text,
#: integers or booleans taking at most this many values over the log's samples.
MAX_GROUPS = 100


def groupings(sel: Any) -> dict[str, dict[str, str]]:
    """Each groupable metadata key -> {episode id -> value}, over the selected sample-epochs. A
    sample's metadata is the same at every epoch, so an epoch with no record (unattempted)
    takes it from another epoch of its sample."""
    meta: dict[str, dict[str, Any]] = {}
    for r in [*sel.rows, *sel.strays]:
        if r.sample is not None and r.sample.metadata:
            meta.setdefault(r.key, r.sample.metadata)
    values: dict[str, dict[str, str]] = {}
    bad: set[str] = set()
    for r in sel.rows:
        sample_meta = meta.get(r.key)
        if not sample_meta:
            continue
        rid = r.id
        for k, v in sample_meta.items():
            if k in bad:
                continue
            if isinstance(v, float) and not isinstance(v, bool):
                bad.add(k)  # a measurement (label_confidence), not a category
                continue
            values.setdefault(k, {})[rid] = str(v).lower() if isinstance(v, bool) else str(v)
    return {
        k: ids for k, ids in sorted(values.items())
        if k not in bad and len(set(ids.values())) <= MAX_GROUPS
    }


def other_scorers(sel: Any, headline: str | None) -> dict[str, Any]:
    """Every scorer but the headline: its float value per row (selected rows, then strays, as
    the episode table orders them), NaN where a sample has none, errored or unscored."""
    rows = [*sel.rows, *sel.strays]
    names = sorted({n for r in rows if r.sample is not None for n in r.sample.scores} - {headline})
    if not names:
        return {}  # one scorer, the usual case: numpy is not imported for nothing
    import numpy as np

    from evalview.load.inspect_ai.values import convertible, is_scalar, is_unscored, value_to_float

    out: dict[str, Any] = {}
    for name in names:
        col = np.full(len(rows), np.nan)
        for i, r in enumerate(rows):
            s = r.sample
            if s is None or s.error is not None or name not in s.scores:
                continue
            v = s.scores[name]
            if is_scalar(v) and convertible(v) and not is_unscored(v):
                col[i] = value_to_float(v)
        out[name] = col
    return out


def _describe(log: C.LogFile, spec: Any, headline: str | None, epochs: int) -> str:
    kind = ".eval (zip)" if log.container == "eval" else ".json"
    state = "" if log.complete else ", no header.json yet (a log being written)"
    return (
        f"Inspect AI eval log {kind}, log version {spec.version}{state}; task {spec.task}, "
        f"scorer {headline or 'none'}, {epochs} epoch(s)"
    )


def _pairing(spec: Any, sel: Any) -> dict[str, str]:
    """What another log must share to be compared with this one, sample by sample."""
    dataset = spec.dataset_name or spec.dataset_location or "unnamed"
    return {
        "task": spec.task,
        "task version": spec.task_version,
        "dataset": dataset,
        "sample ids and epochs": f"{len(sel.ids)} ids × {sel.epochs} epoch(s), "
        f"sha256 {sel.fingerprint}",
    }


def _native(ctx: Any) -> dict[str, Any]:
    """Inspect's own headline as recorded and as recomputed, for `score` (`source.native`)."""
    from evalview.load.inspect_ai.checks import reduced
    from evalview.load.inspect_ai.values import METRICS, is_unscored, value_to_float

    records = [s for s in ctx.spec.scores if s.name == ctx.headline]
    if not records:
        return {}
    score = records[0]
    by_sample = reduced(ctx, score)
    kept = [] if by_sample is None else [v for v in by_sample.values() if not is_unscored(v)]
    floats = [value_to_float(v) for v in kept]
    metrics = {}
    for m in score.metrics:
        fn = METRICS.get(m.name)
        metrics[m.key] = {
            "recorded": float(m.value),
            "recomputed": None if fn is None or by_sample is None or not floats
            else fn(floats),
        }
    return {
        "tool": "Inspect AI",
        "scorer": score.name,
        "reducer": score.reducer or (ctx.spec.epochs_reducer or ["mean"])[0],
        "epochs": ctx.sel.epochs,
        "scored_samples": len(kept) if by_sample is not None else None,
        "denominator": "the samples Inspect scored (errored and unscored samples left out), "
        "each reduced over its epochs",
        "metrics": metrics,
    }


#: Its declaration (evalview.load.builtin: the registry asks it without importing this module).
READER = builtin.INSPECT_AI
