"""`check DIR -j N` (issue 25): the reads go to the workers in chunks (a round trip per chunk,
not per read), the workers start once with the core imported, and the results come back in
the folder's order, the same as with one job."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import evalview.folder.parallel as parallel


def _square_and_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


def test_chunks_in_order_from_at_most_jobs_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    submitted: list[int] = []
    real_submit = ProcessPoolExecutor.submit

    def counted(self: ProcessPoolExecutor, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if fn is parallel._apply:
            submitted.append(len(args[1]))
        return real_submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", counted)
    items = list(range(64))
    out = list(parallel.map_ordered(_square_and_pid, items, 2))
    assert [r for r, _pid in out] == [x * x for x in items]
    assert len({pid for _r, pid in out}) <= 2 and os.getpid() not in {pid for _r, pid in out}
    assert sum(submitted) == len(items)
    assert len(submitted) < len(items)  # chunks, not one round trip per item


def test_one_job_is_the_same_answer_in_this_process() -> None:
    items = list(range(10))
    one = list(parallel.map_ordered(_square_and_pid, items, 1))
    assert [r for r, _pid in one] == [x * x for x in items]
    assert {pid for _r, pid in one} == {os.getpid()}


def test_check_dir_is_the_same_with_one_and_two_jobs(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    import shutil

    from evalview.cli import main
    from helpers.paths import SAMPLE_RUNS

    for name in ("replicates", "fail-fast", "faulty"):
        shutil.copytree(SAMPLE_RUNS / name, tmp_path / name)
    outs = []
    for jobs in ("1", "2"):
        code = main(["check", str(tmp_path), "--json", "-j", jobs])
        outs.append((code, capsys.readouterr().out))
    assert outs[0] == outs[1]
