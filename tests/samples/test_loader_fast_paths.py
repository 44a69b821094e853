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


def _pad_every_record(run_dir: Path, pad: bytes) -> None:
    """Give every line and its result file the same long first field, so all lines share the
    head that keys the loader's byte-identity index (more lines than one head keeps in a list)."""
    head = b'{"schema_version":"starvla-rsi.eval/v1",'
    jsonl = run_dir / "episodes.jsonl"
    jsonl.write_bytes(jsonl.read_bytes().replace(head, head + pad))
    for p in (run_dir / "episodes").glob("*/result.json"):
        p.write_bytes(p.read_bytes().replace(head, head + pad, 1))


def test_lines_sharing_a_long_head_match_their_own_result_files(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import evalview.load.closed_run as closed_run

    _pad_every_record(run_dir, b'"aaa_note":"' + b"x" * 400 + b'",')
    parses: list[bytes] = []
    real = closed_run.parse_strict

    def counting(raw: bytes, **kw: int) -> object:
        parses.append(raw)
        return real(raw, **kw)

    monkeypatch.setattr(closed_run, "parse_strict", counting)
    run = load_run(run_dir)
    assert run.reading_findings == []
    assert len(run.result_files) == 12
    lines = {r.episode_id: r.line for r in run.records}
    for rf in run.result_files:
        assert rf.matched_line == lines[rf.episode_id] and rf.differing_keys == ()
    assert len(parses) == 3  # the three documents: no result file was parsed again


def test_one_changed_byte_past_a_shared_head_is_a_difference(run_dir: Path) -> None:
    _pad_every_record(run_dir, b'"aaa_note":"' + b"x" * 400 + b'",')
    p = _result(run_dir, 7)
    p.write_bytes(p.read_bytes().replace(b'"status":"', b'"status": "', 1))  # same JSON
    q = _result(run_dir, 9)
    q.write_bytes(q.read_bytes().replace(b'"rejected_actions":', b'"rejected_actions":1', 1))
    run = load_run(run_dir)
    by_path = {rf.path: rf for rf in run.result_files}
    assert by_path[p.relative_to(run_dir).as_posix()].differing_keys == ()
    assert by_path[q.relative_to(run_dir).as_posix()].differing_keys == ("rejected_actions",)


def test_result_files_read_by_path_and_by_directory_handle_agree(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import evalview.load.closed_run as closed_run

    _result(run_dir, 3).unlink()
    _result(run_dir, 3).symlink_to(_result(run_dir, 4))
    (run_dir / "episodes" / "stray").mkdir()
    (run_dir / "episodes" / "stray" / "result.json").mkdir()  # a directory, not a file
    by_fd = load_run(run_dir)
    monkeypatch.setattr(closed_run, "_BY_DIR_FD", False)
    by_path = load_run(run_dir)
    assert by_fd.result_files == by_path.result_files
    assert by_fd.reading_findings == by_path.reading_findings
    assert {f.code for f in by_fd.reading_findings} == {"EV102", "EV108"}  # directory, symlink


def test_a_duplicate_key_past_the_first_dump_chunk_is_found(tmp_path: Path) -> None:
    import evalview.load.closed_run as closed_run

    run_dir = generate_closed_run(tmp_path / "run", tasks=3, seeds=110, rng_seed=5)
    jsonl = run_dir / "episodes.jsonl"
    lines = jsonl.read_bytes().split(b"\n")
    n = closed_run._DUMP_CHUNK + 40
    lines[n] = lines[n].replace(b'"status":', b'"status":"x","status":', 1)
    jsonl.write_bytes(b"\n".join(lines))
    run = load_run(run_dir)
    assert [(f.code, f.line) for f in run.reading_findings if f.code == "EV105"] == [
        ("EV105", n + 1)
    ]
