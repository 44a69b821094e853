"""Two reads of the same schedule, paired by episode id: `evalview compare A B`.

Pairing rule (documented in docs/compare.md): an episode id selected by both reads is a pair. A
pair enters the tests only when both sides completed (a success or an ordinary failure). A pair
with an errored, unattempted or invalid side is *not* counted as a failure: an infrastructure
error is pending, and a failure invented on one side would be a discordant pair that never
happened. Such pairs are listed by reason, next to the ids selected by only one read, so nothing
is hidden. Rates here are therefore over the completed pairs, and say so.

Direction: B is the candidate and A the reference. `only_b` (b) counts pairs B won, `only_a` (c)
pairs A won, and the difference is rate_B − rate_A.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from evalview.compare.difference import (
    HYBRID,
    PAIRED,
    DifferenceInterval,
    newcombe_hybrid,
    newcombe_paired,
)
from evalview.compare.hypothesis_tests import mcnemar_exact, pooled_z_test, z_quantile
from evalview.compare.multiplicity import benjamini_hochberg, holm
from evalview.compare.pairing import declares_pairing, pairing_notes, refuse_unmatched
from evalview.compare.power import n_per_arm, paired_n
from evalview.compare.reads import (
    DEVELOPMENT,
    ReadFacts,
    Refused,
    read_facts,
    refuse_mixed_benchmarks,
    refuse_mixed_seed_sets,
)
from evalview.compare.resampled import GradedPairs, SampleLevel
from evalview.findings import Finding
from evalview.fmt import count, pct, points
from evalview.model.run import COMPLETED, ERROR, UNATTEMPTED, Run
from evalview.stats.intervals import Z95, wilson_interval
from evalview.stats.policy import DEVELOPMENT as DEVELOPMENT_LABEL
from evalview.stats.policy import (
    NOT_PUBLISHABLE,
    OFF_PROTOCOL,
    untagged_quality_tags,
)

#: A read's audit findings, or a function computing them on first need (see `compare_runs`).
Findings = Sequence[Finding] | Callable[[], Sequence[Finding]]

SUCCESS = "success"
FAILURE = "failure"
#: a completed episode whose value is graded (not 0/1): compared by the paired bootstrap
GRADED = "graded"
#: The verdict codes that declare a difference.
WINS = ("a_better", "b_better")


#: The test a verdict is decided by (`verdict.test` in JSON).
VERDICT_TEST = "mcnemar-mid-p"


@dataclass(frozen=True, slots=True)
class Verdict:
    """`code` is b_better, a_better, not_significant or no_pairs; `text` is the sentence to show.

    The code is the mid-p McNemar test at α; `interval_agrees` says whether Newcombe's paired
    score interval at the same level agrees (excludes 0 exactly when the test rejects). Where it
    does not, the text says so: the result is at the edge, and no construction settles it.
    """

    code: str
    text: str
    #: the p-value the code was decided by (the mid-p McNemar test); None without a pair
    p: float | None = None
    interval_agrees: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "text": self.text,
            "test": VERDICT_TEST,
            "p": self.p,
            "interval_agrees": self.interval_agrees,
        }


@dataclass(frozen=True, slots=True)
class Adjusted:
    """One task's mid-p adjusted for the family of per-task tests (compare/multiplicity.py)."""

    #: the tests of the family: every task with a completed pair
    family: int
    holm: float
    benjamini_hochberg: float
    alpha: float

    @property
    def holm_rejects(self) -> bool:
        return self.holm < self.alpha

    @property
    def bh_rejects(self) -> bool:
        return self.benjamini_hochberg < self.alpha

    def to_json(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "holm": self.holm,
            "benjamini_hochberg": self.benjamini_hochberg,
            "significant_holm": self.holm_rejects,
            "significant_benjamini_hochberg": self.bh_rejects,
        }


@dataclass(frozen=True, slots=True)
class PairedCounts:
    """One task (or all pairs): the 2×2 table, the tests, the verdict and what would resolve it."""

    task: str
    both: int
    only_a: int
    only_b: int
    neither: int
    mcnemar_p: float
    #: the mid-p McNemar test (Fagerland, Lydersen & Laake 2013): what the verdict is decided by
    mcnemar_midp: float
    z: float
    z_p: float
    verdict: Verdict
    #: episodes per task (pairs) that resolve the observed gap at the given power; None at no gap
    resolve_paired: int | None
    #: episodes per task and per read, unpaired
    resolve_unpaired: int | None
    #: pairs left out of the tests, by reason ("A error", "B unattempted", ...)
    excluded: dict[str, int] = field(default_factory=dict)
    #: a task's mid-p adjusted for the per-task family (None: the all-pairs row, or one task)
    adjusted: Adjusted | None = None

    @property
    def pairs(self) -> int:
        return self.both + self.only_a + self.only_b + self.neither

    @property
    def rate_a(self) -> float | None:
        return (self.both + self.only_a) / self.pairs if self.pairs else None

    @property
    def rate_b(self) -> float | None:
        return (self.both + self.only_b) / self.pairs if self.pairs else None

    @property
    def difference(self) -> float | None:
        return (self.only_b - self.only_a) / self.pairs if self.pairs else None

    def wilson(self, side: str) -> tuple[float, float] | None:
        k = self.both + (self.only_a if side == "a" else self.only_b)
        return wilson_interval(k, self.pairs) if self.pairs else None

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "pairs": self.pairs,
            "both": self.both,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "neither": self.neither,
            "rate_a": self.rate_a,
            "rate_b": self.rate_b,
            "wilson95_a": self.wilson("a"),
            "wilson95_b": self.wilson("b"),
            "difference": self.difference,
            "mcnemar_p": self.mcnemar_p,
            "mcnemar_midp": self.mcnemar_midp,
            "z": self.z,
            "z_test_p": self.z_p,
            "verdict": self.verdict.to_json(),
            "episodes_to_resolve": {
                "paired": self.resolve_paired,
                "unpaired": self.resolve_unpaired,
            },
            "excluded_pairs": dict(self.excluded),
            "difference_ci95": self.difference_ci95_json(),
            "adjusted_p": None if self.adjusted is None else self.adjusted.to_json(),
        }

    def difference_interval(self) -> DifferenceInterval | None:
        """rate_B − rate_A with Newcombe's paired score interval (the pairs are known here)."""
        if not self.pairs:
            return None
        return newcombe_paired(self.both, self.only_a, self.only_b, self.neither)

    def unpaired_interval(self) -> DifferenceInterval | None:
        """The same two rates as if the reads were independent: Newcombe's hybrid score."""
        if not self.pairs:
            return None
        n = self.pairs
        return newcombe_hybrid(self.both + self.only_b, n, self.both + self.only_a, n)

    @property
    def underpowered(self) -> bool:
        """The interval holds 0 and fewer pairs than the observed gap needs (80 % power)."""
        ci = self.difference_interval()
        return (
            ci is not None
            and not ci.excludes_zero
            and self.resolve_paired is not None
            and self.pairs < self.resolve_paired
        )

    def difference_ci95_json(self) -> dict[str, Any]:
        """`difference_ci95`: the paired interval, the unpaired one beside it, the power note."""
        ci, unpaired = self.difference_interval(), self.unpaired_interval()
        return {
            "method": PAIRED,
            "interval": None if ci is None else [ci.interval[0], ci.interval[1]],
            "unpaired": {
                "method": HYBRID,
                "interval": None if unpaired is None else list(unpaired.interval),
            },
            "underpowered": self.underpowered,
            "episodes_needed": self.resolve_paired,
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    """The whole comparison of B against A."""

    a: ReadFacts
    b: ReadFacts
    alpha: float
    power: float
    tasks: list[PairedCounts]
    overall: PairedCounts
    only_in_a: list[str]
    only_in_b: list[str]
    notes: list[str]
    #: "OFF-PROTOCOL" (read with --allow-off-protocol) and "[development seeds]", as the rules say.
    labels: list[str] = field(default_factory=list)
    #: With allow_errors: each pair left out because a side errored (episode, task, A, B).
    errored_pairs: list[dict[str, str]] = field(default_factory=list)
    #: how many common episodes have a recorded seed on both sides (checked equal) and how many
    #: are paired by episode id alone (an assumption the files cannot show)
    seed_pairing: dict[str, int] = field(default_factory=dict)
    #: `--group-by KEY`: the key, and each value's 2x2 counts adjusted for the group family
    group_key: str | None = None
    groups: list[PairedCounts] = field(default_factory=list)
    #: tasks whose metric is graded (lm-eval's BLEU, F1): a paired bootstrap over documents
    graded: list[GradedPairs] = field(default_factory=list)
    #: repeated epochs (Inspect): the comparison with each sample's epochs reduced
    sample_level: SampleLevel | None = None

    def multiplicity(self) -> dict[str, Any] | None:
        """How many per-task verdicts hold after adjustment; None with fewer than two tests."""
        family = [t for t in self.tasks if t.adjusted is not None]
        if not family:
            return None
        return {
            "family": f"the {len(family)} per-task mid-p McNemar tests (tasks with a pair)",
            "tests": len(family),
            "alpha": self.alpha,
            "primary": "the all-pairs verdict (overall) is the one claim; per-task verdicts "
            "are leads, read with their adjusted p-values",
            "significant": {
                "unadjusted": sum(t.verdict.code in WINS for t in family),
                "holm": sum(t.verdict.code in WINS and t.adjusted.holm_rejects
                            for t in family if t.adjusted),
                "benjamini_hochberg": sum(t.verdict.code in WINS and t.adjusted.bh_rejects
                                          for t in family if t.adjusted),
            },
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "alpha": self.alpha,
            "power": self.power,
            "pairing": "by episode id; only pairs completed on both sides enter the tests",
            "pairing_seeds": dict(self.seed_pairing),
            "multiplicity": self.multiplicity(),
            "overall": self.overall.to_json(),
            "tasks": [t.to_json() for t in self.tasks],
            "only_in_a": list(self.only_in_a),
            "only_in_b": list(self.only_in_b),
            "notes": list(self.notes),
            "labels": list(self.labels),
            # only with --allow-errors and an errored pair, so other output is as it was
            **({"errored_pairs": list(self.errored_pairs)} if self.errored_pairs else {}),
            **self._extra_json(),
        }

    def _extra_json(self) -> dict[str, Any]:
        """The parts only some reads have (absent otherwise, so other output is as it was)."""
        out: dict[str, Any] = {}
        if self.group_key is not None:
            family = [g for g in self.groups if g.adjusted is not None]
            out["groups"] = {
                "key": self.group_key,
                "family": len(family),
                "significant": {
                    "unadjusted": sum(g.verdict.code in WINS for g in self.groups),
                    "holm": sum(g.verdict.code in WINS and g.adjusted.holm_rejects
                                for g in family if g.adjusted),
                    "benjamini_hochberg": sum(g.verdict.code in WINS and g.adjusted.bh_rejects
                                              for g in family if g.adjusted),
                },
                "rows": [g.to_json() | {"group": g.task} for g in self.groups],
            }
        if self.graded:
            out["graded"] = [g.to_json() for g in self.graded]
        if self.sample_level is not None:
            out["sample_level"] = self.sample_level.to_json()
        return out


def _outcome(status: str, success: int, score: float = math.nan) -> str:
    if status == COMPLETED and success in (0, 1):
        return SUCCESS if success == 1 else FAILURE
    if status == COMPLETED and not math.isnan(score):
        return GRADED
    if status in (ERROR, UNATTEMPTED):
        return str(status)
    return "invalid"


def _outcomes(run: Run) -> dict[str, tuple[str, str]]:
    """Episode id -> (task, outcome) over the selected cases, in schedule order."""
    table = run.scheduled()
    out: dict[str, tuple[str, str]] = {}
    # as Python lists: iterating the arrays made a numpy scalar of every cell (10,000 rows)
    for eid, task, status, success, score in zip(
        table.ids.tolist(), table.task.tolist(), table.status.tolist(), table.success.tolist(),
        table.score.tolist(), strict=True,
    ):
        out[str(eid)] = (str(task), _outcome(str(status), int(success), float(score)))
    return out


def verdict(
    both: int,
    only_a: int,
    only_b: int,
    neither: int,
    p: float,
    alpha: float,
    *,
    exact_p: float | None = None,
    interval: DifferenceInterval | None = None,
) -> Verdict:
    """The verdict as the statistics spec states it: the test's p, and who won the discordant pairs.

    "Twenty pairs with b = 8 and c = 2 give p = 0.109: not significant, though the new checkpoint
    won 8 of the 10 discordant pairs." A verdict never says "equal": no difference was declared.

    `p` decides (the mid-p McNemar test; `exact_p`, the exact test's, is stated beside it).
    `interval`: Newcombe's paired score interval at level 1 − α; where it excludes 0 and the
    test does not reject, or the reverse, the verdict says the two disagree.
    """
    n = both + only_a + only_b + neither
    d = only_a + only_b
    if n == 0:
        return Verdict("no_pairs", "no pair completed on both reads: nothing to compare")
    tests = f"p = {p:.3g}" if exact_p is None else f"mid-p = {p:.3g} (exact p = {exact_p:.3g})"
    head = f"{count(n, 'pair')}, b = {only_b:,} and c = {only_a:,} give {tests}"
    if d == 0:
        return Verdict(
            "not_significant", f"{head}: no discordant pair, so no difference can be declared", p
        )
    rejects = p < alpha
    agrees = interval is None or interval.excludes_zero == rejects
    if rejects:
        winner, won = ("B", only_b) if only_b > only_a else ("A", only_a)
        code = f"{winner.lower()}_better"
        text = (
            f"{head} < {alpha:g}: {winner} is better, winning {won:,} of the {d:,} discordant "
            "pairs"
        )
    else:
        if only_a == only_b:
            lead = f"A and B each won {only_a:,} of the {d:,} discordant pairs"
        else:
            leader, won = ("B", only_b) if only_b > only_a else ("A", only_a)
            lead = f"though {leader} won {won:,} of the {d:,} discordant pairs"
        code, text = "not_significant", f"{head}: not significant at the {pct(alpha)} level, {lead}"
    if not agrees and interval is not None:
        lo, hi = interval.interval
        holds = "excludes 0" if interval.excludes_zero else "holds 0"
        level = pct(1 - alpha, 0)
        text += (
            f"; but the test and the {level} interval disagree (B − A {points(lo, unit='')} to "
            f"{points(hi)}, paired score, {holds}): a result at the edge, re-test before "
            "claiming either way"
        )
    return Verdict(code, text, p, agrees)


def paired_counts(
    task: str,
    both: int,
    only_a: int,
    only_b: int,
    neither: int,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    excluded: dict[str, int] | None = None,
) -> PairedCounts:
    """The tests, verdict and resolving sizes for one 2×2 table of paired outcomes."""
    n = both + only_a + only_b + neither
    mc = mcnemar_exact(only_b, only_a)
    # the verdict's interval: Newcombe's paired score interval at the test's level
    z = Z95 if alpha == 0.05 else z_quantile(alpha)
    interval = newcombe_paired(both, only_a, only_b, neither, z=z) if n else None
    if n:
        zt = pooled_z_test(both + only_a, n, both + only_b, n)
        z_stat, z_p = zt.z, zt.p_value
    else:
        z_stat, z_p = 0.0, 1.0
    resolve_paired = resolve_unpaired = None
    if n and only_a != only_b:
        psi, delta = (only_a + only_b) / n, (only_b - only_a) / n
        resolve_paired = paired_n(psi, delta, alpha=alpha, power=power)
        resolve_unpaired = n_per_arm(
            (both + only_a) / n, (both + only_b) / n, alpha=alpha, power=power
        )
    return PairedCounts(
        task=task,
        both=both,
        only_a=only_a,
        only_b=only_b,
        neither=neither,
        mcnemar_p=mc.p_value,
        mcnemar_midp=mc.mid_p,
        z=z_stat,
        z_p=z_p,
        verdict=verdict(
            both, only_a, only_b, neither, mc.mid_p, alpha,
            exact_p=mc.p_value, interval=interval,
        ),
        resolve_paired=resolve_paired,
        resolve_unpaired=resolve_unpaired,
        excluded=dict(excluded or {}),
    )


def adjust_for_multiplicity(
    tasks: list[PairedCounts], alpha: float, unit: str = "tasks"
) -> list[PairedCounts]:
    """Each task's mid-p adjusted for the family of per-task tests (Holm; Benjamini–Hochberg),
    and its verdict saying whether a difference it declares holds after Holm's correction. The
    family is every task (or group: `unit`) with a completed pair; with fewer than two there is
    nothing to adjust."""
    family = [i for i, t in enumerate(tasks) if t.pairs]
    if len(family) < 2:
        return tasks
    p = [tasks[i].mcnemar_midp for i in family]
    out = list(tasks)
    for i, h, q in zip(family, holm(p), benjamini_hochberg(p), strict=True):
        adj = Adjusted(len(family), h, q, alpha)
        v = tasks[i].verdict
        if v.code in WINS:
            if adj.holm_rejects:
                more = (f"; it holds after Holm's correction for the {adj.family} {unit} "
                        f"(adjusted p = {h:.3g})")
            else:
                more = (f"; not after Holm's correction for the {adj.family} {unit} (adjusted "
                        f"p = {h:.3g}; Benjamini–Hochberg {q:.3g}): a lead to re-test, not a "
                        "claim")
            v = replace(v, text=v.text + more)
        out[i] = replace(tasks[i], adjusted=adj, verdict=v)
    return out


def compare_runs(
    a: Run,
    b: Run,
    *,
    findings: tuple[Findings, Findings],
    label_a: str | None = None,
    label_b: str | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    allow_off_protocol: bool = False,
    allow_errors: bool = False,
    allow_mismatch: bool = False,
    group_by: str | None = None,
) -> Comparison:
    """Pair B against A by episode id. Raises `Refused` for reads that cannot be paired.

    `group_by`: a grouping both reads record (an Inspect sample metadata key): the 2x2 counts,
    tests and verdicts by its values too, adjusted for the family of groups (Holm; BH).

    Reads that declare what pairs them (`Run.pairing`: an Inspect log's task, dataset and sample
    ids) are checked by that instead of the benchmark identity (`compare.pairing`): refused when
    it differs, unless `allow_mismatch`, which labels the comparison NOT MATCHED.

    The reporting rules compare reads of one protocol: an off-protocol read (declared, or executed
    unlike the other) is refused unless `allow_off_protocol`, and then labelled OFF-PROTOCOL.
    As `score` does, a read with audit errors is refused, and a read with errored rollouts is
    refused unless `allow_errors`: then the comparison is labelled not publishable and every pair
    left out for an error is listed.

    `findings`: each read's whole audit, as its session holds it (`evalview.session` opens and
    audits both; nothing here audits again), or a function that audits it: called only when the
    refusals reach that read (in one process `evalview compare` never audits B when A is
    refused already; with a child process it audits B there, beside A's read: cli/compare_sides).
    """
    fa, fb = read_facts(a, label_a), read_facts(b, label_b)
    _refuse_unknown_group(a, b, fa.label, fb.label, group_by)
    unmatched = refuse_unmatched(a, b, fa.label, fb.label, allow=allow_mismatch)
    if not declares_pairing(a, b):
        refuse_mixed_benchmarks([fa, fb])
    refuse_mixed_seed_sets([fa, fb])
    _refuse_untagged(((a, fa), (b, fb)))
    off = _off_protocol(fa, fb, allow_off_protocol)
    errored = _refuse_unscorable(
        [(a, fa, findings[0]), (b, fb, findings[1])], allow_errors=allow_errors
    )
    oa, ob = _outcomes(a), _outcomes(b)
    common = [eid for eid in oa if eid in ob]
    seeds = _refuse_seed_mismatch(a, b, fa.label, fb.label, common)
    if not common:
        raise Refused(
            f"{fa.label} and {fb.label} select no episode id in common "
            f"({len(oa)} and {len(ob)} selected); they are not two reads of one schedule."
        )
    pairs = _pair_tables(oa, ob, common, fa.label, fb.label)
    tasks = [
        paired_counts(
            task, c["both"], c["only_a"], c["only_b"], c["neither"],
            alpha=alpha, power=power, excluded=dict(pairs.excluded[task]),
        )
        for task, c in pairs.cells.items()
    ]
    tasks = adjust_for_multiplicity(tasks, alpha)
    total, total_ex = pairs.totals()
    overall = paired_counts(
        "all pairs", total["both"], total["only_a"], total["only_b"], total["neither"],
        alpha=alpha, power=power, excluded=dict(total_ex),
    )
    if not overall.pairs and pairs.graded:
        overall = replace(overall, verdict=replace(overall.verdict, text=(
            "no pair of 0/1 outcomes: every paired document is graded (a non-binary metric), "
            "compared by the paired bootstrap below")))
    extras = _extras(a, b, oa, ob, common, pairs, group_by, alpha, power)
    return Comparison(
        a=fa, b=fb, alpha=alpha, power=power, tasks=tasks, overall=overall,
        only_in_a=[eid for eid in oa if eid not in ob],
        only_in_b=[eid for eid in ob if eid not in oa],
        notes=(_notes(a, b, fa, fb, tasks, alpha) + _seed_notes(seeds, _pairs_by(a, b))
               + pairing_notes(a, b)),
        labels=unmatched + _labels(bool(off), fa, errored),
        errored_pairs=pairs.errored,
        seed_pairing=seeds,
        **extras,
    )


def _refuse_unknown_group(a: Run, b: Run, la: str, lb: str, key: str | None) -> None:
    if key is None:
        return
    for run, label in ((a, la), (b, lb)):
        if key not in run.groupings:
            known = ", ".join(run.groupings) or "none"
            raise Refused(
                f"{label}: no grouping {key!r} (its groupable sample metadata keys: {known}); "
                "--group-by takes a key both reads record."
            )


def _extras(
    a: Run, b: Run, oa: dict[str, tuple[str, str]], ob: dict[str, tuple[str, str]],
    common: list[str], pairs: _Pairs, group_by: str | None, alpha: float, power: float,
) -> dict[str, Any]:
    """The groups (`group_by`), the graded tasks and the sample level, where a read has them."""
    from evalview.compare.resampled import graded_pairs, sample_level

    out: dict[str, Any] = {}
    if group_by is not None:
        va, vb = a.groupings[group_by], b.groupings[group_by]

        def by_group(o: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
            return {e: (va.get(e) or vb.get(e) or "(no value)", res)
                    for e, (_t, res) in o.items()}

        gp = _pair_tables(by_group(oa), by_group(ob), common, "A", "B")
        groups = [
            paired_counts(g, c["both"], c["only_a"], c["only_b"], c["neither"], alpha=alpha,
                          power=power, excluded=dict(gp.excluded[g]))
            for g, c in sorted(gp.cells.items())
        ]
        out["group_key"] = group_by
        out["groups"] = adjust_for_multiplicity(groups, alpha, "groups")
    if pairs.graded:
        sa, sb = _scores(a), _scores(b)
        out["graded"] = [
            graded_pairs(task, _metric_of(a, task), [sa[e] for e in ids], [sb[e] for e in ids])
            for task, ids in pairs.graded.items()
        ]
    repeats = a.repeats or b.repeats
    if repeats:  # only reads that repeat samples (Inspect epochs) have a sample level
        binary = [(e, int(oa[e][1] == SUCCESS), int(ob[e][1] == SUCCESS)) for e in common
                  if oa[e][1] in (SUCCESS, FAILURE) and ob[e][1] in (SUCCESS, FAILURE)]
        level = sample_level(repeats, binary)
        if level is not None:
            out["sample_level"] = level
    return out


def _scores(run: Run) -> dict[str, float]:
    table = run.scheduled()
    return {str(e): float(v) for e, v in zip(table.ids.tolist(), table.score.tolist(),
                                              strict=True)}


def _metric_of(run: Run, task: str) -> str | None:
    """The metric a graded task is read by (lm-eval: its headline), when the read says."""
    for row in run.native.get("tasks") or ():
        if isinstance(row, dict) and row.get("task") == task:
            return str(row.get("metric"))
    return None


def _refuse_untagged(reads: tuple[tuple[Run, ReadFacts], ...]) -> None:
    """Quality tag 0 is the trainer's "untagged" sentinel: no trained policy was asked for it."""
    for run, facts in reads:
        untagged = untagged_quality_tags(run)
        if untagged:
            raise Refused(
                f"{facts.label} is conditioned on quality tag 0 ({', '.join(untagged)}), the "
                "trainer's \"untagged\" sentinel, not a trained quality bin; re-run it with the "
                "quality bin the policy was trained on."
            )


def _off_protocol(fa: ReadFacts, fb: ReadFacts, allow: bool) -> list[str]:
    """Why either read is off-protocol (declared, or executed unlike the other); refused unless
    `allow`, which labels the comparison instead."""
    off = [f"{f.label}: {reason}" for f in (fa, fb) for reason in f.off_protocol]
    unlike = fa.execution.differences(fb.execution)
    if unlike:
        off.append("the reads were not executed alike: " + "; ".join(unlike) + " (A vs B)")
    if off and not allow:
        raise Refused(
            "off-protocol read(s): " + " | ".join(off) + ". A comparison pairs reads executed "
            "alike under the benchmark's protocol; pass --allow-off-protocol to compare them "
            "anyway (labelled OFF-PROTOCOL)."
        )
    return off


def _labels(off: bool, fa: ReadFacts, errored: tuple[list[str], ...]) -> list[str]:
    labels = ([OFF_PROTOCOL] if off else []) + (
        [DEVELOPMENT_LABEL] if fa.seed_set == DEVELOPMENT else []
    )
    if any(errored):
        labels.append(
            f"{NOT_PUBLISHABLE}: errored rollouts (A {len(errored[0])}, B {len(errored[1])}); "
            "their pairs are left out of the tests and listed (--allow-errors)"
        )
    return labels


@dataclass
class _Pairs:
    """Each task's 2x2 counts of completed pairs, what was left out of them, and the errored
    pairs (listed beside the tests)."""

    cells: dict[str, Counter[str]] = field(default_factory=dict)
    excluded: dict[str, Counter[str]] = field(default_factory=dict)
    errored: list[dict[str, str]] = field(default_factory=list)
    #: task -> the episode ids graded (not 0/1) on both sides: the paired bootstrap's pairs
    graded: dict[str, list[str]] = field(default_factory=dict)

    def totals(self) -> tuple[Counter[str], Counter[str]]:
        total: Counter[str] = Counter()
        total_ex: Counter[str] = Counter()
        for task in self.cells:
            total.update(self.cells[task])
            total_ex.update(self.excluded[task])
        return total, total_ex


_CELL = {(SUCCESS, SUCCESS): "both", (SUCCESS, FAILURE): "only_a",
         (FAILURE, SUCCESS): "only_b", (FAILURE, FAILURE): "neither"}


def _pair_tables(
    oa: dict[str, tuple[str, str]],
    ob: dict[str, tuple[str, str]],
    common: list[str],
    label_a: str,
    label_b: str,
) -> _Pairs:
    pairs = _Pairs()
    for eid in common:
        task_a, out_a = oa[eid]
        task_b, out_b = ob[eid]
        if ERROR in (out_a, out_b):
            pairs.errored.append({"episode_id": eid, "task": task_a, "a": out_a, "b": out_b})
        if task_a != task_b:
            raise Refused(
                f"episode {eid} is task {task_a!r} in {label_a} but {task_b!r} in {label_b}; "
                "the reads do not describe the same schedule."
            )
        if GRADED in (out_a, out_b):
            if out_a == out_b == GRADED:
                pairs.graded.setdefault(task_a, []).append(eid)
            continue
        cell = pairs.cells.get(task_a)
        if cell is None:  # not setdefault: that built two Counters for every pair
            cell = pairs.cells[task_a] = Counter()
            pairs.excluded[task_a] = Counter()
        ex = pairs.excluded[task_a]
        key = _CELL.get((out_a, out_b))
        if key is not None:
            cell[key] += 1
        else:
            for side, out in (("A", out_a), ("B", out_b)):
                if out not in (SUCCESS, FAILURE):
                    ex[f"{side} {out}"] += 1
    return pairs


def _seeds(run: Run) -> dict[str, int]:
    """Episode id → recorded seed, for the selected episodes whose seed is recorded."""
    table = run.scheduled()
    return {
        str(eid): int(seed)
        for eid, seed in zip(table.ids.tolist(), table.seed.tolist(), strict=True)
        if seed >= 0
    }


def _refuse_seed_mismatch(
    a: Run, b: Run, la: str, lb: str, common: list[str]
) -> dict[str, int]:
    """Pairs are (task, episode); where both reads record a seed it must be the same start.
    Returns how many common episodes were checked that way and how many have no seed on a side
    (`a_records`/`b_records`: episodes of the common ones each side records a seed for)."""
    sa, sb = _seeds(a), _seeds(b)
    checked = sum(1 for eid in common if eid in sa and eid in sb)
    counts = {
        "episodes": len(common),
        "seeds_checked": checked,
        "by_episode_id_only": len(common) - checked,
        "a_records": sum(1 for eid in common if eid in sa),
        "b_records": sum(1 for eid in common if eid in sb),
    }
    if not sa or not sb:
        return counts
    for eid in common:
        if eid in sa and eid in sb and sa[eid] != sb[eid]:
            raise Refused(
                f"episode {eid} ran seed {sa[eid]} in {la} but seed {sb[eid]} in {lb} (the first "
                "mismatch): the reads did not start from the same conditions, so they cannot be "
                "paired. Re-run one with the other's seeds (lerobot-eval --seed)."
            )
    return counts


def _pairs_by(a: Run, b: Run) -> str:
    """What pairs the two reads' episodes when neither has a seed, as their reader says it."""
    return a.pairs_by if a.pairs_by == b.pairs_by else ""


def _seed_notes(seeds: dict[str, int], pairs_by: str = "") -> list[str]:
    """The assumption a pairing by episode id makes where a read records no seed: it is said,
    never checked. lerobot-eval seeds each evaluation's episodes from its --seed and its files
    record none, so two files from different evaluations pair as if they shared it. A format
    whose cases pair without a seed (Inspect: sample id and epoch) says that instead."""
    unchecked, total = seeds.get("by_episode_id_only", 0), seeds.get("episodes", 0)
    if not unchecked:
        return []
    if pairs_by:
        return [f"the pairs are by {pairs_by}"]
    a_none, b_none = seeds.get("a_records", 0) == 0, seeds.get("b_records", 0) == 0
    who = (
        "neither read records a seed" if a_none and b_none
        else "A records no seed" if a_none
        else "B records no seed" if b_none
        else f"{unchecked:,} of the {total:,} episodes have no recorded seed on a side"
    )
    return [
        f"{who}: those episodes are paired by episode id (task and index) alone, which assumes "
        "both reads ran each one from the same start, that is from the same start seed "
        "(lerobot-eval, for one, seeds its episodes from --seed and records none); the files "
        "cannot show it, so evaluate both with one seed (where seeds are recorded, pairs are "
        "checked equal)"
    ]


def _refuse_unscorable(
    reads: list[tuple[Run, ReadFacts, Findings]], *, allow_errors: bool
) -> tuple[list[str], ...]:
    """Refused for a read the scorer would refuse: audit errors (always: an inconsistent record,
    such as an interruption recorded as a failure, is not compared) and errored rollouts (unless
    `allow_errors`). Returns each read's errored episode ids."""
    from evalview.findings import Severity
    from evalview.stats.errors import errored_cases

    out = []
    for run, facts, given in reads:
        found = given() if callable(given) else given
        errors = [f for f in found if f.severity is Severity.ERROR]
        if errors:
            first = errors[0]
            raise Refused(
                f"{facts.label}: the audit finds {len(errors)} error(s) (first: {first.code} "
                f"{first.location}: {first.message}); an inconsistent read is not compared. Fix "
                f"them (see `evalview check {facts.label}`)."
            )
        if not len(run.episodes):
            from evalview.load.registry import no_pairs_reason

            why = no_pairs_reason(run.kind)
            if why is not None:  # compare's own words, in its format's terms
                raise Refused(f"{facts.label}: not compared, nothing to pair: {why}")
        ids = [e.episode_id for e in errored_cases(run.scheduled())]
        if ids and not allow_errors:
            shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
            raise Refused(
                f"{facts.label}: {len(ids)} errored rollout(s) ({shown}). The reporting rules "
                "compare only reads whose rollouts all completed: re-run them, or pass "
                "--allow-errors to compare anyway (labelled not publishable, the errored pairs "
                "left out and listed)."
            )
        out.append(ids)
    return tuple(out)


def _notes(
    a: Run, b: Run, fa: ReadFacts, fb: ReadFacts, tasks: list[PairedCounts], alpha: float
) -> list[str]:
    """Caveats that do not stop the comparison but must be read next to it."""
    notes: list[str] = []
    if fa.benchmark_version is None:
        notes.append("neither read declares manifest.benchmark.version; the versions are unchecked")
    diffs = fa.execution.differences(fb.execution)
    if diffs:
        notes.append("the reads were not executed alike: " + "; ".join(diffs))
    for facts in (fa, fb):
        for reason in facts.off_protocol:
            notes.append(f"{facts.label} is OFF-PROTOCOL: {reason}")
    for run, facts in ((a, fa), (b, fb)):
        problems = sum(1 for f in run.reading_findings if f.severity.value == "error")
        if problems:
            notes.append(
                f"{facts.label}: {problems} reading problem(s); run `evalview check {facts.label}`"
            )
    n_tasks = len(tasks)
    if n_tasks > 1:
        notes.append(
            "'all pairs' pools the pairs of every task (each pair weighs the same), "
            "which is the all-T mean only when every task has as many pairs"
        )
        # Each task's test holds its level alone; across many tasks some fire by chance.
        family = [t for t in tasks if t.adjusted is not None]
        wins = [t for t in family if t.verdict.code in WINS]
        holm_n = sum(1 for t in wins if t.adjusted is not None and t.adjusted.holm_rejects)
        bh_n = sum(1 for t in wins if t.adjusted is not None and t.adjusted.bh_rejects)
        adjusted = (
            f"Adjusted for the {len(family)} tests, {holm_n} of the {len(wins)} per-task "
            f"difference(s) hold after Holm's correction (family-wise error) and {bh_n} after "
            "Benjamini–Hochberg's (false discovery rate)"
            if wins
            else "No per-task test declares a difference, so none can hold after adjustment"
        )
        notes.append(
            f"the {n_tasks} per-task tests are each at the {alpha:g} level: with no real "
            f"difference about {n_tasks * alpha:.2g} would come out significant by chance. "
            f"{adjusted}; the all-pairs verdict is the primary one, a per-task mark is a lead "
            "to re-test, not a claim"
        )
    return notes

