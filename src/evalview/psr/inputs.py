"""Reading the checkpoint-inputs JSON, the bare-target table and the task catalog, safely.

Files are read once, bounded in size, parsed strictly (duplicate keys, NaN and Infinity are
rejected by `parse_strict`) and validated row by row; nothing is ever written back. A file that
cannot be parsed at all is an `InputError` (exit 2); content that parses but is wrong is a
`PsrError` (exit 1) naming the model, task and row.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from evalview.load.checkpoint_inputs import looks_like_checkpoint_inputs
from evalview.load.source import read_json_file
from evalview.psr.parser import BareTargets, PsrError

__all__ = [
    "SPLITS",
    "SPLIT_TITLES",
    "CheckpointInputs",
    "InputRow",
    "load_bare_targets",
    "load_catalog",
    "load_checkpoint_inputs",
    "looks_like_checkpoint_inputs",
    "parse_bare_targets",
    "parse_checkpoint_inputs",
    "read_json_file",
    "split_of",
]

Stage = Literal["main", "augmented"]
#: The reported splits of checkpoint inputs, in display order. Augmented v1 and v2 are reported
#: separately (the spec: the v1 split is not established as equivalent to the historical subset).
SPLITS = ("main", "augmented_v1", "augmented_v2")
SPLIT_TITLES = {
    "main": "Main",
    "augmented_v1": "Augmented v1",
    "augmented_v2": "Augmented v2",
    "augmented": "Augmented v1 ∪ v2",
    "run": "Run",
}
ROW_KEYS = ("stage", "task", "success", "message", "CCE", "rounds", "chats")


@dataclass(frozen=True, slots=True)
class InputRow:
    """One validated row of checkpoint inputs. `row` is 1-based within the model's list."""

    model: str
    row: int
    stage: Stage
    split: str
    task: str
    success: bool
    message: str
    #: The saved CCE; None when the judge has not scored a successful task yet (pending).
    cce: float | None
    rounds: float
    chats: float


@dataclass(frozen=True, slots=True)
class CheckpointInputs:
    """Validated rows by model, in file order."""

    path: Path
    models: dict[str, list[InputRow]]


def parse_checkpoint_inputs(path: Path, value: Any) -> CheckpointInputs:
    """Validate every row; PsrError names the first bad one (model, row, task, key)."""
    if not isinstance(value, dict) or not value:
        raise PsrError(
            f"{path}: expected a JSON object mapping model names to lists of task rows "
            "(see docs/psr.md)."
        )
    models: dict[str, list[InputRow]] = {}
    for model, rows in value.items():
        if not isinstance(rows, list):
            raise PsrError(f"{path}: model {model!r}: expected a list of task rows.")
        seen: dict[tuple[str, str], int] = {}
        parsed: list[InputRow] = []
        for i, row in enumerate(rows, start=1):
            item = _row(path, model, i, row)
            key = (item.stage, item.task)
            if key in seen:
                raise PsrError(
                    f"{path}: model {model!r}, task {item.task!r} ({item.stage}) appears twice "
                    f"(rows {seen[key]} and {i}); keep one selected valid attempt per task."
                )
            seen[key] = i
            parsed.append(item)
        models[model] = parsed
    return CheckpointInputs(path, models)


def load_checkpoint_inputs(path: Path) -> CheckpointInputs:
    return parse_checkpoint_inputs(path, read_json_file(path, "checkpoint-inputs file"))


def _row(path: Path, model: str, i: int, row: Any) -> InputRow:
    where = f"{path}: model {model!r}, row {i}"
    if not isinstance(row, dict):
        raise PsrError(f"{where}: expected an object with the keys {', '.join(ROW_KEYS)}.")
    task = row.get("task")
    if not isinstance(task, str) or not task.strip():
        raise PsrError(f"{where}: `task` must be the full task filename stem (a nonempty string).")
    where = f"{path}: model {model!r}, task {task!r} (row {i})"
    missing = [k for k in ROW_KEYS if k not in row]
    if missing:
        raise PsrError(
            f"{where}: missing {', '.join(missing)}; every row needs {', '.join(ROW_KEYS)}."
        )
    stage = row["stage"]
    if stage not in ("main", "augmented"):
        raise PsrError(f'{where}: `stage` is {stage!r}; it must be "main" or "augmented".')
    split = split_of(stage, task)
    if split is None:
        raise PsrError(
            f"{where}: an augmented task stem must end in _v1 or _v2 (the verifier version); "
            f"{task!r} does not."
        )
    success = row["success"]
    if not isinstance(success, bool):
        raise PsrError(f"{where}: `success` is {success!r}; it must be true or false.")
    message = row["message"]
    if not isinstance(message, str):
        raise PsrError(f"{where}: `message` must be the verifier message (a string).")
    cce = _saved_cce(row["CCE"], success, where)
    if not success and cce != 0.0:
        raise PsrError(
            f"{where}: `CCE` is {cce} for a failed task; CCE is 0 for a failed task, so the "
            "saved CCE and the success flag disagree. Re-check the verifier and the CCE record."
        )
    rounds = _count(row["rounds"], "rounds", where)
    chats = _count(row["chats"], "chats", where)
    return InputRow(model, i, stage, split, task, success, message, cce, rounds, chats)


def _saved_cce(value: Any, success: bool, where: str) -> float | None:
    """The saved CCE, or None (pending) for a successful task whose judge has not answered.

    `"CCE": null` is how a row says the judge/API has not scored it: a pending score, never a
    model failure and never a zero CCE. A failed task needs no judge (its CCE is 0 by definition),
    so null there means 0.
    """
    if value is None:
        return None if success else 0.0
    cce = _number(value, "CCE", where)
    if not 0.0 <= cce <= 1.0:
        raise PsrError(
            f"{where}: `CCE` is {cce}; a saved CCE is a fraction in [0, 1] (null while the "
            "judge's score is pending)."
        )
    return cce


def split_of(stage: str, task: str) -> str | None:
    """The reported split of a row: main, or the augmented verifier version from the stem."""
    if stage == "main":
        return "main"
    if task.endswith("_v1"):
        return "augmented_v1"
    if task.endswith("_v2"):
        return "augmented_v2"
    return None


def _number(value: Any, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PsrError(f"{where}: `{key}` is {value!r}; it must be a number.")
    x = float(value)
    if not math.isfinite(x):
        raise PsrError(f"{where}: `{key}` is not a finite number.")
    return x


def _count(value: Any, key: str, where: str) -> float:
    x = _number(value, key, where)
    if x < 0 or not x.is_integer():
        raise PsrError(f"{where}: `{key}` is {value!r}; it must be a nonnegative whole number.")
    return x


# --- bare-target table -------------------------------------------------------------------------


def load_bare_targets(path: Path) -> BareTargets:
    """The bare-target table file (see docs/psr.md for its shape)."""
    return parse_bare_targets(path, read_json_file(path, "bare-target table"))


def parse_bare_targets(path: Path, value: Any) -> BareTargets:
    if not isinstance(value, dict) or not set(value) <= {"targets", "tasks", "description"}:
        raise PsrError(
            f'{path}: a bare-target table is an object with "targets" (label → target) and '
            'optionally "tasks" (task → label → target) and "description".'
        )
    global_targets = _target_map(path, value.get("targets", {}), "targets")
    tasks_raw = value.get("tasks", {})
    if not isinstance(tasks_raw, dict):
        raise PsrError(f'{path}: "tasks" must map task stems to label → target objects.')
    task_targets = {
        task: _target_map(path, labels, f"tasks.{task}") for task, labels in tasks_raw.items()
    }
    return BareTargets(global_targets, task_targets, source=str(path))


def _target_map(path: Path, value: Any, where: str) -> dict[str, float]:
    if not isinstance(value, dict):
        raise PsrError(f'{path}: "{where}" must map checkpoint labels to targets.')
    out: dict[str, float] = {}
    for label, target in value.items():
        if isinstance(target, bool) or not isinstance(target, int | float):
            raise PsrError(f"{path}: {where}[{label!r}] is {target!r}; a target must be a number.")
        if not math.isfinite(target) or target <= 0:
            raise PsrError(f"{path}: {where}[{label!r}] is {target!r}; targets must be positive.")
        key = label.strip().casefold()
        if key in out:
            raise PsrError(
                f"{path}: {where} lists {label!r} twice (labels compare case-insensitively)."
            )
        out[key] = float(target)
    return out


# --- task catalog ------------------------------------------------------------------------------


def load_catalog(path: Path, splits: tuple[str, ...] = SPLITS) -> dict[str, tuple[str, ...]]:
    """Expected tasks per split, e.g. {"main": [...], "augmented_v1": [...]}."""
    value = read_json_file(path, "task catalog")
    if not isinstance(value, dict) or not value or not set(value) <= set(splits):
        raise PsrError(
            f"{path}: a task catalog is an object whose keys are splits ({', '.join(splits)}) "
            "and whose values are lists of task stems."
        )
    catalog: dict[str, tuple[str, ...]] = {}
    for split, tasks in value.items():
        if not isinstance(tasks, list) or not all(isinstance(t, str) and t for t in tasks):
            raise PsrError(f'{path}: "{split}" must be a list of task stems (strings).')
        dupes = sorted(t for t, n in Counter(tasks).items() if n > 1)
        if dupes:
            raise PsrError(f'{path}: "{split}" lists {", ".join(map(repr, dupes))} twice.')
        suffix = {"augmented_v1": "_v1", "augmented_v2": "_v2"}.get(split)
        if suffix is not None:
            wrong = [t for t in tasks if not t.endswith(suffix)]
            if wrong:
                raise PsrError(
                    f'{path}: "{split}" holds {wrong[0]!r}, whose stem does not end in {suffix}.'
                )
        catalog[split] = tuple(tasks)
    return catalog
