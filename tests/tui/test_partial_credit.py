"""Pilot tests of the partial-credit tab and the checkpoint-inputs viewer."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable, Static, TabbedContent
from tui_helpers import showing

from evalview.psr import load_checkpoint_inputs, score_inputs, score_psr_run
from evalview.session import PsrFiles, open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.partial_credit import (
    CheckpointInputsPane,
    CheckpointInputsScreen,
    PartialCreditPane,
)
from evalview.tui.run_screen import RunScreen
from helpers.one_episode_run import write_one_episode_run
from helpers.paths import EXAMPLE, SAMPLE_RUNS

SIZE = (160, 50)


async def _wait(pilot: Pilot[Any], cond: Any, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError(f"condition not met within {timeout} s")
        await pilot.pause(0.05)


def _cells(table: DataTable[Any]) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def _static(app: App[Any], selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def test_run_tab_shows_psr_beside_sr_and_episode_checkpoints() -> None:
    session = open_session(EXAMPLE)
    expected = score_psr_run(session.run)

    async def main() -> None:
        app = EvalViewApp(EXAMPLE, session=session)
        async with app.run_test(size=SIZE) as pilot:
            await _wait(pilot, lambda: showing(app, RunScreen))
            await pilot.press("6")  # the sixth tab
            await _wait(
                pilot, lambda: app.screen.query_one(TabbedContent).active == "partial-credit"
            )
            pane = app.screen.query_one(PartialCreditPane)
            tasks = _cells(pane.query_one("#psr-tasks", DataTable))
            assert [row[0] for row in tasks] == ["task-00", "task-01", "task-02"]
            for row, t in zip(tasks, expected.tasks, strict=True):
                assert row[1] == f"{100 * (t.psr or 0):.2f} %"  # PSR, from the core
                assert row[2] == f"{100 * (t.sr or 0):.2f} %"  # SR beside it
            # how many were not scored; why is on the task's episodes title below
            assert [row[5] for row in tasks] == [
                str(t.selected - t.scored) if t.not_scored() else "—" for t in expected.tasks
            ]
            assert "76.05 %" in _static(app, "#psr-title")

            # The first task is shown; its first episode's checkpoints: Logs 5/5, Kills 3/3, ...
            cps = _cells(pane.query_one("#psr-checkpoints", DataTable))
            assert cps[0] == ["Logs", "quantity", "5", "5", "1.00"]
            assert cps[2] == ["All alive", "boolean", "False", "—", "0.00"]

            # Walk: task-01 → its episodes → seed1002 (Logs 2/5 → 0.40).
            await pilot.press("down", "enter")
            await _wait(pilot, lambda: "task-01" in _static(app, "#psr-episodes-title"))
            assert "not scored: " + ", ".join(expected.tasks[1].not_scored()) in " ".join(
                _static(app, "#psr-episodes-title").split()
            )
            episodes = pane.query_one("#psr-episodes", DataTable)
            assert episodes.has_focus
            ids = [r[0] for r in _cells(episodes)]
            assert ids == [f"task-01/seed{s}" for s in (1000, 1001, 1002, 1003)]
            await pilot.press("down")  # seed1001: a policy error, not scored
            await _wait(pilot, lambda: "seed1001" in _static(app, "#psr-checkpoints-title"))
            note = _cells(pane.query_one("#psr-checkpoints", DataTable))[0][0]
            assert "errored (policy)" in note and "not scored" in note
            await pilot.press("down")
            await _wait(pilot, lambda: "seed1002" in _static(app, "#psr-checkpoints-title"))
            cps = _cells(pane.query_one("#psr-checkpoints", DataTable))
            assert cps[0] == ["Logs", "quantity", "2", "5", "0.40"]
            assert "episodes.jsonl:7" in _static(app, "#psr-checkpoints-title")

    asyncio.run(main())


def test_run_that_must_be_refused_shows_why(tmp_path: Path) -> None:
    root = write_one_episode_run(tmp_path / "run", "Logs = 3")
    session = open_session(root)

    async def main() -> None:
        app = EvalViewApp(root, session=session)
        async with app.run_test(size=SIZE) as pilot:
            await _wait(pilot, lambda: showing(app, RunScreen))
            app.screen.query_one(TabbedContent).active = "partial-credit"
            await pilot.pause()
            title = _static(app, "#psr-title")
            assert "No partial credit" in title and "Logs = 3" in title

    asyncio.run(main())


@pytest.fixture
def sample_report() -> Any:
    samples = SAMPLE_RUNS / "psr"
    from evalview.psr import PsrOptions, load_bare_targets, load_catalog

    opts = PsrOptions(
        bare_targets=load_bare_targets(samples / "bare-targets.json"),
        catalog=load_catalog(samples / "catalog.json"),
        catalog_source="catalog.json",
    )
    return score_inputs(load_checkpoint_inputs(samples / "checkpoint-inputs.json"), opts)


def test_checkpoint_inputs_viewer(sample_report: Any) -> None:
    samples = SAMPLE_RUNS / "psr"
    files = PsrFiles(samples / "bare-targets.json", samples / "catalog.json")

    async def main() -> None:
        # As `evalview checkpoint-inputs.json --bare-targets ... --catalog ...` opens it.
        app = EvalViewApp(samples / "checkpoint-inputs.json", psr_files=files)
        async with app.run_test(size=SIZE) as pilot:
            await _wait(pilot, lambda: showing(app, CheckpointInputsScreen))
            await pilot.pause()
            pane = app.screen.query_one(CheckpointInputsPane)
            summaries = _cells(pane.query_one("#psr-summaries", DataTable))
            a_main = sample_report.model("example-model-a").summary("main")
            assert a_main.psr == 93 / 160
            # 93/160 = 58.125 %: rounded once, half to even (evalview.fmt), not 58.13 from a float
            assert summaries[0][:3] == ["example-model-a", "Main", "58.12 %"]
            assert "final" in summaries[0][7] and "partial" in summaries[1][7]
            rows = pane.query_one("#psr-rows", DataTable)
            rows.focus()
            await pilot.pause()
            assert "task_01_magic_staff" in _static(app, "#psr-checkpoints-title")
            cps = _cells(pane.query_one("#psr-checkpoints", DataTable))
            assert cps[0] == ["Logs", "quantity", "3", "5", "0.60"]
            await pilot.press("down", "down", "down")  # task_04_shelter: the bare Planks: 14
            await _wait(pilot, lambda: "task_04_shelter" in _static(app, "#psr-checkpoints-title"))
            cps = _cells(pane.query_one("#psr-checkpoints", DataTable))
            assert cps[0] == ["Planks", "quantity", "14", "16", "0.88"]

    asyncio.run(main())


def test_successful_row_with_unparsed_message_shows_the_note(tmp_path: Path) -> None:
    doc = {
        "m": [
            {
                "stage": "main",
                "task": "t",
                "success": True,
                "message": "done, all good",
                "CCE": 0.5,
                "rounds": 3,
                "chats": 2,
            }
        ]
    }
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc), encoding="utf-8")

    async def main() -> None:
        app = EvalViewApp(path)
        async with app.run_test(size=SIZE) as pilot:
            await _wait(pilot, lambda: showing(app, CheckpointInputsScreen))
            await pilot.pause()
            cps = _cells(app.screen.query_one("#psr-checkpoints", DataTable))
            assert len(cps) == 1 and "not needed, the verifier reports success" in cps[0][0]
            assert "100.00 %" in _static(app, "#psr-checkpoints-title")

    asyncio.run(main())


def test_the_tab_scores_nothing_on_the_ui_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report comes from the loading worker (`Session.psr`): with the scorer disabled after
    loading, the tab still shows every task."""
    session = open_session(EXAMPLE)
    assert session.psr is not None and session.psr == score_psr_run(session.run)

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("partial credit scored on the UI thread")

    import evalview.psr
    import evalview.psr.from_run
    import evalview.tui.partial_credit

    monkeypatch.setattr(evalview.psr, "score_psr_run", refuse)
    monkeypatch.setattr(evalview.psr.from_run, "score_psr_run", refuse)
    monkeypatch.setattr(evalview.tui.partial_credit, "score_psr_run", refuse, raising=False)

    async def main() -> None:
        app = EvalViewApp(EXAMPLE, session=session)
        async with app.run_test(size=SIZE) as pilot:
            await _wait(pilot, lambda: showing(app, RunScreen))
            await pilot.press("6")
            await _wait(pilot, lambda: bool(app.screen.query(PartialCreditPane)))
            await pilot.pause()
            tasks = _cells(app.screen.query_one("#psr-tasks", DataTable))
            assert [r[0] for r in tasks] == [t.task for t in session.psr.tasks]  # type: ignore[union-attr]

    asyncio.run(main())
