"""`evalview check PATH [--json] [--strict]`: audit the record before publication."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING

from evalview.cli.output import (
    EXIT_OK,
    EXIT_REFUSED,
    console,
    emit_json,
    exit_at_once,
    finding_text,
)

if TYPE_CHECKING:
    from evalview.findings import Finding
    from evalview.session import HarnessSession, Session

HELP = "audit a closed run: is the record consistent, and what must a reader know?"
DESCRIPTION = """\
Audit a closed run (or results JSON) against the closed-result format. Every finding has a
stable code (see docs/rules.md), a severity and the file, line or episode it is about.

  error    the record is inconsistent: do not publish it as it is
  warning  a publication caveat that does not break the record (pending infrastructure
           errors, unattempted cases, ...): state it next to the numbers
  info     context
"""
EPILOG = """\
exit codes:
  0  no error-severity finding (with --strict: no error or warning)
  1  at least one error (with --strict: or warning)
  2  the path could not be read as a run at all
A folder of reads (any depth; see docs/folders.md): 1 when any read has an error finding or
cannot be read, 2 when the folder itself cannot be listed.

examples:
  evalview check runs/closed-run/
  evalview check runs/closed-run/ --json | jq '.findings[] | select(.severity=="error")'
  evalview check runs/closed-run/ --strict   # in CI: warnings fail too
  evalview check runs/ -j 2                  # every read under runs/, two processes
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        metavar="PATH",
        help="closed-run directory, results JSON (a benchmark-harness result too), or a folder "
        "of reads (audited in parallel)",
    )
    p.add_argument("--json", action="store_true", help="write one JSON document to stdout")
    p.add_argument(
        "--strict", action="store_true", help="warnings fail the check too (exit 1)"
    )
    p.add_argument(
        "--read",
        metavar="KEY",
        help="in a file of several named reads (LeRobot), check only the read under KEY",
    )
    p.add_argument(
        "-j",
        "--jobs",
        metavar="N",
        type=_jobs,
        default=0,
        help="a folder: worker processes (default: one per core)",
    )


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _is_folder(path: str) -> bool:
    """A folder of reads. A file is never one: it is told so without importing the folder scan
    (`evalview.folder`), which a file's `check` has no use for."""
    if not os.path.isdir(path):
        return False
    from evalview.folder import is_folder

    return is_folder(Path(path))


def run(args: argparse.Namespace) -> int:
    from evalview.load import ReadOptions
    from evalview.session import open_reads

    if _is_folder(args.path):
        from evalview.cli import check_dir

        return check_dir.run(args)
    # read once, whichever reader takes it; short-lived, and the audit never reads the episode
    # table (see load_closed_run)
    reads = open_reads(args.path, name=args.read, read=ReadOptions(freeze=True, lazy_table=True))
    if len(reads) > 1:
        return _check_reads(args, reads)
    return _check_one(args, reads[0].findings, reads[0].counts)


def _check_reads(args: argparse.Namespace, reads: Sequence[Session | HarnessSession]) -> int:
    """A file of several named reads: each read checked; one document, one verdict."""
    total = {"error": 0, "warning": 0, "info": 0}
    for session in reads:
        for k in total:
            total[k] += session.counts[k]
    ok = _passes(total, strict=args.strict)
    if args.json:
        emit_json(
            {
                "path": str(Path(args.path)),
                "ok": ok,
                "strict": bool(args.strict),
                "reads": [
                    {"run_id": session.where.read,
                     "findings": [f.to_json() for f in session.findings],
                     "counts": session.counts}
                    for session in reads
                ],
                "counts": total,
            }
        )
        return _done(EXIT_OK if ok else EXIT_REFUSED)
    from evalview.cli.output import escape

    out = console()
    for session in reads:
        out.print(f"[bold reverse] read {escape(str(session.where.read))} [/]")
        _print_findings(session.findings)
    out.print(_verdict(f"{args.path} ({len(reads)} reads)", total, ok, args.strict))
    return _done(EXIT_OK if ok else EXIT_REFUSED)


def _print_findings(findings: list[Finding]) -> None:
    from evalview.audit import RULES

    out = console()
    titles = {"error": "Errors", "warning": "Warnings", "info": "Info"}
    styles = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}
    for severity, group in groupby(findings, key=lambda f: f.severity.value):
        items = list(group)
        out.print(f"[{styles[severity]}]{titles[severity]} ({len(items)})[/]")
        for f in items:
            name = RULES[f.code].name if f.code in RULES else ""
            out.print(finding_text(f, styles[severity], name))
        out.print()


def _check_one(
    args: argparse.Namespace, findings: list[Finding], counts: dict[str, int]
) -> int:
    ok = _passes(counts, strict=args.strict)
    if args.json:
        emit_json(
            {
                "path": str(Path(args.path)),
                "ok": ok,
                "strict": bool(args.strict),
                "findings": [f.to_json() for f in findings],
                "counts": counts,
            }
        )
        return _done(EXIT_OK if ok else EXIT_REFUSED)

    out = console()  # text only: --json never imports rich
    _print_findings(findings)
    out.print(_verdict(str(args.path), counts, ok, args.strict))
    return _done(EXIT_OK if ok else EXIT_REFUSED)


def _passes(counts: dict[str, int], *, strict: bool) -> bool:
    """No error (and with --strict, no warning)."""
    return counts["error"] + (counts["warning"] if strict else 0) == 0


def _done(code: int) -> int:
    """Exit at once when this process is `evalview check` (see `exit_at_once`); in-process
    callers get the code back."""
    return exit_at_once(code, "check")


def _verdict(path: str, counts: dict[str, int], ok: bool, strict: bool) -> str:
    from evalview.cli.output import escape

    e, w = counts["error"], counts["warning"]
    tally = f"{e} error{'s' * (e != 1)}, {w} warning{'s' * (w != 1)}"
    if e:
        return (
            f"[bold red]✗ {escape(path)}: inconsistent record ({tally}). "
            "Do not publish as is.[/]"
        )
    if not ok:
        return f"[bold yellow]✗ {escape(path)}: {tally}; --strict fails on warnings.[/]"
    if w:
        return f"[bold yellow]✓ {escape(path)}: consistent, with caveats ({tally}). State them.[/]"
    return f"[bold green]✓ {escape(path)}: consistent record, no findings.[/]"
