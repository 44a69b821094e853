"""Long read names are cut in the middle on the Runs screen, so two reads of one file (or six
replicates under one folder) stay told apart at 80 columns (they were cut from the right and
looked identical: `lerobot/libero10-two-reads.json [eval_r…` twice)."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from tui_helpers import run, showing, wait_for

from evalview.tui.app import EvalViewApp
from evalview.tui.runs_screen import RunsScreen
from evalview.tui.vtable import VirtualTable, middle_cut, path_cut
from helpers.paths import SAMPLE_RUNS


@given(st.text(min_size=0, max_size=60), st.integers(min_value=0, max_value=70))
def test_a_middle_cut_fits_and_keeps_head_and_tail(value: str, width: int) -> None:
    cut = middle_cut(value, width)
    assert cell_len(cut) <= max(width, 0) or cell_len(value) <= width
    if cell_len(value) <= width:
        assert cut == value
    elif width > 1:
        head, _, tail = cut.partition("…")
        assert value.startswith(head) and value.endswith(tail)
        assert cell_len(tail) >= cell_len(head)  # the tail, where names differ, gets more room


def test_two_named_reads_of_one_file_look_different_at_80_columns(tmp_path: Path) -> None:
    folder = tmp_path / "lerobot"
    folder.mkdir()
    shutil.copy(SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json", folder)

    async def main() -> None:
        app = EvalViewApp(tmp_path, jobs=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen) and app.screen.done)
            await pilot.pause()
            table = app.screen.query_one(VirtualTable)
            lines = [table.render_line(y).text for y in range(1, 3)]
            assert "_400]" in lines[0] and "_800]" in lines[1], lines
            assert "…" in lines[0]  # cut, at 80 columns
            assert "└ [eval_results_800]" in lines[1]  # the same file's next read, whole

    run(main())


@given(
    st.lists(st.text(alphabet="abcdefgh-_.0123456789", min_size=1, max_size=14), min_size=1,
             max_size=5),
    st.one_of(st.none(), st.text(alphabet="abcdefgh_0123456789", min_size=1, max_size=16)),
    st.integers(min_value=1, max_value=60),
)
def test_a_path_cut_fits_and_keeps_a_read_suffix_when_it_can(
    parts: list[str], read: str | None, width: int
) -> None:
    value = "/".join(parts) + ("" if read is None else f" [{read}]")
    cut = path_cut(value, width)
    assert cell_len(cut) <= width or cell_len(value) <= width
    if cell_len(value) <= width:
        assert cut == value


def test_six_replicates_stay_told_apart_at_80_columns() -> None:
    """The issue's case: six `replicates/pla…` rows at 80 columns."""

    async def main() -> None:
        app = EvalViewApp(SAMPLE_RUNS / "replicates", jobs=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen) and app.screen.done)
            await pilot.pause()
            table = app.screen.query_one(VirtualTable)
            lines = [table.render_line(y).text for y in range(1, 7)]
            shown = [line.split()[2] for line in lines]  # the read column (after ✓ clean)
            assert len(set(shown)) == 6, shown
            assert all(("a/" in s or "b/" in s) and s.endswith(("1", "2", "3")) for s in shown)

    run(main())


def test_rows_of_one_file_name_it_once_and_files_stay_told_apart_at_80_columns() -> None:
    """A harness file's arms: the file named on its first row (its name's tail kept: -v1 and
    -v2 differ), the further arms as `└ [arm NAME]`; rows of two files were identical once cut."""

    async def main() -> None:
        app = EvalViewApp(SAMPLE_RUNS / "harness", jobs=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: showing(app, RunsScreen) and app.screen.done)
            await pilot.pause()
            table = app.screen.query_one(VirtualTable)
            lines = [table.render_line(y).text for y in range(1, 17)]
            firsts = [ln for ln in lines if ".json [arm" in ln]
            assert any("-v1.json" in ln for ln in firsts) and any("-v2.json" in ln for ln in firsts)
            assert sum("└ [arm sft-continued]" in ln for ln in lines) >= 2, lines
            assert "all-T % ± SE" in table.render_line(0).text  # in the first view at 80

    run(main())
