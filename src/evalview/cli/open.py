"""`evalview [PATH [PATH_B]]`: open the terminal app on a run (the bundled sample when no PATH is
given), on a PSR checkpoint-inputs JSON, or on two runs side by side (the compare screen).

Checks the path before Textual starts, so a typo ends with a message and exit 2, not an empty app.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from evalview.cli import formats_paragraph
from evalview.cli.output import EXIT_OK, EXIT_UNREADABLE, error_console, escape, fail_unreadable

DESCRIPTION = """\
Open the evalview terminal app on a closed-run directory (the one holding manifest.json), an
exported result.json, a PSR checkpoint-inputs JSON (the partial-credit viewer), or a
benchmark-harness result (miniVERL BenchmarkResult: Arms, Measured, Controls, Findings tabs).
On a folder of reads it opens the Runs screen: one row per read found under it (any depth, links
never followed), read in the background by worker processes. With no PATH it opens a bundled
24-task x 50-seed sample run, to look around. With two runs A B it opens the compare screen
(paired per-task rates, McNemar's test, the power line), as `evalview compare`.

Keys in the app (? lists them all):
  1-7          tabs: 1 Overview, 2 Tasks, 3 Episodes, 4 Errors, 5 Findings, 6 Partial credit,
               7 Samples (an Inspect log: per-sample and per-group Wilson, other scorers)
  g            Samples: group by the next sample metadata key
  arrows, j k  move in a table (PgUp PgDn Home End; <- -> or h l scroll sideways)
  Enter / Esc  open what is under the cursor / go back (Backspace too)
  /            search (Tasks, Episodes, Findings) / find in a record
  x            clear the episode filters
  s  r         sort the Tasks table by the next column (or click a header) / reverse it
  c            copy the episode id, the finding, or the record's JSON (OSC 52)
  a            score a refused read anyway, errors as non-successes (not publishable)
  e  o         export result.json and index.html into a new directory / open the page
  ctrl+p       command palette: jump to a task or an episode id, or export
  ?  q         help / quit
Compare screen: up/down choose a task (its McNemar table and power line), q quits.
Runs screen (a folder): Enter opens a read, Esc comes back; s / r sort, v verdict filter,
  / filter by text, space marks reads A and B, c compares them.
w (or --watch) re-reads the run, or the folder's changed and new reads, when files change.
"""
EPILOG = """\
exit codes: 0 closed normally; 1 refused (a checkpoint-inputs file evalview psr would refuse,
two runs that cannot be compared); 2 a path does not exist or cannot be read.

examples:
  evalview                      # the bundled sample run
  evalview runs/closed-run/     # a closed run
  evalview out/result.json      # an exported result
  evalview runs/A runs/B        # compare two reads of the same schedule
  evalview sample_runs/         # the Runs screen: every read under the folder
  evalview sample_runs/psr/checkpoint-inputs.json \\
      --bare-targets sample_runs/psr/bare-targets.json --catalog sample_runs/psr/catalog.json
  evalview check runs/closed-run/ --json   # the same audit, for scripts
"""


def build_parser(*, for_help: bool = False) -> argparse.ArgumentParser:
    """The app's options; `for_help` adds what evalview reads, from the reader registry (only
    then: importing every reader before the first frame is what `evalview PATH` must not do)."""
    parser = argparse.ArgumentParser(
        prog="evalview",
        description=DESCRIPTION + ("\n" + formats_paragraph() if for_help else ""),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="closed-run directory, results JSON or checkpoint-inputs JSON (none: the bundled "
        "sample run; two runs: compare them)",
    )
    parser.add_argument(
        "--bare-targets",
        metavar="FILE",
        type=Path,
        help="partial credit: JSON table of targets for bare checkpoint values (as evalview psr)",
    )
    parser.add_argument(
        "--catalog",
        metavar="FILE",
        type=Path,
        help="checkpoint-inputs files: JSON of the expected tasks per split (as evalview psr)",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="re-read the run (or the folder's reads) when files change; w toggles it in the app",
    )
    parser.add_argument(
        "--allow-off-protocol",
        action="store_true",
        help="two runs: compare reads executed unlike each other (labelled OFF-PROTOCOL), "
        "as evalview compare",
    )
    parser.add_argument(
        "--read",
        metavar="KEY",
        help="a file of several named reads (LeRobot): open the read under KEY (without it, "
        "the app asks)",
    )
    return parser


def resolve_path(paths: Sequence[str]) -> tuple[Path | None, str | None]:
    """(path to open, None) or (None, message for stderr)."""
    if len(paths) > 2:
        return None, f"expected at most two paths, got {len(paths)}. Run `evalview --help`."
    if not paths:
        from evalview.samples import bundled_sample_path

        return bundled_sample_path(), None
    path = Path(paths[0])
    problem = path_problem(path)
    return (None, problem) if problem is not None else (path, None)


def path_problem(path: Path) -> str | None:
    """Why `path` cannot be opened (missing, a symlink, a FIFO, a device, over the bound), or
    None. Checked before Textual starts: a FIFO would block the app's loader for good."""
    from evalview.load.errors import InputError
    from evalview.load.input_path import check_input_path

    try:
        check_input_path(path)
    except InputError as exc:
        missing = not (path.exists() or path.is_symlink())
        if missing:
            from evalview.load.registry import formats_sentence

            hint = " " + formats_sentence()
        else:
            hint = ""
        return f"{exc}{hint}"
    return None


def main(argv: Sequence[str]) -> int:
    argv = list(argv)
    args = build_parser(for_help="-h" in argv or "--help" in argv).parse_args(argv)
    if len(args.paths) == 2:  # `evalview A B`: the compare screen (tui/compare_screen.py)
        problems = [m for m in (path_problem(Path(p)) for p in args.paths) if m is not None]
        if problems:
            error_console().print(f"[bold red]evalview:[/] {escape(problems[0])}")
            return EXIT_UNREADABLE
        from evalview.tui.compare_screen import run_compare

        return run_compare(
            Path(args.paths[0]),
            Path(args.paths[1]),
            allow_off_protocol=args.allow_off_protocol,
            unreadable=fail_unreadable,
        )
    path, problem = resolve_path(args.paths)
    for side in (args.bare_targets, args.catalog):
        if path is not None and side is not None:
            side_problem = path_problem(side)
            if side_problem is None and not side.is_file():
                side_problem = f"{side}: is a directory; pass the JSON file itself."
            if side_problem is not None:
                path, problem = None, side_problem
    if path is None:
        error_console().print(f"[bold red]evalview:[/] {escape(problem or '')}")
        return EXIT_UNREADABLE
    from evalview.folder import is_folder
    from evalview.tui.app import EvalViewApp

    if is_folder(path):  # the Runs screen reads in worker processes: start their helpers now
        from evalview.folder.parallel import prestart

        prestart()

    files = None
    if args.bare_targets is not None or args.catalog is not None:
        from evalview.session import PsrFiles

        files = PsrFiles(args.bare_targets, args.catalog)
    app = EvalViewApp(path, psr_files=files, read=args.read, watch=args.watch)
    result = app.run()
    if app.failure is not None:  # not a run: the same message and exit as a missing path
        message, hint = app.failure
        error_console().print(f"[bold red]evalview:[/] {escape(message)}\n{escape(hint)}")
    return EXIT_OK if result is None else int(result)
