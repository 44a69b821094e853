"""Closed runs for the export tests: copies of the example run, rewritten consistently."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers.paths import EXAMPLE

#: Task names that would run script or inject elements if the page did not escape them.
HOSTILE_SCRIPT = "<script>document.title='pwned'</script>"
HOSTILE_IMG = "\"><img src=x onerror=\"document.title='pwned2'\" id=injected>"


def _map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {k: _map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, list):
        return [_map_strings(v, fn) for v in value]
    return value


def copy_example(dst: Path) -> Path:
    shutil.copytree(EXAMPLE, dst)
    return dst


def rewrite(
    run: Path,
    strings: Callable[[str], str] = lambda s: s,
    episode: Callable[[dict[str, Any]], None] | None = None,
    manifest: Callable[[dict[str, Any]], None] | None = None,
) -> Path:
    """Apply `strings` to every string value of every file, `episode` to each record (in place),
    keeping episodes.jsonl and the result files identical, as the format requires."""
    m = _map_strings(json.loads((run / "manifest.json").read_text()), strings)
    if manifest:
        manifest(m)
    (run / "manifest.json").write_text(json.dumps(m, indent=1))
    summary = _map_strings(json.loads((run / "summary.json").read_text()), strings)
    (run / "summary.json").write_text(json.dumps(summary, indent=1))
    records = []
    for line in (run / "episodes.jsonl").read_text().splitlines():
        rec = _map_strings(json.loads(line), strings)
        if episode:
            episode(rec)
        records.append(rec)
    (run / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    by_id = {r["episode"]["id"]: r for r in records}
    for path in sorted((run / "episodes").glob("*/result.json")):
        old = _map_strings(json.loads(path.read_text()), strings)
        path.write_text(json.dumps(by_id[old["episode"]["id"]]))
    return run


def hostile_run(dst: Path) -> Path:
    """The example with task-00 and task-01 renamed to markup."""
    run = copy_example(dst)
    return rewrite(
        run,
        lambda s: s.replace("task-00", HOSTILE_SCRIPT).replace("task-01", HOSTILE_IMG),
    )


def tree_state(root: Path) -> dict[str, tuple[str, int]]:
    """Every file under root: SHA-256 and mtime, to prove nothing was touched."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file():
            out[str(p.relative_to(root))] = (
                hashlib.sha256(p.read_bytes()).hexdigest(),
                p.stat().st_mtime_ns,
            )
    return out
