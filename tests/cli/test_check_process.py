"""`evalview check` as a whole process: same output and exit code as in-process, and the interpreter
is not torn down after the output is flushed (cli/check.py `_done`), unless something is
registered to run at exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from helpers.paths import EXAMPLE

#: Put on PYTHONPATH: writes a marker when the interpreter shuts down normally (Python calls
#: threading._shutdown then, not on os._exit), and with MARK_ATEXIT registers an exit handler,
#: which must be honoured.
SITECUSTOMIZE = """\
import atexit, os, threading

_shutdown = threading._shutdown

def _marked_shutdown():
    os.write(2, b"TEARDOWN\\n")
    _shutdown()

threading._shutdown = _marked_shutdown
if os.environ.get("MARK_ATEXIT"):
    atexit.register(lambda: os.write(2, b"ATEXIT\\n"))
"""


def _command(how: str) -> list[str]:
    if how == "script":
        script = Path(sys.executable).with_name("evalview")
        if not script.exists():
            pytest.fail(f"{script}: the console script is not installed (pip install -e .)")
        return [str(script)]
    return [sys.executable, "-m", "evalview"]


def _process(how: str, tmp_path: Path, *args: str, atexit_handler: bool = False
             ) -> subprocess.CompletedProcess[bytes]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("MARK_ATEXIT", None)
    if atexit_handler:
        env["MARK_ATEXIT"] = "1"
    return subprocess.run([*_command(how), "check", *args], env=env, capture_output=True,
                          timeout=120, check=False)


def _faulty(rd: Any) -> str:
    rd.edit_record(7, lambda r: r["metrics"].update(success=False))  # success stays true
    return str(rd.path)


@pytest.mark.parametrize("how", ["script", "module"])
def test_json_output_and_exit_code_as_in_process(
    how: str, example_run: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _faulty(example_run)
    in_process = main(["check", path, "--json"])
    expected = json.loads(capsys.readouterr().out)
    proc = _process(how, tmp_path, path, "--json")
    assert (in_process, proc.returncode) == (1, 1)
    assert json.loads(proc.stdout) == expected
    assert b"TEARDOWN" not in proc.stderr  # exited right after flushing


def test_text_output_is_complete(example_run: Any, tmp_path: Path) -> None:
    proc = _process("script", tmp_path, _faulty(example_run))
    out = proc.stdout.decode()
    assert proc.returncode == 1
    assert "EV305" in out and out.rstrip().endswith("Do not publish as is.")
    assert b"TEARDOWN" not in proc.stderr


def test_exit_handlers_still_run(example_run: Any, tmp_path: Path) -> None:
    proc = _process("script", tmp_path, str(example_run.path), "--json", atexit_handler=True)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["ok"] is True
    assert b"ATEXIT" in proc.stderr and b"TEARDOWN" in proc.stderr


def test_other_commands_tear_down_normally(tmp_path: Path) -> None:
    """The marker works: a process that is not `check` prints it."""
    proc = _process("script", tmp_path, "--help")  # exits through argparse, not _done
    assert proc.returncode == 0 and b"TEARDOWN" in proc.stderr


def test_json_check_imports_neither_numpy_nor_rich(example_run: Any) -> None:
    """What `check --json` skips (see docs/performance.md): the table's numpy and rich."""
    script = (
        "import sys\n"
        "from evalview.cli import main\n"
        "code = main(['check', sys.argv[1], '--json'])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'rich', 'textual'})\n"
        "assert not heavy, heavy\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, _faulty(example_run)],
                          capture_output=True, timeout=120, check=False)
    assert proc.returncode == 1, proc.stderr.decode()
    assert json.loads(proc.stdout)["counts"]["error"] >= 1


@pytest.mark.parametrize(
    "argv",
    [
        ["check", str(EXAMPLE), "--json"],
        ["check", EXAMPLE],
        ["score", str(EXAMPLE), "--allow-errors", "--bootstrap", "5", "--json"],
        ["score", str(EXAMPLE), "--allow-errors", "--bootstrap", "5", "--per-task"],
    ],
)
def test_closed_stdout_ends_quietly(argv: list[str]) -> None:
    """`evalview ... | head -1` closes the pipe: no BrokenPipeError traceback, exit 1 (as Python
    and rich do), whether the output is JSON or text."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written
    try:
        proc = subprocess.run([*_command("script"), *argv], stdout=write_end,
                              stderr=subprocess.PIPE, timeout=120, check=False)
    finally:
        os.close(write_end)
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    assert proc.returncode == 1
