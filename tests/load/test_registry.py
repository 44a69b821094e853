"""The reader registry: detection by content, named reads, payload-only formats, and refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalview.load import (
    READERS,
    InputError,
    NamedRun,
    Reader,
    Reading,
    ReadOptions,
    Source,
    load_run,
    read_input,
    select_run,
)
from helpers.paths import SAMPLE_RUNS

ROBO = SAMPLE_RUNS / "robobench-24x50"
FAIL_FAST = SAMPLE_RUNS / "fail-fast"
PSR_INPUTS = SAMPLE_RUNS / "psr" / "checkpoint-inputs.json"


def test_each_format_joins_once_in_detection_order() -> None:
    names = [r.name for r in READERS]
    assert names[:2] == ["closed-run", "result-json"]
    # the broad detector (any JSON object of lists) is asked last, by its declared priority
    assert names[-1] == "psr-checkpoint-inputs"
    assert len(set(names)) == len(names)


def test_a_directory_and_a_run_file_are_read_as_the_closed_run() -> None:
    whole = read_input(FAIL_FAST)
    via_file = read_input(FAIL_FAST / "manifest.json")
    assert whole.format == via_file.format == "closed-run"
    assert [r.name for r in whole.runs] == [None]
    assert whole.runs[0].run.schedule == via_file.runs[0].run.schedule
    assert whole.payload is None


def test_checkpoint_inputs_are_a_payload_not_a_run() -> None:
    reading = read_input(PSR_INPUTS)
    assert reading.format == "psr-checkpoint-inputs"
    assert reading.runs == ()
    assert set(reading.payload) == {"example-model-a", "example-model-b"}
    with pytest.raises(InputError, match="holds verifier messages by model and task, not an "):
        load_run(PSR_INPUTS)


def test_the_file_is_read_once_for_every_detector(tmp_path: Path) -> None:
    f = tmp_path / "other.json"
    f.write_text('{"a": 1}')
    source = Source(f)
    with pytest.raises(InputError, match="valid JSON, but of no format evalview reads"):
        read_input(source)
    f.write_text("{}")  # the cached bytes are what every detector and the message saw
    assert source.raw == b'{"a": 1}'


def test_missing_and_not_json_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file or directory"):
        read_input(tmp_path / "nothing")
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1,}')
    with pytest.raises(InputError, match="not strict JSON"):
        read_input(bad)


def _named_reads_reader() -> Reader:
    """A reader of `{"read_a": DIR, "read_b": DIR}`: several named reads from one file, as a
    LeRobot file of `eval_results_*` keys gives."""

    def detect(source: Source) -> bool:
        value = source.json_value
        return isinstance(value, dict) and all(str(k).startswith("read_") for k in value)

    def read(source: Source, options: ReadOptions) -> Reading:
        runs = tuple(
            NamedRun(key, load_run(Path(path))) for key, path in source.json_value.items()
        )
        return Reading(source.path, "named-reads", runs)

    return Reader("named-reads", "test format: named reads", detect, read)


def test_a_reader_can_give_several_named_reads(tmp_path: Path) -> None:
    f = tmp_path / "reads.json"
    f.write_text(json.dumps({"read_a": str(ROBO), "read_b": str(FAIL_FAST)}))
    reading = read_input(f, readers=(*READERS, _named_reads_reader()))
    assert reading.format == "named-reads"
    assert reading.names == ("read_a", "read_b")
    assert select_run(reading, "read_b").path == FAIL_FAST
    with pytest.raises(InputError, match=r"holds 2 named reads \(read_a, read_b\)"):
        select_run(reading)
    with pytest.raises(InputError, match="no read named 'read_c'"):
        select_run(reading, "read_c")


def test_a_reader_of_a_non_episode_format_gives_a_payload(tmp_path: Path) -> None:
    f = tmp_path / "arms.json"
    f.write_text(json.dumps({"arms": [{"name": "a", "seeds": [1, 2]}]}))

    def detect(source: Source) -> bool:
        return isinstance(source.json_value, dict) and "arms" in source.json_value

    def read(source: Source, options: ReadOptions) -> Reading:
        return Reading(source.path, "arms", payload=source.json_value["arms"])

    # {"arms": [...]} is also an object of lists, which the PSR detector takes: a reader whose
    # files the PSR detector would accept goes before it.
    assert read_input(f).format == "psr-checkpoint-inputs"
    reading = read_input(f, readers=(Reader("arms", "test", detect, read), *READERS))
    assert reading.format == "arms" and reading.payload[0]["seeds"] == [1, 2]
    with pytest.raises(InputError, match="a arms input, which holds no episode read"):
        select_run(reading)
