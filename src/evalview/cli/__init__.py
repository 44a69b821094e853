"""The `evalview` command: subcommands for scripts, and the TUI when given a path (or nothing).

Each subcommand lives in its own module with `HELP`, `add_arguments(parser)` and `run(args)`;
modules import their heavy dependencies inside `run`, so `check` and `score` never import Textual.

Exit codes are mapped here, once: `run` returns 0 (or 1 for `check`'s error findings and a
refused score card), and lets `evalview.errors.InputError` (exit 2) and `Refused` (exit 1)
propagate. A module may define `show_refusal(exc, args)` to word its refusal (on stderr, and with
--json one document on stdout); otherwise the generic wording is used.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from evalview import __version__
from evalview.errors import InputError, Refused

#: Subcommand name -> module. Order is the order of `evalview --help`.
COMMANDS: dict[str, str] = {
    "check": "evalview.cli.check",
    "export": "evalview.cli.export",
    "psr": "evalview.cli.psr",
    "score": "evalview.cli.score",
    "compare": "evalview.cli.compare",
    "contrast": "evalview.cli.contrast",
    "power": "evalview.cli.power",
    "table": "evalview.cli.table",
}

EPILOG = """\
exit codes: 0 success, 1 refused (or, for check, error findings), 2 input could not be read.
Run `evalview COMMAND --help` for the options of one command.
"""


def _module(name: str) -> ModuleType:
    return importlib.import_module(COMMANDS[name])


def _texts(mod: ModuleType) -> dict[str, Any]:
    """A subcommand parser's description, epilog and layout, from its module."""
    return {
        "description": getattr(mod, "DESCRIPTION", mod.HELP),
        "epilog": getattr(mod, "EPILOG", None),
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }


def formats_paragraph() -> str:
    """What evalview reads, from the reader registry's declarations (a new format is listed by
    itself)."""
    import textwrap

    from evalview.load.registry import formats_sentence

    return textwrap.fill(formats_sentence(), width=78)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line (for `evalview --help`)."""
    parser = argparse.ArgumentParser(
        prog="evalview",
        usage="evalview [PATH [PATH_B]]   (the terminal app)\n       evalview COMMAND [options]",
        description=(
            "Audit, score and publish evaluation runs of robot and AI policies.\n\n"
            "The terminal app:\n"
            "  evalview                 the bundled sample run (24 tasks x 50 seeds)\n"
            "  evalview PATH            any read evalview reads (below), or a folder of them\n"
            "  evalview PATH_A PATH_B   compare two reads of the same schedule\n"
            "  evalview PATH --help     the app's options and keys\n\n"
            + formats_paragraph()
            + "\n\nThe subcommands below are for scripts and CI."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"evalview {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog="evalview")
    for name in COMMANDS:
        mod = _module(name)
        mod.add_arguments(sub.add_parser(name, help=mod.HELP, **_texts(mod)))
    return parser


class _MetavarCheck(argparse.RawDescriptionHelpFormatter):
    """The formatter a parser makes while its arguments are added: argparse builds one per
    `add_argument` only to check the metavar, never to lay out text, and the base class asks
    the terminal's width for it through `shutil`, whose import (with bz2, lzma and zlib) was
    ~1.5 ms of every command's start-up. Given a width, it asks nothing; the parser is handed
    its real formatter once built (`command_parser`), so help and usage errors are unchanged."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        super().__init__(prog, indent_increment, max_help_position, 80 if width is None else width)


def command_parser(name: str) -> argparse.ArgumentParser:
    """The parser of one subcommand on its own: a wrong option or an extra argument then
    prints `evalview NAME`'s usage, not the whole program's (argparse hands a subparser's
    leftovers to the top-level parser, whose usage says nothing about NAME). Only NAME's module
    is imported: `check --json` loads no rich."""
    mod = _module(name)
    texts = _texts(mod)
    parser = argparse.ArgumentParser(
        prog=f"evalview {name}", **{**texts, "formatter_class": _MetavarCheck}
    )
    mod.add_arguments(parser)
    parser.formatter_class = texts["formatter_class"]
    parser.set_defaults(command=name)
    return parser


def suggest_command(word: str) -> str | None:
    """The subcommand `word` was probably meant to be (`chekc` -> `check`), if any."""
    import difflib

    close = difflib.get_close_matches(word, list(COMMANDS), n=1, cutoff=0.6)
    return close[0] if close else None


#: Exit status when stdout is closed before the output is written (`evalview ... | head -1`):
#: what Python and rich use, so text and --json output end alike.
EXIT_CLOSED_STDOUT = 1


def main(argv: Sequence[str] | None = None) -> int:
    # numpy's OpenBLAS would start a thread per core at import that spins ~0.1 s on the other
    # core; evalview calls no BLAS routine (tui/app.py says more). A value the user set is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in COMMANDS:
        args = command_parser(args_list[0]).parse_args(args_list[1:])
        module = _module(args.command)
        try:
            return int(module.run(args))
        except BrokenPipeError:
            return _stdout_closed()
        except (InputError, Refused) as exc:
            try:
                return stopped(module, args, exc)
            except BrokenPipeError:
                return _stdout_closed()
    if args_list and _mistyped(args_list[0]):
        return 2
    if not args_list or args_list[0] not in ("-h", "--help", "--version"):
        return _open_tui(args_list)
    build_parser().parse_args(args_list)
    return 0


def _mistyped(word: str) -> bool:
    """Say so (on stderr) when `word` is neither a path nor a command but close to a command."""
    if word.startswith("-") or os.path.lexists(word):
        return False
    command = suggest_command(word)
    if command is None:
        return False
    print(
        f"evalview: {word!r} is not a command, and no file or directory has that name. "
        f"Did you mean `evalview {command}`? (`evalview --help` lists the commands.)",
        file=sys.stderr,
    )
    return True


def exit_code(exc: InputError | Refused) -> int:
    """The one mapping from why a command stopped to its exit status."""
    from evalview.cli.output import EXIT_REFUSED, EXIT_UNREADABLE

    return EXIT_UNREADABLE if isinstance(exc, InputError) else EXIT_REFUSED


def stopped(module: ModuleType, args: argparse.Namespace, exc: InputError | Refused) -> int:
    """Word why the command stopped (the module's own wording of a refusal when it has one)."""
    from evalview.cli.output import fail_unreadable, refuse

    as_json = bool(getattr(args, "json", False))
    if isinstance(exc, InputError):
        fail_unreadable(str(exc), as_json=as_json)
    elif hasattr(module, "show_refusal"):
        module.show_refusal(exc, args)
    else:
        refuse(str(exc), as_json=as_json, command=args.command)
    return exit_code(exc)


def _stdout_closed() -> int:
    """The reader went away (`| head -1`): no traceback. Point stdout at /dev/null so the
    interpreter's final flush does not fail again (the recipe of Python's signal docs)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout has no file descriptor (in-process callers): nothing will flush to it
    return EXIT_CLOSED_STDOUT


def _open_tui(args_list: list[str]) -> int:
    try:
        tui = importlib.import_module("evalview.cli.open")
    except ImportError:
        print("evalview: the terminal app is not available in this build.", file=sys.stderr)
        return 2
    return int(tui.main(args_list))
