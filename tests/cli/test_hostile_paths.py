"""Hostile input, round two (issue 10): deep nesting, special files and symlinks given as PATH,
psr on an unreadable run, export's missing parents, an empty episodes.jsonl, and invisible
characters in --json output. Every command ends with a finding or a refusal, never a traceback or a
hang; a hang is caught by the subprocess timeout (a guard, not a speed assertion)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from evalview.load.safe_json import MAX_DEPTH
from helpers.paths import SAMPLE_RUNS

SAMPLES_PSR = SAMPLE_RUNS / "psr"
#: Generous: each command answers in well under a second here; only a hang gets near it.
HANG_GUARD_S = 60


def _evalview(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command as a person runs it, in a fresh process with a hang guard."""
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "evalview", *args],
        capture_output=True, text=True, timeout=HANG_GUARD_S, stdin=subprocess.DEVNULL,
        env=env, cwd=cwd,
    )


def _nested(depth: int) -> Any:
    value: Any = 0
    for i in range(depth):
        value = {"k": value} if i % 2 else [value]
    return value


def _check_json(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["check", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


# --- 1. deep nesting ---------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 300])
def test_deep_episode_line_is_a_finding_at_its_line(
    example_run: Any, capsys: pytest.CaptureFixture[str], depth: int
) -> None:
    example_run.edit_record(2, lambda r: r["episode"].update(metadata=_nested(depth)))
    code, doc = _check_json(example_run.path, capsys)
    assert code == 1
    deep = [f for f in doc["findings"] if f["code"] == "EV112"]
    assert {(f["file"], f["line"]) for f in deep} >= {("episodes.jsonl", 3)}
    assert any(f["file"].startswith("episodes/") for f in deep)  # its result file too
    assert all(f"deeper than {MAX_DEPTH} levels" in f["message"] for f in deep)


def test_nesting_past_orjsons_parse_limit_is_the_same_finding(
    example_run: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (example_run.path / "episodes.jsonl").read_bytes().splitlines()
    lines[1] = b'{"deep": ' + b"[" * 2000 + b"]" * 2000 + b"}"
    (example_run.path / "episodes.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    code, doc = _check_json(example_run.path, capsys)
    assert code == 1
    assert ("episodes.jsonl", 2) in {(f["file"], f["line"]) for f in doc["findings"]
                                     if f["code"] == "EV112"}


def test_depth_at_the_bound_is_read(example_run: Any, capsys: pytest.CaptureFixture[str]) -> None:
    # the record object, `episode`, `metadata`: 3 levels above the nested value
    example_run.edit_record(2, lambda r: r["episode"].update(metadata=_nested(MAX_DEPTH - 3)))
    _code, doc = _check_json(example_run.path, capsys)
    assert "EV112" not in {f["code"] for f in doc["findings"]}


def test_deep_manifest_names_the_line(example_run: Any, capsys: pytest.CaptureFixture[str]) -> None:
    example_run.edit(
        "manifest.json", lambda d: d["method"]["configuration"].update(deep=_nested(300))
    )
    code, doc = _check_json(example_run.path, capsys)
    assert code == 1
    (f,) = [f for f in doc["findings"] if f["code"] == "EV112"]
    assert f["file"] == "manifest.json" and isinstance(f["line"], int) and f["line"] > 1
    text = (example_run.path / "manifest.json").read_text().splitlines()[f["line"] - 1]
    assert "[" in text or "{" in text


@pytest.mark.parametrize("command", ["check", "score", "export", "psr"])
def test_deep_run_never_ends_in_a_traceback(example_run: Any, tmp_path: Path, command: str) -> None:
    example_run.edit_record(0, lambda r: r["metrics"].update(deep=_nested(300)))
    extra = ["--output-dir", str(tmp_path / "out")] if command == "export" else []
    done = _evalview(command, str(example_run.path), *extra)
    assert "Traceback" not in done.stderr and "Error:" not in done.stderr.replace("✗", "")
    if command == "psr":  # the other episodes are read and scored; the deep line is not one
        assert done.returncode == 0, done.stderr
        return
    assert done.returncode == 1, done.stderr
    assert "episodes.jsonl" in done.stdout + done.stderr


def test_deep_psr_input_and_result_json_are_refused_naming_the_file(tmp_path: Path) -> None:
    rows = json.loads((SAMPLES_PSR / "checkpoint-inputs.json").read_text())
    first = next(iter(rows))
    rows[first][0]["extra"] = _nested(400)
    psr_input = tmp_path / "inputs.json"
    psr_input.write_text(json.dumps(rows, indent=1))
    result = tmp_path / "result.json"
    result.write_text(json.dumps({"schema_version": "evalview.result/v1", "x": _nested(400)}))
    for args in (["psr", str(psr_input)], ["check", str(result)], ["score", str(result)]):
        done = _evalview(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr
        flat = " ".join(done.stderr.split())
        assert f"deeper than {MAX_DEPTH} levels" in flat and Path(args[1]).name in flat


# --- 2 and 3. special files and symlinks given as PATH ------------------------------------------


def _fifo(tmp_path: Path) -> Path:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    return fifo


COMMANDS = [
    ["check"], ["score"], ["psr"], ["export", "--output-dir", "OUT"], ["compare", "OTHER"],
    [],  # the app
]


def _args(command: list[str], path: Path, tmp_path: Path, other: Path) -> list[str]:
    out = [a.replace("OUT", str(tmp_path / "out")).replace("OTHER", str(other)) for a in command]
    if not command:
        return [str(path)]
    return [out[0], str(path), *out[1:]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0] if c else "app")
def test_fifo_as_path_is_refused_without_hanging(
    tmp_path: Path, example_run_dir: Path, command: list[str]
) -> None:
    fifo = _fifo(tmp_path)
    done = _evalview(*_args(command, fifo, tmp_path, example_run_dir))
    assert done.returncode == 2, done.stderr
    assert "named pipe" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0] if c else "app")
def test_symlink_to_dev_zero_is_refused(
    tmp_path: Path, example_run_dir: Path, command: list[str]
) -> None:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    done = _evalview(*_args(command, link, tmp_path, example_run_dir))
    assert done.returncode == 2, done.stderr
    assert "symbolic link" in " ".join(done.stderr.split())


def test_device_given_directly_is_refused(tmp_path: Path) -> None:
    done = _evalview("check", "/dev/zero")
    assert done.returncode == 2 and "a device" in done.stderr


def test_oversized_file_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "result.json"
    with open(big, "wb") as fh:
        fh.truncate(129 * 2**20)  # sparse: nothing is written, the size is what counts
    done = _evalview("score", str(big))
    assert done.returncode == 2 and "over the bound of 128 MiB" in " ".join(done.stderr.split())


def test_symlinked_result_json_and_psr_input_are_refused(
    example_run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(example_run_dir), "--output-dir", str(tmp_path / "pub"),
                 "--bootstrap", "0"]) == 0
    link = tmp_path / "link-result.json"
    link.symlink_to(tmp_path / "pub" / "result.json")
    psr_link = tmp_path / "link-inputs.json"
    psr_link.symlink_to(SAMPLES_PSR / "checkpoint-inputs.json")
    run_link = tmp_path / "link-run"
    run_link.symlink_to(example_run_dir)
    capsys.readouterr()
    for args in (["check", str(link)], ["score", str(link)], ["psr", str(psr_link)],
                 ["check", str(run_link)]):
        assert main(args) == 2, args
        assert "symbolic link" in " ".join(capsys.readouterr().err.split())


# --- 5. invisible characters in --json ---------------------------------------------------------


def test_json_output_escapes_invisible_and_bidi_characters(example_run: Any) -> None:
    planted = "task-00/seed1000\u202eevil\u200b\ufeff\u0085"
    example_run.edit_record(0, lambda r: r["episode"].update(id=planted))
    done = _evalview("check", str(example_run.path), "--json")
    raw = done.stdout.encode("utf-8")
    for ch in ("\u202e", "\u200b", "\ufeff", "\u0085"):
        assert ch.encode("utf-8") not in raw
    assert b"\\u202e" in raw and b"\\u200b" in raw and b"\\ufeff" in raw and b"\\u0085" in raw
    doc = json.loads(done.stdout)
    assert planted in {f["episode_id"] for f in doc["findings"]}  # same value once parsed


# --- 6. psr on a run that could not be read ----------------------------------------------------


def test_psr_refuses_a_run_over_the_episode_bound(
    example_run: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("evalview.load.closed_run.MAX_EPISODES", 5)
    assert main(["psr", str(example_run.path), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["exit_code"] == 1 and "episodes could not be read" in doc["error"]
    assert "EV110" in doc["error"]


def test_psr_refuses_a_fifo_as_episodes_jsonl(example_run: Any) -> None:
    (example_run.path / "episodes.jsonl").unlink()
    os.mkfifo(example_run.path / "episodes.jsonl")
    done = _evalview("psr", str(example_run.path))
    assert done.returncode == 1, done.stderr
    flat = " ".join(done.stderr.split())
    assert "episodes could not be read" in flat and "episodes.jsonl" in flat


# --- 7. export creates only the final directory ------------------------------------------------


def test_export_with_missing_parents_is_refused_naming_the_parent(
    example_run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "a" / "b" / "out"
    assert main(["export", str(example_run_dir), "--output-dir", str(dest)]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert f"its parent {tmp_path / 'a' / 'b'} does not exist" in err
    assert not (tmp_path / "a").exists()


# --- 8. an empty episodes.jsonl ----------------------------------------------------------------


def test_empty_episodes_jsonl_is_named(
    example_run: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    (example_run.path / "episodes.jsonl").write_bytes(b"")
    code, doc = _check_json(example_run.path, capsys)
    assert code == 1
    (f,) = [f for f in doc["findings"] if f["code"] == "EV405"]
    assert f["file"] == "episodes.jsonl" and "selects 12 episode(s)" in f["message"]
