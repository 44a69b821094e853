"""Property test (issue 10): a valid run or an exported result.json, mutated at random, never ends
any command in a traceback or a hang, and every finding names a file.

Each example mutates a fresh copy (bytes cut or overwritten, a value replaced by random or deeply
nested JSON, control and invisible characters planted, a file swapped for a FIFO, a symlink or
nothing), then runs every command in one fresh process: the subprocess timeout is the hang guard
(not a speed assertion). The example count is kept small so the suite stays fast.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalview.report.export import export_run
from helpers.paths import EXAMPLE

#: Generous: every command answers in about a second here; only a hang gets near it.
HANG_GUARD_S = 120

#: Runs every command in one process (so one interpreter start per example) and prints one JSON
#: line per command: its exit code, and its stdout when that is JSON. An exception escaping a
#: command is what a user would see as a traceback: it is printed and the driver exits 70.
DRIVER = r"""
import contextlib, io, json, sys, traceback
from evalview.cli import main

for argv in json.loads(sys.argv[1]):
    buf = io.BytesIO()
    out = io.TextIOWrapper(buf, encoding="utf-8")
    err = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as exc:
        code = exc.code
    except BaseException:
        print("TRACEBACK", json.dumps(argv), file=sys.stderr)
        traceback.print_exc()
        sys.exit(70)
    out.flush()
    print(json.dumps({"argv": argv, "code": code, "stdout": buf.getvalue().decode("utf-8"),
                      "stderr": err.getvalue()}))
"""

JSON_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8,
)
PLANTED = st.sampled_from(["\x1b[31m", "\x07", "\u202e", "\u200b", "\ufeff", "\x9b", "\x00"])


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        doc = doc[key]
    doc[path[-1]] = value


@st.composite
def mutations(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(
        ["json-value", "deep", "plant", "bytes", "truncate", "special", "empty"]
    ))
    return {
        "kind": kind,
        "file": draw(st.integers(0, 10_000)),
        "where": draw(st.integers(0, 10_000)),
        "value": draw(JSON_VALUE) if kind == "json-value" else None,
        "depth": draw(st.integers(100, 1500)),
        "planted": draw(PLANTED),
        "bytes": draw(st.binary(min_size=1, max_size=8)),
        "special": draw(st.sampled_from(["fifo", "symlink", "missing", "dir"])),
    }


def _mutate(target: Path, m: dict[str, Any]) -> None:
    files = sorted(p for p in target.rglob("*") if p.is_file()) if target.is_dir() else [target]
    path = files[m["file"] % len(files)]
    raw = path.read_bytes()
    kind = m["kind"]
    if kind in ("json-value", "deep", "plant"):
        lines = raw.split(b"\n") if path.suffix == ".jsonl" else [raw]
        i = m["where"] % max(1, len([x for x in lines if x.strip()]))
        try:
            doc = json.loads(lines[i])
        except (ValueError, IndexError):
            return
        paths = _paths(doc)
        if not paths:
            return
        where = paths[m["where"] % len(paths)]
        if kind == "json-value":
            new: Any = m["value"]
        elif kind == "deep":
            new = _nested(m["depth"])
        else:
            new = f"x{m['planted']}y"
        _set(doc, where, new)
        lines[i] = json.dumps(doc, ensure_ascii=False).encode()
        path.write_bytes(b"\n".join(lines))
    elif kind == "bytes":
        at = m["where"] % max(1, len(raw))
        path.write_bytes(raw[:at] + m["bytes"] + raw[at + len(m["bytes"]):])
    elif kind == "truncate":
        path.write_bytes(raw[: m["where"] % max(1, len(raw))])
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        path.unlink()
        if m["special"] == "fifo":
            os.mkfifo(path)
        elif m["special"] == "symlink":
            path.symlink_to("/dev/zero")
        elif m["special"] == "dir":
            path.mkdir()


def _tree(root: Path) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")) if root.is_dir() else [root]:
        if p.is_file() and not p.is_symlink():
            out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[str(p)] = "special"
    return out


def _run_all(target: Path, other: Path, out_dir: Path) -> list[dict[str, Any]]:
    commands = [
        ["check", str(target), "--json"],
        ["score", str(target), "--json", "--bootstrap", "50"],
        ["psr", str(target), "--json"],
        ["export", str(target), "--output-dir", str(out_dir), "--bootstrap", "0"],
        ["compare", str(other), str(target), "--json", "--allow-errors"],
    ]
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(commands)],
        capture_output=True, text=True, timeout=HANG_GUARD_S, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def _check_results(results: list[dict[str, Any]]) -> None:
    assert len(results) == 5
    for r in results:
        assert r["code"] in (0, 1, 2), r["argv"]
        assert "Traceback" not in r["stderr"]
        if "--json" in r["argv"]:
            doc = json.loads(r["stdout"])  # exactly one JSON document, whatever happened
            if r["argv"][0] == "check" and "findings" in doc:
                unnamed = [f for f in doc["findings"] if not f["file"]]
                assert unnamed == [], unnamed


SETTINGS = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(mutations())
def test_a_mutated_closed_run_never_breaks_a_command(m: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        run = base / "run"
        shutil.copytree(EXAMPLE, run)
        for p in run.rglob("*"):
            p.chmod(0o755 if p.is_dir() else 0o644)
        _mutate(run, m)
        before = _tree(run)
        _check_results(_run_all(run, EXAMPLE, base / "out"))
        assert _tree(run) == before  # nothing was written into the source


@SETTINGS
@given(mutations())
def test_a_mutated_result_json_never_breaks_a_command(m: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        export_run(EXAMPLE, base / "pub", bootstrap=50)
        target = base / "pub" / "result.json"
        _mutate(target, m)
        before = _tree(base / "pub")
        _check_results(_run_all(target, EXAMPLE, base / "out"))
        assert _tree(base / "pub") == before
