"""`evalview table PATH... [--format md|csv|latex|json] [--per-task] [--output FILE]`.

The table a paper prints, one row per read; PATH is a read or a folder of reads. Every number is
`score_run`'s, scored with the same options `evalview score` takes, so the table and `score --json`
never disagree. A refused or unreadable read is a row that says why (exit 1), never dropped.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from evalview.cli.output import (
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_UNREADABLE,
    error_console,
    escape,
    resamples,
)
from evalview.fmt import count

if TYPE_CHECKING:
    from evalview.folder.discover import Candidate
    from evalview.folder.reads import ReadRow

HELP = "the paper's table: one row per read (mean ± SE, bootstrap, successes / selected, labels)"
DESCRIPTION = """\
The results table a paper prints, one row per read: benchmark, policy, checkpoint, the all-T
mean ± SE, the 95 % seed bootstrap, successes / selected, and the labels a reader must see (not
publishable, development seeds, OFF-PROTOCOL, appendix view). PATH is a closed run, a results
JSON, or a folder searched for reads (as `evalview check DIR`). The numbers are those of
`evalview score --json` with the same options. A refused or unreadable read is a row that says
why. --per-task adds the task x read matrix of successes / selected with Wilson 95 % intervals.

Formats: md (GitHub Markdown), csv (one header row; fractions in [0, 1], not percent; with
--per-task the matrix in long form), latex, json. Markdown, CSV and JSON keep every column.

latex is the paper's view of the same rows, sized to fit the page: short row labels (method and
checkpoint; a path's tail only where two rows would read the same), numbers aligned on the
decimal point, the labels and the reasons a read has no score as numbered notes under the table,
the folder in a last note. Its first line names the packages (booktabs, tabularx, dcolumn; all
in texlive-latex-base and -recommended).
"""
EPILOG = """\
exit codes:
  0  every read scored
  1  some read refused or unreadable (its row says why)
  2  a PATH does not exist, or a folder cannot be listed, or a PATH given as a read cannot be
     read, or --latex-layout is given with a format other than latex

examples:
  evalview table sample_runs/ --format latex --output table.tex
  evalview table runs/ --format latex --latex-layout twocolumn > table.tex
  evalview table runs/method-a runs/method-b --per-task
  evalview table runs/ --format csv --bootstrap 0 > table.csv
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from evalview.folder.latex import LAYOUTS
    from evalview.folder.table import FORMATS

    p.add_argument("paths", nargs="+", metavar="PATH", help="reads or folders of reads")
    p.add_argument("--format", choices=FORMATS, default="md", help="output format (default md)")
    p.add_argument("--per-task", action="store_true", help="the task x read matrix (Wilson 95 %%)")
    p.add_argument(
        "--latex-layout",
        choices=LAYOUTS,
        help="with --format latex, what the table must fit (default onecolumn). onecolumn: the "
        "width of a one-column paper (345 pt, a 10pt article), method, checkpoint and every "
        "number side by side. twocolumn: one column of a two-column paper (221 pt: IEEEtran, "
        "ACM, CVPR, ICML columns are wider), three columns fewer: each read takes a second line "
        "with its checkpoint and the bootstrap interval under the mean; the per-task matrix "
        "takes fewer reads per table. No text is scaled down in either. (A onecolumn table also "
        "fits a two-column paper's table*, across both columns.)",
    )
    p.add_argument("--output", metavar="FILE", type=Path, help="write the table to FILE")
    p.add_argument(
        "--bootstrap",
        metavar="B",
        type=resamples,
        default=10_000,
        help="seed-bootstrap resamples (default 10000; 0 turns it off), as evalview score",
    )
    p.add_argument(
        "--allow-errors",
        action="store_true",
        help="score reads with errored rollouts or audit errors (labelled not publishable)",
    )
    p.add_argument(
        "--allow-off-protocol",
        action="store_true",
        help="score off-protocol reads (labelled OFF-PROTOCOL)",
    )
    p.add_argument(
        "-j",
        "--jobs",
        metavar="N",
        type=int,
        default=0,
        help="worker processes (default: one per core)",
    )


def run(args: argparse.Namespace) -> int:
    from evalview.folder.discover import Candidate, FolderError, discover, is_folder
    from evalview.folder.parallel import default_jobs, map_ordered
    from evalview.folder.reads import ScoreOptions, row_of_item, with_bootstraps
    from evalview.folder.table import render

    err = error_console()
    if args.latex_layout is not None and args.format != "latex":
        err.print(
            f"[bold red]evalview:[/] --latex-layout applies to --format latex; {args.format} "
            "keeps every column."
        )
        return EXIT_UNREADABLE
    work: list[tuple[str, Candidate, bool]] = []  # (root, candidate, given directly)
    for given in args.paths:
        p = Path(given)
        if not (p.exists() or p.is_symlink()):
            err.print(f"[bold red]evalview:[/] {escape(given)}: no such file or directory.")
            return EXIT_UNREADABLE
        if is_folder(p):
            try:
                found = discover(p)
            except FolderError as exc:
                err.print(f"[bold red]evalview:[/] {escape(str(exc))}")
                return EXIT_UNREADABLE
            if found.truncated:
                err.print(f"[bold yellow]evalview:[/] {escape(given)}: {escape(found.truncated)}.")
            work += [(given, c, False) for c in found.entries]
        else:
            kind = "closed-run" if p.is_dir() else "file"
            work.append(("", Candidate(given, kind), True))  # type: ignore[arg-type]

    if args.output is not None:
        clash = _input_at(args.output, work)
        if clash is not None:
            err.print(
                f"[bold red]evalview:[/] {escape(args.output)}: --output is {escape(clash)}; "
                "evalview never writes over what it reads (nothing was read or written). "
                "Choose another file."
            )
            return EXIT_UNREADABLE
    options = ScoreOptions(args.bootstrap, args.allow_errors, args.allow_off_protocol)
    jobs = args.jobs if args.jobs and args.jobs > 0 else default_jobs()
    rows: list[ReadRow] = []
    skipped = []
    items = [(root, cand) for root, cand, _ in work]
    for (root, cand, direct), found_rows in zip(
        work,
        map_ordered(partial(row_of_item, options=options), items, jobs,
                    local=lambda item: not item[1].is_read),
        strict=True,
    ):
        for row in found_rows:
            if direct and row.status != "read":
                why = row.reason or "not a read"
                if row.status == "skipped":
                    from evalview.load.registry import formats_sentence

                    why = f"{cand.rel}: {why}. {formats_sentence()}"
                err.print(f"[bold red]evalview:[/] {escape(why)}")
                return EXIT_UNREADABLE
            label = row.path if not root else str(Path(root, row.path))
            if row.status == "skipped":
                skipped.append({"path": label, "reason": row.reason})
                continue
            rows.append(_relabel(row, label))
    rows = with_bootstraps(rows, options.bootstrap)
    text = render(
        args.format,
        rows,
        per_task=args.per_task,
        skipped=skipped,
        layout=args.latex_layout or "onecolumn",
    )
    if args.output is not None:
        try:
            _write_whole(args.output, text)
        except OSError as exc:
            err.print(
                f"[bold red]evalview:[/] {escape(args.output)}: cannot write ({exc.strerror})."
            )
            return EXIT_UNREADABLE
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    if args.format != "json" and skipped:  # one print (rich's per-call cost, see check DIR)
        err.print("\n".join(
            f"[dim]evalview: skipped {escape(s['path'])}: {escape(s['reason'])}[/]"
            for s in skipped))
    if not rows:
        err.print("[bold yellow]evalview:[/] no read found in the given paths.")
        return EXIT_UNREADABLE
    refused = [r for r in rows if r.refused is not None]
    if refused and args.format != "json":
        err.print(
            f"[bold yellow]evalview:[/] {len(refused)} of {count(len(rows), 'read')} "
            f"{'has' if len(refused) == 1 else 'have'} no score "
            "(their rows say why)."
        )
    return EXIT_REFUSED if refused else EXIT_OK


def _input_at(output: Path, work: list[tuple[str, Candidate, bool]]) -> str | None:
    """What `output` would overwrite or write into, as a phrase; None when it touches no input:
    a read given or found (a file, or a file inside a closed-run directory). Links resolved,
    so a link to an input is that input."""
    target = output.resolve()
    for root, cand, _direct in work:
        if cand.kind not in ("file", "closed-run"):
            continue
        path = Path(root, cand.rel).resolve() if root else Path(cand.rel).resolve()
        if target == path:
            return f"the input {Path(root, cand.rel) if root else cand.rel}"
        if cand.kind == "closed-run" and target.is_relative_to(path):
            return f"inside the run {Path(root, cand.rel) if root else cand.rel}"
    return None


def _write_whole(output: Path, text: str) -> None:
    """Write the table beside `output`, then rename it into place: a failure midway leaves the
    old file (or none), never a partial table."""
    import os
    import tempfile

    data = text.encode("utf-8", "surrogateescape")
    fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=output.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as open() would have made it, not mkstemp's 0600
        os.replace(tmp, output)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _relabel(row: ReadRow, label: str) -> ReadRow:
    from dataclasses import replace

    return replace(row, path=label)
