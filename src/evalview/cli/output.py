"""Shared output helpers: one JSON document on stdout for --json, rich text otherwise.

rich is imported when text is written, so a --json run (CI, `check` on a large run) skips it.
"""

from __future__ import annotations

import argparse
import atexit
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalview.fmt import pct as pct  # re-exported: the views' one percent format

if TYPE_CHECKING:
    from rich.console import Console

    from evalview.findings import Finding

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_UNREADABLE = 2


def emit_json(document: Any) -> None:
    """Write one JSON document (and a newline) to stdout, nothing else: `textsafe.json_text`, so
    every control and invisible character is escaped, and a path whose bytes are not UTF-8 or an
    integer past 64 bits is written, never a traceback."""
    from evalview.textsafe import json_text

    sys.stdout.buffer.write(json_text(document) + b"\n")
    sys.stdout.flush()


def _valid_utf8(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    if isinstance(value, dict):
        return {_valid_utf8(k): _valid_utf8(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_valid_utf8(v) for v in value]
    return value


#: The width text gets when it is not going to a terminal: tables then never wrap a cell.
PIPE_WIDTH = 400


def _console(*, stderr: bool) -> Console:
    """Soft wrap: long lines are left to the terminal, never broken mid-sentence. Piped or
    redirected (no terminal, so no width), tables get PIPE_WIDTH columns rather than rich's
    80, so a task name is never cut in two. NO_COLOR (no-color.org) means plain text: no
    colour and no bold or dim either."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        terminal = False
    return Console(
        stderr=stderr,
        highlight=False,
        soft_wrap=True,
        width=None if terminal else PIPE_WIDTH,
        color_system=None if os.environ.get("NO_COLOR") else "auto",
    )


def console() -> Console:
    """Text output on stdout."""
    return _console(stderr=False)


def error_console() -> Console:
    """Messages on stderr."""
    return _console(stderr=True)


def fail_unreadable(message: str, *, as_json: bool = False) -> int:
    """Report an unreadable input (exit 2). With --json, stdout still gets one JSON document."""
    message = _valid_utf8(message)
    if as_json:
        emit_json({"error": message, "exit_code": EXIT_UNREADABLE})
    error_console().print(f"[bold red]evalview:[/] {escape(message)}")
    return EXIT_UNREADABLE


def refuse(message: str, *, as_json: bool, command: str) -> int:
    """A refusal (exit 1): the message on stderr, and with --json one document on stdout."""
    if as_json:
        emit_json({"refused": True, "error": message, "exit_code": EXIT_REFUSED})
    error_console().print(f"[bold red]evalview {command}: refused.[/] {escape(message)}")
    return EXIT_REFUSED


def resamples(text: str) -> int:
    """argparse type of `--bootstrap B` (score, export): a usage error (exit 2) names the value."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (off) or a positive number of resamples")
    return value


def finding_text(f: Finding, style: str, name: str = "") -> str:
    """One finding as rich markup (check, export's refusal): code, rule name, place, and the
    message on its own line. Data is escaped: a task named `[bold]x[/]` prints as written."""
    label = f" [dim]{name}[/]  " if name else " "
    # Messages name their place for JSON readers; the text already shows it on the line above.
    message = f.message.removeprefix(f"{f.location}: ")
    if message == f.message and f.file:
        message = f.message.removeprefix(f"{f.file}: ")
    return f"  [{style}]{f.code}[/]{label}[cyan]{escape(f.location)}[/]\n      {escape(message)}"


def escape(value: object) -> str:
    """Run data made safe for rich text output: control characters made visible (an ANSI escape
    in a task name must not reach the terminal) and markup escaped (`[bold]` prints as written).
    """
    from rich.markup import escape as rich_escape

    from evalview.textsafe import clean

    return rich_escape(clean(value))


def exit_at_once(code: int, command: str) -> int:
    """End the process now when it is the `evalview COMMAND` command and nothing is registered
    to run at exit: tearing down the interpreter would free the parsed run object by object
    (about 0.05 s for `check`, 0.1 s or more for `export` on a 10,000-episode run) just before
    the process ends. Output is flushed first. Called in-process (tests, other programs), or
    with an exit handler registered, it only returns the code."""
    if not is_the_command(command) or getattr(atexit, "_ncallbacks", lambda: 1)() != 0:
        return code
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return code  # let the normal exit report it
    os._exit(code)


def is_the_command(command: str) -> bool:
    """True when the process was started as `evalview COMMAND ...` or `python -m evalview
    COMMAND ...`: a short-lived process that may skip freeing what it read."""
    if sys.argv[1:2] != [command]:
        return False
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None:
        return bool(spec.name == "evalview.__main__")
    return Path(getattr(main, "__file__", None) or "").name == "evalview"
