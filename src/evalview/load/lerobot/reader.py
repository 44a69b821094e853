"""LeRobot `eval_info.json` → `Run`s: detected by content, audited while read (EV7xx).

A file is one lerobot-eval document (single environment or multi-task), or an object whose values
are such documents: a set of named reads (`{"eval_results_400": {...}, "eval_results_800": {...}}`),
one `Run` per key in file order, the key as its `run_id`. Other keys of that object (a user's
`run_config`) are EV709 info findings, never a refusal.

lerobot-eval writes with Python's json module, so an empty group's mean is the bare token `NaN`.
Strict JSON forbids it; such a file is parsed by the stdlib (duplicate keys still refused) and the
audit accepts NaN only in the aggregates it recomputes (EV708), never in per-episode data.

Bounds (refused beyond, before any episode is read): 128 MiB per file, 200,000 episodes per file.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any, cast

from evalview.findings import Finding
from evalview.load import builtin
from evalview.load.bounds import MAX_BYTES, MAX_NAME
from evalview.load.errors import InputError
from evalview.load.lerobot import rules as R
from evalview.load.lerobot.locate import Locator
from evalview.load.lerobot.parse import LeRobotRead, layout_of, read_document
from evalview.load.reader import NamedRun, Reading, ReadOptions
from evalview.load.safe_json import JsonProblem, parse_lenient, parse_strict
from evalview.load.source import Source
from evalview.model.run import COMPLETED, INVALID, EpisodeTable, Identity, Protocol, Run

#: Episodes per file (all reads together) evalview reads from a LeRobot file.
MAX_LEROBOT_EPISODES = 200_000
#: Bytes per LeRobot file (the closed-run bound).
MAX_LEROBOT_BYTES = MAX_BYTES

_MARKERS = builtin.LEROBOT_MARKERS


def looks_like_lerobot(raw: bytes) -> bool:
    """Cheap content test: lerobot-eval's top-level list keys appear in the file."""
    return any(m in raw for m in _MARKERS)


def parse_lerobot_json(
    path: Path, raw: bytes, strict: tuple[Any, JsonProblem | None] | None = None
) -> Any:
    """The document; NaN/Infinity tokens allowed (as Python writes them), duplicate keys refused.
    `strict`: `parse_strict(raw)` when the caller has it already."""
    value, problem = parse_strict(raw) if strict is None else strict
    if problem is None:
        return value
    if problem.kind == "duplicate-key":
        raise InputError(
            f"{path}:{problem.line}: {problem.detail}; JSON readers disagree on which value wins, "
            "so the file is refused. Keep one value per key."
        )
    if problem.kind != "nonfinite-number":
        where = f":{problem.line}" if problem.line else ""
        raise InputError(f"{path}{where}: not valid JSON ({problem.detail}). Re-run lerobot-eval.")
    value, repeated, problem = parse_lenient(raw)
    if problem is not None:
        where = f":{problem.line}" if problem.line else ""
        raise InputError(f"{path}{where}: not valid JSON ({problem.detail}). Re-run lerobot-eval.")
    if repeated:
        raise InputError(
            f"{path}: the key {repeated[0]!r} appears twice in one object; the file is refused. "
            "Keep one value per key."
        )
    return value


def documents_of(value: Any) -> list[tuple[str | None, dict[str, Any]]] | None:
    """The reads of a parsed file: [(None, doc)] or [(key, doc), ...]; None: not LeRobot."""
    if layout_of(value) is not None:
        return [(None, value)]
    if isinstance(value, dict):
        reads = [(k, v) for k, v in value.items() if layout_of(v) is not None]
        return reads or None
    return None


def _episode_count(doc: dict[str, Any]) -> int:
    if isinstance(eps := doc.get("per_episode"), list):
        return len(eps)
    total = 0
    per_task = doc.get("per_task")
    # a bound, counted before the parse: any other shape is the parser's to report (EV7xx)
    for entry in per_task if isinstance(per_task, list) else []:
        metrics = entry.get("metrics") if isinstance(entry, dict) else None
        if isinstance(metrics, dict) and isinstance(s := metrics.get("successes"), list):
            total += len(s)
    return total


def _over_bytes(path: Path, size: int) -> InputError:
    return InputError(
        f"{path}: {size / 2**20:.1f} MiB is over the 128 MiB bound for a LeRobot file. "
        "Split the reads into several files."
    )


def load_lerobot_reads(
    path: Path, raw: bytes, strict: tuple[Any, JsonProblem | None] | None = None
) -> list[tuple[str | None, Run]] | None:
    """Every read of a LeRobot file as (key, Run); None when the file is not LeRobot's.
    `strict`: `parse_strict(raw)` when the caller has it already (the registry's Source)."""
    if not looks_like_lerobot(raw):
        return None
    if len(raw) > MAX_LEROBOT_BYTES:
        raise _over_bytes(path, len(raw))
    value = parse_lerobot_json(path, raw, strict)
    docs = documents_of(value)
    if docs is None:
        return None
    long_keys = [k for k, _d in docs if k is not None and len(k) > MAX_NAME]
    docs = [(k, d) for k, d in docs if k is None or len(k) <= MAX_NAME]
    if not docs:
        raise InputError(
            f"{path}: every read is named by a key longer than {MAX_NAME:,} characters (the "
            "longest name evalview reads); none was read. Rename the reads."
        )
    episodes = sum(_episode_count(d) for _k, d in docs)
    if episodes > MAX_LEROBOT_EPISODES:
        raise InputError(
            f"{path}: {episodes:,} episodes, over the bound of {MAX_LEROBOT_EPISODES:,} per "
            "LeRobot file. Split the reads into several files."
        )
    loc = Locator(raw)
    file = path.name
    shared: list[Finding] = []
    if len(docs) > 1 or docs[0][0] is not None:
        assert isinstance(value, dict)
        keys = {k for k, _d in docs}
        for k in value:
            if k in long_keys:
                shared.append(
                    R.STRUCTURE(
                        f"a read named by {len(k):,} characters, longer than the {MAX_NAME:,} of "
                        f"a name evalview reads ({k[:40]!r}...); not read. Rename it.",
                        file=file, line=loc.line((k,)),
                    )
                )
            elif k not in keys:
                shared.append(
                    R.UNKNOWN_KEY(
                        f"{_cut(k)}: not a lerobot-eval read (a key of your own); kept, not read.",
                        file=file, line=loc.line((k,)),
                    )
                )
    runs = []
    for key, doc in docs:
        read = read_document(doc, loc, prefix=() if key is None else (key,), file=file)
        run = run_of(path, key, read, bytes_read=len(raw))
        run.reading_findings = [*shared, *read.findings]
        runs.append((key, run))
    return runs


def _cut(key: str) -> str:
    """A key of the user's own in a message: cut (it may be megabytes long)."""
    return key if len(key) <= 60 else f"{key[:57]}..."


def run_of(path: Path, key: str | None, read: LeRobotRead, *, bytes_read: int) -> Run:
    """The `Run` of one read: one row per episode, task `GROUP/ID`, id `GROUP/ID/ep<ix>`.

    The episode table (numpy) is built on first use: `evalview check` never needs it.
    """
    ids = [f"{t.name}/ep{ix}" for t in read.tasks for ix in t.episode_ix]
    seen: set[str] = set()
    # A duplicate episode_ix (EV705) gives two rows one id: only the first is in the schedule.
    in_schedule = [not (i in seen or seen.add(i)) for i in ids]  # type: ignore[func-returns-value]
    layout = "single environment" if read.layout == "single-env" else "multi-task"
    keys = "newer keys (n_success, pc_success_ci95)" if read.newer_keys else "older keys"
    reported = {}
    if read.recorded_pc_success is not None and math.isfinite(read.recorded_pc_success):
        reported["pc_success"] = float(read.recorded_pc_success)
    return _LeRobotRun(
        build=lambda: _table(path.name, read, ids, in_schedule),
        path=path,
        kind=FORMAT,
        identity=Identity(run_id=key if key is not None else path.stem),
        protocol=Protocol(),
        schedule=tuple(i for i, keep in zip(ids, in_schedule, strict=True) if keep),
        documents={},
        records=[],
        bytes_read=bytes_read,
        source_format=f"LeRobot lerobot-eval eval_info.json ({layout}, {keys})",
        records_errors=False,
        views={g: tuple(names) for g, names in read.groups.items()}
        if read.layout == "multi-task"
        else {},
        reported=reported,
        reported_views={g: {"pc_success": pc} for g, pc in read.recorded_group_pc_success.items()},
    )


class _LeRobotRun(Run):
    """A Run whose episode table and reward columns are built the first time they are read.
    Without `build` (as `dataclasses.replace` calls it), a plain Run."""

    def __init__(
        self, *, build: Callable[[], tuple[EpisodeTable, dict[str, Any]]] | None = None,
        **fields: Any,
    ) -> None:
        if build is None:
            super().__init__(**fields)
            return
        super().__init__(episodes=cast(EpisodeTable, None), **fields)
        del self.__dict__["episodes"]  # so the cached properties below answer
        del self.__dict__["columns"]
        self._build = build

    @cached_property
    def _built(self) -> tuple[EpisodeTable, dict[str, Any]]:
        return self._build()

    @cached_property
    def episodes(self) -> EpisodeTable:  # type: ignore[override]
        return self._built[0]

    @cached_property
    def columns(self) -> dict[str, Any]:  # type: ignore[override]
        return self._built[1]


def _table(
    file: str, read: LeRobotRead, ids: list[str], in_schedule: list[bool]
) -> tuple[EpisodeTable, dict[str, Any]]:
    """The episode table built column by column (20,000 rows without a dict per row)."""
    import numpy as np

    n = len(ids)
    tasks: list[str] = []
    seeds: list[int] = []
    success: list[int] = []
    lines: list[int] = []
    sums: list[float] = []
    maxes: list[float] = []
    for t in read.tasks:
        tasks.extend([t.name] * t.n)
        if t.seeds.count(None) == len(t.seeds):
            seeds.extend([-1] * len(t.seeds))
        else:
            seeds.extend(-1 if s is None else s for s in t.seeds)
        success.extend(t.successes)
        lines.extend(t.lines)
        sums.extend(t.sum_rewards)
        maxes.extend(t.max_rewards)

    def obj(values: list[Any] | None) -> Any:
        arr = np.empty(n, dtype=object)
        arr[:] = values if values is not None else None
        return arr

    succ = np.asarray(success, dtype=np.int8)
    table = EpisodeTable(
        ids=obj(ids),
        task=obj(tasks),
        seed=np.asarray(seeds, dtype=np.int64),
        status=np.where(succ >= 0, COMPLETED, INVALID).astype(object),
        success=succ,
        error_category=obj(None),
        error_type=obj(None),
        termination_reason=obj(None),
        score=np.full(n, np.nan),
        message=obj(None),
        in_schedule=np.asarray(in_schedule, dtype=np.bool_),
        file=obj([file] * n),
        line=np.asarray(lines, dtype=np.int64),
        record_index=np.full(n, -1, dtype=np.int64),
    )
    columns = {
        "sum_reward": np.asarray(sums, dtype=np.float64),
        "max_reward": np.asarray(maxes, dtype=np.float64),
    }
    return table, columns


FORMAT = "lerobot-eval"
#: How much of an over-bound file `detect` looks at for lerobot-eval's keys.
_HEAD = 1 << 16


def _detect(source: Source) -> bool:
    """lerobot-eval's keys, and (when strict JSON) a document or named reads of documents."""
    if source.is_dir or source.size is None:
        return False
    if source.size > MAX_LEROBOT_BYTES:
        try:
            with open(source.path, "rb") as f:
                return looks_like_lerobot(f.read(_HEAD))
        except OSError:
            return False
    try:
        raw = source.raw
    except InputError:
        return False
    if not looks_like_lerobot(raw):
        return False
    value, problem = source.parsed
    # Not strict JSON: the NaN lerobot-eval writes (read leniently), or a broken file whose
    # message this reader words.
    return problem is not None or documents_of(value) is not None


def _read(source: Source, options: ReadOptions) -> Reading:
    if source.size is not None and source.size > MAX_LEROBOT_BYTES:
        raise _over_bytes(source.path, source.size)
    reads = load_lerobot_reads(source.path, source.raw, source.parsed)
    if reads is None:
        raise InputError(
            f"{source.path}: names lerobot-eval's keys but holds no eval_info document "
            "(per_task with overall, or per_episode with aggregated). Pass the eval_info.json "
            "lerobot-eval wrote."
        )
    return Reading(source.path, FORMAT, runs=tuple(NamedRun(k, r) for k, r in reads))


#: Its declaration (evalview.load.builtin: the registry asks it without importing this module).
READER = builtin.LEROBOT
