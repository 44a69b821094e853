"""Issue 27: the Runs screen of a folder of lm-eval reads has the column per task the paper's
table has (each task's first metric as lm-eval recorded it ± its stderr), the same cells as
`evalview table --format json`; a folder without such reads keeps its columns."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import run, screen_lines, showing, wait_for

from evalview.tui.app import EvalViewApp
from evalview.tui.runs_screen import COLUMNS, RunsScreen
from evalview.tui.vtable import VirtualTable
from helpers.inspect_logs import run_cli
from helpers.paths import REPO, SAMPLE_RUNS


def _folder(tmp_path: Path) -> Path:
    """The generated sample's two models and lm-eval's real results files (aggregates only,
    groups, an N/A stderr)."""
    root = tmp_path / "out"
    shutil.copytree(SAMPLE_RUNS / "lm-eval", root / "sample")
    shutil.copytree(REPO / "tests" / "fixtures" / "lm_eval", root / "real")
    return root


def _cell(v: dict[str, Any] | None) -> str:
    if v is None:
        return "—"
    return f"{v['value']:.4f}" + ("" if v["stderr"] is None else f" ± {v['stderr']:.4f}")


async def _loaded(pilot: Any) -> RunsScreen:
    await wait_for(pilot, lambda: showing(pilot.app, RunsScreen))
    screen = pilot.app.screen
    assert isinstance(screen, RunsScreen)
    await wait_for(pilot, lambda: screen.done, timeout=60)
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", [(160, 48), (80, 24)], ids=["160x48", "80x24"])
def test_value_columns_are_the_tables(tmp_path: Path, size: tuple[int, int]) -> None:
    root = _folder(tmp_path)
    done = run_cli(["table", root, "--format", "json", "--bootstrap", "0", "-j", "1"])
    rows = {r["path"]: r for r in done.json["rows"]}
    tasks = list(dict.fromkeys(t for r in done.json["rows"] for t in r.get("task_values", {})))
    assert len(tasks) >= 5

    async def main() -> None:
        app = EvalViewApp(root, jobs=1)
        async with app.run_test(size=size) as pilot:
            screen = await _loaded(pilot)
            table = screen.query_one(VirtualTable)
            labels = [c.label for c in table.columns]
            at = labels.index("per task") + 1
            assert labels[at : at + len(tasks)] == tasks
            assert screen.value_tasks == tasks
            checked = 0
            for position, i in enumerate(screen.view):
                row = screen.entries[i].row
                assert row is not None
                doc = rows[str(root / row.path)]
                cells = [str(c) for c in screen._cells(position)[at : at + len(tasks)]]
                values = doc.get("task_values")
                want = [_cell(values.get(t)) for t in tasks] if values else [""] * len(tasks)
                assert cells == want, row.path
                checked += bool(values)
            assert checked >= 4
            # scrolled sideways, the columns are on screen with their numbers
            for _ in range(80):
                await pilot.press("right")
            await pilot.pause()
            text = "\n".join(screen_lines(app))
            on_screen = {_cell(v) for r in done.json["rows"]
                         for v in (r.get("task_values") or {}).values()}
            assert any(c in text for c in on_screen), text

    run(main())


def test_a_folder_without_recorded_values_keeps_its_columns() -> None:
    async def main() -> None:
        app = EvalViewApp(SAMPLE_RUNS / "replicates", jobs=1)
        async with app.run_test(size=(160, 48)) as pilot:
            screen = await _loaded(pilot)
            table = screen.query_one(VirtualTable)
            assert [c.label for c in table.columns] == [c.label for c in COLUMNS]
            assert screen.value_tasks == []

    run(main())
