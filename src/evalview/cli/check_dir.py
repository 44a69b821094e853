"""`evalview check DIR [--json] [-j N]`: audit every read under a folder, in worker processes.

One line per read (in the scan's order) and a total. Exit 1 when any read has an error finding or
cannot be read, 2 when DIR itself cannot be scanned. Never imports Textual.
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path
from typing import Any

from evalview.cli.output import EXIT_OK, EXIT_REFUSED, console, emit_json, escape, fail_unreadable
from evalview.fmt import count


def run(args: argparse.Namespace) -> int:
    from evalview.folder.discover import FolderError, discover
    from evalview.folder.parallel import default_jobs, map_ordered
    from evalview.folder.reads import check_candidate

    root = Path(args.path)
    try:
        found = discover(root)
    except FolderError as exc:
        return fail_unreadable(str(exc), as_json=args.json)
    jobs = args.jobs or default_jobs()
    work = partial(check_candidate, str(root), strict=bool(args.strict))
    runs: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    out = None if args.json else console()
    for docs in map_ordered(work, found.entries, jobs, local=lambda c: not c.is_read):
        for doc in docs:
            if doc["status"] == "skipped":
                skipped.append({"path": doc["path"], "reason": doc["reason"]})
                continue
            runs.append(doc)
            if out is not None:
                out.print(_line(doc))
    if not runs:
        return fail_unreadable(_no_reads(root, skipped, found.truncated), as_json=args.json)
    counts = _totals(runs, skipped)
    ok = counts["failing"] == 0
    if args.json:
        emit_json(
            {
                "path": str(root),
                "ok": ok,
                "strict": bool(args.strict),
                "runs": runs,
                "skipped": skipped,
                "truncated": found.truncated,
                "counts": counts,
            }
        )
        return EXIT_OK if ok else EXIT_REFUSED
    assert out is not None
    if skipped:  # one print: rich's per-call cost made 30,000 skipped links take seconds
        out.print("\n".join(
            f"[dim]· {escape(s['path'])}: skipped, {escape(s['reason'])}[/]" for s in skipped))
    if found.truncated:
        out.print(f"[bold yellow]⚠ {escape(str(root))}: {escape(found.truncated)}.[/]")
    out.print(_total_line(str(root), counts, ok))
    return EXIT_OK if ok else EXIT_REFUSED


def _no_reads(root: Path, skipped: list[dict[str, Any]], truncated: str | None) -> str:
    """Exit 2 as before folders were read: nothing here is a run (say what was seen instead)."""
    seen = (
        f" ({len(skipped)} file(s) skipped: {skipped[0]['path']}: {skipped[0]['reason']})"
        if (skipped)
        else ""
    )
    cut = f"; {truncated}" if truncated else ""
    from evalview.load.registry import formats_sentence

    return (
        f"{root}: not a closed run (no manifest.json, status.json, summary.json or "
        f"episodes.jsonl), and no read found in it as a folder{seen}{cut}. "
        + formats_sentence()
    )


def _line(doc: dict[str, Any]) -> str:
    path = escape(doc["path"] + (f" [{doc['read']}]" if doc.get("read") else ""))
    if doc["status"] == "unreadable":
        return f"[bold red]✗ {path}[/]: cannot be read: {escape(doc['error'])}"
    c = doc["counts"]
    tally = f"{count(c['error'], 'error')}, {count(c['warning'], 'warning')}"
    first = next((f for f in doc["findings"] if f["severity"] == "error"), None)
    if c["error"]:
        return f"[bold red]✗ {path}[/]: {tally}" + (
            f" [dim](first: {escape(first['code'])})[/]" if first else ""
        )
    if not doc["ok"]:
        return f"[bold yellow]✗ {path}[/]: {tally}; --strict fails on warnings"
    if c["warning"]:
        return f"[bold yellow]⚠ {path}[/]: consistent, with caveats ({tally})"
    return f"[bold green]✓ {path}[/]: consistent, no findings"


def _totals(runs: list[dict[str, Any]], skipped: list[dict[str, Any]]) -> dict[str, int]:
    """Reads by verdict, findings by severity (over all reads), and the skipped files."""
    counts = {
        "runs": len(runs),
        "with_errors": sum(1 for r in runs if r["status"] == "read" and r["counts"]["error"]),
        "with_warnings": sum(
            1
            for r in runs
            if r["status"] == "read" and not r["counts"]["error"] and r["counts"]["warning"]
        ),
        "clean": sum(
            1
            for r in runs
            if r["status"] == "read" and not r["counts"]["error"] and not r["counts"]["warning"]
        ),
        "unreadable": sum(1 for r in runs if r["status"] == "unreadable"),
        "skipped": len(skipped),
        "failing": sum(1 for r in runs if not r["ok"]),
    }
    for severity in ("error", "warning", "info"):
        counts[severity] = sum(r["counts"][severity] for r in runs)
    return counts


def _total_line(root: str, c: dict[str, int], ok: bool) -> str:
    parts = [
        count(c["runs"], "read"),
        f"{c['with_errors']} with errors",
        f"{c['with_warnings']} with warnings only",
        f"{c['clean']} clean",
    ]
    if c["unreadable"]:
        parts.append(f"{c['unreadable']} unreadable")
    if c["skipped"]:
        parts.append(f"{c['skipped']} skipped (not reads)")
    text = f"{escape(root)}: " + ", ".join(parts)
    if not ok:
        return f"[bold red]✗ {text}. Do not publish the failing reads as they are.[/]"
    return f"[bold green]✓ {text}.[/]"
