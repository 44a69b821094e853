"""`evalview compare A B [--json]`: two reads of one schedule, paired by episode id.

Only formatting lives here; the pairing, the tests and the verdicts are `evalview.compare.paired`.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from evalview.cli.output import (
    EXIT_OK,
    console,
    emit_json,
    escape,
    pct,
)
from evalview.fmt import points

if TYPE_CHECKING:
    from evalview.compare.paired import Comparison, PairedCounts

HELP = "is B better than A? two reads of the same schedule, paired by episode"
DESCRIPTION = """\
Compare two reads of the same schedule (A the reference, B the candidate), paired by episode id.
Per task and over all pairs: both succeed / only A / only B / neither, the two rates and their
difference B − A, McNemar's mid-p on the discordant pairs (the paired test the verdict is decided
by; Fagerland, Lydersen & Laake 2013) beside the exact p, each task's mid-p adjusted for the
per-task family (Holm; Benjamini–Hochberg in --json), the pooled two-proportion z-test p (the
unpaired test, for contrast), the verdict (it says where the test and the paired score interval
disagree), and the episodes per task that would resolve the observed gap at 80 % power, paired
and unpaired. The all-pairs verdict is the primary one.

Only pairs completed on both reads enter the tests: an errored or unattempted side is not a
failure (an infrastructure error is pending), so such pairs are listed apart, by reason, and so
are episodes selected by only one read. Rates are over the completed pairs.

Refused, as `score` refuses them: a read with audit errors (see `evalview check`), and a read
with errored rollouts unless --allow-errors (then labelled not publishable, and every pair with
an errored side is left out of the tests and listed by episode id).
Refused: reads of different benchmarks or versions (manifest.benchmark; for Inspect AI logs:
task, task version, dataset or sample ids, unless --allow-mismatch), of different seed sets
(test vs development, see docs/compare.md), or with no episode id in common; an off-protocol read
(manifest off_protocol or deviations, or execution constants that differ between A and B) unless
--allow-off-protocol, which labels the comparison OFF-PROTOCOL. Development reads are labelled
[development seeds].
"""
EPILOG = """\
exit codes:
  0  compared (whatever the verdict)
  1  refused: audit errors, errored rollouts (without --allow-errors), different benchmark
     versions or seed sets, no common episode, off-protocol
  2  A or B could not be read

examples:
  evalview compare runs/ckpt-1/ runs/ckpt-2/
  evalview compare runs/ckpt-1/ runs/ckpt-2/ --json | jq '.tasks[] | {task, mcnemar_midp}'
  evalview compare eval_20k/eval_info.json eval_40k/eval_info.json     # LeRobot: (task, episode)
  evalview compare reads.json reads.json --read-a eval_results_400 --read-b eval_results_800
  evalview compare logs/model-a.eval logs/model-b.eval   # Inspect AI: (sample id, epoch)
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", metavar="A", help="the reference read (closed-run directory)")
    p.add_argument("b", metavar="B", help="the candidate read, same schedule")
    p.add_argument("--json", action="store_true", help="write one JSON document to stdout")
    p.add_argument(
        "--read-a", metavar="KEY", help="A's named read, when A is a file of several (LeRobot)"
    )
    p.add_argument(
        "--read-b", metavar="KEY", help="B's named read, when B is a file of several (LeRobot)"
    )
    p.add_argument(
        "--allow-off-protocol",
        action="store_true",
        help="compare an off-protocol read (declared, or executed unlike the other) anyway, "
        "labelled OFF-PROTOCOL",
    )
    p.add_argument(
        "--allow-errors",
        action="store_true",
        help="compare reads with errored rollouts anyway: labelled not publishable, each pair "
        "with an errored side left out of the tests and listed",
    )
    p.add_argument(
        "--allow-mismatch",
        action="store_true",
        help="benchmark-harness results: compare two results whose hardware, software, "
        "miniverl_version or git_commit differ anyway; Inspect AI logs: two logs whose task, "
        "task version, dataset or sample ids differ, over the pairs both select; labelled "
        "NOT MATCHED",
    )
    p.add_argument(
        "--group-by", metavar="KEY",
        help="also pair by each value of a sample metadata key both reads record (Inspect AI: "
        "category, subject, difficulty), each value's mid-p adjusted for the groups (Holm; "
        "Benjamini–Hochberg)",
    )


def run(args: argparse.Namespace) -> int:
    from evalview.cli.compare_sides import open_sides
    from evalview.errors import Refused
    from evalview.load import ReadOptions
    from evalview.model.address import Address
    from evalview.session import HarnessSession, compare_unaudited

    # A short-lived command: the parsed runs are frozen out of the cyclic GC's sight (as for
    # `check`). B is read and audited in a child process while A is read here (`open_sides`);
    # without one, each side is audited only when the refusals reach it. A folder of one read
    # (an lm-eval model directory) is that read, as `check DIR` finds it.
    options = ReadOptions(freeze=True, lazy_table=True)
    side_a, side_b = open_sides(
        Address.of(args.a, args.read_a), Address.of(args.b, args.read_b), options
    )
    if isinstance(side_a, HarnessSession) and isinstance(side_b, HarnessSession):
        from evalview.cli.harness import compare as compare_harness_files

        return compare_harness_files(side_a, side_b, args)
    if isinstance(side_a, HarnessSession) or isinstance(side_b, HarnessSession):
        which = args.a if isinstance(side_a, HarnessSession) else args.b
        raise Refused(
            f"{which} is a benchmark-harness result and the other is an episode read; compare "
            "two harness results, or two reads of one schedule."
        )
    from evalview.cli.output import exit_at_once
    from evalview.folder.forked import wait_for_children

    try:
        result = compare_unaudited(
            side_a,
            side_b,
            allow_off_protocol=args.allow_off_protocol,
            allow_errors=args.allow_errors,
            allow_mismatch=args.allow_mismatch,
            group_by=args.group_by,
        )
    except Refused as exc:  # worded as `evalview` words every refusal, then no teardown either
        from evalview.cli import stopped

        code = stopped(sys.modules[__name__], args, exc)
        wait_for_children()
        return exit_at_once(code, "compare")
    if args.json:
        emit_json(result.to_json())
    else:
        show(result)
    wait_for_children()  # B's reader, if it had one (`open_sides`)
    return exit_at_once(EXIT_OK, "compare")  # no teardown of two parsed runs


def _p(t: PairedCounts, p: float) -> str:
    """A p-value; none for a task without a completed pair (there was no test)."""
    if not t.pairs:
        return "—"
    return f"{p:.3g}" if p >= 0.001 else f"{p:.1e}"


def _style(t: PairedCounts) -> str:
    """Colour a difference only when the verdict is significant (the verdict already used alpha)."""
    if t.verdict.code == "b_better":
        return "bold green"
    if t.verdict.code == "a_better":
        return "bold red"
    return ""


def _n(n: int | None) -> str:
    return "—" if n is None else f"{n:,}"


def _diff(t: PairedCounts) -> str:
    return points(t.difference, unit="")


def _interval(t: PairedCounts) -> str:
    ci, unpaired = t.difference_interval(), t.unpaired_interval()
    if ci is None or unpaired is None:
        return "no pair"
    lo, hi = ci.interval
    ulo, uhi = unpaired.interval
    return (
        f"{points(ci.difference)}, 95 % {points(lo, unit='')} to {points(hi)} (paired score "
        f"interval, Newcombe 1998b); as independent reads {points(ulo, unit='')} to "
        f"{points(uhi)} (hybrid score, Newcombe 1998)"
    )


def _print_difference(c: Comparison) -> None:
    """B − A with its interval, and the tasks too small to resolve their own gap."""
    out = console()
    out.print(f"[bold]B − A[/] ({escape(c.overall.task)}): {_interval(c.overall)}")
    weak = [t for t in c.tasks if t.underpowered]
    if weak and len(c.tasks) > 1:
        shown = ", ".join(
            f"{t.task} ({t.pairs} pairs, needs {_n(t.resolve_paired)})" for t in weak[:6]
        )
        more = f", … ({len(weak) - 6} more)" if len(weak) > 6 else ""
        out.print(
            f"[yellow]underpowered:[/] {len(weak)} of {len(c.tasks)} tasks cannot resolve their "
            f"observed gap (the interval holds 0 and the gap needs more pairs at "
            f"{pct(c.power, 0)} power): {escape(shown + more)}"
        )
    elif c.overall.underpowered:
        out.print(
            f"[yellow]underpowered:[/] {c.overall.pairs} pairs cannot resolve the observed gap; "
            f"it needs {_n(c.overall.resolve_paired)} pairs at {pct(c.power, 0)} power"
        )


def show(c: Comparison) -> None:
    from rich import box  # the text output only: `--json` never imports rich's tables
    from rich.table import Table

    out = console()
    for side, facts in (("A", c.a), ("B", c.b)):
        ckpt = facts.checkpoint or facts.policy_name or "policy not declared"
        out.print(
            f"[bold]{side}[/] {escape(facts.label)}  [dim]{escape(ckpt)}, run "
            f"{escape(facts.run_id or 'not declared')}, {escape(facts.benchmark)}, "
            f"{escape(facts.seed_set)} seeds[/]"
        )
    if c.labels:
        out.print("[bold yellow]" + escape("  ".join(c.labels)) + "[/]")
    rows = [*c.tasks, c.overall] if len(c.tasks) > 1 else c.tasks or [c.overall]
    # Task names stay on one line up to 24 characters; numbers give way first (they never wrap).
    task_width = min(24, max(len(t.task) for t in rows))
    counts = Table(
        title="pairs by episode id (a pair counts when both reads completed it)",
        title_justify="left", box=box.SIMPLE_HEAD,
    )
    counts.add_column("task", min_width=task_width, overflow="fold")
    for name in ("pairs", "both", "only A", "only B", "neither"):
        counts.add_column(name, justify="right", no_wrap=True)
    counts.add_column("left out (not failures)", overflow="fold")
    tests = Table(
        title="rates over the pairs, p of the McNemar (mid-p decides; exact; mid-p adjusted by "
        "Holm for the per-task family) and z tests, episodes per task to resolve the gap at "
        f"{pct(c.power, 0)} power",
        title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
    )
    tests.add_column("task", min_width=task_width, overflow="fold")
    for name in ("A", "B", "B − A pt", "mid-p", "exact", "Holm", "z-test", "n paired",
                 "unpaired"):
        tests.add_column(name, justify="right", no_wrap=True)
    for t in rows:
        section = bool(c.tasks) and t is c.tasks[-1] and len(rows) > len(c.tasks)
        excluded = ", ".join(f"{k} {v}" for k, v in sorted(t.excluded.items()))
        counts.add_row(
            escape(t.task), str(t.pairs), str(t.both), str(t.only_a), str(t.only_b),
            str(t.neither), escape(excluded), end_section=section,
        )
        style = _style(t)
        tests.add_row(
            escape(t.task), pct(t.rate_a), pct(t.rate_b),
            f"[{style}]{_diff(t)}[/]" if style else _diff(t),
            _p(t, t.mcnemar_midp), _p(t, t.mcnemar_p),
            "—" if t.adjusted is None else _p(t, t.adjusted.holm),
            _p(t, t.z_p), _n(t.resolve_paired), _n(t.resolve_unpaired),
            end_section=section,
        )
    out.print(counts)
    out.print(tests)
    out.print(f"[bold]verdict[/] ({escape(c.overall.task)}): {escape(c.overall.verdict.text)}")
    _print_difference(c)
    if len(c.tasks) > 1:
        for t in c.tasks:
            if t.verdict.code in ("a_better", "b_better"):
                out.print(f"  {escape(t.task)}: {escape(t.verdict.text)}")
    for side, ids in (("A", c.only_in_a), ("B", c.only_in_b)):
        if ids:
            shown = ", ".join(ids[:5]) + (f", … ({len(ids) - 5} more)" if len(ids) > 5 else "")
            out.print(
                f"[bold yellow]{len(ids)} episode(s) selected only by {side}[/] "
                f"(not paired): {escape(shown)}"
            )
    if c.errored_pairs:
        listed = [f"{p['episode_id']} (A {p['a']}, B {p['b']})" for p in c.errored_pairs]
        shown = ", ".join(listed[:20]) + (f", … ({len(listed) - 20} more)" if len(listed) > 20
                                          else "")
        out.print(
            f"[bold yellow]{len(listed)} pair(s) with an errored side left out[/] "
            f"(--allow-errors): {escape(shown)}"
        )
    excluded_total = sum(c.overall.excluded.values())
    if excluded_total:
        out.print(
            "[bold yellow]pairs left out of the tests[/] (errored or unattempted on a side, "
            "not counted as failures): "
            + escape(", ".join(f"{k} {v}" for k, v in sorted(c.overall.excluded.items())))
        )
    from evalview.cli.compare_extras import show_extras

    show_extras(c)
    for note in c.notes:
        out.print(f"[yellow]note:[/] {escape(note)}")
