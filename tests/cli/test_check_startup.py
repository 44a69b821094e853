"""What `check FILE --json` of each non-closed-run format leaves unimported and undone (issue 25).

For these inputs the parse floor is mostly Python's start-up and `import orjson`, so a check's
time over it is its imports and its module-level work. Each of these was measured and made lazy;
a fresh process (`sys.modules` after a real check) and in-process spies keep it so:

- no file's check imports the folder scan, `fractions`/`decimal` (percent formatting, Inspect's
  `statistics`), `shutil` (argparse's terminal width), numpy, rich, textual or pydantic, nor
  builds `clean`'s table;
- a harness result's check builds no `Run` (`evalview.model.run` is not imported);
- no file's check imports the closed-run checks (`evalview.audit.checks`): its read holds no
  closed-run part for them to read (`evalview.audit.has_closed_run_parts`);
- a LeRobot check of a clean file makes no pass over the file for lines (`Locator`);
- no file's check compiles a regular expression it does not use for every read (the others are
  compiled on first use).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import REPO, SAMPLE_RUNS

PROBE = r"""
import re, sys
_compile = re.compile
COMPILED = []
def _counting(pattern, flags=0):
    caller = sys._getframe(1).f_globals.get("__name__", "")
    if caller.startswith("evalview"):
        COMPILED.append(caller)
    return _compile(pattern, flags)
re.compile = _counting
from evalview.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout.flush()
import evalview.textsafe as t
sys.stderr.write("MODULES " + " ".join(sorted(sys.modules)) + "\n")
sys.stderr.write("CLEAN_TABLE %d\n" % t._unsafe.cache_info().currsize)
sys.stderr.write("COMPILED " + " ".join(COMPILED) + "\n")
"""

HARNESS = SAMPLE_RUNS / "harness" / "gpu-calc-hard-equal-update-3seeds.json"
INPUTS = {
    "harness": HARNESS,
    "lerobot": SAMPLE_RUNS / "lerobot" / "smolvla-libero-20k.json",
    "lerobot-reads": SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json",
    "inspect": SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval",
    "lm-eval": next((SAMPLE_RUNS / "lm-eval" / "org__model-a").glob("results_*.json")),
}
#: Never imported by `check FILE --json` of any of them.
NEVER = ("evalview.folder", "fractions", "decimal", "shutil", "numpy", "rich", "textual",
         "pydantic", "evalview.audit.checks")


#: The only patterns a file's `check` compiles, by module: those its format's every read uses (the
#: `\\u` test of each JSON line, the invisible characters of --json output, an id's seed, a
#: samples file's name, the harness audit's path and hash shapes, an Inspect member's name), and
#: LeRobot's line locator when a finding needs a line (as in the two-read file). The patterns only
#: a refused or unusual document needs are compiled when first used, never at import.
COMPILED_AT_MOST = {
    "evalview.load.safe_json": 1, "evalview.textsafe": 1, "evalview.model.run": 1,
    "evalview.load.lm_eval.reader": 1, "evalview.load.lm_eval.checks": 2,
    "evalview.harness.audit": 3, "evalview.load.inspect_ai.container": 2,
    "evalview.load.inspect_ai.values": 1, "evalview.load.lerobot.locate": 1,
}


def _compiled(path: Path) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    done = subprocess.run([sys.executable, "-c", PROBE, "check", str(path), "--json"],
                          capture_output=True, text=True, env=env, check=False, timeout=120)
    line = next(x for x in done.stderr.splitlines() if x.startswith("COMPILED"))
    return line.split()[1:]


@pytest.mark.parametrize("name", list(INPUTS))
def test_check_of_a_file_compiles_only_the_patterns_every_read_uses(name: str) -> None:
    compiled = _compiled(INPUTS[name])
    if name == "lerobot":  # a clean file: no line is looked up (see below)
        assert "evalview.load.lerobot.locate" not in compiled, compiled
    for module in set(compiled):
        assert compiled.count(module) <= COMPILED_AT_MOST.get(module, 0), compiled


def _check(path: Path) -> tuple[set[str], str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    done = subprocess.run([sys.executable, "-c", PROBE, "check", str(path), "--json"],
                          capture_output=True, text=True, env=env, check=False, timeout=120)
    lines = done.stderr.splitlines()
    modules = next(x for x in lines if x.startswith("MODULES ")).split()[1:]
    table = next(x for x in lines if x.startswith("CLEAN_TABLE ")).split()[1]
    return set(modules), table, done.stdout


@pytest.mark.parametrize("name", list(INPUTS))
def test_check_of_a_file_imports_only_what_it_uses(name: str) -> None:
    modules, clean_table, stdout = _check(INPUTS[name])
    assert '"findings"' in stdout or '"reads"' in stdout  # it did check the file
    # an Inspect log is a zip: zipfile imports shutil (its floor, unzipping, does too)
    allowed = {"shutil"} if name == "inspect" else set()
    heavy = sorted(m for m in modules if (m.split(".")[0] in NEVER or m in NEVER
                                          or m.startswith(("evalview.folder",
                                                           "evalview.audit.checks")))
                   and m not in allowed)
    assert not heavy, heavy
    assert clean_table == "0"  # --json escapes; `clean`'s 2,100-entry table is never built


def test_check_of_a_harness_result_builds_no_run_model() -> None:
    modules, _, _ = _check(HARNESS)
    assert "evalview.load.harness_result" in modules
    assert "evalview.model.run" not in modules


def test_check_of_a_clean_lerobot_file_makes_no_pass_for_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its two notes are about the whole document (line 1): no line is looked up, so the
    locator's pass over the file (ten times the parse of the 2,000-episode bench file) is not
    made; the episode table, when built, finds them."""
    from evalview.cli import main
    from evalview.load.lerobot import locate
    from evalview.load.lerobot.reader import _read
    from evalview.load.reader import ReadOptions
    from evalview.load.source import Source

    def no_scan(self: object, raw: bytes, members: dict[object, object]) -> None:
        raise AssertionError("the file was scanned for lines")

    path = INPUTS["lerobot"]
    with monkeypatch.context() as m:
        m.setattr(locate.Locator, "_scan", no_scan)
        m.setattr(sys, "argv", ["pytest"])  # in-process: not the `evalview` command
        assert main(["check", str(path), "--json"]) in (0, 1)
    run = _read(Source(path), ReadOptions()).runs[0].run
    lines = path.read_text(encoding="utf-8").splitlines()
    table = run.episodes
    assert len(table.line) > 0 and all(
        lines[int(n) - 1].strip().rstrip(",") in ("true", "false") for n in table.line)
