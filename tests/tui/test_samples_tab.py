"""Issues 26/27, every door: the app's Samples tab shows an Inspect log's per-sample Wilson
intervals over epochs, its rates by a sample metadata key and its other scorers, with the
numbers `evalview score LOG --json --group-by KEY` prints (read off the composed screen, at
160 x 48 and 80 x 24). A closed run has no such tab."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable
from tui_helpers import opened, run, screen_lines, wait_for

from evalview.fmt import pct, pct_range
from evalview.session import open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.run_screen import RunScreen
from evalview.tui.samples_view import SamplesPane
from helpers.inspect_logs import edited, run_cli, small_log, write
from helpers.paths import SAMPLE_RUNS

A = SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval"
SIZES = [(160, 48), (80, 24)]


def _score(path: Path, *extra: str) -> dict[str, Any]:
    done = run_cli(["score", path, "--json", "--allow-errors", "--bootstrap", "0", *extra])
    assert done.code == 0, done.text
    doc: dict[str, Any] = done.json
    return doc


async def _samples_tab(pilot: Pilot[Any]) -> tuple[RunScreen, SamplesPane]:
    screen = await opened(pilot)
    assert screen.tabs[-1].id == "samples"
    await pilot.press(str(len(screen.tabs)))
    await wait_for(pilot, lambda: bool(screen.query(SamplesPane)))
    await pilot.pause()
    return screen, screen.query_one(SamplesPane)


def _row_line(lines: list[str], name: str, *cells: str) -> str:
    """The screen line of the row named `name` holding every cell, in order."""
    for line in lines:
        words = line.split()
        if words and words[0] == name and all(c in line for c in cells):
            return line
    raise AssertionError(f"no row {name} with {cells} on screen:\n" + "\n".join(lines))


def _cells(g: dict[str, Any]) -> tuple[str, ...]:
    return (f"{g['successes']:,} / {g['selected']:,}", pct(g["rate"]), pct_range(*g["wilson95"]))


@pytest.mark.parametrize("size", SIZES, ids=["160x48", "80x24"])
def test_groups_and_samples_on_screen_are_score_json(size: tuple[int, int]) -> None:
    by_category = _score(A, "--group-by", "category")
    by_difficulty = _score(A, "--group-by", "difficulty")
    session = open_session(A)

    async def main() -> None:
        app = EvalViewApp(A, session=session)
        async with app.run_test(size=size) as pilot:
            _, pane = await _samples_tab(pilot)
            lines = screen_lines(app)
            assert all(len(line) <= size[0] for line in lines)
            # the first categorical key to begin with, every group on screen as score says
            assert pane.key == "category"
            for g in by_category["groups"]["groups"]:
                _row_line(lines, g["group"], *_cells(g))
            assert pane.numbers()["groups"] == by_category["groups"]
            # g: the next key
            await pilot.press("g")
            await pilot.pause()
            lines = screen_lines(app)
            assert pane.key == "difficulty"
            for g in by_difficulty["groups"]["groups"]:
                _row_line(lines, g["group"], *_cells(g))
            assert pane.numbers()["groups"] == by_difficulty["groups"]
            # the samples: the first rows shown are score's, in sample-id order
            samples = by_category["samples"]["groups"]
            assert pane.numbers()["samples"] == by_category["samples"]
            assert pane.order == [g["group"] for g in samples][: len(pane.order)]
            for g in samples[:3]:
                _row_line(lines, g["group"], *_cells(g))
            # g twice more: no grouping, then the first key again
            await pilot.press("g")
            await pilot.pause()
            assert pane.key is None and "No grouping" in "\n".join(screen_lines(app))
            await pilot.press("g")
            assert pane.key == "category"

    run(main())


def test_samples_sort_search_and_enter_lists_the_epochs() -> None:
    doc = _score(A)
    rates = {g["group"]: g["wilson95"][0] for g in doc["samples"]["groups"]}
    session = open_session(A)

    async def main() -> None:
        app = EvalViewApp(A, session=session)
        async with app.run_test(size=(160, 48)) as pilot:
            screen, pane = await _samples_tab(pilot)
            table = pane.query_one("#samples-table", DataTable)
            table.focus()
            await pilot.pause()
            assert pane.order[:3] == ["1", "2", "3"]  # numeric ids in number order
            await pilot.press("s", "s", "s")  # sample → succ / epochs → rate → Wilson
            assert pane.sort_key == "wilson" and not pane.reverse
            lows = [rates[s] for s in pane.order]
            assert lows == sorted(lows)
            await pilot.press("r")
            lows = [rates[s] for s in pane.order]
            assert pane.reverse and lows == sorted(lows, reverse=True)
            await pilot.press("slash", *"17")
            await pilot.pause()
            assert pane.order and all("17" in s for s in pane.order)
            assert f"{len(pane.order)} of 200 samples" in "\n".join(screen_lines(app))
            await pilot.press("enter")  # back to the list, the filter kept
            await pilot.pause()
            table.move_cursor(row=pane.order.index("17"))
            await pilot.press("enter")
            await wait_for(pilot, lambda: screen.query_one("#tabs").active == "episodes")
            await pilot.pause()
            ids = session.run.episodes.ids
            shown = [str(ids[i]) for i in screen.episodes._index]
            assert shown == ["17/epoch1", "17/epoch2", "17/epoch3"], shown
            assert "3 episodes of 600 · sample 17" in "\n".join(screen_lines(app))

    run(main())


def _two_scorers(tmp_path: Path) -> tuple[Path, list[float]]:
    base = small_log([["C", "I"], ["I", "I"], ["C", "C"], ["C", None]])

    def edit(copy: Any) -> None:
        for i, s in enumerate(copy.samples):
            if "scores" in s:
                s["scores"]["efficiency"] = {"value": round(0.1 + 0.07 * i, 3)}

    log = edited(base, edit)
    values = [s["scores"]["efficiency"]["value"] for s in log.samples
              if "scores" in s and s.get("error") is None]
    return write(log, tmp_path / "two.eval"), values


@pytest.mark.parametrize("size", SIZES, ids=["160x48", "80x24"])
def test_other_scorers_mean_se_left_out_of_wilson(tmp_path: Path, size: tuple[int, int]) -> None:
    path, values = _two_scorers(tmp_path)
    doc = _score(path)
    (other,) = doc["other_scorers"]
    mean = sum(values) / len(values)
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))
    assert other["mean"] == pytest.approx(mean) and other["se"] == pytest.approx(se)
    session = open_session(path)

    async def main() -> None:
        app = EvalViewApp(path, session=session)
        async with app.run_test(size=size) as pilot:
            _, pane = await _samples_tab(pilot)
            text = " ".join(" ".join(screen_lines(app)).split())
            assert f"other scorer efficiency: mean {mean:.4g} ± {se:.3g} (SE)" in text, text
            assert "left out of the rates, the aggregate and every Wilson interval" in text
            assert pane.numbers()["other_scorers"] == doc["other_scorers"]
            assert pane.numbers()["samples"] == doc["samples"]

    run(main())


def test_one_epoch_says_so_and_no_metadata_says_so(tmp_path: Path) -> None:
    """A log of one epoch with other scorers: the tab is there, and says what it cannot show."""
    base = small_log([["C"], ["I"], ["C"]])

    def edit(copy: Any) -> None:
        for s in copy.samples:
            s["metadata"] = {}
            s["scores"]["judge"] = {"value": 0.5}

    path = write(edited(base, edit), tmp_path / "one.eval")
    session = open_session(path)
    assert not session.run.groupings and not session.run.repeats and session.run.scorers

    async def main() -> None:
        app = EvalViewApp(path, session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await _samples_tab(pilot)
            text = " ".join(" ".join(screen_lines(app)).split())
            assert "each sample ran once" in text, text
            assert "No sample metadata key to group by" in text

    run(main())


def test_a_closed_run_has_no_samples_tab() -> None:
    session = open_session(SAMPLE_RUNS / "robobench-24x50")

    async def main() -> None:
        app = EvalViewApp(session.path, session=session)
        async with app.run_test(size=(160, 48)) as pilot:
            screen = await opened(pilot)
            assert [t.id for t in screen.tabs] == [
                "overview", "tasks", "episodes", "errors", "findings", "partial-credit"]
            assert not screen.query(SamplesPane)
            await pilot.press("7")  # no seventh tab: nothing happens
            await pilot.pause()
            assert screen.query_one("#tabs").active == "overview"
            app.show_tab("samples")  # as a re-read of another read would restore it
            await pilot.pause()
            assert screen.query_one("#tabs").active == "overview"
            assert "7 Samples" not in "\n".join(screen_lines(app))

    run(main())
