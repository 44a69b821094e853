"""The closed-run reader builds its episode table column by column (`closed_run._table`). It must
give exactly the table the earlier row-dict path gave (`_reference_rows` below, the reader's
code before, through `model.run.build_table`) on every shape of record: stray, duplicated,
unparsed, unattempted, and every field missing or of the wrong type."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evalview.load import load_run
from evalview.load.closed_run import EPISODES_JSONL, _table
from evalview.model.run import (
    COMPLETED,
    ERROR,
    INVALID,
    UNATTEMPTED,
    EpisodeRecord,
    EpisodeTable,
    build_table,
    split_episode_id,
)
from evalview.samples import generate_closed_run
from helpers.paths import REPO


def _reference_row(data: dict[str, Any], line: int, eid: str | None, key: str) -> dict[str, Any]:
    ep = data.get("episode") if isinstance(data.get("episode"), dict) else {}
    metrics = data.get("metrics") if isinstance(data.get("metrics"), dict) else {}
    error = data.get("error") if isinstance(data.get("error"), dict) else {}
    task, seed = ep.get("task"), ep.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        seed = None
    if (seed is None or not isinstance(task, str)) and eid is not None:
        id_task, id_seed = split_episode_id(eid)
        task = task if isinstance(task, str) else id_task
        seed = id_seed if seed is None else seed
    elif not isinstance(task, str):
        task = None
    score, message = metrics.get("score"), metrics.get(key)
    return {
        "id": eid if eid is not None else f"<line {line}>",
        "task": task,
        "seed": seed,
        "status": data.get("status") if data.get("status") in (COMPLETED, ERROR) else INVALID,
        "success": data.get("success") if isinstance(data.get("success"), bool) else None,
        "error_category": error.get("category") if isinstance(error.get("category"), str) else None,
        "error_type": error.get("type") if isinstance(error.get("type"), str) else None,
        "termination_reason": data.get("termination_reason")
        if isinstance(data.get("termination_reason"), str)
        else None,
        "score": score if isinstance(score, int | float) and not isinstance(score, bool) else None,
        "message": message if isinstance(message, str) else None,
        "file": EPISODES_JSONL,
        "line": line,
    }


def _reference_rows(
    schedule: tuple[str, ...], records: list[EpisodeRecord], key: str
) -> list[dict[str, Any]]:
    eids = [rec.episode_id for rec in records]
    first: dict[str, int] = {}
    for idx, (rec, eid) in enumerate(zip(records, eids, strict=True)):
        if eid is not None and rec.data is not None:
            first.setdefault(eid, idx)
    scheduled: set[str] = set()
    rows: list[dict[str, Any]] = []
    for eid in schedule:
        if eid in scheduled:
            continue
        scheduled.add(eid)
        found = first.get(eid)
        if found is None:
            task, seed = split_episode_id(eid)
            rows.append({"id": eid, "task": task, "seed": seed, "status": UNATTEMPTED,
                         "in_schedule": True})
        else:
            rec = records[found]
            assert rec.data is not None
            rows.append({**_reference_row(rec.data, rec.line, eid, key), "in_schedule": True,
                         "record_index": found})
    for idx, (rec, eid) in enumerate(zip(records, eids, strict=True)):
        if eid is not None and eid in scheduled and first.get(eid) == idx:
            continue
        if rec.data is None:
            row = {"id": f"<line {rec.line}>", "status": INVALID, "file": EPISODES_JSONL,
                   "line": rec.line}
        else:
            row = _reference_row(rec.data, rec.line, eid, key)
        rows.append({**row, "in_schedule": False, "record_index": idx})
    return rows


def _assert_same(table: EpisodeTable, expected: EpisodeTable) -> None:
    for name in EpisodeTable.__dataclass_fields__:
        got, want = getattr(table, name), getattr(expected, name)
        assert got.dtype == want.dtype, name
        if name == "score":
            np.testing.assert_array_equal(got, want)  # NaN where absent, on both sides
        else:
            assert got.tolist() == want.tolist(), name


def _odd_records() -> list[EpisodeRecord]:
    """Every field absent, null or of the wrong type, plus strays and duplicates."""
    good = {
        "episode": {"id": "a/seed1", "task": "a", "seed": 1},
        "status": "completed", "success": True, "termination_reason": "success",
        "metrics": {"score": 0.5, "message": "ok", "note": "n"},
        "error": None,
    }
    odd: list[dict[str, Any] | None] = [
        good,
        {**good, "episode": {"id": "a/seed2", "task": 7, "seed": True}},  # task from the id
        {**good, "episode": {"id": "a/seed3"}, "success": 1, "metrics": {"score": True}},
        {**good, "episode": "a/seed4", "status": "done", "metrics": [1]},  # no id: a stray
        {**good, "episode": {"id": "a/seed5", "task": "a", "seed": 5}, "status": "error",
         "success": None, "error": {"category": "policy", "type": 3}, "termination_reason": 0},
        None,  # a line that did not parse
        {**good, "episode": {"id": "a/seed1", "task": "a", "seed": 1}, "success": False},  # dup
        {**good, "episode": {"id": "z/seed9", "task": "z", "seed": 9}},  # not in the schedule
        {**good, "episode": {"id": "b/seedX", "seed": None}, "metrics": {"score": 3}},
        {"episode": {"id": "b/seed2", "task": None, "seed": -4}, "error": "oops"},
        {**good, "episode": {"id": "b/seed3", "task": "b", "seed": 3},
         "metrics": {"score": float("nan"), "message": None, "note": "x"}},
    ]
    return [EpisodeRecord(line=i, data=d) for i, d in enumerate(odd, start=1)]


@pytest.mark.parametrize("key", ["message", "note"])
def test_every_odd_record_gives_the_row_the_row_path_gave(key: str) -> None:
    schedule = ("a/seed1", "a/seed2", "a/seed3", "a/seed1", "a/seed5", "a/seed6", "b/seedX",
                "b/seed2", "b/seed3", "b/seed7")
    records = _odd_records()
    eids = [rec.episode_id for rec in records]
    table = _table(schedule, records, eids, key)
    _assert_same(table, build_table(_reference_rows(schedule, records, key)))
    # what the odd cases come to, so the reference above cannot drift with the code unnoticed
    assert table.status.tolist()[:6] == [COMPLETED, COMPLETED, COMPLETED, ERROR, UNATTEMPTED,
                                         COMPLETED]
    assert table.task[1] == "a" and table.seed[1] == 2 and table.success[2] == -1
    assert np.isnan(table.score[2]) and table.score[5] == 3.0 and table.seed[5] == -1
    assert (table.line[4], table.record_index[4], table.file[4]) == (0, -1, None)
    # the strays in file order: no id, the unparsed line, the duplicate, the unscheduled id
    assert table.ids.tolist()[9:] == ["<line 4>", "<line 6>", "a/seed1", "z/seed9"]


@pytest.mark.parametrize(
    "run", ["sample_runs/faulty", "sample_runs/fail-fast", "sample_runs/robobench-24x50"]
)
def test_the_sample_runs_give_the_same_table(run: str) -> None:
    loaded = load_run(REPO / run)
    expected = build_table(_reference_rows(loaded.schedule, loaded.records, loaded.message_key))
    _assert_same(loaded.episodes, expected)


def test_a_generated_run_with_strays_and_a_broken_line(tmp_path: Path) -> None:
    run = generate_closed_run(tmp_path / "run", tasks=4, seeds=6, rng_seed=11)
    jsonl = run / "episodes.jsonl"
    lines = jsonl.read_bytes().split(b"\n")
    stray = json.loads(lines[0])
    stray["episode"]["id"] = "elsewhere/seed1"
    lines[5] = lines[5][:-3]
    lines.insert(2, json.dumps(stray).encode())
    lines.insert(4, lines[0])  # a duplicate line
    jsonl.write_bytes(b"\n".join(lines))
    loaded = load_run(run)
    expected = build_table(_reference_rows(loaded.schedule, loaded.records, loaded.message_key))
    _assert_same(loaded.episodes, expected)
    assert not loaded.episodes.in_schedule.all() and (loaded.episodes.status == INVALID).any()
