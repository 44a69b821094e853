"""Time the TUI on the 10,000-episode run: first screen, run opened, episodes table, scrolling.

    python bench/bench_tui.py            # uses bench/out/big-run (generated when absent)
    python bench/bench_tui.py --repeats 3

Two measures of "first screen":
- headless (Textual pilot, in process): from constructing the app to the loading screen, to the
  run screen painted (read + score without the bootstrap, in the worker; since issue 25 the
  audit runs after the paint), to the audit's verdict in, to the bootstrap interval filled in
  (later steps of a second worker); then, once idle, to the episodes table filled;
- type-ahead (headless): `3/seed1042` posted as one burst while the loading screen shows, and
  the time until the Episodes search holds it and has filtered the table (or "lost");
- a real terminal (tmux): from starting the installed `evalview` command to the loading screen and
  to the header on screen, read with capture-pane. This one includes Python and Textual start-up.
Scrolling is the time for a PageDown pressed through the pilot (which adds its own pause per
key), and the time to render every visible line of the table after a page move (median of 30).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from userenv import as_a_user

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))


def big_run() -> Path:
    from gen_big_run import DEFAULT_OUT, generate

    if not (DEFAULT_OUT / "summary.json").is_file():
        generate(DEFAULT_OUT)
    return DEFAULT_OUT


async def _headless(path: Path) -> dict[str, float]:
    from evalview.tui.app import EvalViewApp
    from evalview.tui.episodes import EpisodesPane
    from evalview.tui.loading import LoadingScreen
    from evalview.tui.run_screen import RunScreen
    from evalview.tui.vtable import VirtualTable

    t0 = time.perf_counter()
    app = EvalViewApp(path)
    out: dict[str, float] = {}
    async with app.run_test(size=(160, 48)) as pilot:
        while not isinstance(app.screen, LoadingScreen | RunScreen):
            await asyncio.sleep(0.001)
        out["loading screen"] = time.perf_counter() - t0
        while not isinstance(app.screen, RunScreen):
            await asyncio.sleep(0.005)
        await pilot.pause()
        out["run screen painted"] = time.perf_counter() - t0
        session = app.session
        assert session is not None
        while getattr(session, "findings_pending", False):
            await asyncio.sleep(0.005)
        await pilot.pause()
        out["audit verdict in"] = time.perf_counter() - t0
        while session.bootstrap_pending:
            await asyncio.sleep(0.005)
        await pilot.pause()
        out["bootstrap interval filled in"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        await pilot.press("3")
        table = app.screen.query_one(EpisodesPane).query_one(VirtualTable)
        while table.row_count == 0:
            await asyncio.sleep(0.001)
        await pilot.pause()
        out["open episodes table"] = time.perf_counter() - t1
        table.focus()
        steps = []
        for _ in range(30):
            t2 = time.perf_counter()
            await pilot.press("pagedown")
            await pilot.pause()
            steps.append(time.perf_counter() - t2)
        out["page down (median)"] = statistics.median(steps)
        renders = []
        for _ in range(30):
            table.action_page(1)
            t5 = time.perf_counter()
            for y in range(table.size.height):
                table.render_line(y)
            renders.append(time.perf_counter() - t5)
        out[f"render one screen of rows ({table.size.height} lines, median)"] = statistics.median(
            renders
        )
        t3 = time.perf_counter()
        await pilot.press("end")
        await pilot.pause()
        out["jump to last row"] = time.perf_counter() - t3
        rows = table.row_count
        t4 = time.perf_counter()
        await pilot.press("slash", *"seed1", "enter")
        await pilot.pause()
        out["search (type 5 keys)"] = time.perf_counter() - t4
        out["rows"] = rows
    return out


async def _type_ahead(path: Path) -> float | None:
    """Seconds from a `3/seed1042` burst posted during loading to the filtered Episodes tab;
    None when the keys did not land there within 60 s (the code before issue 25 lost them)."""
    from textual import events
    from textual.widgets import Input

    from evalview.tui.app import EvalViewApp
    from evalview.tui.episodes import EpisodesPane
    from evalview.tui.loading import LoadingScreen
    from evalview.tui.run_screen import RunScreen

    app = EvalViewApp(path)
    async with app.run_test(size=(160, 48)):
        while not isinstance(app.screen, LoadingScreen):
            await asyncio.sleep(0.001)
        t0 = time.perf_counter()
        for ch in "3/seed1042":
            app.post_message(events.Key("slash" if ch == "/" else ch, ch))

        def landed() -> bool:
            screen = app.screen
            if not isinstance(screen, RunScreen) or not screen.query("#f-text"):
                return False
            pane = screen.query_one(EpisodesPane)
            field = screen.query_one("#f-text", Input)
            return field.value == "seed1042" and pane.filter.text == "seed1042"

        while not landed():
            if time.perf_counter() - t0 > 60:
                return None
            await asyncio.sleep(0.005)
        return time.perf_counter() - t0


def _tmux(path: Path) -> dict[str, float] | None:
    """Wall time of the installed command in a real terminal, read by capture-pane."""
    tmux = shutil.which("tmux")
    exe = shutil.which("evalview") or str(Path(sys.executable).parent / "evalview")
    if tmux is None:
        return None
    sock_dir = tempfile.mkdtemp(prefix="evalview-bench-")
    base = [tmux, "-S", str(Path(sock_dir) / f"tmux-{uuid.uuid4().hex[:8]}")]
    out: dict[str, float] = {}
    try:
        t0 = time.perf_counter()
        subprocess.run(
            [*base, "new-session", "-d", "-x", "160", "-y", "48", f"{exe} {path}"], check=True
        )
        seen_loading = False
        while time.perf_counter() - t0 < 30:
            screen = subprocess.run(
                [*base, "capture-pane", "-p"], capture_output=True, text=True
            ).stdout
            if not seen_loading and ("Opening" in screen or "successes / selected" in screen):
                out["loading screen"] = time.perf_counter() - t0
                seen_loading = True
            if "successes / selected" in screen and "run screen painted" not in out:
                out["run screen painted"] = time.perf_counter() - t0
            if "successes / selected" in screen and "… auditing" not in screen:
                out["audit verdict in"] = time.perf_counter() - t0
                break
            time.sleep(0.02)
        subprocess.run([*base, "send-keys", "q"], check=False)
    finally:
        subprocess.run([*base, "kill-server"], capture_output=True, check=False)
        shutil.rmtree(sock_dir, ignore_errors=True)
    return out


def main(argv: list[str] | None = None) -> int:
    as_a_user()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, default=None, help="run to open (default: big run)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    path = args.run or big_run()
    results: dict[str, list[float]] = {}
    for _ in range(args.repeats):
        for key, value in asyncio.run(_headless(path)).items():
            results.setdefault(f"headless: {key}", []).append(value)
        typed = asyncio.run(_type_ahead(path))
        lost = typed is None
        results.setdefault("headless: type-ahead during loading, lost", []).append(float(lost))
        if typed is not None:
            results.setdefault("headless: type-ahead during loading, to the filtered table",
                               []).append(typed)
        tm = _tmux(path)
        for key, value in (tm or {}).items():
            results.setdefault(f"tmux: {key}", []).append(value)
    print(f"run: {path}")
    print("| what | best | median |\n| --- | --- | --- |")
    for key, values in results.items():
        if key.endswith("rows"):
            print(f"| {key} | {int(values[0]):,} | |")
            continue
        if key.endswith("lost"):
            print(f"| {key} | {int(sum(values))} of {len(values)} runs | |")
            continue
        print(f"| {key} | {min(values):.3f} s | {statistics.median(values):.3f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
