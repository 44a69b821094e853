"""The audit of an Inspect log (EV0xx): every number it records recomputed from its samples.

Inspect computes a scorer's metrics over the samples it scored: each sample's epochs reduced to
one value by the reducer (`mean` unless `epochs_reducer` says otherwise), NaN values ("unscored")
left out, errored samples left out unless they were scored anyway. `accuracy` and `mean` are the
mean of the reduced values through `value_to_float`, `stderr` their sample SD over sqrt(n), `std`
and `var` the SD and variance (values.py). evalview recomputes each of those the log records and
reports a disagreement with its JSON location; a bootstrap, a clustered stderr and a custom metric
or reducer cannot be recomputed and are said to be unchecked (EV018).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from evalview.findings import Finding
from evalview.load.inspect_ai import rules as R
from evalview.load.inspect_ai import values as V
from evalview.load.inspect_ai.model import EVALUATION, INFRASTRUCTURE, Selection
from evalview.load.inspect_ai.parse import (
    SampleFacts,
    ScoreRecord,
    Spec,
    SummaryFacts,
    id_text,
    is_missing,
)
from evalview.model.run import COMPLETED, ERROR, UNATTEMPTED

#: Scorers of Inspect that write only C or I (a value outside them is not theirs).
BINARY_SCORERS = frozenset({"match", "includes", "pattern", "answer", "choice", "exact"})
#: Absolute tolerance of a recomputed metric (Inspect sums floats in sample order).
TOLERANCE = 1e-9
#: How many ids a message lists before "and N more".
_SHOWN = 5


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:_SHOWN])
    return shown + (f" and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else "")


@dataclass
class Context:
    """Everything the checks look at, read once."""

    file: str
    header_where: str  # "header.json " or "" (a JSON log)
    spec: Spec
    samples: list[SampleFacts]
    sel: Selection
    headline: str | None
    summaries: list[SummaryFacts] | None = None
    reductions: Any = None
    reductions_where: str = ""
    superseded: list[str] = field(default_factory=list)
    complete: bool = True
    #: (scorer, reducer) -> `reduced`'s answer: four checks and the reader's headline ask for
    #: the same reduction (a third of `check`'s time on a 6,000-member log before)
    reductions_cache: dict[tuple[str, str | None], dict[str, Any] | None] = field(
        default_factory=dict, repr=False)

    def at(self, path: str) -> str:
        return f"{self.header_where}{path}"


def check_all(ctx: Context) -> list[Finding]:
    out: list[Finding] = []
    for check in (_status, _no_samples, _missing, _duplicates, _unknown, _superseded, _errors,
                  _unscored, _limits, _subset, _values, _graded, _reducer, _metrics,
                  _reductions, _summaries, _headline):
        out.extend(check(ctx))
    return out


def _status(ctx: Context) -> Iterator[Finding]:
    status = ctx.spec.status
    if status == "success":
        return
    done = sum(1 for r in ctx.sel.rows if r.status != UNATTEMPTED)
    n = len(ctx.sel.rows)
    why = {
        "started": "the eval was still running when the log was written (or it crashed)",
        "cancelled": "the eval was cancelled",
        "error": "the eval stopped on an error (the log's `error` says which)",
    }.get(str(status), f"status {status!r} is not one Inspect writes")
    held = (
        f"{done} of {n} selected sample-epochs have a sample record; the others stay in the "
        "selected denominator as unattempted" if ctx.samples else "it holds no sample record"
    )
    yield R.LOG_STATUS(
        f"{ctx.at('$.status')} is {status!r}: {why}. {held}. Re-run (inspect eval-retry) before "
        "publishing.",
        file=ctx.file,
    )


def _no_samples(ctx: Context) -> Iterator[Finding]:
    if ctx.samples or any(r.where for r in ctx.sel.rows):
        return
    yield R.NO_SAMPLES(
        f"{ctx.file}: the log holds no sample (written with --no-log-samples, or read header "
        "only): its recorded metrics cannot be checked and there is nothing to score. Re-run "
        "with samples logged.",
        file=ctx.file,
    )


def _missing(ctx: Context) -> Iterator[Finding]:
    if ctx.spec.status != "success" or not ctx.samples:
        return
    missing = [r.id for r in ctx.sel.rows if r.status == UNATTEMPTED]
    if missing:
        yield R.MISSING_SAMPLES(
            f"{ctx.file}: the log's status is 'success' but {len(missing)} selected "
            f"sample-epoch(s) have no sample record ({_ids(missing)}); they are counted as "
            "unattempted. Was a sample member deleted?",
            file=ctx.file, episode_id=missing[0],
        )


def _duplicates(ctx: Context) -> Iterator[Finding]:
    if ctx.sel.duplicate_ids:
        yield R.DUPLICATE_SAMPLE(
            f"{ctx.at('$.eval.dataset.sample_ids')} lists {len(ctx.sel.duplicate_ids)} id(s) "
            f"twice ({_ids(ctx.sel.duplicate_ids)}); each is selected once.",
            file=ctx.file,
        )
    for s in ctx.sel.duplicates:
        yield R.DUPLICATE_SAMPLE(
            f"{s.where}: sample {s.key} epoch {s.epoch} is recorded again; only the first "
            "record is scored (this one is listed, not counted).",
            file=ctx.file, episode_id=f"{s.key}/epoch{s.epoch}",
        )


def _unknown(ctx: Context) -> Iterator[Finding]:
    for s in ctx.sel.unknown:
        why = (
            f"epoch {s.epoch} is past the {ctx.sel.epochs} epoch(s) configured"
            if s.key in ctx.sel.raw_ids
            else f"id {s.key} is not among the {len(ctx.sel.ids)} sample ids the dataset selected"
        )
        yield R.UNKNOWN_SAMPLE(
            f"{s.where}: {why}; the sample is listed, not counted.",
            file=ctx.file, episode_id=f"{s.key}/epoch{s.epoch}",
        )


def _superseded(ctx: Context) -> Iterator[Finding]:
    if ctx.superseded:
        yield R.SUPERSEDED(
            f"{ctx.file}: {len(ctx.superseded)} sample member(s) were logged more than once "
            f"({_ids(ctx.superseded)}): a requeued sample re-logged; the last of each is read, "
            "as Inspect reads it.",
            file=ctx.file,
        )


def _errors(ctx: Context) -> Iterator[Finding]:
    rows = [r for r in ctx.sel.rows if r.status == ERROR and r.error_category == INFRASTRUCTURE]
    if not rows:
        return
    types = Counter(r.error_type or "error" for r in rows)
    kinds = ", ".join(f"{t} {n}" for t, n in types.most_common())
    yield R.SAMPLE_ERRORS(
        f"{ctx.file}: {len(rows)} sample-epoch(s) ended in an error ({kinds}: "
        f"{_ids([r.id for r in rows])}). Errored rollouts, pending a re-run: they count as "
        "non-successes over selected and attempted; Inspect's accuracy leaves them out of its "
        "denominator. Re-run them (inspect eval-retry) before publishing.",
        file=ctx.file, episode_id=rows[0].id,
    )


def _unscored(ctx: Context) -> Iterator[Finding]:
    rows = [r for r in ctx.sel.rows if r.status == ERROR and r.error_category == EVALUATION]
    if rows:
        yield R.UNSCORED(
            f"{ctx.file}: {len(rows)} sample-epoch(s) have no score from the headline scorer "
            f"{ctx.headline!r} (no score, or NaN: Inspect's unscored sentinel): "
            f"{_ids([r.id for r in rows])}. Counted as evaluation errors, not failures; Inspect "
            "leaves them out of its metrics (unscored_samples).",
            file=ctx.file, episode_id=rows[0].id,
        )


def _limits(ctx: Context) -> Iterator[Finding]:
    rows = [r for r in ctx.sel.rows if r.termination is not None]
    if not rows:
        return
    kinds = Counter((r.termination or "").removeprefix("limit:") for r in rows)
    listed = ", ".join(f"{k} {n}" for k, n in kinds.most_common())
    scored = [r for r in rows if r.status == COMPLETED]
    yield R.LIMITS(
        f"{ctx.file}: {len(rows)} sample-epoch(s) hit a limit ({listed}); {len(scored)} of them "
        "were scored, as Inspect scored them (a limit is a termination reason, not an error). "
        f"First: {rows[0].id}.",
        file=ctx.file, episode_id=rows[0].id,
    )


def _subset(ctx: Context) -> Iterator[Finding]:
    spec = ctx.spec
    reasons = []
    if spec.limit is not None:
        reasons.append(f"{ctx.at('$.eval.config.limit')} is {spec.limit!r}")
    if spec.sample_id is not None:
        shown = spec.sample_id if not isinstance(spec.sample_id, list) else (
            f"a list of {len(spec.sample_id)} id(s)")
        reasons.append(f"{ctx.at('$.eval.config.sample_id')} is {shown}")
    total = spec.dataset_samples
    n = len(ctx.sel.ids)
    if total is not None and spec.sample_ids is not None and n < total and not reasons:
        reasons.append(f"the log lists {n} sample ids of the dataset's {total}")
    if reasons:
        of = f"{n} of the dataset's {total} samples" if total is not None else f"{n} samples"
        yield R.SUBSET(
            f"{'; '.join(reasons)}: the eval ran {of}, not the whole dataset "
            f"({spec.dataset_name or spec.dataset_location or 'unnamed'}). Say so next to the "
            "numbers, or run the whole dataset.",
            file=ctx.file,
        )


def _values(ctx: Context) -> Iterator[Finding]:
    """Score values Inspect's value_to_float cannot read, or a binary scorer cannot write."""
    bad: dict[str, list[str]] = defaultdict(list)
    shown: dict[str, Any] = {}
    for s in ctx.samples:
        for name, value in s.scores.items():
            if is_missing(value) or value is None or V.is_unscored(value):
                continue
            base = name.rsplit("/", 1)[-1]
            if isinstance(value, dict | list):
                if name == ctx.headline:
                    bad[name].append(f"{s.key}/epoch{s.epoch}")
                    shown.setdefault(name, value)
                continue
            wrong = not V.convertible(value) or (
                isinstance(value, float) and not math.isfinite(value)
            ) or (base in BINARY_SCORERS and value not in (V.CORRECT, V.INCORRECT))
            if wrong:
                bad[name].append(f"{s.key}/epoch{s.epoch}")
                shown.setdefault(name, value)
    for name, ids in bad.items():
        yield R.SCORE_VALUE(
            f"{ctx.file}: scorer {name!r} gives {len(ids)} value(s) it cannot produce, first "
            f"{shown[name]!r} ({_ids(ids)}); Inspect's value_to_float would count "
            "such a value as 0 with a warning. Check the scorer.",
            file=ctx.file, episode_id=ids[0],
        )


def _graded(ctx: Context) -> Iterator[Finding]:
    rows = [r for r in ctx.sel.rows
            if r.status == COMPLETED and r.score is not None and r.score not in (0.0, 1.0)]
    if rows:
        values = Counter(r.score for r in rows)
        listed = ", ".join(f"{v:g} ×{n}" for v, n in sorted(values.items())[:6])
        yield R.GRADED(
            f"{ctx.file}: the headline scorer {ctx.headline!r} gives {len(rows)} sample-epoch(s) "
            f"values other than 0 and 1 ({listed}): evalview's binary rate counts only a value "
            "of 1 (C, true) as a success; Inspect's accuracy averages the values. The graded "
            "mean and its SE: `evalview score FILE --metric score`.",
            file=ctx.file, episode_id=rows[0].id,
        )


def _reducer(ctx: Context) -> Iterator[Finding]:
    if ctx.sel.epochs <= 1:
        return
    records = [s for s in ctx.spec.scores if s.name == ctx.headline]
    reducer = records[0].reducer if records else None
    names = ctx.spec.epochs_reducer
    named = reducer or (names[0] if names and len(names) == 1 else None) or "mean"
    implicit = "" if reducer or names else " (Inspect's default)"
    yield R.REDUCER(
        f"{ctx.at('$.eval.config.epochs')} is {ctx.sel.epochs}: Inspect's headline for "
        f"{ctx.headline!r} is its metric over each sample's {ctx.sel.epochs} epochs reduced by "
        f"{named!r}{implicit}; evalview's episodes are the {len(ctx.sel.rows)} sample-epochs "
        "(pairs in `compare` are (sample id, epoch)).",
        file=ctx.file,
    )


# -- recomputing the recorded metrics ------------------------------------------------------


def _scored_values(ctx: Context, scorer: str) -> dict[str, list[tuple[int, Any]]] | None:
    """Sample key -> [(epoch, value)] of one scorer over the selected samples (None when its
    values are dicts or lists: such a scorer's metrics are per key, not recomputed)."""
    out: dict[str, list[tuple[int, Any]]] = defaultdict(list)
    for r in ctx.sel.rows:
        s = r.sample
        if s is None or scorer not in s.scores:
            continue
        value = s.scores[scorer]
        if is_missing(value) or value is None:
            continue
        if isinstance(value, dict | list):
            return None
        out[s.key].append((s.epoch, value))
    return out


def reduced(ctx: Context, score: ScoreRecord) -> dict[str, Any] | None:
    """Sample key -> the value Inspect reduces its epochs to (None: not recomputable). The same
    mapping for every caller: read it, never change it."""
    key = (score.name, score.reducer)
    if key not in ctx.reductions_cache:
        ctx.reductions_cache[key] = _reduced(ctx, score)
    return ctx.reductions_cache[key]


def _reduced(ctx: Context, score: ScoreRecord) -> dict[str, Any] | None:
    values = _scored_values(ctx, score.name)
    reducer = V.reducer_named(score.reducer if score.reducer is not None else _implicit(ctx))
    if values is None or reducer is None:
        return None
    return {key: reducer([v for _e, v in sorted(vs, key=lambda ev: ev[0])])
            for key, vs in values.items()}


def _implicit(ctx: Context) -> str | None:
    """The reducer of a score recorded without one: the only configured reducer, else mean."""
    names = ctx.spec.epochs_reducer
    return names[0] if names and len(names) == 1 else None


def _metrics(ctx: Context) -> Iterator[Finding]:
    if not ctx.samples:
        return  # nothing to recompute from (EV019 says so)
    for score in ctx.spec.scores:
        by_sample = reduced(ctx, score)
        if by_sample is None:
            if score.metrics:
                why = ("its reducer " + repr(score.reducer) + " is not one evalview knows"
                       if V.reducer_named(score.reducer) is None and score.reducer is not None
                       else "its values are not plain scalars (or no sample holds them)")
                yield R.NOT_RECOMPUTED(
                    f"{ctx.at(score.where)} ({score.name!r}): {why}; its metrics are shown as "
                    "recorded, unchecked.",
                    file=ctx.file,
                )
            continue
        kept = [v for v in by_sample.values() if not V.is_unscored(v)]
        floats = [V.value_to_float(v) for v in kept]
        yield from _counts(ctx, score, len(kept), len(by_sample) - len(kept))
        unchecked = []
        for m in score.metrics:
            fn = V.METRICS.get(m.name)
            if fn is None or m.params.get("cluster") is not None or not _default_to_float(m):
                unchecked.append(m.key)
                continue
            got = fn(floats) if floats else math.nan
            rec = float(m.value)
            if _same(rec, got):
                continue
            yield R.METRIC_MISMATCH(
                f"{ctx.at(m.where)} records {m.name} = {rec!r} for {score.name!r}"
                f"{_reducer_text(score)}; the samples give {got!r} (over {len(floats)} scored "
                "sample(s)). The log's numbers are not its samples': re-score it "
                "(inspect score) or find what edited it.",
                file=ctx.file,
            )
        if unchecked:
            yield R.NOT_RECOMPUTED(
                f"{ctx.at(score.where)}.metrics ({score.name!r}): {', '.join(unchecked)} cannot "
                "be recomputed from the samples (a bootstrap, clustered or custom metric); shown "
                "as recorded, unchecked.",
                file=ctx.file,
            )


def _default_to_float(m: Any) -> bool:
    """A metric built with a custom to_float records it among its params: not recomputable."""
    return "to_float" not in m.params


def _reducer_text(score: ScoreRecord) -> str:
    return f" (reducer {score.reducer!r})" if score.reducer else ""


def _same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b))


def _counts(ctx: Context, score: ScoreRecord, scored: int, unscored: int) -> Iterator[Finding]:
    for key, recorded, got in (("scored_samples", score.scored_samples, scored),
                               ("unscored_samples", score.unscored_samples, unscored)):
        if recorded is None:
            continue
        if recorded != got:
            yield R.COUNT_MISMATCH(
                f"{ctx.at(score.where)}.{key} is {recorded!r} for {score.name!r}"
                f"{_reducer_text(score)}; the samples give {got}.",
                file=ctx.file,
            )
    if score is not ctx.spec.scores[0]:
        return
    spec = ctx.spec
    selected = len(ctx.sel.rows)
    if spec.total_samples is not None and spec.total_samples != selected and ctx.samples:
        yield R.COUNT_MISMATCH(
            f"{ctx.at('$.results.total_samples')} is {spec.total_samples!r}; the dataset's "
            f"{len(ctx.sel.ids)} selected sample id(s) × {ctx.sel.epochs} epoch(s) are "
            f"{selected}.",
            file=ctx.file,
        )
    if spec.completed_samples is not None and spec.status == "success" and ctx.samples:
        done = sum(1 for r in ctx.sel.rows
                   if r.sample is not None and r.sample.error is None)
        if spec.completed_samples != done:
            yield R.COUNT_MISMATCH(
                f"{ctx.at('$.results.completed_samples')} is {spec.completed_samples!r}; "
                f"{done} selected sample-epoch(s) completed without an error.",
                file=ctx.file,
            )


def _reductions(ctx: Context) -> Iterator[Finding]:
    doc = ctx.reductions
    if doc is None or not ctx.samples:
        return
    if not isinstance(doc, list):
        yield R.STRUCTURE(f"{ctx.reductions_where} is not a list of reductions; not checked.",
                          file=ctx.file)
        return
    for i, entry in enumerate(doc):
        where = f"{ctx.reductions_where}[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("samples"), list):
            yield R.STRUCTURE(f"{where} is not a reduction (scorer, samples); not checked.",
                              file=ctx.file)
            continue
        scorer, reducer = entry.get("scorer"), entry.get("reducer")
        if not isinstance(scorer, str):
            continue
        record = ScoreRecord(0, scorer, scorer, reducer if isinstance(reducer, str) else None,
                             None, None, (), where)
        expected = reduced(ctx, record)
        if expected is None:
            continue
        for j, item in enumerate(entry["samples"]):
            key = id_text(item.get("sample_id")) if isinstance(item, dict) else None
            if key is None:
                continue
            value = item.get("value", None) if isinstance(item, dict) else None
            if key not in expected:
                yield R.REDUCTION_MISMATCH(
                    f"{where}.samples[{j}] reduces sample {key}, which no selected sample "
                    f"record scores with {scorer!r}.",
                    file=ctx.file,
                )
                continue
            if not _same_value(value, expected[key]):
                yield R.REDUCTION_MISMATCH(
                    f"{where}.samples[{j}].value is {value!r} for sample {key} ({scorer!r}"
                    f"{', reducer ' + repr(reducer) if reducer else ''}); its epochs reduce to "
                    f"{expected[key]!r}.",
                    file=ctx.file, episode_id=f"{key}/epoch1",
                )


def _same_value(a: Any, b: Any) -> bool:
    if type(a) is type(b) and a == b:  # the usual answer (a summary repeats its sample), at once:
        return True  # NaN is never equal to itself, and equal values convert equally
    if V.is_unscored(a) or V.is_unscored(b):
        return V.is_unscored(a) and V.is_unscored(b)
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return bool(a == b)
    return _same(V.value_to_float(a), V.value_to_float(b))


def _summaries(ctx: Context) -> Iterator[Finding]:
    if not ctx.summaries:
        return
    by_key = {(r.key, r.epoch): r for r in ctx.sel.rows if r.sample is not None}
    for summary in ctx.summaries:
        row = by_key.get((summary.key, summary.epoch))
        if row is None or row.sample is None:
            continue
        s = row.sample
        problems = []
        if summary.error != (s.error is not None):
            problems.append(f"error {'set' if summary.error else 'none'} vs "
                            f"{'set' if s.error is not None else 'none'}")
        if (summary.limit or None) != (s.limit or None):
            problems.append(f"limit {summary.limit!r} vs {s.limit!r}")
        for name, value in summary.scores.items():
            if name in s.scores and not _same_value(value, s.scores[name]):
                problems.append(f"{name} {value!r} vs {s.scores[name]!r}")
        if problems:
            yield R.SUMMARY_MISMATCH(
                f"{summary.where} (sample {summary.key} epoch {summary.epoch}) disagrees with "
                f"{s.where}: {'; '.join(problems)}. The sample member is what evalview scores.",
                file=ctx.file, episode_id=row.id,
            )


def _headline(ctx: Context) -> Iterator[Finding]:
    rows = ctx.sel.rows
    if not rows or ctx.headline is None or not ctx.samples:
        return
    n = len(rows)
    k = sum(1 for r in rows if r.status == COMPLETED and r.success)
    errored = sum(1 for r in rows if r.status == ERROR and r.error_category == INFRASTRUCTURE)
    unattempted = sum(1 for r in rows if r.status == UNATTEMPTED)
    ours = (
        f"evalview's headline is successes / selected = {k} / {n} sample-epochs "
        f"({100 * k / n:.1f} %), every errored, unscored or unattempted sample-epoch counted as "
        "not a success"
    )
    records = [s for s in ctx.spec.scores if s.name == ctx.headline]
    acc = next((m for s in records[:1] for m in s.metrics if m.name in ("accuracy", "mean")),
               None)
    if acc is None:
        yield R.HEADLINE(f"{ctx.file}: the log records no accuracy for {ctx.headline!r}; {ours}.",
                         file=ctx.file)
        return
    by_sample = reduced(ctx, records[0])
    kept = [] if by_sample is None else [v for v in by_sample.values() if not V.is_unscored(v)]
    left_out = (
        f"; {errored} errored sample-epoch(s) are left out of its denominator" if errored else ""
    ) + (f", {unattempted} were never run" if unattempted else "")
    over = f"over the {len(kept)} sample(s) it scored" if by_sample is not None else \
        "over the samples it scored"
    reduce = (f", each sample's {ctx.sel.epochs} epochs reduced by "
              f"{records[0].reducer or _implicit(ctx) or 'mean'}" if ctx.sel.epochs > 1 else "")
    yield R.HEADLINE(
        f"{ctx.file}: Inspect's headline is {acc.name} = {float(acc.value):.4g} for "
        f"{ctx.headline!r} ({ctx.at(acc.where)}), {over}{reduce}{left_out}. {ours}.",
        file=ctx.file,
    )
