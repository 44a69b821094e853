"""`evalview psr INPUT [OUTPUT] [--json]`: reconstructed partial success rate (PSR)."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table

from evalview.cli.output import (
    EXIT_OK,
    EXIT_REFUSED,
    console,
    emit_json,
    error_console,
    escape,
    pct,
)
from evalview.fmt import fixed
from evalview.load.closed_run import RUN_FILES

if TYPE_CHECKING:
    from evalview.load.source import Source
    from evalview.psr import CheckpointReport, RunPsrReport

HELP = "reconstructed partial success rate (PSR) from verifier checkpoint messages"
DESCRIPTION = """\
Partial success rate by method checkpoint_fraction_v1, labelled "reconstructed PSR": it follows
the spec's checkpoint definition and is NOT cross-validated against the historical PSR program
(every report says historical_implementation_reproduced: false).

Each checkpoint of a failed task's verifier message is credited:
  Logs: 3/5          quantity      min(actual/target, 1)           -> 0.6
  All alive: True    boolean       1 for True, 0 for False
  Rounds: 30/25      upper bound   1 if actual <= limit, else 0     -> 0
  Logs: 3            bare value    target from --bare-targets only (else refused)
A task's PSR is 1 when its verifier reports success, else the mean of its credits; a split's PSR
is the mean over its tasks (equal task weight). Main, augmented v1 and v2 are reported separately.

INPUT is either a checkpoint-inputs JSON (model -> rows of stage, task, success, message, CCE,
rounds, chats) or a closed-run directory whose episodes carry the verifier message in
metrics.message (--message-key to use another key). For a run, each task's PSR is the mean over
its completed episodes; errored and unattempted cases are listed and make the result partial,
never scored as zero. See docs/psr.md.
"""
EPILOG = """\
exit codes:
  0  scored (a partial result is still 0: read `final` and `missing_tasks`)
  1  refused: a message that cannot be parsed, a duplicate row, a task outside the catalog,
     an invalid metric, or an OUTPUT that would overwrite an input
  2  INPUT (or a table/catalog file) could not be read

examples:
  evalview psr runs/checkpoint-inputs.json runs/psr-results.json
  evalview psr runs/checkpoint-inputs.json --bare-targets bare.json --catalog catalog.json --json
  evalview psr runs/closed-run/ --per-task
  evalview psr runs/closed-run/ --message-key verifier_message --upper-bound-labels Rounds,Steps
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="INPUT", help="checkpoint-inputs JSON or closed-run directory")
    p.add_argument(
        "output",
        metavar="OUTPUT",
        nargs="?",
        help="write the full JSON report here (never the input, never inside the run read)",
    )
    p.add_argument("--json", action="store_true", help="write one JSON document to stdout")
    p.add_argument(
        "--bare-targets",
        metavar="FILE",
        help="JSON table of targets for bare values without a denominator (docs/psr.md)",
    )
    p.add_argument(
        "--catalog",
        metavar="FILE",
        help="JSON of the expected tasks per split (main, augmented_v1, augmented_v2)",
    )
    p.add_argument(
        "--upper-bound-labels",
        metavar="LABELS",
        default=None,
        help="comma-separated labels credited as upper bounds (default: Rounds); '' for none",
    )
    p.add_argument(
        "--message-key",
        metavar="KEY",
        default=None,
        help="closed runs: the metrics key holding the verifier message (default: message)",
    )
    p.add_argument(
        "--per-task",
        action="store_true",
        help="text mode: each task's (run: episode's) checkpoints",
    )


def run(args: argparse.Namespace) -> int:
    report = _score(args)
    if args.output is not None:
        _write(Path(args.output), report.to_json(), _protected(args))
    if args.json:
        emit_json(report.to_json())
    else:
        _print(report, per_task=args.per_task, output=args.output)
    return EXIT_OK


def _score(args: argparse.Namespace) -> CheckpointReport | RunPsrReport:
    from evalview.load import ReadOptions, Source, select_run
    from evalview.load.registry import holds_of
    from evalview.model.run import DEFAULT_MESSAGE_KEY
    from evalview.psr import PsrOptions, score_inputs, score_psr_run
    from evalview.psr.inputs import load_bare_targets, load_catalog, parse_checkpoint_inputs
    from evalview.psr.parser import DEFAULT_UPPER_BOUND_LABELS, PsrError, normalize_labels
    from evalview.session import no_partial_credit, read_address

    path = Path(args.input)
    source = Source(path)
    source.check()  # before anything is opened: no symlink, FIFO or device; bounded
    labels = (
        DEFAULT_UPPER_BOUND_LABELS
        if args.upper_bound_labels is None
        else normalize_labels(args.upper_bound_labels.split(","))
    )
    bare = None if args.bare_targets is None else load_bare_targets(Path(args.bare_targets))

    # a broken JSON file is worded as PSR input (exit 2); JSON Lines is not one JSON document,
    # and a file a reader claims by its content (an Inspect .eval zip, a log with NaN) is that
    # reader's to word
    if path.is_file() and path.name not in RUN_FILES and not path.name.endswith(".jsonl") \
            and not _claimed(source):
        source.strict_json("input")
    message_key = args.message_key or DEFAULT_MESSAGE_KEY
    reading = read_address(source, ReadOptions(message_key=message_key))
    why_not = no_partial_credit(reading.format, path)
    if why_not is not None:  # the reader's own words, as the app's Partial credit tab says
        raise PsrError(why_not)
    if holds_of(reading.format) == "checkpoint-inputs":
        if args.message_key not in (None, DEFAULT_MESSAGE_KEY):
            raise PsrError(
                f"{path}: --message-key applies to closed runs; checkpoint-input rows always "
                "carry the verifier message under `message`."
            )
        catalog = None if args.catalog is None else load_catalog(Path(args.catalog))
        options = PsrOptions(labels, bare, catalog, args.catalog)
        return score_inputs(parse_checkpoint_inputs(path, reading.payload), options)

    if args.catalog is not None:
        raise PsrError(
            f"{path}: --catalog applies to checkpoint-inputs files; a closed run's manifest "
            "schedule already declares its tasks."
        )
    return score_psr_run(select_run(reading), PsrOptions(labels, bare))


def _claimed(source: Source) -> bool:
    """Some reader recognises the file by its content (cheap: the detectors share one read)."""
    from evalview.load.registry import all_readers

    return any(r.detect(source) for r in all_readers())


def _protected(args: argparse.Namespace) -> list[tuple[Path, bool]]:
    """Paths OUTPUT must not be (or, for a run directory, be inside)."""
    inp = Path(args.input)
    out: list[tuple[Path, bool]] = []
    if inp.is_dir():
        out.append((inp, True))
    elif inp.name in RUN_FILES:
        out.append((inp.parent, True))
    else:
        out.append((inp, False))
    out.extend((Path(p), False) for p in (args.bare_targets, args.catalog) if p is not None)
    return out


def _write(output: Path, document: dict[str, Any], protected: list[tuple[Path, bool]]) -> None:
    """Write the report atomically, refusing any path that is (or lies inside) an input."""

    from evalview.psr import PsrError

    target = output.resolve()
    for path, is_dir in protected:
        src = path.resolve()
        if target == src or (is_dir and target.is_relative_to(src)):
            where = "inside the run being read" if is_dir and target != src else "an input"
            raise PsrError(
                f"{output}: OUTPUT is {where} ({path}); evalview never writes into what it reads. "
                "Choose another OUTPUT path."
            )
    if target.is_dir():
        raise PsrError(f"{output}: OUTPUT is a directory; give a file path for the JSON report.")
    from evalview.textsafe import json_text

    data = json_text(document) + b"\n"
    try:
        fd, tmp = tempfile.mkstemp(prefix=".psr-", suffix=".json", dir=target.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except OSError as exc:
        raise PsrError(f"{output}: the report could not be written ({exc.strerror}).") from exc


def show_refusal(exc: Exception, args: argparse.Namespace) -> None:
    """How `evalview psr` words a refusal (exit 1, mapped in `evalview.cli`)."""
    _refuse(str(exc), as_json=args.json)


def _refuse(message: str, *, as_json: bool) -> int:
    if as_json:
        emit_json({"error": message, "exit_code": EXIT_REFUSED})
    error_console().print(f"[bold red]evalview psr: refused:[/] {escape(message)}")
    return EXIT_REFUSED


# --- text output -------------------------------------------------------------------------------


def _print(report: CheckpointReport | RunPsrReport, *, per_task: bool, output: str | None) -> None:
    from evalview.psr import RunPsrReport

    out = console()
    out.print(
        "[bold]reconstructed PSR[/] [dim](method checkpoint_fraction_v1; not cross-validated "
        "against the historical PSR program)[/]"
    )
    if isinstance(report, RunPsrReport):
        _print_run(report, per_task)
    else:
        _print_inputs(report, per_task)
    if output is not None:
        out.print(f"[dim]full report written to {escape(output)}[/]")


_SHORT = {"augmented_v1": "Aug v1", "augmented_v2": "Aug v2", "augmented": "Aug v1∪v2"}


def _status(status: str) -> str:
    style = {"final": "green", "partial": "yellow", "empty": "dim"}.get(status, "")
    return f"[{style}]{status}[/]"


def _num(x: float | None) -> str:
    return "—" if x is None else fixed(x, 2)


def _print_inputs(report: CheckpointReport, per_task: bool) -> None:
    out = console()
    for model in report.models:
        table = Table(title=f"{escape(model.model)}", title_justify="left")
        for col in ("split", "PSR", "SR", "CCE", "Rounds", "Chats", "coverage", "status"):
            wraps = col in ("split", "coverage")
            table.add_column(col, justify="left" if wraps else "right", no_wrap=not wraps)
        for s in model.summaries:
            table.add_row(
                _SHORT.get(s.split, s.title),
                pct(s.psr, 2),
                pct(s.sr, 2),
                pct(s.cce, 2),
                _num(s.rounds),
                _num(s.chats),
                s.coverage.fraction,  # the status column says partial or final
                _status(s.status),
            )
        out.print(table)
        for s in model.summaries:
            if s.coverage.missing_tasks:
                shown = ", ".join(s.coverage.missing_tasks[:10])
                more = len(s.coverage.missing_tasks) - 10
                out.print(
                    f"  [yellow]{s.title}: partial, means over the scored tasks only; missing "
                    f"{escape(shown)}{f' and {more} more' if more > 0 else ''}[/]"
                )
            if s.cce_pending_tasks and s.split != "augmented":
                shown = ", ".join(s.cce_pending_tasks[:10])
                more = len(s.cce_pending_tasks) - 10
                out.print(
                    f"  [yellow]{s.title}: CCE pending (judge not answered) for "
                    f"{escape(shown)}{f' and {more} more' if more > 0 else ''}; CCE is the mean "
                    "over the other tasks, not a zero for these[/]"
                )
        if report.options.catalog is None:
            out.print(
                "  [dim]coverage n/?: no --catalog, the expected tasks are unknown, "
                "so no summary is final[/]"
            )
        if per_task:
            tasks = _detail_table("task", "split", "success", "PSR", "checkpoints")
            for t in model.tasks:
                tasks.add_row(
                    escape(t.task),
                    t.split,
                    "yes" if t.success else "no",
                    pct(t.psr, 2),
                    escape(_checkpoints_text(t.checkpoints, t.note)),
                )
            out.print(tasks)


def _detail_table(*columns: str) -> Table:
    """The --per-task table (tasks of an inputs file, episodes of a run): only checkpoints wrap."""
    table = Table(show_header=True)
    for col in columns:
        table.add_column(
            col, justify="right" if col == "PSR" else "left", no_wrap=col != "checkpoints"
        )
    return table


def _checkpoints_text(checkpoints: Any, note: str | None) -> str:
    if checkpoints is None:
        return note or "—"
    parts = []
    for c in checkpoints:
        observed = c.observed if c.target is None else f"{c.observed}/{c.target}"
        parts.append(f"{c.label} {observed} → {fixed(c.credit, 2)}")
    return "; ".join(parts)


def _print_run(report: RunPsrReport, per_task: bool) -> None:
    out = console()
    table = Table(title=escape(f"{report.model} ({report.run_path})"), title_justify="left")
    for col in ("task", "PSR", "SR (scored)", "successes", "scored", "not scored"):
        wraps = col in ("task", "not scored")
        table.add_column(col, justify="left" if wraps else "right", no_wrap=not wraps)
    for t in report.tasks:
        unscored = t.not_scored()
        table.add_row(
            escape(t.task),
            pct(t.psr, 2),
            pct(t.sr, 2),
            f"{t.successes}/{t.selected}",
            f"{t.scored}/{t.selected}",
            ", ".join(unscored) or "—",
        )
    table.add_section()
    table.add_row(
        "[bold]mean over tasks[/]",
        f"[bold]{pct(report.psr, 2)}[/]",
        pct(report.sr, 2),
        pct(report.selected_success_rate, 2),
        f"{sum(t.scored for t in report.tasks)}/{sum(t.selected for t in report.tasks)}",
        _status(report.status),
    )
    out.print(table)
    if report.status != "final":
        out.print(
            "  [yellow]partial: errored and unattempted cases have no verifier outcome; they are "
            "listed, not scored (never imputed as zero). PSR and SR describe the scored "
            "episodes only.[/]"
        )
    if report.reading_findings:
        out.print(
            f"  [yellow]{report.reading_findings} reading finding(s): run `evalview check` "
            f"{escape(report.run_path)} before publishing these numbers.[/]"
        )
    if per_task:
        eps = _detail_table("episode", "status", "success", "PSR", "checkpoints")
        for e in report.episodes:
            eps.add_row(
                escape(e.episode_id),
                e.status,
                "—" if e.success is None else ("yes" if e.success else "no"),
                pct(e.psr, 2),
                escape(_checkpoints_text(e.checkpoints, e.note)),
            )
        out.print(eps)
