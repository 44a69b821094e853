"""`evalview export` as a whole process: the same files, output and exit code as in-process, and
the interpreter is not torn down after the output is flushed (cli/output.py `exit_at_once`:
freeing the read run object by object cost about 0.1 s at 10,000 episodes), unless something is
registered to run at exit. Refusals take the ordinary way out."""

from __future__ import annotations

import gc
import os
import subprocess
from pathlib import Path

import pytest
from test_check_process import SITECUSTOMIZE, _command

from evalview.cli import main
from evalview.report.export import export_run


def _export(how: str, tmp_path: Path, *args: str, atexit_handler: bool = False
            ) -> subprocess.CompletedProcess[bytes]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(site), NO_COLOR="1")
    env.pop("MARK_ATEXIT", None)
    if atexit_handler:
        env["MARK_ATEXIT"] = "1"
    return subprocess.run([*_command(how), "export", *args], env=env, capture_output=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("how", ["script", "module"])
def test_files_and_output_as_in_process_without_teardown(
    how: str, example_run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = str(example_run_dir)
    assert main(["export", run, "-o", str(tmp_path / "in"), "--metric", "score"]) == 0
    expected = capsys.readouterr().out.replace(str(tmp_path / "in"), "DEST")
    proc = _export(how, tmp_path, run, "-o", str(tmp_path / "out"), "--metric", "score")
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().replace(str(tmp_path / "out"), "DEST") == expected
    assert "✓ exported DEST" in expected and "DEST/index.html" in expected
    for name in ("result.json", "index.html"):
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "in" / name).read_bytes()
    assert b"TEARDOWN" not in proc.stderr  # exited right after flushing


def test_an_exit_handler_is_honoured(example_run_dir: Path, tmp_path: Path) -> None:
    proc = _export("script", tmp_path, str(example_run_dir), "-o", str(tmp_path / "out"),
                   atexit_handler=True)
    assert proc.returncode == 0
    assert b"ATEXIT" in proc.stderr and b"TEARDOWN" in proc.stderr
    assert (tmp_path / "out" / "result.json").is_file()


def test_a_refusal_exits_1_the_ordinary_way(example_run_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    proc = _export("script", tmp_path, str(example_run_dir), "-o", str(tmp_path / "taken"))
    assert proc.returncode == 1
    assert b"refused" in proc.stderr and b"TEARDOWN" in proc.stderr


def test_in_process_the_run_is_not_kept(example_run_dir: Path, tmp_path: Path) -> None:
    """Only the command's own process keeps (and freezes) the read run; a library caller or
    the app gets an Exported that holds no session."""
    done = export_run(example_run_dir, tmp_path / "out", bootstrap=0)
    assert done.session is None
    try:
        kept = export_run(example_run_dir, tmp_path / "kept", bootstrap=0, short_lived=True)
        assert gc.get_freeze_count() > 0  # moved out of the collector's reach
    finally:
        gc.unfreeze()  # this test process goes on
    assert kept.session is not None and kept.session.run.path == example_run_dir
    assert kept.result == done.result
