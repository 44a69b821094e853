"""An Inspect log as evalview scores it: the selected sample-epochs and each one's outcome.

- **One log is one task** (Inspect writes one log per task and model); the task is the row's task.
- **Selected** = the dataset's selected sample ids (`eval.dataset.sample_ids`: what `limit` or
  `sample_id` left of the dataset) × the epochs (`eval.config.epochs`), in that order; a log
  written before `sample_ids` existed selects the ids of the samples it holds. Each selected
  sample-epoch is one episode, id `<sample id>/epoch<n>`: two logs of the same samples pair by
  (sample id, epoch).
- **Outcome**: the headline scorer's value (the first of `results.scores`, Inspect's own headline)
  through Inspect's `value_to_float`: 1 is a success, 0 a failure (values.py). A value between (P,
  0.5, 0.73) is graded: not a success, its float kept in the score column (EV015).
- **Errored sample** (`error` set): an errored rollout, category infrastructure (Inspect records
  no category; its sample errors are API, sandbox and runtime failures), pending a re-run, never
  dropped. A sample with no score for the headline scorer (or NaN, Inspect's unscored sentinel) is
  an evaluation error (EV014). A selected sample-epoch the log has no record of is unattempted.
- **A limit** (token, message, time, working, ...) is the termination reason `limit:<type>`; the
  sample is scored as Inspect scored it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from evalview.load.inspect_ai import values as V
from evalview.load.inspect_ai.parse import SampleFacts, Spec, id_text, is_missing
from evalview.model.run import COMPLETED, ERROR, INVALID, UNATTEMPTED

INFRASTRUCTURE = "infrastructure"
EVALUATION = "evaluation"
UNSCORED = "unscored"


def episode_id(key: str, epoch: int) -> str:
    return f"{key}/epoch{epoch}"


def _sort_key(key: str, raw: Any) -> str:
    """Inspect's sample order (`sort_samples`): integer ids zero-filled, strings as they are."""
    return key.zfill(20) if isinstance(raw, int) else key


@dataclass
class Row:
    """One selected sample-epoch (or a stray sample: a duplicate, or one not selected)."""

    key: str
    epoch: int
    status: str
    success: bool | None = None
    score: float | None = None
    error_category: str | None = None
    error_type: str | None = None
    termination: str | None = None
    where: str | None = None
    in_schedule: bool = True
    sample: SampleFacts | None = None

    @property
    def id(self) -> str:
        return episode_id(self.key, self.epoch)


@dataclass
class Selection:
    """The selected sample ids (in order), the epochs, and each sample-epoch's row."""

    ids: list[str]
    raw_ids: dict[str, Any]
    epochs: int
    rows: list[Row] = field(default_factory=list)
    strays: list[Row] = field(default_factory=list)
    duplicate_ids: list[str] = field(default_factory=list)
    #: (key, epoch) of samples seen twice (the first is the row), and of unknown samples
    duplicates: list[SampleFacts] = field(default_factory=list)
    unknown: list[SampleFacts] = field(default_factory=list)

    @property
    def fingerprint(self) -> str:
        """What two logs must share to be paired sample by sample: the ids and the epochs."""
        text = "\n".join(self.ids) + f"\nepochs={self.epochs}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def headline_scorer(spec: Spec, samples: list[SampleFacts]) -> str | None:
    """The scorer whose values are the outcomes: Inspect's headline (the first score of the
    results), else the first the eval spec declares, else the first a sample carries."""
    if spec.scores:
        return spec.scores[0].name
    if spec.scorer_names:
        return spec.scorer_names[0]
    for s in samples:
        if s.scores:
            return next(iter(s.scores))
    return None


def select(
    spec: Spec, samples: list[SampleFacts], unreadable: dict[tuple[str, int], str]
) -> Selection:
    """The selected sample-epochs, and which sample document (or none) each one is."""
    raw_ids: dict[str, Any] = {}
    duplicate_ids: list[str] = []
    if spec.sample_ids is not None:
        for raw in spec.sample_ids:
            key = id_text(raw)
            assert key is not None  # parse checked the list
            if key in raw_ids:
                duplicate_ids.append(key)
            else:
                raw_ids[key] = raw
        ids = list(raw_ids)
    else:
        for s in samples:
            raw_ids.setdefault(s.key, s.id)
        for key, _epoch in unreadable:
            raw_ids.setdefault(key, key)
        ids = sorted(raw_ids, key=lambda k: _sort_key(k, raw_ids[k]))
    seen_epochs = [s.epoch for s in samples] + [e for _k, e in unreadable]
    epochs = spec.epochs if spec.epochs_declared else max(seen_epochs, default=1)
    sel = Selection(ids=ids, raw_ids=raw_ids, epochs=epochs, duplicate_ids=duplicate_ids)
    wanted = {(k, e) for k in ids for e in range(1, epochs + 1)}
    first: dict[tuple[str, int], SampleFacts] = {}
    for s in samples:
        pair = (s.key, s.epoch)
        if pair not in wanted:
            sel.unknown.append(s)
        elif pair in first:
            sel.duplicates.append(s)
        else:
            first[pair] = s
    return sel


def outcome_row(key: str, epoch: int, s: SampleFacts, headline: str | None) -> Row:
    """A sample's row: errored, unscored, ungradable or scored (see the module docstring)."""
    termination = f"limit:{s.limit}" if s.limit else None
    row = Row(key, epoch, COMPLETED, where=s.where, termination=termination, sample=s)
    if s.error is not None:
        row.status, row.error_category, row.error_type = ERROR, INFRASTRUCTURE, s.error
        return row
    value = s.scores.get(headline, None) if headline is not None else None
    if headline is None or headline not in s.scores or is_missing(value) or value is None \
            or V.is_unscored(value):
        row.status, row.error_category, row.error_type = ERROR, EVALUATION, UNSCORED
        return row
    if not V.is_scalar(value) or not V.convertible(value):
        row.status = INVALID
        return row
    x = V.value_to_float(value)
    row.score = x
    row.success = x == 1.0
    return row


def build_rows(
    sel: Selection, samples_first: dict[tuple[str, int], SampleFacts],
    unreadable: dict[tuple[str, int], str], headline: str | None,
) -> None:
    """Fill `sel.rows` (selected, in order) and `sel.strays` (duplicates, unknown samples)."""
    for key in sel.ids:
        for epoch in range(1, sel.epochs + 1):
            s = samples_first.get((key, epoch))
            if s is not None:
                sel.rows.append(outcome_row(key, epoch, s, headline))
            elif (key, epoch) in unreadable:
                sel.rows.append(Row(key, epoch, INVALID, where=unreadable[(key, epoch)]))
            else:
                sel.rows.append(Row(key, epoch, UNATTEMPTED))
    for s in [*sel.duplicates, *sel.unknown]:
        row = outcome_row(s.key, s.epoch, s, headline)
        row.in_schedule = False
        sel.strays.append(row)


def table_rows(sel: Selection, task: str, file_of: Callable[[Row], str | None]) -> list[dict[str,
                                                                                             Any]]:
    """The rows as `build_table` takes them."""
    out = []
    for r in [*sel.rows, *sel.strays]:
        out.append({
            "id": r.id,
            "task": task,
            "seed": None,
            "status": r.status,
            "success": r.success if r.status == COMPLETED else None,
            "error_category": r.error_category,
            "error_type": r.error_type,
            "termination_reason": r.termination,
            "score": r.score,
            "message": None,
            "in_schedule": r.in_schedule,
            "file": file_of(r),
            "line": 0,
            "record_index": -1,
        })
    return out
