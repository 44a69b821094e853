"""`load_run(lazy_table=True)` (used by `check`): the same Run as the eager loader, and the episode
table built only when read (the audit never reads it)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from evalview.audit import audit
from evalview.load import load_run
from evalview.samples import generate_closed_run


@pytest.fixture
def faulty_run(tmp_path: Path) -> Path:
    """A generated run with a stray record, an unparsable line and a case left unattempted."""
    run = generate_closed_run(tmp_path / "run", tasks=3, seeds=4, rng_seed=5)
    jsonl = run / "episodes.jsonl"
    lines = jsonl.read_bytes().split(b"\n")
    stray = json.loads(lines[0])
    stray["episode"]["id"] = "elsewhere/seed1"
    lines[3] = lines[3][:-5]  # truncated: the case of that line is now unattempted
    lines.insert(1, json.dumps(stray).encode())
    jsonl.write_bytes(b"\n".join(lines))
    return run


def _rows(run: Any) -> list[dict[str, Any]]:
    rows = [run.episodes.row(i) for i in range(len(run.episodes))]
    for row in rows:  # NaN != NaN: compare scores as text
        row["score"] = repr(row["score"]) if isinstance(row["score"], float) else row["score"]
    return rows


def test_lazy_table_equals_the_eager_one(faulty_run: Path) -> None:
    eager = load_run(faulty_run)
    lazy = load_run(faulty_run, lazy_table=True)
    assert "episodes" not in vars(lazy)  # not built yet
    assert _rows(lazy) == _rows(eager)
    assert lazy.episodes.record_index.tolist() == eager.episodes.record_index.tolist()
    assert lazy.episodes is lazy.episodes  # built once
    statuses = set(eager.episodes.status.tolist())
    assert {"unattempted", "completed"} <= statuses and not eager.episodes.in_schedule.all()


def test_audit_never_builds_the_table(faulty_run: Path) -> None:
    lazy = load_run(faulty_run, lazy_table=True)
    findings = audit(lazy)
    assert "episodes" not in vars(lazy)
    assert [f.to_json() for f in findings] == [f.to_json() for f in audit(load_run(faulty_run))]
    assert {f.code for f in findings} >= {"EV104", "EV322"}


def test_replace_on_a_lazy_run_gives_a_full_copy(faulty_run: Path) -> None:
    lazy = load_run(faulty_run, lazy_table=True)
    copy = dataclasses.replace(lazy, message_key="other")
    assert copy.message_key == "other" and copy.episodes is lazy.episodes
    assert _rows(copy) == _rows(load_run(faulty_run))
