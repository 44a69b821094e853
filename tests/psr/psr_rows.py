"""Builders of checkpoint-input rows for the PSR tests."""

from __future__ import annotations

from typing import Any


def row(
    task: str, *, success: bool, message: str, stage: str | None = None, **kw: Any
) -> dict[str, Any]:
    """A valid row; `stage` defaults from the stem (_v1/_v2 -> augmented)."""
    if stage is None:
        stage = "augmented" if task.endswith(("_v1", "_v2")) else "main"
    out: dict[str, Any] = {
        "stage": stage,
        "task": task,
        "success": success,
        "message": message,
        "CCE": 0.5 if success else 0.0,
        "rounds": 30,
        "chats": 8,
    }
    out.update(kw)
    return out


#: The spec's worked example: one failed task at 53.33 %, one successful task.
WORKED = {
    "example-model": [
        row("task_01_magic_staff", success=False, message="Logs: 3/5, Kills: 0/3, All alive: True"),
        row("task_02_stone_pickaxe", success=True, message="Stone: 3/3"),
    ]
}
