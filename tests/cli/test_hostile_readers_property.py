"""Property test (issue 24): a LeRobot eval_info.json or a benchmark-harness result, mutated at
random in any field, never ends any command in a traceback or a hang, never puts a raw control
character on the terminal or in --json, and never changes the input.

As tests/cli/test_hostile_property.py does for the closed run and result.json: each example
edits a fresh copy (any JSON value in any field, integers past 64 bits and numbers past a double,
NaN and Infinity as Python writes them, deep nesting, arbitrary names for tasks, read keys and
arms, a key removed), then runs every command in one fresh process, whose timeout is the hang
guard (not a speed assertion). The example count is small so the suite stays fast.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hostile_property import DRIVER, HANG_GUARD_S

from helpers.paths import SAMPLE_RUNS

RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069]")

EDGE_NUMBERS = st.sampled_from([
    2**63, 2**64, -(2**63) - 1, 10**30, 10**400, float("nan"), float("inf"), float("-inf"),
    1.7e308, 5e-324, -1, 0, 1.5, -0.1,
])
HOSTILE_TEXT = st.sampled_from([
    "\x1b[2J", "\x1b]8;;http://x\x1b\\y", "\u202e", "\x00", "\x7f", "\x85", "\x9b2J", "[/bold]",
    "x[bold]", "/home/alice/x", "sk-live-abcdefghijklmnopqrstuvwx", "a" * 5000, "", " ", "/",
])
JSON_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), EDGE_NUMBERS,
    st.floats(), st.text(max_size=20), HOSTILE_TEXT,
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8,
)
NAME = st.one_of(HOSTILE_TEXT, st.text(max_size=30), st.integers(-(2**70), 2**70))


@st.composite
def mutations(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["value", "number", "deep", "name", "delete"]))
    return {
        "kind": kind,
        "where": draw(st.integers(0, 100_000)),
        "value": draw(JSON_VALUE) if kind == "value" else draw(EDGE_NUMBERS),
        "depth": draw(st.integers(100, 3000)),
        "name": draw(NAME),
    }


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


#: Where a format keeps the names it keys reads by: (container path suffix, key).
NAMES = {"task_group", "task_id", "name", "run_id"}


def _mutate(doc: Any, m: dict[str, Any]) -> Any:
    paths = _paths(doc)
    where = paths[m["where"] % len(paths)]
    parent, last = _parent(doc, where), where[-1]
    kind = m["kind"]
    if kind == "name":
        named = [p for p in paths if p[-1] in NAMES] or [()]
        target = named[m["where"] % len(named)]
        if target:
            _parent(doc, target)[target[-1]] = m["name"]
        elif isinstance(doc, dict) and doc:  # a read key of its own (a file of named reads)
            first = next(iter(doc))
            doc[str(m["name"])] = doc.pop(first)
    elif kind == "delete" and isinstance(parent, dict):
        del parent[last]
    elif kind == "deep":
        parent[last] = _nested(m["depth"])
    else:
        parent[last] = m["value"]
    return doc


def _tree(root: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _run_all(target: Path, out_dir: Path) -> list[dict[str, Any]]:
    commands = [
        ["check", str(target)],
        ["check", str(target), "--json"],
        ["score", str(target), "--json", "--bootstrap", "20", "--allow-errors"],
        ["table", str(target), "--format", "json", "--per-task", "--bootstrap", "0", "-j", "1",
         "--allow-errors"],
        ["table", str(target), "--bootstrap", "0", "-j", "1"],
        ["export", str(target), "--output-dir", str(out_dir), "--bootstrap", "0", "--redact"],
        ["compare", str(target), str(target), "--json", "--allow-errors"],
    ]
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(commands)],
        capture_output=True, text=True, timeout=HANG_GUARD_S, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def _check_results(results: list[dict[str, Any]]) -> None:
    assert len(results) == 7
    for r in results:
        assert r["code"] in (0, 1, 2), r["argv"]
        assert "Traceback" not in r["stderr"]
        for stream in (r["stdout"], r["stderr"]):
            assert not RAW_CONTROL.search(stream), (r["argv"][0], RAW_CONTROL.search(stream))
        if "--json" in r["argv"]:
            assert json.loads(r["stdout"])  # exactly one JSON document, whatever happened
        elif "json" in r["argv"] and r["code"] != 2:  # table: exit 2 says why on stderr only
            assert json.loads(r["stdout"])


def _example(src: Path, m: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "in").mkdir()
        target = base / "in" / src.name
        doc = _mutate(json.loads(src.read_text(encoding="utf-8")), m)
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 10_000))  # json.dumps of the deep value only
        try:
            target.write_text(json.dumps(doc, indent=2), encoding="utf-8")
        finally:
            sys.setrecursionlimit(old)
        before = _tree(base / "in")
        _check_results(_run_all(target, base / "out"))
        assert _tree(base / "in") == before  # nothing was written into the source
        if (base / "out").exists():  # whatever was published holds no planted secret
            for f in (base / "out").iterdir():
                assert "sk-live-" not in f.read_text(encoding="utf-8")


SETTINGS = settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(mutations())
def test_a_mutated_lerobot_file_never_breaks_a_command(m: dict[str, Any]) -> None:
    _example(SAMPLE_RUNS / "lerobot" / "pusht-single-env.json", m)


@SETTINGS
@given(mutations())
def test_a_mutated_file_of_named_lerobot_reads_never_breaks_a_command(m: dict[str, Any]) -> None:
    _example(SAMPLE_RUNS / "lerobot" / "libero10-two-reads.json", m)


@SETTINGS
@given(mutations())
def test_a_mutated_harness_result_never_breaks_a_command(m: dict[str, Any]) -> None:
    _example(SAMPLE_RUNS / "harness" / "gpu-calc-hard-equal-update-3seeds.json", m)
