"""Pilot tests of the compare screen (`evalview A B`): rows, the selected task's McNemar table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import DataTable, Header, Static

from evalview.tui.compare_screen import CompareApp, CompareScreen, MessageScreen
from helpers.closed_runs import write_run


def _runs(tmp_path: Path, **b_manifest: object) -> tuple[Path, Path]:
    a_out: dict[str, str] = {}
    b_out: dict[str, str] = {}
    for i in range(20):  # task "up": the spec's b = 8, c = 2 table
        eid = f"up/seed{1000 + i}"
        a_out[eid] = "s" if i < 6 or 14 <= i < 16 else "f"
        b_out[eid] = "s" if i < 14 else "f"
    for i in range(30):  # task "down": A wins 12 discordant pairs, B none
        eid = f"down/seed{1000 + i}"
        a_out[eid] = "s" if i < 20 else "f"
        b_out[eid] = "s" if i < 8 else "f"
    a = write_run(tmp_path / "a", a_out)
    b = write_run(tmp_path / "b", b_out, manifest={"run_id": "run-2", **b_manifest})
    return a, b


async def _screen(app: CompareApp, pilot: object) -> CompareScreen:
    # Up to 30 s: the reads are paired in a thread, slow on a loaded machine. The screen is
    # current as soon as it is pushed; wait until it has mounted (and filled its table).
    for _ in range(600):
        await pilot.pause(0.05)  # type: ignore[attr-defined]
        if isinstance(app.screen, CompareScreen | MessageScreen) and app.screen.is_mounted:
            break
    assert isinstance(app.screen, CompareScreen)
    return app.screen


def test_rows_marks_and_mcnemar_table(tmp_path: Path) -> None:
    asyncio.run(_rows_marks_and_mcnemar_table(tmp_path))


async def _rows_marks_and_mcnemar_table(tmp_path: Path) -> None:
    a, b = _runs(tmp_path)
    app = CompareApp(a, b)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await _screen(app, pilot)
        table = screen.query_one(DataTable)
        await pilot.pause()
        assert table.row_count == 3  # two tasks and all pairs
        up, down = table.get_row_at(0), table.get_row_at(1)
        up_diff, down_diff = str(up[3]), str(down[3])
        assert [str(up[5]), str(up[6]), str(up[7])] == ["20", "8", "2"]  # pairs, B won, A won
        assert up_diff.startswith("·") and "+30.0 pt" in up_diff  # p = 0.109: not marked
        assert down_diff.startswith("▼") and "-40.0 pt" in down_diff  # A significantly better
        head = str(screen.query_one("#compare-head", Static).render())
        assert "B better on 0, A better on 1, no significant difference on 1" in head
        assert "left out" not in head  # every pair completed on both sides
        reads = str(screen.query_one("#compare-reads", Static).render()).splitlines()
        assert reads[0].startswith("A ") and reads[1].startswith("B ")  # verdict and headline
        assert all("successes / selected" in line for line in reads)
        assert "28 / 50" in reads[0] and "22 / 50" in reads[1]  # A 8 + 20, B 14 + 8 of 50
        assert not screen.query(Header)  # its ⭘ icon showed as a box: a title line instead
        assert "Compare" in str(screen.query_one("#compare-title", Static).render())
        detail = str(screen.query_one("#compare-mcnemar", Static).render())
        assert "p = 0.109" in detail and "20 pairs" in detail
        # B − A with the interval `compare --json` gives (difference_ci95), and why it is open
        ci = screen.comparison.tasks[0].difference_interval()
        assert ci is not None and ci.interval[0] < 0 < ci.interval[1]
        lo, hi = (f"{100 * x:+.1f}" for x in ci.interval)
        assert f"B − A +30.0 pt, 95 % interval {lo} to {hi} pt" in detail
        assert "underpowered: 20 pairs, the gap seen needs 42" in detail
        power = str(screen.query_one("#compare-power", Static).render())
        assert "42 pairs paired" in power and "44 episodes per read" in power
        await pilot.press("down")
        mcnemar = screen.query_one("#compare-mcnemar", Static)
        # the highlight reaches the screen as a message after the key: wait for its table
        for _ in range(600):
            if "30 pairs" in str(mcnemar.render()):
                break
            await pilot.pause(0.05)
        detail = str(mcnemar.render())
        assert "down" in detail and "30 pairs" in detail and "A is better" in detail
        await pilot.press("q")
    assert app.return_value == 0


def test_refusal_is_a_message_and_exit_1(tmp_path: Path) -> None:
    asyncio.run(_refusal(tmp_path))


async def _refusal(tmp_path: Path) -> None:
    a, b = _runs(tmp_path, benchmark={"version": "9.0"})
    app = CompareApp(a, b)
    async with app.run_test() as pilot:
        for _ in range(600):  # up to 30 s: the reads are read in a thread
            await pilot.pause(0.05)
            if isinstance(app.screen, MessageScreen) and app.screen.is_mounted:
                break
        assert isinstance(app.screen, MessageScreen)
        assert "'9.0'" in app.screen.message
        await pilot.press("q")
    assert app.return_value == 1


def test_two_paths_with_one_missing_exit_2_before_the_app(tmp_path: Path) -> None:
    from evalview.cli import main

    a, _ = _runs(tmp_path)
    assert main([str(a), str(tmp_path / "nope")]) == 2


def test_a_read_that_is_not_a_run_ends_the_app_with_exit_2(tmp_path: Path) -> None:
    """As `evalview PATH` with one path: no screen to dismiss, the message for the terminal."""
    asyncio.run(_not_a_run(tmp_path))


async def _not_a_run(tmp_path: Path) -> None:
    a, _ = _runs(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a run\n")
    app = CompareApp(a, notes)
    async with app.run_test() as pilot:
        for _ in range(600):  # up to 30 s: the reads are read in a thread
            await pilot.pause(0.05)
            if app.failure is not None:
                break
    assert app.return_value == 2
    assert app.failure is not None and "notes.txt" in app.failure
    assert not any(isinstance(s, MessageScreen) for s in app.screen_stack)


def test_the_command_prints_why_a_read_is_not_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`evalview A B` hands the app's reason to stderr after the app has ended."""
    from evalview.cli import main
    from evalview.tui import compare_screen

    def run(self: CompareApp) -> int:
        self.failure = f"{self.b}: not a run (a text file)."
        return 2

    monkeypatch.setattr(compare_screen.CompareApp, "run", run)
    a, _ = _runs(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a run\n")
    assert main([str(a), str(notes)]) == 2
    err = capsys.readouterr().err
    assert "evalview:" in err and "notes.txt: not a run" in err


def test_app_compare_shows_the_sample_level_and_graded_tasks(tmp_path: Path) -> None:
    """`evalview A B` said less than `evalview compare A B` for Inspect logs (no sample level)
    and lm-eval's graded metrics (no bootstrap line): one answer through both doors."""
    import json as _json
    import subprocess
    import sys

    from helpers.paths import SAMPLE_RUNS
    from load.test_lm_eval_doors import PHI_RESULTS, _phi_b

    inspect = SAMPLE_RUNS / "inspect"
    graded_b = _phi_b(tmp_path / "b", [0.05, -0.02, 0.11, 0.03])
    cases = [
        ((inspect / "os-agent-model-a.eval", inspect / "os-agent-model-b.eval"), "sample_level"),
        ((PHI_RESULTS, graded_b), "graded"),
    ]
    for (a, b), key in cases:
        cli = subprocess.run(
            [sys.executable, "-m", "evalview", "compare", str(a), str(b), "--json",
             "--allow-errors"],
            capture_output=True, text=True, check=False,
        )
        doc = _json.loads(cli.stdout)
        want = doc[key]["text"] if key == "sample_level" else doc[key][0]["text"]

        async def main(a: Path = a, b: Path = b) -> str:
            app = CompareApp(a, b)
            async with app.run_test(size=(160, 48)) as pilot:
                screen = await _screen(app, pilot)
                await pilot.pause()
                return " ".join(str(screen.query_one("#compare-head", Static).render()).split())

        head = asyncio.run(main())
        assert " ".join(want.split()) in head, (key, want, head)
