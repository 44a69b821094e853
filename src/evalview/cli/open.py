"""`evalview [PATH]`: open the terminal app on a run (the bundled sample when no PATH is given).

Checks the path before Textual starts, so a typo ends with a message and exit 2, not an empty app.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from rich.markup import escape

from evalview.cli.output import EXIT_OK, EXIT_UNREADABLE, error_console

DESCRIPTION = """\
Open the evalview terminal app on a closed-run directory (the one holding manifest.json) or a
results JSON. With no PATH it opens a bundled 24-task x 50-seed sample run, to look around.

In the app: the number keys switch tabs (Overview, Tasks, Episodes, Errors, Findings, ...),
Enter opens what is under the cursor, Esc goes back, / searches episodes, ctrl+p jumps to a task
or an episode id, ? lists every key, q quits.
"""
EPILOG = """\
exit codes: 0 closed normally, 2 the path does not exist or cannot be opened.

examples:
  evalview                      # the bundled sample run
  evalview runs/closed-run/     # a closed run
  evalview check runs/closed-run/ --json   # the same audit, for scripts
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evalview",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="closed-run directory or results JSON (none: the bundled sample run)",
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
    if not (path.exists() or path.is_symlink()):
        return None, (
            f"{path}: no such file or directory. "
            "Pass a closed-run directory or a results JSON."
        )
    return path, None


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
    if len(args.paths) == 2:  # `evalview A B`: the compare screen (tui/compare_screen.py)
        missing = [p for p in args.paths if not (Path(p).exists() or Path(p).is_symlink())]
        if missing:
            gone = f"{missing[0]}: no such file or directory."
            error_console().print(f"[bold red]evalview:[/] {escape(gone)}")
            return EXIT_UNREADABLE
        from evalview.tui.compare_screen import run_compare

        return run_compare(Path(args.paths[0]), Path(args.paths[1]))
    path, problem = resolve_path(args.paths)
    if path is None:
        error_console().print(f"[bold red]evalview:[/] {escape(problem or '')}")
        return EXIT_UNREADABLE
    from evalview.tui.app import EvalViewApp

    result = EvalViewApp(path).run()
    return EXIT_OK if result is None else int(result)
