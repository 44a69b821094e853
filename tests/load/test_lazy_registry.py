"""The lazy registry: a read imports only the reader that claims it, and detects as before.

`evalview.load.builtin` declares every format with a cheap content sniff and imports a format's
module only when the sniff does not rule the input out. These tests keep the two promises that
makes: the sniff never changes an answer (each declaration's detect agrees with its module's full
`_detect` on every kind of input, errors included), and the modules of other formats stay
unimported (`sys.modules` of a real `check` in a fresh process).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from evalview.load import builtin
from evalview.load.errors import InputError
from evalview.load.source import Source
from helpers.paths import EXAMPLE, MINIVERL, REPO, SAMPLE_RUNS

_MODULES = {
    "closed-run": "evalview.load.closed_run",
    "result-json": "evalview.load.result_json",
    "benchmark-harness": "evalview.load.harness_result",
    "inspect-ai": "evalview.load.inspect_ai.reader",
    "lm-eval": "evalview.load.lm_eval.reader",
    "recoverybench-task-results": "evalview.load.task_results",
    "lerobot-eval": "evalview.load.lerobot.reader",
    "psr-checkpoint-inputs": "evalview.load.checkpoint_inputs",
}

_READERS = (
    "evalview.load.inspect_ai.reader",
    "evalview.load.lm_eval.reader",
    "evalview.load.lerobot.reader",
    "evalview.load.harness_result",
    "evalview.load.task_results",
)

#: Prints the modules a `check` imported, after it ran (in this fresh process).
_CHECK_AND_LIST = """
import sys
from evalview.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write("MODULES " + " ".join(sorted(sys.modules)) + "\\n")
"""


def _imported_by_check(path: Path) -> set[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    done = subprocess.run(
        [sys.executable, "-c", _CHECK_AND_LIST, "check", str(path), "--json"],
        capture_output=True, text=True, env=env, check=False,
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


def _inputs(tmp: Path) -> list[Path]:
    """Every kind of input a detector meets: each format, near misses, broken and odd files."""
    found = [p for p in SAMPLE_RUNS.rglob("*") if p.is_file() or p.is_dir()]
    found += sorted(MINIVERL.rglob("*.json"))[:20]
    found += sorted((REPO / "tests" / "fixtures").rglob("*.json*"))[:40]
    found += [EXAMPLE, EXAMPLE / "manifest.json", tmp / "missing.json"]
    odd = {
        "empty.json": b"",
        "nan-lerobot.json": b'{"per_episode": [{"sum_reward": NaN}], "per_task": []}',
        "broken-harness.json": b'{"arms": [, "miniverl_version": 1, "schema_version": 2}',
        "eval-key.json": b'{"eval": {"task": "t"}, "version": 2, "status": "success"',
        "results-key.json": b'{"results": {"a": {"acc,none": 0.5}}, "configs": {}}',
        "status-only.json": b'{"version": 2, "status": "started"}',
        "zip.eval": b"PK\x03\x04" + b"\0" * 40,
        "arm-line.jsonl": b'{"arm": "a", "budget_view": "v", "task_id": "t"}\n',
        "analysis.json": b'{"analysis_version": "recoverybench-analysis-v1"}',
        "lists.json": json.dumps({"a": [1], "b": [2]}).encode(),
        "schema.json": b'{"schema_version": "evalview.result/v1", "x": [}',
        "not-json.txt": b"per_task per_episode eval results arms",
    }
    for name, data in odd.items():
        (tmp / name).write_bytes(data)
        found.append(tmp / name)
    link = tmp / "link.json"
    link.symlink_to(tmp / "lists.json")
    return [*found, link]


def _outcome(detect: object, path: Path) -> object:
    try:
        return detect(Source(path))  # type: ignore[operator]
    except InputError as e:
        return ("InputError", str(e))


def test_each_declaration_detects_as_its_module_does(tmp_path: Path) -> None:
    inputs = _inputs(tmp_path)
    assert len(inputs) > 40
    for reader in builtin.BUILTIN:
        full = import_module(_MODULES[reader.name])._detect
        for path in inputs:
            assert _outcome(reader.detect, path) == _outcome(full, path), (reader.name, path)


def test_the_sniffs_name_what_the_modules_test() -> None:
    from evalview.load import closed_run, harness_result
    from evalview.load.lerobot import reader as lerobot_reader

    assert builtin.RUN_FILES == closed_run.RUN_FILES
    assert builtin.HARNESS_SIGNATURE == harness_result.SIGNATURE
    assert builtin.LEROBOT_MARKERS == lerobot_reader._MARKERS
    for reader in builtin.BUILTIN:
        assert import_module(_MODULES[reader.name]).READER is reader


@pytest.mark.parametrize(
    ("path", "its_reader"),
    [
        (SAMPLE_RUNS / "robobench-24x50", "evalview.load.closed_run"),
        (SAMPLE_RUNS / "lerobot" / "smolvla-libero-20k.json", "evalview.load.lerobot.reader"),
    ],
)
def test_check_imports_only_the_reader_of_its_input(path: Path, its_reader: str) -> None:
    imported = _imported_by_check(path)
    assert its_reader in imported
    others = {m for m in _READERS if m != its_reader} & imported
    assert not others
    assert "zipfile" not in imported  # Inspect's .eval container
    assert "pydantic" not in imported
