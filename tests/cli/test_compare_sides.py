"""`evalview compare` reads B in a forked child while it reads A (issue 25): B's read, audit and
table are not done in this process, and the comparison, refusals and exit codes are those of
the comparison done in one process."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

import evalview.cli.compare_sides as sides
import evalview.folder.forked as forked
from evalview.cli import main
from evalview.load import ReadOptions
from evalview.model.address import Address
from evalview.session import UnauditedRead
from helpers.closed_runs import write_run

IDS = [f"task-{t}/seed{1000 + i}" for t in "xy" for i in range(12)]


def _pair(tmp_path: Path, *, b_errors: bool = False, **b_manifest: object) -> tuple[str, str]:
    a_out = ["s", "f", "s", "f"] * 6
    b_out = ["s", "s", "f", "f"] * 6
    if b_errors:
        b_out[3] = "e:infrastructure"
    a = write_run(tmp_path / "a", dict(zip(IDS, a_out, strict=True)))
    b = write_run(tmp_path / "b", dict(zip(IDS, b_out, strict=True)),
                  manifest={"run_id": "run-2", **b_manifest})
    return str(a), str(b)


def _in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "fork_call", lambda fn: None)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_b_is_read_and_audited_in_a_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _pair(tmp_path)
    opened: list[Path] = []
    real_open = sides.open_unaudited

    def spy(path: Address, **kw: ReadOptions) -> object:
        opened.append(path.path)  # the child's calls land in the child's copy of this list
        return real_open(path, **kw)

    monkeypatch.setattr(sides, "open_unaudited", spy)
    side_a, side_b = sides.open_sides(Address.of(a), Address.of(b), ReadOptions())
    assert opened == [Path(a)]  # B was never read here
    assert isinstance(side_a, UnauditedRead) and isinstance(side_b, UnauditedRead)
    assert side_b._session is not None  # audited in the child, not again here
    assert side_b.run.records == [] and side_b.run.result_files == []
    assert side_b.run.record_checks is None  # used by B's audit, in the child
    assert side_a.run.record_checks is not None  # A audited at once too: checked as read
    assert len(side_b.run.episodes) == len(IDS)
    here = real_open(Address.of(b), read=ReadOptions())
    assert isinstance(here, UnauditedRead)
    assert side_b.findings() == here.findings()
    assert side_b.address == here.address and side_b.run.schedule == here.run.schedule


@pytest.mark.parametrize(
    ("argv_tail", "b_errors", "manifest"),
    [
        (["--json"], False, {}),
        ([], False, {}),
        (["--json"], True, {}),  # refused: B's errored rollout
        (["--json", "--allow-errors"], True, {}),
        (["--json"], False, {"benchmark": {"version": "2.0.0"}}),  # refused before any audit
    ],
)
def test_same_output_as_in_one_process(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv_tail: list[str],
    b_errors: bool,
    manifest: dict[str, object],
) -> None:
    a, b = _pair(tmp_path, b_errors=b_errors, **manifest)
    forked = _run(["compare", a, b, *argv_tail], capsys)
    _in_one_process(monkeypatch)
    assert _run(["compare", a, b, *argv_tail], capsys) == forked


def test_unreadable_b_says_the_same_after_a(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _b = _pair(tmp_path)
    missing = str(tmp_path / "nowhere")
    forked = _run(["compare", a, missing, "--json"], capsys)
    assert forked[0] == 2 and "nowhere" in forked[1] + forked[2]
    _in_one_process(monkeypatch)
    assert _run(["compare", a, missing, "--json"], capsys) == forked
    # both unreadable: A's error, as before
    code, out, err = _run(["compare", str(tmp_path / "gone"), missing, "--json"], capsys)
    assert code == 2 and "gone" in out + err and "nowhere" not in out + err


def test_fork_call_value_failure_and_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    pid = os.getpid()
    job = forked.fork_call(lambda: ("done", os.getpid()))
    assert job is not None
    value = job.result()
    assert value is not None and value[0] == "done" and value[1] != pid
    job.cancel()  # after its value: nothing to stop

    def boom() -> int:
        raise ValueError("in the child")

    failed = forked.fork_call(boom)
    assert failed is not None and failed.result() is None  # the caller does the work itself

    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert forked.fork_call(lambda: 1) is None  # never fork a process with threads
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setattr(sys, "platform", "darwin")
    assert forked.fork_call(lambda: 1) is None  # nor on macOS


def test_cancel_stops_a_child_whose_value_is_not_taken() -> None:
    import time

    job = forked.fork_call(lambda: time.sleep(600) or 1)
    assert job is not None
    child = job._pid
    assert child is not None
    job.cancel()  # killed and reaped: the caller stopped first (A unreadable, a refusal)
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)
    assert job.result() is None


SAMPLES = Path(__file__).resolve().parents[2] / "sample_runs"


@pytest.mark.parametrize(
    "argv",
    [
        ["lerobot/smolvla-libero-20k.json", "lerobot/smolvla-libero-40k.json", "--json"],
        ["lerobot/libero10-two-reads.json", "lerobot/libero10-two-reads.json", "--json"],
        ["inspect/os-agent-model-a.eval", "inspect/os-agent-model-b.eval", "--json",
         "--allow-errors"],
        ["inspect/os-agent-model-a.eval", "inspect/os-agent-model-b.eval"],
        ["lm-eval/org__model-a", "lm-eval/org__model-b", "--json"],
        ["lm-eval/org__model-a", "lm-eval/org__model-b", "--allow-mismatch"],
        ["harness/gpu-calc-hard-equal-update-3seeds.json",
         "harness/gpu-calc-hard-equal-update-3seeds.json", "--json"],
    ],
)
def test_every_format_read_in_a_child_compares_the_same(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Each reader's run comes back from the child without records and result files and is
    compared as it is in one process (small files are read in a child here: no size floor)."""
    a, b, *rest = argv
    if a == b and a.startswith("lerobot/libero10"):
        rest = [*rest, "--read-a", "eval_results_400", "--read-b", "eval_results_800"]
    full = [str(SAMPLES / a), str(SAMPLES / b), *rest]
    monkeypatch.setattr(sides, "WORTH_A_CHILD", 0)
    forked = _run(["compare", *full], capsys)
    _in_one_process(monkeypatch)
    assert _run(["compare", *full], capsys) == forked


def test_compare_imports_no_process_pool_nor_rich_tables_for_json(tmp_path: Path) -> None:
    """The child is a bare fork (`folder.forked`): no concurrent.futures or multiprocessing
    (~15 ms), and `--json` needs no rich table."""
    import subprocess
    import sys

    a, b = _pair(tmp_path)
    probe = (
        "import sys\nfrom evalview.cli import main\n"
        f"main(['compare', {a!r}, {b!r}, '--json'])\n"
        "print(sorted(m for m in ('concurrent.futures.process', 'multiprocessing', 'rich.table')"
        " if m in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stderr.strip().splitlines()[-1] == "[]"
