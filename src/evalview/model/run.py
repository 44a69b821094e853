"""`Run`: the one in-memory form of every input (closed-run directory, results JSON).

Consumers (audit, stats, psr, compare, report, TUI) read a `Run` and nothing else. Episodes are a
columnar table so the arithmetic is numpy and a 10,000-row screen never builds 10,000 widgets; every
row keeps its provenance (file and line) so findings and screens can point at the exact record.

numpy is imported where a table is built or indexed, not with this module: `evalview check` reads a
Run without ever building its table (see `load_run(lazy_table=True)`) and saves the import.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from evalview.findings import Finding
from evalview.model import DEFAULT_MESSAGE_KEY as DEFAULT_MESSAGE_KEY  # re-exported

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from evalview.model.result import Result

#: Episode status values in the table. `unattempted` marks a selected case with no record.
COMPLETED = "completed"
ERROR = "error"
UNATTEMPTED = "unattempted"
#: A record whose `status` is neither `completed` nor `error` (the audit says why).
INVALID = "invalid"

#: The four error categories of the closed-result format, in display order.
ERROR_CATEGORIES = ("policy", "protocol", "infrastructure", "evaluation")

#: The six usage fields of the closed-result format, in its order.
USAGE_FIELDS = (
    "calls",
    "input_tokens",
    "output_tokens",
    "cached_input_tokens",
    "estimated_cost_usd",
    "latency_s",
)

#: The name of the reader that read it (`Reader.name` in `evalview.load`): what the format can
#: honestly say (partial credit, export label) is that reader's declaration, looked up by name.
RunKind = str

#: A seed at the end of an id: at most 19 digits (a seed is kept in an int64 column; int() of
#: thousands of digits would raise), range-checked below.
_SEED_RE = re.compile(r"(?<!\d)(-?\d{1,19})$")


def split_episode_id(episode_id: str) -> tuple[str, int | None]:
    """Task and seed from a schedule id such as `task-a/seed7`, for cases with no record."""
    task, sep, tail = episode_id.rpartition("/")
    if not sep:
        return episode_id, None
    match = _SEED_RE.search(tail)
    seed = int(match.group(1)) if match else None
    return task, seed if seed is not None and -(2**63) <= seed < 2**63 else None


@dataclass(frozen=True, slots=True)
class Identity:
    """Who and what was evaluated. Unknown values are None, never guessed."""

    run_id: str | None = None
    benchmark_name: str | None = None
    benchmark_version: str | None = None
    protocol_version: str | None = None
    source_revision: str | None = None
    policy_name: str | None = None
    policy_version: str | None = None


@dataclass(frozen=True, slots=True)
class Protocol:
    """The execution protocol declared in the manifest."""

    max_steps: int | None = None
    max_policy_calls: int | None = None
    replan_interval: int | None = None
    fail_fast: bool | None = None


@dataclass(slots=True)
class EpisodeRecord:
    """One parsed line of episodes.jsonl. `data` is None when the line could not be parsed."""

    line: int
    data: dict[str, Any] | None
    offset: int = 0

    @property
    def episode_id(self) -> str | None:
        ep = self.data.get("episode") if self.data else None
        eid = ep.get("id") if isinstance(ep, dict) else None
        return eid if isinstance(eid, str) else None


@dataclass(slots=True)
class ResultFile:
    """One `episodes/<dir>/result.json` and how it matches the JSONL records."""

    path: str  # relative to the run, e.g. "episodes/task-a-seed7/result.json"
    episode_id: str | None  # None when unreadable or the id is missing
    readable: bool
    #: line in episodes.jsonl of the record with the same id (first one), or None
    matched_line: int | None = None
    #: top-level keys whose values differ from that record (empty = identical)
    differing_keys: tuple[str, ...] = ()


@dataclass
class EpisodeTable:
    """Columns over episodes: schedule cases first (in schedule order), then stray records.

    Stray records (ids outside the schedule, duplicate lines) have `in_schedule == False`; scores
    use only in-schedule rows. `success` is 1, 0 or -1 (null/unknown); `score` is NaN when absent;
    `line` is 0 for rows with no record.
    """

    ids: npt.NDArray[np.object_]
    task: npt.NDArray[np.object_]
    seed: npt.NDArray[np.int64]  # -1 when unknown
    status: npt.NDArray[np.object_]
    success: npt.NDArray[np.int8]
    error_category: npt.NDArray[np.object_]  # str or None
    error_type: npt.NDArray[np.object_]  # str or None
    termination_reason: npt.NDArray[np.object_]  # str or None
    score: npt.NDArray[np.float64]
    message: npt.NDArray[np.object_]  # verifier message, str or None
    in_schedule: npt.NDArray[np.bool_]
    file: npt.NDArray[np.object_]  # str or None
    line: npt.NDArray[np.int64]
    record_index: npt.NDArray[np.int64]  # index into Run.records, -1 when none

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def row(self, i: int) -> dict[str, Any]:
        """One row as plain Python values (for display and JSON)."""
        import numpy as np

        return {
            "id": self.ids[i],
            "task": self.task[i],
            "seed": None if self.seed[i] < 0 else int(self.seed[i]),
            "status": self.status[i],
            "success": None if self.success[i] < 0 else bool(self.success[i]),
            "error_category": self.error_category[i],
            "error_type": self.error_type[i],
            "termination_reason": self.termination_reason[i],
            "score": None if np.isnan(self.score[i]) else float(self.score[i]),
            "message": self.message[i],
            "in_schedule": bool(self.in_schedule[i]),
            "file": self.file[i],
            "line": int(self.line[i]) or None,
        }


@dataclass
class Run:
    """Everything evalview knows about one input, plus what the reader found wrong with it."""

    path: Path
    kind: RunKind
    identity: Identity
    protocol: Protocol
    #: Selected episode ids in schedule order (the manifest's protocol.episode_ids).
    schedule: tuple[str, ...]
    episodes: EpisodeTable
    #: Parsed top-level documents by file name (None when missing or unreadable).
    documents: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    #: Parsed episodes.jsonl lines, in file order.
    records: list[EpisodeRecord] = field(default_factory=list)
    result_files: list[ResultFile] = field(default_factory=list)
    #: Findings made while reading (EV1xx); the audit adds its own.
    reading_findings: list[Finding] = field(default_factory=list)
    bytes_read: int = 0
    #: The metrics key holding the verifier message.
    message_key: str = DEFAULT_MESSAGE_KEY
    #: What the input was, for people ("lerobot-eval eval_info.json, multi-task"); None: closed run.
    source_format: str | None = None
    #: False when the format cannot record errored or unattempted episodes (LeRobot): then every
    #: denominator is the episodes recorded, and the views say so.
    records_errors: bool = True
    #: Named task subsets the input itself declares (LeRobot task groups), in file order.
    views: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Extra per-row columns aligned with `episodes` (LeRobot: sum_reward, max_reward).
    columns: dict[str, Any] = field(default_factory=dict)
    #: The input's own headline numbers, as recorded (LeRobot: the pooled pc_success, percent).
    reported: dict[str, float] = field(default_factory=dict)
    #: The same for each of `views` (LeRobot: per_group's pc_success of each group): a view is
    #: compared with what the input records for that view, never with the whole read's number.
    reported_views: dict[str, dict[str, float]] = field(default_factory=dict)
    #: A reopened result.json: the document as published, whose recorded numbers the session
    #: recomputes from the episodes (stats/reaudit.py). None for every other input.
    published: Result | None = None
    #: What another read must share to be paired with this one, episode by episode (name ->
    #: value; Inspect: task, task version, dataset, sample ids and epochs). Empty: the benchmark
    #: identity decides, as for a closed run (`compare.pairing`).
    pairing: dict[str, str] = field(default_factory=dict)
    #: What each episode is, for naming the first one two reads do not share when their pairing
    #: differs (episode id -> "doc_hash ..." for lm-eval). Empty: not said per episode.
    pair_keys: dict[str, str] = field(default_factory=dict)
    #: The input tool's own headline, as recorded and recomputed (Inspect's accuracy over the
    #: samples it scored), shown beside evalview's in `score` (`source.native`). Empty: none.
    native: dict[str, Any] = field(default_factory=dict)
    #: What the input holds that an export leaves behind, said in result.json's labels (Inspect:
    #: transcripts, model outputs, tool calls, model_args and model_base_url values).
    left_out: tuple[str, ...] = ()
    #: Episode groupings the input records per episode (Inspect: each sample's scalar metadata,
    #: `category`, `subject`, `difficulty`): key -> {episode id -> value}. `score --group-by KEY`
    #: (or `--view KEY`) and `compare --group-by KEY` break the rate down by value.
    groupings: dict[str, dict[str, str]] = field(default_factory=dict)
    #: The episodes that repeat one item (Inspect: a sample's epochs): episode id -> item id.
    #: Empty when each episode is its own item; then no per-item interval is shown.
    repeats: dict[str, str] = field(default_factory=dict)
    #: Other scorers' values, not the outcome (Inspect: every scorer but the headline): name ->
    #: one float per row of `episodes` (NaN where the episode has no value). Shown with their
    #: mean and SE, never in a rate or a Wilson interval.
    scorers: dict[str, Any] = field(default_factory=dict)
    #: What pairs an episode with the other read's when the format has no seed to pair by, in
    #: words for compare's notes (Inspect: "sample id and epoch"). Empty: episode id and seed.
    pairs_by: str = ""
    #: The audit's per-record checks, done while the records were read (`ReadOptions.on_record`,
    #: audit.checks.episodes.RecordChecks); None: the audit walks the records itself.
    record_checks: object | None = None

    @property
    def manifest(self) -> dict[str, Any] | None:
        return self.documents.get("manifest.json")

    @property
    def status_doc(self) -> dict[str, Any] | None:
        return self.documents.get("status.json")

    @property
    def summary(self) -> dict[str, Any] | None:
        return self.documents.get("summary.json")

    @property
    def tasks(self) -> tuple[str, ...]:
        """Tasks of the selected schedule, in order of first appearance."""
        seen: dict[str, None] = {}
        for t in self.episodes.task[self.episodes.in_schedule]:
            seen.setdefault(t, None)
        return tuple(seen)

    def scheduled(self) -> EpisodeTable:
        """The in-schedule rows only (one per selected case)."""
        import numpy as np

        return take_rows(self.episodes, np.flatnonzero(self.episodes.in_schedule))

    def iter_records(self) -> Iterator[tuple[EpisodeRecord, dict[str, Any]]]:
        """Records that parsed to an object, with their data."""
        for rec in self.records:
            if rec.data is not None:
                yield rec, rec.data


class LazyTableRun(Run):
    """A Run whose episode table is built the first time it is read (`check` never reads it,
    and so never imports numpy). Without `make_table` (as `dataclasses.replace` calls it, with
    `episodes`), a plain Run."""

    def __init__(
        self, *, make_table: Callable[[], EpisodeTable] | None = None, **fields: Any
    ) -> None:
        if make_table is None:
            super().__init__(**fields)
            return
        super().__init__(episodes=cast(EpisodeTable, None), **fields)
        del self.__dict__["episodes"]  # so the cached property below answers
        self._make_table = make_table

    @cached_property
    def episodes(self) -> EpisodeTable:  # type: ignore[override]
        return self._make_table()


def run_with_table(make_table: Callable[[], EpisodeTable], *, lazy: bool, **fields: Any) -> Run:
    """A Run whose episode table `make_table` builds: on first use with `lazy` (the readers'
    `ReadOptions.lazy_table`: `check` never reads the table, so never imports numpy), else now."""
    if lazy:
        return LazyTableRun(make_table=make_table, **fields)
    return Run(episodes=make_table(), **fields)


def take_rows(table: EpisodeTable, index: npt.NDArray[np.intp]) -> EpisodeTable:
    """A new table with the given rows (numpy fancy indexing on every column)."""
    return EpisodeTable(**{name: getattr(table, name)[index] for name in _COLUMNS})


_COLUMNS = tuple(EpisodeTable.__dataclass_fields__)


def build_table(rows: list[dict[str, Any]]) -> EpisodeTable:
    """Columns from row dicts with the keys of `EpisodeTable.row` plus `record_index`."""
    import numpy as np

    n = len(rows)

    def obj(key: str) -> npt.NDArray[np.object_]:
        arr = np.empty(n, dtype=object)
        arr[:] = [r.get(key) for r in rows]
        return arr

    return EpisodeTable(
        ids=obj("id"),
        task=obj("task"),
        seed=np.array([-1 if r.get("seed") is None else r["seed"] for r in rows], dtype=np.int64),
        status=obj("status"),
        success=np.array(
            [-1 if r.get("success") is None else int(bool(r["success"])) for r in rows],
            dtype=np.int8,
        ),
        error_category=obj("error_category"),
        error_type=obj("error_type"),
        termination_reason=obj("termination_reason"),
        score=np.array(
            [np.nan if r.get("score") is None else float(r["score"]) for r in rows],
            dtype=np.float64,
        ),
        message=obj("message"),
        in_schedule=np.array([bool(r.get("in_schedule")) for r in rows], dtype=np.bool_),
        file=obj("file"),
        line=np.array([r.get("line") or 0 for r in rows], dtype=np.int64),
        record_index=np.array(
            [-1 if r.get("record_index") is None else r["record_index"] for r in rows],
            dtype=np.int64,
        ),
    )
