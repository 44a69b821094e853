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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from evalview.compare.difference import (
    HYBRID,
    PAIRED,
    DifferenceInterval,
    newcombe_hybrid,
    newcombe_paired,
)
from evalview.compare.hypothesis_tests import mcnemar_exact, pooled_z_test
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
from evalview.findings import Finding
from evalview.fmt import count
from evalview.model.run import COMPLETED, ERROR, UNATTEMPTED, Run
from evalview.stats.intervals import wilson_interval
from evalview.stats.policy import DEVELOPMENT as DEVELOPMENT_LABEL
from evalview.stats.policy import (
    NOT_PUBLISHABLE,
    OFF_PROTOCOL,
    no_cases_message,
    untagged_quality_tags,
)

SUCCESS = "success"
FAILURE = "failure"


@dataclass(frozen=True, slots=True)
class Verdict:
    """`code` is b_better, a_better, not_significant or no_pairs; `text` is the sentence to show."""

    code: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "text": self.text}


@dataclass(frozen=True, slots=True)
class PairedCounts:
    """One task (or all pairs): the 2×2 table, the tests, the verdict and what would resolve it."""

    task: str
    both: int
    only_a: int
    only_b: int
    neither: int
    mcnemar_p: float
    z: float
    z_p: float
    verdict: Verdict
    #: episodes per task (pairs) that resolve the observed gap at the given power; None at no gap
    resolve_paired: int | None
    #: episodes per task and per read, unpaired
    resolve_unpaired: int | None
    #: pairs left out of the tests, by reason ("A error", "B unattempted", ...)
    excluded: dict[str, int] = field(default_factory=dict)

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
            "z": self.z,
            "z_test_p": self.z_p,
            "verdict": self.verdict.to_json(),
            "episodes_to_resolve": {
                "paired": self.resolve_paired,
                "unpaired": self.resolve_unpaired,
            },
            "excluded_pairs": dict(self.excluded),
            "difference_ci95": self.difference_ci95_json(),
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

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "alpha": self.alpha,
            "power": self.power,
            "pairing": "by episode id; only pairs completed on both sides enter the tests",
            "overall": self.overall.to_json(),
            "tasks": [t.to_json() for t in self.tasks],
            "only_in_a": list(self.only_in_a),
            "only_in_b": list(self.only_in_b),
            "notes": list(self.notes),
            "labels": list(self.labels),
            # only with --allow-errors and an errored pair, so other output is as it was
            **({"errored_pairs": list(self.errored_pairs)} if self.errored_pairs else {}),
        }


def _outcome(status: str, success: int) -> str:
    if status == COMPLETED and success in (0, 1):
        return SUCCESS if success == 1 else FAILURE
    if status in (ERROR, UNATTEMPTED):
        return str(status)
    return "invalid"


def _outcomes(run: Run) -> dict[str, tuple[str, str]]:
    """Episode id -> (task, outcome) over the selected cases, in schedule order."""
    table = run.scheduled()
    out: dict[str, tuple[str, str]] = {}
    for eid, task, status, success in zip(
        table.ids, table.task, table.status, table.success, strict=True
    ):
        out[str(eid)] = (str(task), _outcome(str(status), int(success)))
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def verdict(both: int, only_a: int, only_b: int, neither: int, p: float, alpha: float) -> Verdict:
    """The verdict as the statistics spec states it: the test's p, and who won the discordant pairs.

    "Twenty pairs with b = 8 and c = 2 give p = 0.109: not significant, though the new checkpoint
    won 8 of the 10 discordant pairs." A verdict never says "equal": no difference was declared.
    """
    n = both + only_a + only_b + neither
    d = only_a + only_b
    if n == 0:
        return Verdict("no_pairs", "no pair completed on both reads: nothing to compare")
    head = f"{count(n, 'pair')}, b = {only_b:,} and c = {only_a:,} give p = {p:.3g}"
    if d == 0:
        return Verdict(
            "not_significant", f"{head}: no discordant pair, so no difference can be declared"
        )
    if p < alpha:
        winner, won = ("B", only_b) if only_b > only_a else ("A", only_a)
        return Verdict(
            f"{winner.lower()}_better",
            f"{head} < {alpha:g}: {winner} is better, winning {won:,} of the {d:,} discordant "
            "pairs",
        )
    if only_a == only_b:
        lead = f"A and B each won {only_a:,} of the {d:,} discordant pairs"
    else:
        leader, won = ("B", only_b) if only_b > only_a else ("A", only_a)
        lead = f"though {leader} won {won:,} of the {d:,} discordant pairs"
    return Verdict(
        "not_significant",
        f"{head}: not significant at the {_pct(alpha)} level, {lead}",
    )


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
    if n:
        zt = pooled_z_test(both + only_a, n, both + only_b, n)
        z, z_p = zt.z, zt.p_value
    else:
        z, z_p = 0.0, 1.0
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
        z=z,
        z_p=z_p,
        verdict=verdict(both, only_a, only_b, neither, mc.p_value, alpha),
        resolve_paired=resolve_paired,
        resolve_unpaired=resolve_unpaired,
        excluded=dict(excluded or {}),
    )


def compare_runs(
    a: Run,
    b: Run,
    *,
    findings: tuple[Sequence[Finding], Sequence[Finding]],
    label_a: str | None = None,
    label_b: str | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    allow_off_protocol: bool = False,
    allow_errors: bool = False,
    allow_mismatch: bool = False,
) -> Comparison:
    """Pair B against A by episode id. Raises `Refused` for reads that cannot be paired.

    Reads that declare what pairs them (`Run.pairing`: an Inspect log's task, dataset and sample
    ids) are checked by that instead of the benchmark identity (`compare.pairing`): refused when
    it differs, unless `allow_mismatch`, which labels the comparison NOT MATCHED.

    The reporting rules compare reads of one protocol: an off-protocol read (declared, or executed
    unlike the other) is refused unless `allow_off_protocol`, and then labelled OFF-PROTOCOL.
    As `score` does, a read with audit errors is refused, and a read with errored rollouts is
    refused unless `allow_errors`: then the comparison is labelled not publishable and every pair
    left out for an error is listed.

    `findings`: each read's whole audit, as its session holds it (`evalview.session` opens and
    audits both; nothing here audits again).
    """
    fa, fb = read_facts(a, label_a), read_facts(b, label_b)
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
    _refuse_seed_mismatch(a, b, fa.label, fb.label, common)
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
    total, total_ex = pairs.totals()
    overall = paired_counts(
        "all pairs", total["both"], total["only_a"], total["only_b"], total["neither"],
        alpha=alpha, power=power, excluded=dict(total_ex),
    )
    return Comparison(
        a=fa, b=fb, alpha=alpha, power=power, tasks=tasks, overall=overall,
        only_in_a=[eid for eid in oa if eid not in ob],
        only_in_b=[eid for eid in ob if eid not in oa],
        notes=_notes(a, b, fa, fb, len(tasks), alpha) + pairing_notes(a, b),
        labels=unmatched + _labels(bool(off), fa, errored),
        errored_pairs=pairs.errored,
    )


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
        cell = pairs.cells.setdefault(task_a, Counter())
        ex = pairs.excluded.setdefault(task_a, Counter())
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
        str(eid): int(seed) for eid, seed in zip(table.ids, table.seed, strict=True) if seed >= 0
    }


def _refuse_seed_mismatch(a: Run, b: Run, la: str, lb: str, common: list[str]) -> None:
    """Pairs are (task, episode); where both reads record a seed it must be the same start."""
    sa, sb = _seeds(a), _seeds(b)
    if not sa or not sb:
        return
    for eid in common:
        if eid in sa and eid in sb and sa[eid] != sb[eid]:
            raise Refused(
                f"episode {eid} ran seed {sa[eid]} in {la} but seed {sb[eid]} in {lb} (the first "
                "mismatch): the reads did not start from the same conditions, so they cannot be "
                "paired. Re-run one with the other's seeds (lerobot-eval --seed)."
            )


def _refuse_unscorable(
    reads: list[tuple[Run, ReadFacts, Sequence[Finding]]], *, allow_errors: bool
) -> tuple[list[str], ...]:
    """Refused for a read the scorer would refuse: audit errors (always: an inconsistent record,
    such as an interruption recorded as a failure, is not compared) and errored rollouts (unless
    `allow_errors`). Returns each read's errored episode ids."""
    from evalview.findings import Severity
    from evalview.stats.errors import errored_cases

    out = []
    for run, facts, found in reads:
        errors = [f for f in found if f.severity is Severity.ERROR]
        if errors:
            first = errors[0]
            raise Refused(
                f"{facts.label}: the audit finds {len(errors)} error(s) (first: {first.code} "
                f"{first.location}: {first.message}); an inconsistent read is not compared. Fix "
                f"them (see `evalview check {facts.label}`)."
            )
        if not len(run.episodes):
            from evalview.load.registry import no_cases_reason

            why = no_cases_reason(run.kind)
            if why is not None:  # what `score` says of it, in its format's terms
                raise Refused(no_cases_message(facts.label, why))
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
    a: Run, b: Run, fa: ReadFacts, fb: ReadFacts, n_tasks: int, alpha: float
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
    if n_tasks > 1:
        notes.append(
            "'all pairs' pools the pairs of every task (each pair weighs the same), "
            "which is the all-T mean only when every task has as many pairs"
        )
        # Each task's test holds its level alone; across many tasks some fire by chance.
        notes.append(
            f"the {n_tasks} per-task tests are each at the {alpha:g} level, uncorrected: with no "
            f"real difference about {n_tasks * alpha:.2g} would come out significant by chance; "
            "a per-task mark is a lead to re-test, not a claim"
        )
    return notes

