"""Reading checkpoint inputs and bare-target tables: strict JSON, every row validated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from psr_rows import WORKED, row

from evalview.load import InputError
from evalview.psr import PsrError, load_bare_targets, load_checkpoint_inputs
from evalview.psr.inputs import looks_like_checkpoint_inputs


def write(tmp_path: Path, text: str, name: str = "inputs.json") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_reads_the_spec_example(tmp_path: Path) -> None:
    inputs = load_checkpoint_inputs(write(tmp_path, json.dumps(WORKED)))
    (r1, r2) = inputs.models["example-model"]
    assert r1.task == "task_01_magic_staff" and r1.split == "main" and r1.row == 1
    assert r2.success is True and r2.cce == 0.5
    assert looks_like_checkpoint_inputs(WORKED)


def test_duplicate_json_keys_are_unreadable(tmp_path: Path) -> None:
    text = '{"m": [{"stage": "main", "stage": "main", "task": "t", "success": true}]}'
    with pytest.raises(InputError, match=r"inputs\.json:1: the key 'stage' appears twice"):
        load_checkpoint_inputs(write(tmp_path, text))


def test_nan_is_unreadable(tmp_path: Path) -> None:
    text = json.dumps(WORKED).replace('"CCE": 0.0', '"CCE": NaN', 1)
    with pytest.raises(InputError, match="NaN is not a JSON number"):
        load_checkpoint_inputs(write(tmp_path, text))


def test_invalid_json_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"inputs\.json"):
        load_checkpoint_inputs(write(tmp_path, '{"m": ['))


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot be read"):
        load_checkpoint_inputs(tmp_path / "nope.json")


def one(tmp_path: Path, **changes: Any) -> None:
    r = row("task_01_a", success=False, message="Logs: 1/2")
    r.update(changes)
    load_checkpoint_inputs(write(tmp_path, json.dumps({"model-q": [r]})))


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"CCE": 1.5}, "CCE"),
        ({"CCE": -0.1}, "CCE"),
        ({"CCE": "0.1"}, "CCE"),
        ({"CCE": 0.3}, "failed task"),  # CCE is 0 for a failed task
        ({"rounds": -1}, "rounds"),
        ({"rounds": 2.5}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"chats": None}, "chats"),
        ({"success": "false"}, "success"),
        ({"stage": "pilot"}, "stage"),
        ({"message": None}, "message"),
    ],
)
def test_invalid_metrics_are_refused_naming_model_task_row(
    tmp_path: Path, changes: dict[str, Any], match: str
) -> None:
    with pytest.raises(PsrError, match=match) as exc:
        one(tmp_path, **changes)
    assert "'model-q'" in str(exc.value) and "'task_01_a'" in str(exc.value)
    assert "row 1" in str(exc.value)


def test_missing_key_is_refused(tmp_path: Path) -> None:
    r = row("task_01_a", success=False, message="Logs: 1/2")
    del r["chats"]
    with pytest.raises(PsrError, match="missing chats"):
        load_checkpoint_inputs(write(tmp_path, json.dumps({"m": [r]})))


def test_augmented_stem_without_version_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PsrError, match="_v1 or _v2"):
        one(tmp_path, stage="augmented")


def test_duplicate_rows_are_refused(tmp_path: Path) -> None:
    r = row("task_01_a", success=False, message="Logs: 1/2")
    with pytest.raises(PsrError, match=r"appears twice \(rows 1 and 2\)"):
        load_checkpoint_inputs(write(tmp_path, json.dumps({"m": [r, r]})))


def test_same_task_in_two_models_is_fine(tmp_path: Path) -> None:
    r = row("task_01_a", success=False, message="Logs: 1/2")
    inputs = load_checkpoint_inputs(write(tmp_path, json.dumps({"a": [r], "b": [r]})))
    assert set(inputs.models) == {"a", "b"}


def test_not_an_object_of_rows_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PsrError, match="mapping model names"):
        load_checkpoint_inputs(write(tmp_path, "[1, 2]"))
    with pytest.raises(PsrError, match="list of task rows"):
        load_checkpoint_inputs(write(tmp_path, '{"m": {"task": "x"}}'))


def test_bare_targets_file(tmp_path: Path) -> None:
    table = load_bare_targets(
        write(tmp_path, '{"targets": {"Planks": 16}, "tasks": {"t": {"Logs": 4}}}', "bare.json")
    )
    assert table.lookup("t", "planks") == 16.0
    assert table.lookup("t", "LOGS") == 4.0
    assert table.lookup("other", "Logs") is None


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"targets": {"Planks": 0}}', "positive"),
        ('{"targets": {"Planks": -3}}', "positive"),
        ('{"targets": {"Planks": "16"}}', "must be a number"),
        ('{"targets": {"Planks": true}}', "must be a number"),
        ('{"targets": {"Planks": 1, "planks": 2}}', "twice"),
        ('{"Planks": 16}', "bare-target table is an object"),
        ('{"tasks": []}', "tasks"),
    ],
)
def test_bad_bare_target_tables_are_refused(tmp_path: Path, text: str, match: str) -> None:
    with pytest.raises(PsrError, match=match):
        load_bare_targets(write(tmp_path, text, "bare.json"))
