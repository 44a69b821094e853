"""A very long value (issue 10, class 9: a 10 MB task name made every tab key take seconds) is cut
for display everywhere but the record view, which shows the record whole."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_hostile_data import screen_text
from tui_helpers import opened, run

from evalview.session import open_session
from evalview.tui.app import EvalViewApp
from evalview.tui.safe import MAX_SHOWN, clean, clean_block, cut, esc, plain
from helpers.paths import EXAMPLE

LONG_TASK = "task-00" + "L" * 1_000_000


def _long_task_run(dest: Path) -> Path:
    shutil.copytree(EXAMPLE, dest)
    for path in dest.rglob("*.json*"):
        path.chmod(0o644)
        path.write_bytes(path.read_bytes().replace(b"task-00", LONG_TASK.encode()))
    return dest


def test_cut_keeps_short_values_and_cuts_long_ones() -> None:
    assert cut("task-00") == "task-00"
    long = cut(LONG_TASK)
    assert long.startswith(LONG_TASK[:MAX_SHOWN]) and "1,000,007 characters" in long
    assert len(long) < MAX_SHOWN + 80
    for shown in (clean(LONG_TASK), esc(LONG_TASK), plain(LONG_TASK).plain):
        assert len(shown) < MAX_SHOWN + 80
    assert clean_block(LONG_TASK) == LONG_TASK  # the record view: whole


def test_tabs_show_the_long_task_name_cut(tmp_path: Path) -> None:
    session = open_session(_long_task_run(tmp_path / "run"))

    async def main() -> None:
        app = EvalViewApp(session.path, session=session)
        async with app.run_test(size=(160, 45)) as pilot:
            screen = await opened(pilot)
            for tab in ("tasks", "episodes", "errors", "findings", "overview"):
                screen.show_tab(tab)
                await pilot.pause(0.1)
                text = screen_text(app)
                assert "L" * (MAX_SHOWN + 1) not in text.replace("\n", "")
            screen.show_tab("tasks")
            await pilot.pause(0.1)
            await pilot.press("enter", "tab", "tab")  # the task's episodes, then move on
            await pilot.pause(0.1)
            assert app.is_running

    run(main())
