"""`evalview PATH` on a PSR checkpoint-inputs JSON: the partial-credit viewer inside the app shell,
and a refusal (exit 1) or unreadable file (exit 2) shown as a message, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static
from tui_helpers import SIZE, run, showing, wait_for

from evalview.cli.open import main
from evalview.psr import (
    PsrOptions,
    load_bare_targets,
    load_catalog,
    load_checkpoint_inputs,
    score_inputs,
)
from evalview.session import PsrFiles, open_input
from evalview.tui.app import EvalViewApp
from evalview.tui.partial_credit import CheckpointInputsPane, CheckpointInputsScreen
from helpers.one_episode_run import write_one_episode_run
from helpers.paths import SAMPLE_RUNS

PSR = SAMPLE_RUNS / "psr"
INPUTS = PSR / "checkpoint-inputs.json"
FILES = PsrFiles(PSR / "bare-targets.json", PSR / "catalog.json")


def _cells(table: DataTable[Any]) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def _open(path: Path, files: PsrFiles | None, body: Any) -> int | None:
    """Open `path` as `evalview PATH` would (loading in the worker), run `body`, return the exit."""

    async def main_() -> int | None:
        app = EvalViewApp(path, psr_files=files)
        async with app.run_test(size=SIZE) as pilot:
            await body(pilot, app)
        return app.return_value

    return run(main_())


def test_checkpoint_inputs_open_in_the_app_shell_with_the_psr_numbers() -> None:
    expected = score_inputs(
        load_checkpoint_inputs(INPUTS),
        PsrOptions(
            bare_targets=load_bare_targets(PSR / "bare-targets.json"),
            catalog=load_catalog(PSR / "catalog.json"),
        ),
    )

    async def body(pilot: Any, app: EvalViewApp) -> None:
        await wait_for(pilot, lambda: showing(app, CheckpointInputsScreen))
        await pilot.pause()
        assert app.inputs is not None and app.session is None
        pane = app.screen.query_one(CheckpointInputsPane)
        summaries = _cells(pane.query_one("#psr-summaries", DataTable))
        a_main = expected.model("example-model-a").summary("main")
        assert a_main.psr is not None
        assert a_main.psr == 93 / 160
        # 93/160 = 58.125 %: rounded once, half to even (evalview.fmt), not 58.13 from a float
        assert summaries[0][:3] == ["example-model-a", "Main", "58.12 %"]
        rows = pane.query_one("#psr-rows", DataTable)
        assert app.focused is rows  # arrows work at once
        await pilot.press("down", "down", "down")  # task_04_shelter: Planks 14 of the table's 16
        title = str(app.screen.query_one("#psr-checkpoints-title", Static).render())
        assert "task_04_shelter" in title
        assert _cells(pane.query_one("#psr-checkpoints", DataTable))[0][:4] == [
            "Planks",
            "quantity",
            "14",
            "16",
        ]
        await pilot.press("e")  # nothing to export: says so instead of failing
        await pilot.pause()
        assert isinstance(app.screen, CheckpointInputsScreen)
        await pilot.press("q")

    assert _open(INPUTS, FILES, body) in (None, 0)


def test_a_refused_checkpoint_inputs_file_shows_the_refusal_and_exits_1() -> None:
    """Without the bare-target table the sample's legacy `Planks: 14` must be refused (exit 1)."""

    async def body(pilot: Any, app: EvalViewApp) -> None:
        await wait_for(pilot, lambda: app.failure is not None)
        assert app.failure is not None
        message, hint = app.failure
        assert "task_04_shelter" in message and "--bare-targets" in message
        assert "Fix the row" in hint

    assert _open(INPUTS, None, body) == 1


def test_duplicate_rows_are_refused_with_the_rows_named(tmp_path: Path) -> None:
    row = {
        "stage": "main",
        "task": "t1",
        "success": False,
        "message": "Logs: 1/2",
        "CCE": 0.0,
        "rounds": 3,
        "chats": 1,
    }
    bad = tmp_path / "inputs.json"
    bad.write_text(json.dumps({"m": [row, row]}))

    async def body(pilot: Any, app: EvalViewApp) -> None:
        await wait_for(pilot, lambda: app.failure is not None)
        assert app.failure is not None
        assert "appears twice" in app.failure[0] and "rows 1 and 2" in app.failure[0]

    assert _open(bad, None, body) == 1


def test_json_that_is_neither_a_run_nor_inputs_is_unreadable_exit_2(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"models": 3}')

    async def body(pilot: Any, app: EvalViewApp) -> None:
        await wait_for(pilot, lambda: app.failure is not None)
        assert app.failure is not None
        assert "other.json" in app.failure[0] and "of no format evalview reads" in app.failure[0]

    assert _open(other, None, body) == 2


def test_a_catalog_with_a_closed_run_is_refused_like_evalview_psr() -> None:
    from evalview.psr import PsrError

    with pytest.raises(PsrError, match="--catalog applies to checkpoint-inputs"):
        open_input(
            SAMPLE_RUNS / "fail-fast", psr_files=PsrFiles(catalog=PSR / "catalog.json")
        )


def test_bare_targets_reach_a_runs_partial_credit(tmp_path: Path) -> None:
    """A run whose message has a bare `Logs = 3`-style value: refused without the table, credited
    3/5 with it (the side file is read in the worker and used for the run's tab)."""
    from evalview.session import Session

    root = write_one_episode_run(tmp_path / "run", "Logs: 3")
    plain = open_input(root)
    assert isinstance(plain, Session) and plain.psr is None
    assert plain.psr_refusal is not None and "--bare-targets" in plain.psr_refusal
    tabled = open_input(root, psr_files=PsrFiles(PSR / "bare-targets.json"))
    assert isinstance(tabled, Session) and tabled.psr is not None
    assert tabled.psr.tasks[0].psr == pytest.approx(0.6)


def test_missing_side_file_exits_2_before_the_app(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(INPUTS), "--bare-targets", str(tmp_path / "nope.json")]) == 2
    assert "nope.json: no such file" in capsys.readouterr().err


def test_an_exported_result_says_why_it_has_no_partial_credit(tmp_path: Path) -> None:
    """An exported result.json publishes no verifier messages: the tab says so (and the overview
    does not claim an empty episodes.jsonl) instead of a --message-key hint."""
    from evalview.report.export import export_run
    from evalview.session import Session
    from evalview.tui.overview import protocol_card

    export_run(SAMPLE_RUNS / "fail-fast", tmp_path / "out")
    session = open_input(tmp_path / "out" / "result.json")
    assert isinstance(session, Session) and session.psr is None
    assert session.psr_refusal is not None and "exported result" in session.psr_refusal
    assert "--message-key" not in session.psr_refusal
    from rich.console import Console

    console = Console(width=100, record=True)
    console.print(protocol_card(session))
    text = console.export_text()
    assert "records in episodes.jsonl" not in text and "exported result.json" in text


def test_compare_screen_keeps_rows_visible_at_80x24() -> None:
    from evalview.tui.compare_screen import CompareApp, CompareScreen

    async def main_() -> None:
        runs = SAMPLE_RUNS
        app = CompareApp(runs / "robobench-24x50", runs / "fail-fast", allow_off_protocol=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: showing(app, CompareScreen))
            await pilot.pause()
            table = app.screen.query_one("#compare-table", DataTable)
            assert table.region.height >= 6, table.region  # header + at least 5 tasks
            head = str(app.screen.query_one("#compare-head", Static).render())
            assert head.startswith("OFF-PROTOCOL")

    run(main_())


def test_two_runs_executed_unlike_are_refused_unless_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fail-fast vs not: refused with the flag to pass, which `evalview A B` accepts too."""
    from evalview.tui import compare_screen
    from evalview.tui.compare_screen import CompareApp, MessageScreen

    runs = SAMPLE_RUNS

    async def main_() -> None:
        app = CompareApp(runs / "robobench-24x50", runs / "fail-fast")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: showing(app, MessageScreen))
            assert "--allow-off-protocol" in app.screen.message  # type: ignore[attr-defined]
            assert app.exit_code == 1

    run(main_())
    seen: dict[str, object] = {}

    def fake(a: Path, b: Path, *, allow_off_protocol: bool = False, **_: object) -> int:
        seen.update(a=a, b=b, allow=allow_off_protocol)
        return 0

    monkeypatch.setattr(compare_screen, "run_compare", fake)
    a, b = runs / "robobench-24x50", runs / "fail-fast"
    assert main([str(a), str(b), "--allow-off-protocol"]) == 0
    assert seen == {"a": a, "b": b, "allow": True}
