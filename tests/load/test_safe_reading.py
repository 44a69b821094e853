"""Safe reading of a closed run: every bad input becomes a reading finding (EV1xx) with its file
and line, reading goes on with what is left, and nothing the format does not name is opened."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from evalview.audit import audit
from evalview.findings import Finding
from evalview.load import InputError, load_run


def _lines(rd: Any) -> list[str]:
    return (rd.path / "episodes.jsonl").read_text(encoding="utf-8").splitlines()


def _write_lines(rd: Any, lines: list[str]) -> None:
    (rd.path / "episodes.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _reading(rd: Any) -> list[Finding]:
    return load_run(rd.path).reading_findings


def _only(findings: list[Finding], code: str) -> Finding:
    matching = [f for f in findings if f.code == code]
    assert len(matching) == 1, findings
    return matching[0]


def test_clean_example_reads_without_findings(example_run: Any) -> None:
    run = load_run(example_run.path)
    assert run.reading_findings == []
    assert len(run.records) == 12 and len(run.result_files) == 12
    assert all(rf.matched_line is not None and rf.differing_keys == () for rf in run.result_files)
    assert run.bytes_read == sum(
        p.stat().st_size for p in example_run.path.rglob("*") if p.is_file()
    )


def test_duplicate_key_in_a_document_names_its_line(example_run: Any) -> None:
    text = (example_run.path / "manifest.json").read_text()
    text = text.replace('"run_id": "run-1",', '"run_id": "run-1",\n "run_id": "run-2",', 1)
    (example_run.path / "manifest.json").write_text(text)
    f = _only(_reading(example_run), "EV105")
    assert f.file == "manifest.json"
    assert f.line == 4  # the repeated key sits on the fourth line
    assert "'run_id'" in f.message


def test_duplicate_key_in_a_jsonl_line_names_that_line(example_run: Any) -> None:
    lines = _lines(example_run)
    lines[4] = lines[4].replace('"reward_sum":0.0', '"reward_sum":0.0,"reward_sum":1.0')
    _write_lines(example_run, lines)
    f = _only(_reading(example_run), "EV105")
    assert (f.file, f.line) == ("episodes.jsonl", 5)


def test_nested_duplicate_key_is_found(example_run: Any) -> None:
    lines = _lines(example_run)
    lines[0] = lines[0].replace('"task":"task-00",', '"task":"task-00","task":"task-01",')
    _write_lines(example_run, lines)
    assert _only(_reading(example_run), "EV105").line == 1


def test_escaped_keys_that_collide_are_duplicates(example_run: Any) -> None:
    (example_run.path / "status.json").write_text(
        '{"status": "completed_with_errors", "st\\u0061tus": "completed", "episodes_written": 12}'
    )
    assert _only(_reading(example_run), "EV105").file == "status.json"


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nonfinite_numbers_are_rejected_with_their_line(example_run: Any, token: str) -> None:
    lines = _lines(example_run)
    lines[2] = lines[2].replace('"duration_s":12.485', f'"duration_s":{token}')
    _write_lines(example_run, lines)
    f = _only(_reading(example_run), "EV106")
    assert (f.file, f.line) == ("episodes.jsonl", 3)


def test_overflowing_number_is_nonfinite(example_run: Any) -> None:
    (example_run.path / "summary.json").write_text('{"run_id": "run-1", "success_rate": 1e400}')
    assert _only(_reading(example_run), "EV106").file == "summary.json"


def test_symlinked_result_file_is_rejected_and_not_followed(example_run: Any) -> None:
    target = example_run.result_path("task-00/seed1000")
    outside = example_run.path.parent / "outside.json"
    outside.write_bytes(target.read_bytes())
    target.unlink()
    os.symlink(outside, target)
    findings = _reading(example_run)
    f = _only(findings, "EV108")
    assert f.file == "episodes/task-00-seed1000/result.json"
    # The record then has no readable result file: the audit says so too.
    codes = {x.code for x in audit(load_run(example_run.path))}
    assert "EV317" in codes


def test_symlinked_episode_directory_is_not_followed(example_run: Any) -> None:
    d = example_run.result_path("task-00/seed1000").parent
    real = example_run.path.parent / "real-dir"
    d.rename(real)
    os.symlink(real, d)
    f = _only(_reading(example_run), "EV108")
    assert f.file == "episodes/task-00-seed1000"


def test_symlinked_episodes_jsonl(example_run: Any) -> None:
    outside = example_run.path.parent / "outside.jsonl"
    (example_run.path / "episodes.jsonl").rename(outside)
    os.symlink(outside, example_run.path / "episodes.jsonl")
    run = load_run(example_run.path)
    assert _only(run.reading_findings, "EV108").file == "episodes.jsonl"
    assert run.records == []
    # No cascade of "missing" or "orphan" errors for episodes that were simply not read.
    codes = {f.code for f in audit(run)}
    assert not codes & {"EV317", "EV320", "EV404", "EV403", "EV503"}


def test_byte_bound_is_enforced_before_reading_episodes(
    example_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("evalview.load.closed_run.MAX_BYTES", 8000)
    run = load_run(example_run.path)
    _only(run.reading_findings, "EV109")
    assert run.records == [] and run.result_files == []
    # The small documents were still read and audited.
    assert run.manifest is not None and run.manifest["run_id"] == "run-1"
    assert run.bytes_read < 8000
    example_run.edit("manifest.json", lambda d: d.update(schema_version="x"))
    assert "EV201" in {f.code for f in audit(load_run(example_run.path))}


def test_episode_bound_on_jsonl_lines(example_run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("evalview.load.closed_run.MAX_EPISODES", 11)
    # 11 result files are within the bound; 12 lines are not.
    example_run.result_path("task-00/seed1000").unlink()
    run = load_run(example_run.path)
    f = _only(run.reading_findings, "EV110")
    assert f.file == "episodes.jsonl"
    assert run.records == []


def test_episode_bound_on_result_directories(
    example_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("evalview.load.closed_run.MAX_EPISODES", 11)
    run = load_run(example_run.path)
    assert any(f.code == "EV110" and f.file == "episodes" for f in run.reading_findings)


def test_non_utf8_line(example_run: Any) -> None:
    raw = (example_run.path / "episodes.jsonl").read_bytes().split(b"\n")
    raw[6] = raw[6].replace(b"Perform", b"Perf\xffrm")
    (example_run.path / "episodes.jsonl").write_bytes(b"\n".join(raw))
    f = _only(_reading(example_run), "EV103")
    assert (f.file, f.line) == ("episodes.jsonl", 7)


def test_bom_is_not_utf8_json(example_run: Any) -> None:
    data = (example_run.path / "status.json").read_bytes()
    (example_run.path / "status.json").write_bytes(b"\xef\xbb\xbf" + data)
    assert "byte order mark" in _only(_reading(example_run), "EV103").message


def test_truncated_last_line_is_reported_and_the_rest_audited(example_run: Any) -> None:
    lines = _lines(example_run)
    lines[-1] = lines[-1][:50]
    lines[0] = lines[0].replace('"success":false,"termination', '"success":true,"termination')
    (example_run.path / "episodes.jsonl").write_text("\n".join(lines))  # no final newline
    run = load_run(example_run.path)
    f = _only(run.reading_findings, "EV104")
    assert (f.file, f.line) == ("episodes.jsonl", 12)
    assert len(run.records) == 12 and run.records[-1].data is None
    findings = audit(run)
    assert "EV305" in {x.code for x in findings}  # line 1 was still audited
    # The unreadable line's result file matches no record; the finding says why it may not.
    [orphan] = [x for x in findings if x.code == "EV320"]
    assert orphan.episode_id == "task-02/seed1003" and "could not be read" in orphan.message


@pytest.mark.parametrize(("content", "what"), [("[1, 2]", "an array"), ('"x"', "a string"),
                                               ("null", "null"), ("3", "a number")])
def test_non_object_document(example_run: Any, content: str, what: str) -> None:
    (example_run.path / "summary.json").write_text(content)
    f = _only(_reading(example_run), "EV107")
    assert f.file == "summary.json" and what in f.message


def test_non_object_jsonl_line(example_run: Any) -> None:
    lines = _lines(example_run)
    lines[8] = "[]"
    _write_lines(example_run, lines)
    f = _only(_reading(example_run), "EV107")
    assert (f.file, f.line) == ("episodes.jsonl", 9)


@pytest.mark.parametrize("name", ["manifest.json", "status.json", "summary.json", "episodes.jsonl"])
def test_missing_file(example_run: Any, name: str) -> None:
    (example_run.path / name).unlink()
    f = _only(_reading(example_run), "EV101")
    assert f.file == name and "missing" in f.message


def test_directory_instead_of_file_is_unreadable(example_run: Any) -> None:
    (example_run.path / "status.json").unlink()
    (example_run.path / "status.json").mkdir()
    assert _only(_reading(example_run), "EV102").file == "status.json"


def test_empty_line_inside_jsonl(example_run: Any) -> None:
    lines = _lines(example_run)
    lines.insert(2, "   ")
    _write_lines(example_run, lines)
    f = _only(_reading(example_run), "EV111")
    assert (f.file, f.line) == ("episodes.jsonl", 3)


def test_unnamed_files_are_neither_scanned_nor_reported(example_run: Any) -> None:
    (example_run.path / "notes.txt").write_bytes(b"\xff not json")
    (example_run.path / "private.json").write_text("{bad")
    d = example_run.result_path("task-00/seed1000").parent
    (d / "events.jsonl").write_text("{bad")
    (d / "video.mp4").write_bytes(b"\x00" * 100)
    (example_run.path / "episodes" / "loose-file.json").write_text("{bad")
    run = load_run(example_run.path)
    assert run.reading_findings == []
    assert [f for f in audit(run) if f.severity == "error"] == []


def test_result_directory_without_result_json_is_ignored(example_run: Any) -> None:
    (example_run.path / "episodes" / "scratch").mkdir()
    assert load_run(example_run.path).reading_findings == []


def test_not_a_run_directory_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "other.txt").write_text("x")
    with pytest.raises(InputError, match="not a closed run"):
        load_run(tmp_path)


def test_missing_path_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_run(tmp_path / "nope")


def test_reading_never_raises_on_garbage_everywhere(example_run: Any) -> None:
    for name in ("manifest.json", "status.json", "summary.json", "episodes.jsonl"):
        (example_run.path / name).write_bytes(b"\x00\xff{[\n\n}" * 3)
    for p in example_run.path.glob("episodes/*/result.json"):
        p.write_text(json.dumps({"episode": {"id": 5}}))
    findings = audit(load_run(example_run.path))
    assert findings and all(f.message for f in findings)
