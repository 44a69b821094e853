"""`evalview export PATH --output-dir DIR [--metric KEY]...`: the sanitized result to publish."""

from __future__ import annotations

import argparse

from evalview.cli.output import (
    EXIT_OK,
    EXIT_REFUSED,
    console,
    error_console,
    escape,
    exit_at_once,
    finding_text,
    is_the_command,
    resamples,
)

HELP = "write a sanitized result.json and a standalone index.html for publication"
DESCRIPTION = """\
Export a closed run for publication: DIR/result.json (schema evalview.result/v1, see
docs/result.schema.json) and DIR/index.html, a single self-contained page (no script, no
external request) that opens from disk.

What is published: the run's identity and public declarations, the three denominators
(successes / selected first), per-task counts with Wilson 95 % intervals, the all-T aggregate
with its SE and bootstrap interval, error categories, audit warnings and per-episode outcomes.
What is not: error messages and tracebacks, instructions, metadata, usage, artifacts, paths,
and any metric not named with --metric. Absolute paths and your user name are redacted from
every string that is kept.

Errored rollouts stay in the denominators as non-successes, with their category; infrastructure
errors are shown as pending a re-run. The export refuses (exit 1, nothing written) when DIR
exists, lies inside the run or its parent is missing (only DIR itself is created), when the
audit finds an error, when a published field holds a credential-shaped value (an API key,
token, e-mail address, host name, private IP address or stack trace: finding EV606 names the
field and its JSON path; --redact replaces them instead, and result.json and the page list what
was replaced), or when an input file changes while it is being read. Control characters in the
data never reach the files. The run itself is never modified.
"""
EPILOG = """\
exit codes:
  0  exported
  1  refused (destination, audit errors, credential-shaped values, inputs changed); nothing
     was written
  2  the path could not be read as a run at all

examples:
  evalview export runs/closed-run --output-dir reports/my-run
  evalview export runs/closed-run --output-dir reports/my-run --metric score
  evalview reports/my-run/result.json        # reopen the exported result
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="PATH", help="closed-run directory (or an exported result.json)")
    p.add_argument(
        "--output-dir", "-o", required=True, metavar="DIR",
        help="new directory to create (must not exist, must be outside the run)",
    )
    p.add_argument(
        "--metric", action="append", default=[], metavar="KEY",
        help="also publish metrics.KEY per episode (numeric or boolean; missing -> null); "
        "repeatable",
    )
    p.add_argument(
        "--redact", action="store_true",
        help="replace credential-shaped values (API keys, tokens, e-mail addresses, host names, "
        "private IP addresses, stack traces) instead of refusing; result.json and the page list "
        "each replaced value's field",
    )
    p.add_argument(
        "--bootstrap", type=resamples, default=None, metavar="B",
        help="bootstrap resamples for the aggregate interval (default 10000; 0 turns it off)",
    )
    p.add_argument(
        "--read", metavar="KEY",
        help="in a file of several named reads (LeRobot), export the read under KEY",
    )


def show_refusal(exc: Exception, args: argparse.Namespace) -> None:
    """How `evalview export` words a refusal (exit 1, mapped in `evalview.cli`): the audit's
    error findings under it when the audit is why."""
    from evalview.report.export import AuditRefused

    err = error_console()
    err.print(f"[bold red]✗ refused:[/] {escape(str(exc))}")
    if isinstance(exc, AuditRefused):
        for f in exc.findings:
            err.print(finding_text(f, "red"))


def run(args: argparse.Namespace) -> int:
    from evalview.report.export import Exported, export_run
    from evalview.report.export_summary import export_summary, harness_export_summary

    err = error_console()
    try:  # read once, whichever format: an episode read, or a harness result's own document
        done = export_run(
            args.path,
            args.output_dir,
            metrics=tuple(args.metric),
            bootstrap=args.bootstrap,
            redact=args.redact,
            read=args.read,
            short_lived=is_the_command("export"),  # exits right after: nothing to free
        )
    except OSError as exc:
        err.print(
            f"[bold red]✗ refused:[/] cannot write {escape(str(args.output_dir))} "
            f"({escape(exc.strerror or str(exc))}); nothing was written. Choose a writable place."
        )
        return EXIT_REFUSED

    summary = export_summary(done) if isinstance(done, Exported) else harness_export_summary(done)
    out = console()
    out.print(
        f"[bold green]✓ exported[/] {escape(str(summary.destination))}: "
        f"{escape(summary.headline)}"
    )
    for path in summary.files:
        out.print(f"  {escape(str(path))}")
    for warning in summary.warnings:
        out.print(f"[yellow]! {escape(warning)}[/]")
    return exit_at_once(EXIT_OK, "export")
