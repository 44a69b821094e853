"""The loader's speed-ups (bench/bench_check.py) keep its findings exactly as the slow paths."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from evalview.load import load_run
from evalview.samples import generate_closed_run


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return generate_closed_run(tmp_path / "run", tasks=3, seeds=4, rng_seed=5)


def _result(run_dir: Path, n: int) -> Path:
    return sorted((run_dir / "episodes").iterdir())[n] / "result.json"


def _codes(run_dir: Path) -> list[tuple[str, str | None, int | None]]:
    return [(f.code, f.file, f.line) for f in load_run(run_dir).reading_findings]


def test_result_file_with_other_whitespace_still_matches(run_dir: Path) -> None:
    p = _result(run_dir, 0)
    p.write_bytes(b"  " + p.read_bytes().rstrip() + b"\r\n\r\n")
    run = load_run(run_dir)
    assert run.reading_findings == []
    rf = next(f for f in run.result_files if f.path.endswith(p.parent.name + "/result.json"))
    assert rf.readable and rf.matched_line is not None and rf.differing_keys == ()


def test_non_json_whitespace_after_an_identical_copy_is_still_invalid(run_dir: Path) -> None:
    p = _result(run_dir, 1)
    p.write_bytes(p.read_bytes() + b"\x0c")  # form feed: bytes.strip() would drop it, JSON not
    rel = p.relative_to(run_dir).as_posix()
    assert ("EV104", rel, 2) in _codes(run_dir)  # line 2: after the trailing newline


def test_result_file_that_differs_is_parsed_and_compared(run_dir: Path) -> None:
    p = _result(run_dir, 2)
    p.write_bytes(p.read_bytes().replace(b'"schema_version":"starvla-rsi.eval/v1"',
                                         b'"schema_version":"other"', 1))
    run = load_run(run_dir)
    rf = next(f for f in run.result_files if f.path == p.relative_to(run_dir).as_posix())
    assert rf.differing_keys == ("schema_version",)


def test_duplicate_key_in_one_line_is_found_and_other_lines_kept(run_dir: Path) -> None:
    jsonl = run_dir / "episodes.jsonl"
    lines = jsonl.read_bytes().split(b"\n")
    lines[5] = lines[5].replace(b'"status":', b'"status":"x","status":', 1)
    lines[8] = lines[8][:-3]  # and a truncated line after it
    jsonl.write_bytes(b"\n".join(lines))
    run = load_run(run_dir)
    assert [(f.code, f.line) for f in run.reading_findings] == [("EV105", 6), ("EV104", 9)]
    assert [r.line for r in run.records if r.data is None] == [6, 9]
    assert sum(r.data is not None for r in run.records) == 10


def test_gc_state_is_restored(run_dir: Path) -> None:
    assert gc.isenabled()
    load_run(run_dir)
    assert gc.isenabled()
    gc.disable()
    try:
        load_run(run_dir)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_freeze_moves_the_run_to_the_permanent_generation(run_dir: Path) -> None:
    gc.unfreeze()
    try:
        run = load_run(run_dir, freeze=True)
        assert gc.get_freeze_count() > 0
        assert len(run.records) == 12
    finally:
        gc.unfreeze()
