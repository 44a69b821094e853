"""The Runs screen (`evalview DIR`): rows fill in from a background worker, an unreadable entry is
a row with its reason, sort and filters, Enter opens a read and Escape comes back to the same row,
two marked reads compare."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, ProgressBar
from tui_helpers import run, showing, wait_for

from evalview.tui.app import EvalViewApp
from evalview.tui.run_screen import RunScreen
from evalview.tui.runs_compare import RunsCompare
from evalview.tui.runs_screen import SORTS, RunsScreen, mean_text
from evalview.tui.vtable import VirtualTable
from helpers.closed_runs import outcomes_for, write_run
from helpers.paths import SAMPLE_RUNS

SnapCompare = Callable[..., bool]
SIZE = (150, 30)


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "paper"
    write_run(root / "a-low", outcomes_for({"t1": (1, 4), "t2": (0, 4)}, 4))
    write_run(root / "b-high", outcomes_for({"t1": (4, 4), "t2": (3, 4)}, 4))
    write_run(root / "c-mid", outcomes_for({"t1": (2, 4), "t2": (2, 4)}, 4))
    (root / "d-broken.json").write_text("{not json")
    (root / "e-notes.json").write_text('{"note": "not a read"}')
    return root


async def _loaded(pilot: Pilot[Any]) -> RunsScreen:
    await wait_for(pilot, lambda: showing(pilot.app, RunsScreen))
    screen = pilot.app.screen
    assert isinstance(screen, RunsScreen)
    await wait_for(pilot, lambda: screen.done)
    await pilot.pause()
    return screen


def _with(root: Path, body: Callable[[Pilot[Any], RunsScreen], Awaitable[None]]) -> None:
    async def main() -> None:
        app = EvalViewApp(root, jobs=1)
        async with app.run_test(size=SIZE) as pilot:
            await body(pilot, await _loaded(pilot))

    run(main())


def _paths(screen: RunsScreen) -> list[str]:
    return [screen.entries[i].candidate.rel for i in screen.view]


def test_rows_fill_in_with_verdicts_and_reasons(tmp_path: Path) -> None:
    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        assert _paths(screen) == ["a-low", "b-high", "c-mid", "d-broken.json"]  # notes skipped
        broken = screen.entries[3]
        assert broken.verdict == "unreadable"
        assert broken.row is not None and "not strict JSON" in (broken.row.reason or "")
        cells = [str(c) for c in screen._cells(1)]
        assert "b-high" in cells and "7 / 8" in cells and "87.5 ± 10.8" in " ".join(cells)
        title = str(screen.query_one("#runs-title").render())
        assert "4 reads" in title and "1 unreadable" in title and "1 skipped" in title
        assert screen.query_one(ProgressBar).progress == 5  # every entry, skipped ones too

    _with(_folder(tmp_path), body)


def test_sort_and_filters(tmp_path: Path) -> None:
    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        # Each key bubbles from the table up to the screen's binding (and the filter's text
        # comes back as Input.Changed) over several turns of the loop: wait for the result.
        await pilot.press("s", "s", "s")  # scan order -> verdict -> read -> mean
        await wait_for(pilot, lambda: screen.sort_key == 3)  # "mean"
        assert _paths(screen) == ["a-low", "c-mid", "b-high", "d-broken.json"]
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.descending)
        assert _paths(screen)[0] == "d-broken.json" or _paths(screen)[0] == "b-high"
        assert _paths(screen).index("b-high") < _paths(screen).index("a-low")
        await pilot.press("v")  # errors only: none here
        await wait_for(pilot, lambda: _paths(screen) == [])
        await pilot.press("v", "v", "v")  # warnings, clean, unreadable
        await wait_for(pilot, lambda: _paths(screen) == ["d-broken.json"])
        await pilot.press("v")  # all again
        await pilot.press("slash", "m", "i", "d")
        await wait_for(pilot, lambda: _paths(screen) == ["c-mid"])
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(_paths(screen)) == 4)

    _with(_folder(tmp_path), body)


def test_a_click_on_a_header_sorts_by_it(tmp_path: Path) -> None:
    """succ / sel sorts by successes (again: reversed, and its header says so); a header with no
    sort of its own says which ones sort, and changes nothing."""

    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        table = screen.query_one(VirtualTable)
        labels = [c.label for c in table.columns]

        def x_of(label: str) -> int:  # the column's first cell, as the table lays it out
            return sum(w + 1 for w in table._widths()[: labels.index(label)]) + 1

        await pilot.click(table, offset=(x_of("succ / sel"), 0))
        await wait_for(pilot, lambda: SORTS[screen.sort_key] == "successes")
        assert _paths(screen) == ["a-low", "c-mid", "b-high", "d-broken.json"]  # 1, 4, 7, none
        assert table.sorted_by == (labels.index("succ / sel"), False)
        await pilot.click(table, offset=(x_of("succ / sel"), 0))
        await wait_for(pilot, lambda: screen.descending)
        assert _paths(screen).index("b-high") < _paths(screen).index("c-mid")
        assert table.sorted_by == (labels.index("succ / sel"), True)
        await pilot.click(table, offset=(x_of("policy"), 0))
        await pilot.pause()
        assert SORTS[screen.sort_key] == "successes" and screen.descending  # unchanged

    _with(_folder(tmp_path), body)


def test_export_is_offered_over_an_opened_read_only(tmp_path: Path) -> None:
    """Over the Runs screen there is nothing to export: `e` is not in the footer, and pressing
    it does not claim a run is loading. Over a read opened from it, `e` exports that read."""

    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        app = pilot.app
        assert app.check_action("export", ()) is False
        await pilot.press("e")
        await pilot.pause()
        assert not any("loading" in str(n.message) for n in app._notifications)
        await pilot.press("enter")  # a-low, the first row
        await wait_for(pilot, lambda: showing(app, RunScreen))
        await wait_for(pilot, lambda: app.check_action("export", ()) is True)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert app.check_action("export", ()) is False

    _with(_folder(tmp_path), body)


def test_enter_opens_a_read_and_escape_comes_back_to_the_same_row(tmp_path: Path) -> None:
    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, lambda: showing(pilot.app, RunScreen))
        assert pilot.app.sub_title.endswith("c-mid")
        await pilot.press("escape")
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        assert screen.query_one(VirtualTable).cursor_row == 2
        assert pilot.app.sub_title.endswith("paper")
        await pilot.press("down", "enter")  # the unreadable row: its reason, no screen change
        await pilot.pause()
        assert pilot.app.screen is screen

    _with(_folder(tmp_path), body)


def test_two_marked_reads_compare(tmp_path: Path) -> None:
    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        await pilot.press("space", "down", "space")
        await wait_for(pilot, lambda: len(screen.marked) == 2)
        assert [screen.entries[i].candidate.rel for i in screen.marked] == ["a-low", "b-high"]
        await pilot.press("c")
        await wait_for(pilot, lambda: showing(pilot.app, RunsCompare))
        compare = pilot.app.screen
        assert compare.comparison.a.label.endswith("a-low")  # type: ignore[attr-defined]
        # both sides keep their verdict and successes / selected, as `evalview A B` shows them
        heads = compare.headlines  # type: ignore[attr-defined]
        assert heads is not None
        assert [(h.successes, h.selected) for h in heads] == [
            (r.successes, r.selected)
            for r in (screen.entries[i].row for i in screen.marked)
            if r is not None
        ]
        await pilot.press("escape")
        await wait_for(pilot, lambda: pilot.app.screen is screen)

    _with(_folder(tmp_path), body)


def test_snapshot_of_the_replicates_folder(
    snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(SAMPLE_RUNS)

    async def loaded(pilot: Pilot[Any]) -> None:
        await _loaded(pilot)

    app = EvalViewApp(Path("replicates"), jobs=1)
    assert snap_compare(app, run_before=loaded, terminal_size=SIZE)


def test_enter_on_a_named_read_opens_that_read(tmp_path: Path) -> None:
    """A file of several named reads (LeRobot) is one row per read; Enter on the second row of
    the file opens that read (as `evalview FILE --read KEY`), not a picker and not the first."""
    root = tmp_path / "lerobot"
    root.mkdir()
    shutil.copy(SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json", root)

    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        reads = [screen.entries[i].row for i in screen.view]
        names = [r.read if r is not None else None for r in reads]
        assert names == ["eval_results_400", "eval_results_800"]
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: showing(pilot.app, RunScreen))
        assert pilot.app.sub_title.endswith("[eval_results_800]")
        session = pilot.app.session  # type: ignore[attr-defined]
        assert session is not None and session.run.identity.run_id == "eval_results_800"
        await pilot.press("escape")
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        assert pilot.app.read is None  # type: ignore[attr-defined]

    _with(root, body)


def test_a_filter_typed_right_after_slash_is_not_lost(tmp_path: Path) -> None:
    """`/mid` arriving at once (a fast typist, a paste): the focus is on the filter before the
    app forwards `m`; a `/` typed in the filter is text (reads' paths have them)."""

    async def body(pilot: Pilot[Any], screen: RunsScreen) -> None:
        for ch in "/mid/":
            pilot.app.post_message(events.Key("slash" if ch == "/" else ch, ch))
        box = screen.query_one("#runs-search", Input)
        await wait_for(pilot, lambda: box.value == "mid/")
        assert screen.search == "mid/"

    _with(_folder(tmp_path), body)


def test_an_empty_folder_says_what_would_have_been_a_read(tmp_path: Path) -> None:
    """It opened an empty screen with no hint; the formats come from the reader registry."""
    from textual.widgets import Static

    from evalview.load.registry import READERS

    folder = tmp_path / "empty"
    folder.mkdir()
    (folder / "notes.json").write_text('{"comment": "not a read"}')

    async def main() -> None:
        app = EvalViewApp(folder, jobs=1)
        async with app.run_test(size=(160, 40)) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen) and app.screen.done)
            await pilot.pause()
            title = " ".join(str(app.screen.query_one("#runs-title", Static).render()).split())
            assert "No read found here. evalview reads:" in title
            assert all(r.described.split(" (")[0] in title for r in READERS)

    run(main())


def test_a_harness_result_is_a_row_per_arm_and_enter_opens_its_screen(tmp_path: Path) -> None:
    """Harness results were left out of the Runs screen (check DIR audited them)."""
    from evalview.tui.harness_screen import HarnessScreen

    folder = tmp_path / "harness"
    folder.mkdir()
    shutil.copy(SAMPLE_RUNS / "harness" / "gpu-calc-hard-single-seed.json", folder)

    async def main() -> None:
        app = EvalViewApp(folder, jobs=1)
        async with app.run_test(size=(160, 40)) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen) and app.screen.done)
            screen = app.screen
            assert isinstance(screen, RunsScreen)
            arms = [e.row.arm for e in screen.entries if e.row is not None]
            assert arms == [
                "cold-start-only", "sft-continued", "opd-raw-teacher",
                "opd-privileged-context", "opd-protocol-sft-teacher",
            ]
            assert all(e.row is not None and e.row.counts["warning"] == 4 for e in screen.entries)
            screen.query_one(VirtualTable).focus()
            await pilot.press("enter")
            await wait_for(pilot, lambda: showing(app, HarnessScreen))
            await pilot.press("escape")
            await wait_for(pilot, lambda: showing(app, RunsScreen))

    run(main())


def test_a_files_reads_and_arms_sort_together_in_scan_order(tmp_path: Path) -> None:
    """A file's further reads (named reads, harness arms) arrive after the scan; they were
    listed at the very end, away from their file. They sort with it, in file order."""
    (tmp_path / "a").mkdir()
    shutil.copy(SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json", tmp_path / "a")
    (tmp_path / "b").mkdir()
    shutil.copy(SAMPLE_RUNS / "harness" / "gpu-calc-hard-single-seed.json", tmp_path / "b")
    write_run(tmp_path / "c", outcomes_for({"t": (1, 2)}, 2))

    async def main() -> None:
        app = EvalViewApp(tmp_path, jobs=1)
        async with app.run_test(size=(160, 40)) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen) and app.screen.done)
            screen = app.screen
            assert isinstance(screen, RunsScreen)
            shown = [screen.entries[i] for i in screen.view]
            assert [e.candidate.rel[0] for e in shown] == ["a", "a", *"bbbbb", "c"]
            assert [e.row.read for e in shown[:2] if e.row] == [
                "eval_results_400", "eval_results_800"
            ]
            assert shown[2].row is not None and shown[2].row.arm == "cold-start-only"
            assert "(arm)" in str(mean_text(shown[2].row))

    run(main())
