"""End to end: the installed `evalview` command in a real terminal (tmux), driven by keys."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from evalview.samples import generate_closed_run
from helpers.paths import EXAMPLE, REPO, SAMPLE_RUNS

pytestmark = pytest.mark.e2e

TIMEOUT = 30.0


class Terminal:
    """One tmux server on its own socket (in a temp dir), so runs never meet; always killed."""

    def __init__(self, socket_dir: Path) -> None:
        tmux = shutil.which("tmux")
        if tmux is None:
            raise AssertionError(
                "tmux is not installed; the end-to-end test needs it (apt-get install tmux)"
            )
        self.base = [tmux, "-S", str(socket_dir / f"tmux-{uuid.uuid4().hex[:10]}")]

    def start(self, command: str, size: tuple[int, int] = (140, 40)) -> None:
        """Run `command`, then print its exit status and keep the pane open to read it."""
        wrapped = f"{command}; echo EVALVIEW-EXIT=$?; sleep {int(TIMEOUT) * 4}"
        x, y = (str(n) for n in size)
        # Python's view of the environment, without COLUMNS and LINES: under pytest the C-level
        # environment holds COLUMNS=80 LINES=24 (set by readline, invisible in os.environ),
        # which the app's terminal-size query believes over the pane's real size.
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        subprocess.run(
            [*self.base, "new-session", "-d", "-x", x, "-y", y, wrapped], check=True, env=env
        )

    def screen(self) -> str:
        return subprocess.run(
            [*self.base, "capture-pane", "-p"], capture_output=True, text=True, check=False
        ).stdout

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", *keys], check=True)

    def wait_for(self, *texts: str, absent: str | None = None) -> str:
        """The first capture that shows every one of `texts`: a screen fills in over several
        paints (a tab's heading before its table's rows), so waiting for one text and asserting
        another races the app on a busy machine."""
        end = time.monotonic() + TIMEOUT
        while time.monotonic() < end:
            screen = self.screen()
            if all(text in screen for text in texts) and (absent is None or absent not in screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(
            f"{texts!r} not all on screen within {TIMEOUT} s; screen:\n{self.screen()}"
        )

    def exit_status(self) -> str:
        """Wait for the command to end; its exit status as printed by the wrapper."""
        screen = self.wait_for("EVALVIEW-EXIT=")
        return screen.split("EVALVIEW-EXIT=")[1].split()[0]

    def kill(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, check=False)


@pytest.fixture
def terminal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Terminal]:
    term = Terminal(tmp_path_factory.mktemp("tmux"))
    try:
        yield term
    finally:
        term.kill()


def _evalview() -> str:
    exe = Path(sys.executable).parent / "evalview"
    found = str(exe) if exe.exists() else shutil.which("evalview")
    assert found, "the evalview command is not installed (pip install -e .)"
    return found


def test_open_browse_and_quit_in_a_real_terminal(terminal: Terminal) -> None:
    terminal.start(f"{_evalview()} {EXAMPLE}")
    terminal.wait_for("successes / selected", "run-1", "Overview")
    terminal.keys("2")
    terminal.wait_for("Wilson 95 %")
    time.sleep(0.3)  # a person's pause between keys; the tab's table takes focus meanwhile
    terminal.keys("Enter")  # the first task's episodes
    terminal.wait_for("episodes of", "task=task-00")
    terminal.keys("Enter")  # the first episode's record
    terminal.wait_for("from episodes.jsonl, line 1", '"schema_version"')
    terminal.keys("Escape")
    terminal.wait_for("episodes of")
    terminal.keys("q")
    assert terminal.exit_status() == "0"


def test_missing_path_exits_2_without_starting_the_app(terminal: Terminal, tmp_path: Path) -> None:
    terminal.start(f"{_evalview()} {tmp_path / 'nope'}")
    assert terminal.exit_status() == "2"
    assert "no such file or directory" in terminal.screen()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_every_key_number_is_on_screen_at_both_sizes(
    terminal: Terminal, size: tuple[int, int]
) -> None:
    """The installed command at 80 x 24 and 160 x 48: the header's numbers, the Tasks interval,
    the Episodes outcome, all visible without scrolling sideways."""
    terminal.start(f"{_evalview()} {EXAMPLE}", size)
    screen = terminal.wait_for("unattempted", "successes / selected 4 / 12", "warnings")
    assert all(len(line) <= size[0] for line in screen.splitlines())
    terminal.keys("2")
    # task-02's interval, both bounds' start on screen (below 110 columns without % signs)
    terminal.wait_for("Wilson 95 %", "30.1–95" if size[0] < 110 else "30.1 % – 95")
    terminal.keys("3")
    terminal.wait_for("outcome", "✓ success", "infrastructure")
    terminal.keys("q")
    assert terminal.exit_status() == "0"


def test_a_folder_opens_the_runs_screen_in_a_real_terminal(terminal: Terminal) -> None:
    """`evalview sample_runs/`: rows filled by worker processes (started before Textual takes the
    terminal), Enter opens a read, Escape comes back, q quits with 0."""
    folder = SAMPLE_RUNS / "replicates"
    terminal.start(f"{_evalview()} {folder}")
    terminal.wait_for("6 clean")
    # the last row's numbers, drawn
    terminal.wait_for("62.5 ± 5.0", "r-b/ft-seed-3", "30 / 48", absent="… reading")
    terminal.keys("Down")
    time.sleep(0.3)
    terminal.keys("Enter")
    terminal.wait_for("successes / selected", "robobench-planner-a-ft2")
    terminal.keys("Escape")
    terminal.wait_for("6 clean")
    terminal.keys("q")
    assert terminal.exit_status() == "0"


def test_a_file_that_is_not_a_run_exits_2_with_a_message(terminal: Terminal) -> None:
    """README.md behaves as a missing path does: a message and exit 2, no screen to dismiss."""
    readme = REPO / "README.md"
    terminal.start(f"{_evalview()} {readme}")
    assert terminal.exit_status() == "2"
    screen = terminal.screen()
    assert "evalview:" in screen and "README.md" in screen and "manifest.json" in screen


@pytest.fixture(scope="module")
def big_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's 10,000-episode run (bench/gen_big_run.py's parameters), ~50 MB."""
    return generate_closed_run(
        tmp_path_factory.mktemp("big") / "big-run",
        tasks=50,
        seeds=200,
        rng_seed=10_000,
        run_id="robobench-bench-10k",
    )


def test_a_search_typed_at_full_speed_filters_10000_episodes(
    terminal: Terminal, big_run: Path
) -> None:
    """The keys go in one burst right after the run screen appears, while the other tabs are
    still being mounted and the bootstrap runs: `3`, `/`, then the search. None may be lost
    (before the fix the search went to the overview and `e` opened the export dialog)."""
    terminal.start(f"{_evalview()} {big_run}")
    terminal.wait_for("successes / selected")
    terminal.keys("3", "/", *"seed1042")
    screen = terminal.wait_for("50 episodes of 10,000", "“seed1042”", "/seed1042 ")
    rows = [line for line in screen.splitlines() if "/seed" in line]
    assert rows and all("/seed1042 " in line for line in rows), screen
    terminal.keys("Enter", "q")  # Enter leaves the field for the table; q quits
    assert terminal.exit_status() == "0"


def test_a_search_typed_while_loading_filters_10000_episodes(
    terminal: Terminal, big_run: Path
) -> None:
    """Issue 25: the same burst typed while the loading screen shows (before, every key was
    lost and the app stayed on Overview). The keys wait for the run screen, then land."""
    terminal.start(f"{_evalview()} {big_run}")
    terminal.wait_for("Opening")
    terminal.keys("3", "/", *"seed1042")
    screen = terminal.wait_for("50 episodes of 10,000", "“seed1042”", "/seed1042 ")
    rows = [line for line in screen.splitlines() if "/seed" in line]
    assert rows and all("/seed1042 " in line for line in rows), screen
    terminal.keys("Enter", "q")
    assert terminal.exit_status() == "0"


def test_a_sort_typed_at_full_speed_sorts_10000_episodes(
    terminal: Terminal, big_run: Path
) -> None:
    """`3` then `s s s` in one burst as the run screen appears: the Episodes tab sorted by
    outcome (successes first), then `r`: failures first. No key lost to a tab still mounting."""
    terminal.start(f"{_evalview()} {big_run}", size=(160, 48))
    terminal.wait_for("successes / selected")
    terminal.keys("3", "s", "s", "s")
    screen = terminal.wait_for("sorted by outcome ▲", "outcome ▲")
    rows = [line for line in screen.splitlines() if "/seed" in line]
    assert rows and all("✓ success" in line for line in rows), screen
    terminal.keys("r")
    screen = terminal.wait_for("sorted by outcome ▼")
    rows = [line for line in screen.splitlines() if "/seed" in line]
    assert rows and all("· failure" in line for line in rows), screen
    terminal.keys("q")
    assert terminal.exit_status() == "0"


def test_harness_result_opens_its_arms_tab_in_a_real_terminal(terminal: Terminal) -> None:
    sample = SAMPLE_RUNS / "harness"
    terminal.start(f"{_evalview()} {sample / 'gpu-calc-hard-single-seed.json'}")
    terminal.wait_for("benchmark-harn", "single seed -- no significance claimed", "Arms")
    terminal.wait_for("14.9–38.8 %")  # cold-start-only's read, 12 / 48, Wilson 95 %
    terminal.keys("4")
    terminal.wait_for("EV804")
    terminal.keys("q")
    assert terminal.exit_status() == "0"


def test_2_then_1_then_q_quits_in_a_real_terminal(terminal: Terminal) -> None:
    """The trap a reviewer met: after 2 then 1, `q` was typed into Tasks' search box."""
    terminal.start(f"{_evalview()} {EXAMPLE}")
    terminal.wait_for("successes / selected", "run-1", "Overview")
    time.sleep(1.0)  # wait a few seconds, as the reviewer did
    terminal.keys("2")
    terminal.wait_for("Wilson 95 %")
    time.sleep(0.3)
    terminal.keys("1")
    terminal.wait_for("Aggregate", "Denominators")
    time.sleep(0.3)
    terminal.keys("q")
    assert terminal.exit_status() == "0"


def test_harness_result_help_and_header_in_a_real_terminal(terminal: Terminal) -> None:
    """The one app: `?` shows the help over a harness result, and at 80 x 24 its header is on
    the first line (it was scrolled past, above the tab bar)."""
    sample = SAMPLE_RUNS / "harness" / "gpu-calc-hard-undeclared-difference.json"
    terminal.start(f"{_evalview()} {sample}", size=(80, 24))
    screen = terminal.wait_for("benchmark-harn", "Arms")  # cut beside a long name at 80
    assert screen.splitlines()[0].lstrip().startswith("gpu-calc-hard-undeclared-difference")
    terminal.keys("?")
    terminal.wait_for("evalview keys")
    terminal.keys("Escape")
    terminal.wait_for("Arms", absent="evalview keys")
    terminal.keys("q")
    assert terminal.exit_status() == "0"
