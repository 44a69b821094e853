"""`evalview score PATH [...]`: the aggregate, denominators, per-task intervals, error categories.

Only formatting lives here; every number comes from `evalview.stats.score_run`, the same one the
terminal app and the export show. Never imports Textual (start-up time, headless use).
"""

from __future__ import annotations

import argparse
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
    resamples,
)
from evalview.fmt import pct_range, points, ratio

if TYPE_CHECKING:
    from rich.console import Console

    from evalview.stats import Scorecard
    from evalview.stats.denominators import Denominators
    from evalview.stats.graded import GradedMetric
    from evalview.stats.scorecard import Aggregate

HELP = "score a read: the all-T aggregate, denominators, per-task Wilson intervals"
DESCRIPTION = """\
Score one read under the reporting rules. The headline is successes / selected cases (errored and
unattempted cases stay in the denominator); successes / attempted and successes / completed are
shown beside it, each labelled.

The aggregate all-T is the mean of the T tasks' rates over their selected cases, with the
binomial SE of that mean, a normal 95 % interval (mean ± 1.959964·SE) and a 95 % seed bootstrap
(B resamples drawn from random.Random(7), percentile bounds; see docs/statistics.md).
--per-task adds each task's rate and Wilson 95 % interval.

A read with any errored rollout is refused (infrastructure errors are pending a re-run, not
failures), as is a record the audit finds inconsistent: --allow-errors scores it anyway, errored
cases as non-successes, labelled "not a publishable read".
"""
EPILOG = """\
exit codes:
  0  scored
  1  refused: errored rollouts or audit errors (without --allow-errors), an off-protocol
     read (without --allow-off-protocol), a read conditioned on quality tag 0 (the trainer's
     "untagged" sentinel), another benchmark version than --benchmark declares, a mix of
     test and development seeds, an unknown --view, no selected case
  2  PATH (or the --benchmark file) could not be read

examples:
  evalview score runs/closed-run/ --per-task
  evalview score runs/closed-run/ --allow-errors --json | jq .aggregate
  evalview score runs/closed-run/ --benchmark robobench-1.2.0.json --view usable_12
  evalview score runs/closed-run/ --metric score --bootstrap 0
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="PATH", help="closed-run directory or results JSON")
    p.add_argument("--per-task", action="store_true", help="each task's rate and Wilson 95 %%")
    p.add_argument(
        "--view", metavar="NAME", help="a subset declared by --benchmark (an appendix view)"
    )
    p.add_argument(
        "--group-by", metavar="KEY",
        help="the rate and Wilson 95 %% by each value of a sample metadata key (Inspect AI: "
        "category, subject, difficulty; --view KEY says the same)",
    )
    p.add_argument(
        "--bootstrap",
        metavar="B",
        type=resamples,
        default=10_000,
        help="seed-bootstrap resamples (default 10000; 0 turns it off)",
    )
    p.add_argument(
        "--benchmark",
        metavar="FILE",
        help="benchmark declaration JSON (tasks, test and development seeds, subsets, version); "
        "see docs/formats.md",
    )
    p.add_argument(
        "--metric", metavar="KEY", help="also report the graded per-episode metric metrics.KEY"
    )
    p.add_argument(
        "--allow-errors",
        action="store_true",
        help="score a read with errored rollouts or audit errors (labelled not publishable)",
    )
    p.add_argument(
        "--allow-off-protocol",
        action="store_true",
        help="score an off-protocol read (declared off_protocol or deviations), labelled "
        "OFF-PROTOCOL",
    )
    p.add_argument(
        "--read",
        metavar="KEY",
        help="in a file of several named reads (LeRobot), score only the read under KEY",
    )
    p.add_argument("--json", action="store_true", help="write one JSON document to stdout")


def run(args: argparse.Namespace) -> int:
    from evalview.folder.discover import one_read
    from evalview.model.address import Address
    from evalview.session import HarnessSession, ScoreOptions, open_reads, score_session
    from evalview.stats import load_benchmark

    # a folder of one read (an lm-eval model directory) is that read, as `check DIR` finds it
    # read once, whichever reader takes it
    address = one_read(Address.of(args.path, args.read), "score")
    if address.path != Address.of(args.path).path:
        # `score DIR` names the read it opened, as `score FILE` does (text and JSON `path`)
        args.path = str(address.path)
    opened = open_reads(address)
    if isinstance(opened[0], HarnessSession):  # a benchmark-harness result: arms x seeds
        from evalview.cli.harness import score as score_harness_file

        return score_harness_file(opened[0], args)
    declaration = None if args.benchmark is None else load_benchmark(args.benchmark)
    reads = [s for s in opened if not isinstance(s, HarnessSession)]
    options = ScoreOptions(
        bootstrap=args.bootstrap,
        benchmark=declaration,
        view=args.view,
        metric=args.metric,
        allow_errors=args.allow_errors,
        allow_off_protocol=args.allow_off_protocol,
        group_by=args.group_by,
    )
    cards = [score_session(session, options) for session in reads]
    refused = any(card.refused for card in cards)
    several = len(cards) > 1
    if args.json:
        docs = [_json(card, str(args.path), named=several) for card in cards]
        # A file of several named reads: {"reads": [SCORE, ...]}, each SCORE's run_id its key.
        emit_json({"reads": docs} if several else docs[0])
        return EXIT_REFUSED if refused else EXIT_OK
    for i, (session, card) in enumerate(zip(reads, cards, strict=True)):
        name = session.where.read
        where = f"{args.path} [{name}]" if several and name is not None else str(args.path)
        if several:
            console().print(("\n" if i else "") + f"[bold reverse] read {escape(str(name))} [/]")
        if card.refused:
            _print_refusals(error_console(), card, where)
            native = (card.source or {}).get("native")
            if isinstance(native, dict) and native.get("lines"):  # an aggregates-only read
                _print_native(console(), native)
        else:
            _print_card(console(), card, where, per_task=args.per_task)
    return EXIT_REFUSED if refused else EXIT_OK


def _json(card: Scorecard, path: str, *, named: bool) -> dict[str, Any]:
    """One SCORE document; `named` (one of several reads) keeps run_id even when refused."""
    doc = card.to_json()
    doc["path"] = path
    if card.refused:
        # A refused read reports no score, but keeps every key of the contract so scripts
        # can rely on them: the scores are null, the record's counts stay (they are facts).
        keep = ("path", "refused", "publishable", "refusals", "labels", "errored",
                "denominators", "error_categories")
        doc = ({"run_id": doc["run_id"]} if named else {}) | {k: doc[k] for k in keep} | {
            "aggregate": None, "rates": None, "tasks": None
        }
        native = (card.source or {}).get("native")
        if isinstance(native, dict) and native.get("lines"):  # recorded numbers stay facts
            doc["source"] = {"native": native}
    return doc


def _print_refusals(out: Console, card: Scorecard, path: str) -> None:
    out.print(f"[bold red]✗ {escape(path)}: refused, no score reported.[/]")
    for r in card.refusals:
        out.print(f"  [bold red]{r.code}[/]  {escape(r.message)}")
        for detail in r.details:
            out.print(f"      [cyan]{escape(detail)}[/]")


def _frac(k: int, n: int) -> str:
    return f"{ratio(k, n)} = {pct(k / n) if n else '—'}"


def _print_card(out: Console, card: Scorecard, path: str, *, per_task: bool) -> None:
    _print_identity(out, card, path)
    _print_denominators(out, card)
    _print_aggregate(out, card.aggregate, _zero_spread_label(card))
    if card.source is not None:
        _print_source(out, card.source)
    if card.graded is not None:
        _print_graded(out, card.graded)
    from evalview.cli.breakdown_text import print_breakdowns

    print_breakdowns(out, card)
    if per_task:
        out.print()
        out.print(_task_table(card))
        if any(t.error_categories for t in card.tasks):
            out.print(_errors_table(card))
    _print_errors(out, card)
    caveat = ", with the caveat beside its SE" if card.aggregate.zero_spread else ""
    out.print(
        f"[bold green]publishable read{caveat}[/]"
        if card.publishable
        else "[bold yellow]not a publishable read[/]"
    )


def _print_identity(out: Console, card: Scorecard, path: str) -> None:
    """Benchmark, policy and run id (the path when none is known), then the card's labels."""
    ident = " · ".join(
        escape(x)
        for x in (
            " ".join(v for v in (card.benchmark, card.benchmark_version) if v),
            card.policy or "",
            card.run_id or "",
        )
        if x
    )
    out.print(f"[bold]{ident or escape(path)}[/]  [dim]{escape(path)}[/]")
    beside = _zero_spread_label(card)  # printed beside the SE it is about, not here
    for label in card.labels:
        if label != beside:
            out.print(f"[bold yellow]{escape(label)}[/]")


def _zero_spread_label(card: Scorecard) -> str | None:
    from evalview.stats.policy import ZERO_SPREAD

    return next((lb for lb in card.labels if lb.startswith(ZERO_SPREAD)), None)


def _print_denominators(out: Console, card: Scorecard) -> None:
    """The headline rate over selected cases, the two other rates, and what the cases were."""
    d = card.denominators
    out.print()
    out.print(
        f"[bold]successes / selected  {_frac(d.successes, d.selected)}[/]  "
        "[dim](headline: errored and unattempted cases stay in the denominator)[/]"
    )
    out.print(f"successes / attempted {_frac(d.successes, d.attempted)}")
    out.print(f"successes / completed {_frac(d.successes, d.completed)}")
    extra = _not_completed(d, card.pending)
    out.print(
        f"selected {d.selected} · attempted {d.attempted} · completed {d.completed}"
        + (f" · {' · '.join(extra)}" if extra else "")
    )
    out.print(f"[dim]cases: {escape(card.coverage['note'])}[/]")


def _not_completed(d: Denominators, pending: int) -> list[str]:
    """The selected cases that did not complete, by kind (none: an empty list)."""
    extra = []
    if d.errors:
        extra.append(
            f"{d.errors} errored ({pending} infrastructure, pending a re-run)"
            if pending
            else f"{d.errors} errored"
        )
    if d.unattempted:
        # the declared-but-missing cases are among the unattempted ones: say so, not beside them
        extra.append(
            f"{d.unattempted} unattempted ({d.missing} of them declared but missing from the "
            "run, counted as failures)"
            if d.missing
            else f"{d.unattempted} unattempted"
        )
    if d.invalid:
        extra.append(f"{d.invalid} with an invalid status")
    return extra


def _print_aggregate(out: Console, a: Aggregate, zero_spread: str | None = None) -> None:
    """The all-T mean with its SE and both 95 % intervals, or why there is none; an SE that is
    zero by design says so on the next line, with the pooled Wilson interval that is honest."""
    out.print()
    flag = " (appendix view)" if a.view else ""
    title = f"[bold]{escape(a.name)}{flag}[/] mean of {a.tasks} per-task rates over selected cases"
    if a.mean is None or a.se is None or a.ci95 is None:
        out.print(f"{title}: — (a task has no selected case)")
        return
    out.print(f"{title}: [bold]{pct(a.mean)}[/] ± {points(a.se, sign=False)} (binomial SE)")
    width = " [yellow](zero width, by design)[/]" if a.zero_spread else ""
    if zero_spread is not None:
        out.print(f"  [bold yellow]⚠ {escape(zero_spread)}[/]")
    out.print(f"  95 % normal interval (mean ± 1.96 SE)   {_iv(a.ci95)}{width}")
    if a.bootstrap is None:
        out.print("  95 % seed bootstrap                      off (--bootstrap 0)")
    else:
        out.print(
            f"  95 % seed bootstrap (B = {a.resamples:,}, seed 7)  {_iv(a.bootstrap)}{width}"
        )
    if a.zero_spread is not None:
        z = a.zero_spread
        out.print(
            f"  95 % Wilson, pooled over {z.selected:,} episodes  "
            f"[bold]{_iv(z.pooled_wilson95)}[/]"
        )


def _print_graded(out: Console, g: GradedMetric) -> None:
    value = "—" if g.mean is None else f"{g.mean:.4g}"
    se = "" if g.se is None else f" ± {g.se:.3g} (SE)"
    out.print(
        f"graded metric [bold]{escape(g.key)}[/]: mean of per-task means {value}{se} "
        f"over {g.n} episodes reporting it ({g.missing} selected cases without it)"
    )


def _print_errors(out: Console, card: Scorecard) -> None:
    """Error categories and termination reasons, each errored rollout, the missing cases."""
    out.print()
    cats = ", ".join(
        f"{k} {v}" + (" (pending a re-run)" if k == "infrastructure" and v else "")
        for k, v in card.error_categories.items()
    )
    out.print(f"error categories: {cats}")
    if card.termination_reasons:
        reasons = ", ".join(f"{escape(k)} {v}" for k, v in card.termination_reasons.items())
        out.print(f"termination reasons: {reasons}")
    if card.errored:
        out.print("errored rollouts:")
        for e in card.errored:
            out.print(f"  [cyan]{escape(e.describe())}[/]")
    if card.missing_cases:
        shown = ", ".join(card.missing_cases[:10])
        more = f" and {len(card.missing_cases) - 10} more" if len(card.missing_cases) > 10 else ""
        out.print(f"missing declared cases (failures): {escape(shown)}{more}")


def _print_source(out: Console, source: dict[str, object]) -> None:
    """The input format's own pooled headline beside all-T, and why they differ (LeRobot; a
    group view is compared with what the file records for that group, per_group); or the input
    tool's own headline as recorded and recomputed (Inspect AI's accuracy)."""
    native = source.get("native")
    if isinstance(native, dict) and native:
        _print_native(out, native)
        return
    recorded, pooled = source.get("reported_pc_success"), source.get("pooled_rate")
    if not isinstance(pooled, float):
        return
    of = source.get("reported_pc_success_of")
    if not isinstance(recorded, float):
        shown = ""
    elif of == "read":
        shown = f"{pct(recorded)} recorded (the file's pc_success), "
    else:
        shown = f"{pct(recorded)} recorded (the file's per_group pc_success of {escape(str(of))}), "
    out.print(f"  pooled over episodes  {shown}{pct(pooled)} recomputed")
    out.print(f"  [dim]{escape(str(source.get('pooled_vs_all_tasks', '')))}[/]")


def _print_native(out: Console, native: dict[str, Any]) -> None:
    """What the tool that wrote the input reports, over its own denominator, said as such."""
    lines = native.get("lines")
    if isinstance(lines, list) and lines:  # one line per task (lm-eval): value ± stderr, Wilson
        out.print(f"  {escape(str(native.get('tool')))}'s own numbers, as recorded:")
        for line in lines:
            out.print(f"    {escape(str(line))}")
        out.print(f"  [dim]over {escape(str(native.get('denominator')))}; not evalview's "
                  "successes / selected[/]")
        return
    shown = []
    for key, m in (native.get("metrics") or {}).items():
        rec, got = m.get("recorded"), m.get("recomputed")
        again = "" if got is None else f", {got:.4g} recomputed"
        shown.append(f"{key} {rec:.4g} recorded{again}")
    out.print(
        f"  {escape(str(native.get('tool')))}'s own headline ({escape(str(native.get('scorer')))})"
        f"  {escape('; '.join(shown)) or 'no metric recorded'}"
    )
    over = f"{native.get('scored_samples')} samples: " if native.get("scored_samples") is not None \
        else ""
    out.print(f"  [dim]over {escape(over)}{escape(str(native.get('denominator')))}; not "
              "evalview's successes / selected[/]")


def _iv(iv: tuple[float, float]) -> str:
    return pct_range(*iv)


def _name_width(card: Scorecard) -> int:
    return min(16, max((len(t.task) for t in card.tasks), default=4))


def _errors_table(card: Scorecard) -> Table:
    cats = list(card.error_categories)
    table = Table(title="errored rollouts by task and category", title_justify="left")
    table.add_column("task", overflow="fold", min_width=_name_width(card))
    for c in cats:
        table.add_column("infrastructure (pending)" if c == "infrastructure" else c,
                         justify="right")
    for t in card.tasks:
        if t.error_categories:
            table.add_row(escape(t.task), *(str(t.error_categories.get(c, 0)) for c in cats))
    return table


def _task_table(card: Scorecard) -> Table:
    table = Table(
        title="per task: rate and Wilson 95 % over selected cases",
        title_justify="left",
        caption="att. = attempted, compl. = completed",
        caption_justify="left",
    )
    # Names up to 16 characters keep their line (the table fits 80 columns); longer ones fold.
    # The numbers keep their width (never cut to "…"); the graded column never collapses.
    table.add_column("task", overflow="fold", min_width=_name_width(card))
    table.add_column("succ/sel", justify="right", no_wrap=True)
    table.add_column("rate", justify="right", no_wrap=True)
    table.add_column("Wilson 95 %", justify="right", no_wrap=True)
    table.add_column("att.", justify="right", no_wrap=True)
    table.add_column("compl.", justify="right", no_wrap=True)
    table.add_column("errors", justify="right", no_wrap=True)
    graded = {g.task: g for g in card.graded.tasks} if card.graded else {}
    if card.graded is not None:
        table.add_column(f"{escape(card.graded.key)} mean ± SE (n)", justify="right",
                         min_width=9)
    for t in card.tasks:
        errors = str(t.errors) + (f" +{t.missing} missing" if t.missing else "")
        cells = [
            escape(t.task),
            ratio(t.successes, t.selected),
            pct(t.rate),
            _iv(t.wilson95),
            str(t.attempted),
            str(t.completed),
            escape(errors),
        ]
        if card.graded is not None:
            g = graded.get(t.task)
            if g is None or g.mean is None:
                cells.append("—")
            else:
                se = "" if g.se is None else f" ± {g.se:.3g}"
                cells.append(f"{g.mean:.4g}{se} ({g.n})")
        table.add_row(*cells)
    return table
