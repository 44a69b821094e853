"""`evalview power`: episodes per arm for a gap, the gap n episodes resolve, exact power, cost.

Only formatting and argument checking live here; the arithmetic is `evalview.compare.power`.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from evalview.cli.output import EXIT_OK, EXIT_UNREADABLE, console, emit_json, error_console, pct
from evalview.fmt import points

HELP = "episodes needed for a gap, the smallest gap n episodes resolve, exact power, robot time"
DESCRIPTION = """\
Plan an evaluation before running it (evaluation-statistics.txt §3–§5). For two true success
rates P1 (the reference) and P2 (the candidate):

  episodes per arm  n = 2(z_{α/2} + z_β)² p̄(1 − p̄)/Δ², rounded up (the pooled z-test at level α
                    detects the gap Δ = P2 − P1 with the given power; p̄ is the mean rate)
  paired design     with --paired, the pairs needed when both checkpoints run the same cases:
                    n = (z_{α/2}√ψ + z_β√(ψ − Δ²))²/Δ², ψ the share of discordant pairs
                    (--discordant; without it, ψ of independent outcomes, P2(1−P1) + P1(1−P2))
  non-overlap       the episodes per arm the rule "the two 95 % intervals do not overlap" needs
                    for the same power: (2z_{α/2} + √2·z_β)² p̄(1 − p̄)/Δ², 1.66× the z-test's
  at --n N          the minimum detectable gap (z_{α/2} + z_β)√(2p̄(1 − p̄)/N) and the exact power:
                    the binomial probabilities of every pair of counts summed under the z-test
                    rule (the right verdict, the wrong one, and how often the raw counts order
                    the pair correctly)
                    (with --paired, also how often N pairs reach each verdict of McNemar's
                    exact test, summed over the discordant counts)
  cost              2n trials, 2nt/60 robot-hours at t minutes a trial, robot-weeks of 40 hours

Rates are fractions (0.76) or percentages with a sign (76%). Text shows percent; --json writes
fractions (gaps too) and nothing else on stdout.
"""
EPILOG = """\
exit codes:
  0  computed
  2  bad arguments (a rate outside [0, 1], equal rates without --n, a gap larger than the
     discordant share, ...), with a message saying which

examples:
  evalview power --p1 0.68 --p2 0.76                 # 495 episodes per arm, 49.5 robot-hours
  evalview power --p1 68% --p2 76% --n 20            # 20 trials: 39.8-point gap, 8.4 % power
  evalview power --p1 0.68 --p2 0.76 --paired --discordant 0.08    # replayed disturbances: 96
  evalview power --p1 0.68 --p2 0.76 --n 500 --minutes-per-trial 1.7 --json
"""


class _BadArgument(ValueError):
    pass


def _rate(text: str) -> float:
    """A fraction in [0, 1], or a percentage written with %."""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a rate; write a fraction such as 0.76 or a percentage such as 76%"
        ) from None
    if not 0 <= value <= 1 or math.isnan(value):
        hint = f" (did you mean {raw}%?)" if 1 < value <= 100 and not raw.endswith("%") else ""
        raise argparse.ArgumentTypeError(f"{text!r} is outside [0, 1]{hint}")
    return value


def _open_fraction(text: str) -> float:
    value = _rate(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must lie strictly between 0 and 1")
    return value


def _positive(text: str, convert: type[int] | type[float], noun: str) -> float:
    """A finite positive number of `noun`, or an argparse error saying which."""
    try:
        value = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of {noun}") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"{text!r}: the number of {noun} must be positive")
    return value


def _positive_int(text: str) -> int:
    return int(_positive(text, int, "episodes (a whole number)"))


def _minutes(text: str) -> float:
    return _positive(text, float, "minutes per trial")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--p1", type=_rate, required=True, metavar="P",
                   help="true success rate of the reference (A), e.g. 0.68 or 68%%")
    p.add_argument("--p2", type=_rate, required=True, metavar="P",
                   help="true success rate of the candidate (B), e.g. 0.76 or 76%%")
    p.add_argument("--n", type=_positive_int, metavar="N",
                   help="episodes per arm to evaluate: minimum gap, exact power and cost at N")
    p.add_argument("--alpha", type=_open_fraction, default=0.05, metavar="A",
                   help="two-sided significance level (default 0.05)")
    p.add_argument("--power", type=_open_fraction, default=0.8, metavar="P",
                   help="wanted power (default 0.8)")
    p.add_argument("--paired", action="store_true",
                   help="also size a paired design (both checkpoints on the same cases)")
    p.add_argument("--discordant", type=_rate, metavar="PSI",
                   help="share of discordant pairs ψ for --paired (default: independent outcomes)")
    p.add_argument("--minutes-per-trial", type=_minutes, default=3.0, metavar="T",
                   help="robot minutes per trial for the cost (default 3)")
    p.add_argument("--json", action="store_true", help="write one JSON document to stdout")


def _cost_json(n: int, minutes: float) -> dict[str, Any]:
    from evalview.compare.power import cost

    c = cost(n, minutes)
    return {"trials": c.trials, "robot_hours": c.robot_hours, "robot_weeks": c.robot_weeks}


def compute(args: argparse.Namespace) -> dict[str, Any]:
    """The whole answer as a JSON-ready dict (fractions). Raises _BadArgument."""
    from evalview.compare.power import (
        EXACT_PAIRED_POWER_MAX_N,
        EXACT_POWER_MAX_N,
        exact_paired_power,
        exact_power,
        independent_discordance,
        min_detectable_gap,
        n_per_arm,
        non_overlap_n_per_arm,
        paired_n,
    )

    p1, p2, alpha, power = args.p1, args.p2, args.alpha, args.power
    if args.discordant is not None and not args.paired:
        raise _BadArgument("--discordant only applies with --paired")
    if p1 == p2 and args.n is None:
        raise _BadArgument(
            "--p1 and --p2 are equal: no number of episodes resolves a zero gap. Give --n N to "
            "see how often N episodes per arm declare a difference that is not there."
        )
    pbar = (p1 + p2) / 2
    doc: dict[str, Any] = {
        "p1": p1, "p2": p2, "gap": p2 - p1, "pbar": pbar, "alpha": alpha, "power": power,
        "minutes_per_trial": args.minutes_per_trial,
        "unpaired": None, "paired": None, "at_n": None,
    }
    if p1 != p2:
        n = n_per_arm(p1, p2, alpha=alpha, power=power)
        doc["unpaired"] = {
            "n_per_arm": n,
            "cost": _cost_json(n, args.minutes_per_trial),
            "non_overlap_n_per_arm": non_overlap_n_per_arm(p1, p2, alpha=alpha, power=power),
        }
    psi = None
    if args.paired:
        psi = args.discordant if args.discordant is not None else independent_discordance(p1, p2)
        if abs(p2 - p1) > psi + 1e-12:
            raise _BadArgument(
                f"--discordant {psi:g}: the gap {abs(p2 - p1):.4f} exceeds the discordant share "
                f"{psi:.4f}; the discordant pairs must carry the whole difference (|Δ| ≤ ψ)"
            )
    if psi is not None and p1 != p2:
        try:
            np_ = paired_n(psi, p2 - p1, alpha=alpha, power=power)
        except ValueError as exc:
            raise _BadArgument(f"--discordant {psi:g}: {exc}") from None
        doc["paired"] = {
            "discordant": psi,
            "discordant_source": "--discordant" if args.discordant is not None
            else "independent outcomes",
            "n_pairs": np_,
            "cost": _cost_json(np_, args.minutes_per_trial),
        }
    if args.n is not None:
        exact: dict[str, float] | None = None
        if args.n <= EXACT_POWER_MAX_N:
            ep = exact_power(p1, p2, args.n, alpha=alpha)
            exact = {
                "right_verdict": ep.right, "wrong_verdict": ep.wrong,
                "higher_count": ep.more, "tie": ep.tie, "lower_count": ep.less,
            }
        paired_exact: dict[str, float] | None = None
        if psi is not None and args.n <= EXACT_PAIRED_POWER_MAX_N:
            pp = exact_paired_power(psi, p2 - p1, args.n, alpha=alpha)
            paired_exact = {"right_verdict": pp.right, "wrong_verdict": pp.wrong}
        doc["at_n"] = {
            "n": args.n,
            "min_detectable_gap": min_detectable_gap(args.n, pbar, alpha=alpha, power=power)
            if 0 < pbar < 1 else None,
            "exact_power": exact,
            "paired_exact_power": paired_exact,
            "cost": _cost_json(args.n, args.minutes_per_trial),
        }
    return doc


def _hours(c: dict[str, Any]) -> str:
    return (f"{c['trials']:,} trials, {c['robot_hours']:,.1f} robot-hours, "
            f"{c['robot_weeks']:,.2f} robot-weeks")


def run(args: argparse.Namespace) -> int:
    try:
        doc = compute(args)
    except _BadArgument as exc:
        if args.json:
            emit_json({"error": str(exc), "exit_code": EXIT_UNREADABLE})
        from evalview.cli.output import escape

        error_console().print(f"[bold red]evalview power:[/] {escape(str(exc))}")
        return EXIT_UNREADABLE
    if args.json:
        emit_json(doc)
        return EXIT_OK
    from evalview.compare.power import EXACT_PAIRED_POWER_MAX_N, EXACT_POWER_MAX_N

    out = console()
    out.print(
        f"[bold]{pct(doc['p1'])} → {pct(doc['p2'])}[/]: gap {points(doc['gap'], unit='')} "
        "points, "
        f"p̄ {pct(doc['pbar'])}; "
        f"two-sided α = {doc['alpha']:g}, power {pct(doc['power'], 0)}, "
        f"{doc['minutes_per_trial']:g} min a trial"
    )
    if doc["unpaired"]:
        u = doc["unpaired"]
        out.print(f"  episodes per arm (pooled z-test): [bold]{u['n_per_arm']:,}[/]  "
                  f"({_hours(u['cost'])})")
        out.print(f"    (the rule 'the 95 % intervals do not overlap' needs "
                  f"{u['non_overlap_n_per_arm']:,} per arm for the same power)")
    if doc["paired"]:
        pr = doc["paired"]
        out.print(
            f"  pairs (paired design, ψ = {pct(pr['discordant'])} from {pr['discordant_source']}):"
            f" [bold]{pr['n_pairs']:,}[/]  ({_hours(pr['cost'])})"
        )
    if doc["at_n"]:
        a = doc["at_n"]
        ep = a["exact_power"]
        gap_n = a["min_detectable_gap"]
        gap_text = (
            "—" if gap_n is None
            else f"{points(gap_n, sign=False, unit='')} points" if gap_n >= 0.01
            else f"{100 * gap_n:.2g} points"
        )
        out.print(f"  at n = {a['n']:,} per arm: smallest resolvable gap {gap_text}")
        if ep is None:
            out.print(
                f"    exact power: not computed above {EXACT_POWER_MAX_N:,} episodes per arm "
                "(the sum grows with n; at this n the normal approximation of the formulas holds)"
            )
        else:
            out.print(
                "    exact power (binomial sum, z-test rule): "
                f"right verdict {pct(ep['right_verdict'])}, "
                f"wrong verdict {pct(ep['wrong_verdict'])}; the candidate has the higher count "
                f"in {pct(ep['higher_count'])}"
            )
        pe = a["paired_exact_power"]
        if pe is not None:
            out.print(
                f"    paired, n = {a['n']:,} pairs (McNemar exact test): "
                f"right verdict {pct(pe['right_verdict'])}, "
                f"wrong verdict {pct(pe['wrong_verdict'])}"
            )
        elif doc["paired"] is not None or args.paired:
            out.print(
                f"    paired exact power: not computed above {EXACT_PAIRED_POWER_MAX_N:,} pairs"
            )
        out.print(f"    cost: {_hours(a['cost'])}")
    return EXIT_OK
