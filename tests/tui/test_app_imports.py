"""The app module imports only what the loading screen needs, so the first frame waits on nothing
else (DESIGN.md: the loading screen within 0.5 CPU-s of start). Checked in a fresh interpreter,
where `sys.modules` shows exactly what importing the module cost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import EXAMPLE

#: Modules the first screen must not wait for, and who needs them instead.
NOT_AT_START = {
    "pydantic": "the export dialog's report model",
    "jinja2": "the exported page",
    "numpy": "the episode table and the statistics",
    "markdown_it": "the help screen's Markdown",
    "evalview.report.render": "the export dialog",
    "evalview.tui.export_screen": "key e",
    "evalview.tui.help": "key ?",
    "evalview.tui.episodes": "the Episodes tab",
    "evalview.tui.run_screen": "the opened run",
    "evalview.load.closed_run": "the loading worker",
    "evalview.audit": "the loading worker",
    "evalview.stats": "the loading worker",
    "evalview.psr": "the loading worker",
}


def modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_importing_the_app_leaves_the_heavy_modules_for_later() -> None:
    loaded = modules_after("import evalview.cli.open, evalview.tui.app")
    assert "textual.app" in loaded  # the probe sees imports at all
    early = {m: why for m, why in NOT_AT_START.items() if m in loaded}
    assert not early, f"imported with evalview.tui.app, but only needed for: {early}"


def test_the_run_screen_still_brings_them_when_it_is_needed() -> None:
    """The same probe on the run screen's module, so the list above is not vacuous."""
    loaded = modules_after("import evalview.tui.run_screen")
    assert {"numpy", "evalview.tui.episodes", "evalview.tui.run_screen"} <= loaded


#: What the command line itself must not import before the app draws its first frame: the
#: readers and the session come with the loading worker (a harness file is the exception: the
#: command reads it first to choose the harness app).
NOT_BEFORE_THE_APP = {
    **NOT_AT_START,
    "evalview.load.registry": "the loading worker (the readers)",
    "evalview.session": "the loading worker",
    "evalview.load.lerobot": "the loading worker",
}


def test_the_command_opens_the_app_before_importing_the_readers() -> None:
    """`evalview RUN` up to `App.run`, in a fresh interpreter: the path check and the folder test
    use small modules (`evalview.load` is imported lazily), so the first frame waits on neither
    the readers nor the session."""
    code = (
        "import json, sys\n"
        "import evalview.tui.app as app\n"
        "def run(self, *args, **kwargs):\n"
        "    print(json.dumps(sorted(sys.modules)))\n"
        "app.EvalViewApp.run = run\n"
        "from evalview.cli.open import main\n"
        f"main([{str(EXAMPLE)!r}])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(json.loads(out.splitlines()[-1]))
    assert {"textual.app", "evalview.load.input_path"} <= loaded  # the probe sees the path check
    early = {m: why for m, why in NOT_BEFORE_THE_APP.items() if m in loaded}
    assert not early, f"imported before the app started, but only needed for: {early}"


#: What the loading worker must not import on the way to the run screen: each is needed only by
#: something shown after it (a tab mounted after the first frame, a key, the deferred workers).
NOT_BEFORE_THE_RUN_SCREEN = {
    "evalview.psr": "the partial-credit worker, after the run screen",
    "evalview.audit": "the audit, after the run screen's first paint (issue 25)",
    "rich.syntax": "the record screen (Enter on an episode)",
    "pygments": "the record screen's JSON highlighting",
    "pydantic": "the export dialog",
    "jinja2": "the exported page",
    "markdown_it": "the help screen",
}


def test_the_loading_worker_imports_only_what_the_run_screen_shows() -> None:
    """The worker's path in a fresh interpreter: open the sample run as the app does (scored
    without the bootstrap, the audit and partial credit deferred), then import the run screen's
    module."""
    loaded = modules_after(
        "from pathlib import Path\n"
        "from evalview.session import Session, open_input\n"
        f"opened = open_input(Path({str(EXAMPLE)!r}), defer_bootstrap=True, defer_audit=True)\n"
        "assert isinstance(opened, Session) and opened.scorecard is not None\n"
        "import evalview.tui.run_screen"
    )
    assert {"numpy", "evalview.stats", "evalview.tui.run_screen"} <= loaded
    early = {m: why for m, why in NOT_BEFORE_THE_RUN_SCREEN.items() if m in loaded}
    assert not early, f"imported before the run screen, but only needed for: {early}"


def _threads_after(code: str, **env: str) -> tuple[int, str]:
    """Threads of a fresh interpreter after `code`, and its OPENBLAS_NUM_THREADS."""
    base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport os\n"
         "print(len(os.listdir('/proc/self/task')), os.environ.get('OPENBLAS_NUM_THREADS'))"],
        capture_output=True, text=True, check=True, env={**base, **env},
    ).stdout.split()
    return int(out[0]), out[1]


@pytest.mark.skipif(
    not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2,
    reason="counts threads in /proc; OpenBLAS starts none on one core",
)
def test_the_app_process_imports_numpy_without_blas_threads() -> None:
    """numpy's OpenBLAS starts a thread per core that spins before it sleeps (about 0.15 CPU-s
    on the way to the run screen); the app imports numpy with one BLAS thread, its own."""
    alone, _ = _threads_after("import numpy")
    assert alone > 1, "numpy started no BLAS thread here: nothing to check"
    assert _threads_after("import evalview.tui.app, numpy") == (1, "1")
    # a value the user set is kept
    assert _threads_after("import evalview.tui.app, numpy", OPENBLAS_NUM_THREADS="2") == (2, "2")
