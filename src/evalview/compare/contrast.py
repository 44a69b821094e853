"""Replicate contrasts: `evalview contrast --a KEY=PATH... --b KEY=PATH... [--relative --bc ...]`.

Exactly the reporting rules' "Comparing two methods": the two sides are paired by training
replicate KEY (the pretraining seed, or the fine-tune seed for a run without pretraining); for
each replicate the difference of the two reads' all-T rates in points with that pair's eval SE
sqrt(se_a² + se_b²); then the mean and sample SD of the differences. Fewer than three pairs is
`descriptive, n_seeds=k` and makes no claim. `--relative` gives R = 100 (SR_A − SR_B)/SR_BC per
replicate with the delta-method SE, where a side that *is* the BC read (the same files) has
covariance se_BC² with it and separate reads have none.

What is refused (Refused, exit 1): mixed benchmarks or versions, mixed seed sets, off-protocol
reads unless allowed (then each is labelled OFF-PROTOCOL), the same checkpoint twice on one
side, a KEY given twice on one side or present on one side only, and a read the scorer refuses
(errored rollouts or audit errors, unless `allow_errors`). Where each fact about a read comes
from is documented in `reads.py`; "off-protocol" in a closed run is a declared mark or execution
constants that differ from the other reads' (a closed run carries no execution.json to compare
with, so the reads' most common constants stand for the protocol).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evalview.compare.reads import (
    DEVELOPMENT,
    Execution,
    ReadFacts,
    Refused,
    read_facts,
    refuse_mixed_benchmarks,
    refuse_mixed_seed_sets,
)
from evalview.findings import Finding
from evalview.model.run import Run
from evalview.stats.scorecard import DEVELOPMENT as DEVELOPMENT_LABEL
from evalview.stats.scorecard import OFF_PROTOCOL, score_run

#: A claim needs at least this many training replicates (reporting rules).
MIN_PAIRS_FOR_CLAIM = 3


@dataclass(frozen=True, slots=True)
class SideRead:
    """One read as it enters a contrast: its replicate KEY, identity, and all-T mean and SE."""

    side: str  # "a", "b" or "bc"
    key: str
    facts: ReadFacts
    mean: float
    se: float
    #: why this read is off-protocol (only non-empty with allow_off_protocol)
    off_protocol: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "path": self.facts.label,
            "run_id": self.facts.run_id,
            "policy": self.facts.policy_name,
            "policy_version": self.facts.policy_version,
            "fine_tune_seed": self.facts.fine_tune_seed,
            "mean": self.mean,
            "se": self.se,
            "off_protocol": list(self.off_protocol),
            "labels": list(self.labels),
        }


@dataclass(frozen=True, slots=True)
class Replicate:
    """One training replicate's pair. Points are percentage points (100 × fractions)."""

    key: str
    a: SideRead
    b: SideRead
    difference_points: float
    eval_se_points: float
    bc: SideRead | None = None
    relative: float | None = None
    relative_se: float | None = None
    #: e.g. "fine-tune seed differs inside the pair: A 1, B 2"
    notes: tuple[str, ...] = ()

    @property
    def fine_tune_seed_differs(self) -> bool:
        fa, fb = self.a.facts.fine_tune_seed, self.b.facts.fine_tune_seed
        return fa is not None and fb is not None and fa != fb

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "bc": None if self.bc is None else self.bc.to_json(),
            "difference_points": self.difference_points,
            "eval_se_points": self.eval_se_points,
            "relative": self.relative,
            "relative_se": self.relative_se,
            "fine_tune_seed_differs": self.fine_tune_seed_differs,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Contrast:
    """The whole contrast. `label` is `paired, n_seeds=k` or `descriptive, n_seeds=k`."""

    replicates: list[Replicate]
    mean_points: float
    sd_points: float | None
    relative: bool
    relative_mean: float | None
    relative_sd: float | None
    off_protocol: bool
    labels: list[str] = field(default_factory=list)

    @property
    def pairs(self) -> int:
        return len(self.replicates)

    @property
    def claim(self) -> bool:
        return self.pairs >= MIN_PAIRS_FOR_CLAIM

    @property
    def label(self) -> str:
        kind = "paired" if self.claim else "descriptive"
        return f"{kind}, n_seeds={self.pairs}"

    @property
    def title(self) -> str:
        """`a42+a43+a44 - b42+b43+b44`, as the reporting rules print it."""
        keys = [r.key for r in self.replicates]
        return "+".join(f"a{k}" for k in keys) + " - " + "+".join(f"b{k}" for k in keys)

    def statement(self) -> str:
        """The claim, or why there is none."""
        if not self.claim:
            return (
                f"no claim: {self.pairs} training replicate(s), a claim needs at least "
                f"{MIN_PAIRS_FOR_CLAIM} pairs"
            )
        what = "R" if self.relative else "A − B"
        value, sd = (
            (self.relative_mean, self.relative_sd) if self.relative
            else (self.mean_points, self.sd_points)
        )
        unit = " %" if self.relative else " pt"
        assert value is not None
        sd_text = "" if sd is None else f", sample SD {sd:.2f}{unit}"
        return f"{what} = {value:+.2f}{unit} over {self.pairs} training replicates{sd_text}"

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "label": self.label,
            "claim": self.claim,
            "statement": self.statement(),
            "pairs": self.pairs,
            "units": "differences in percentage points; relative R in percent of SR_BC; "
            "per-read means and SEs as fractions",
            "mean_points": self.mean_points,
            "sd_points": self.sd_points,
            "relative": self.relative,
            "relative_mean": self.relative_mean,
            "relative_sd": self.relative_sd,
            "off_protocol": self.off_protocol,
            "labels": list(self.labels),
            "replicates": [r.to_json() for r in self.replicates],
        }


def relative_statistic(
    sr_a: float,
    sr_b: float,
    sr_bc: float,
    se_a: float,
    se_b: float,
    se_bc: float,
    *,
    a_is_bc: bool = False,
    b_is_bc: bool = False,
    a_is_b: bool = False,
) -> tuple[float, float]:
    """R = 100 (SR_A − SR_B)/SR_BC and its delta-method SE (rates and SEs as fractions).

    var R = g²(se_A² + se_B² − 2 cov_AB) + h² se_BC² + 2gh(cov_A,BC − cov_B,BC), g = 100/SR_BC,
    h = −100 (SR_A − SR_B)/SR_BC². Separate reads have covariance 0; a side that is the BC read
    itself has covariance se_BC² with it (and A that is B, se_A²).
    """
    if sr_bc <= 0:
        raise ValueError("SR_BC is 0: the relative statistic divides by it")
    g = 100 / sr_bc
    h = -100 * (sr_a - sr_b) / sr_bc**2
    cov_ab = se_a**2 if a_is_b else 0.0
    cov_a_bc = se_bc**2 if a_is_bc else 0.0
    cov_b_bc = se_bc**2 if b_is_bc else 0.0
    var = g**2 * (se_a**2 + se_b**2 - 2 * cov_ab) + h**2 * se_bc**2 + 2 * g * h * (
        cov_a_bc - cov_b_bc
    )
    return 100 * (sr_a - sr_b) / sr_bc, math.sqrt(max(var, 0.0))


def _pair_se_points(a: SideRead, b: SideRead) -> float:
    """sqrt(se_a² + se_b² − 2 cov): separate reads have no covariance; one read given on both
    sides has cov = se², so its difference with itself has no evaluation error."""
    cov = a.se**2 if same_read(a.facts, b.facts) else 0.0
    return 100 * math.sqrt(max(0.0, a.se**2 + b.se**2 - 2 * cov))


def same_read(x: ReadFacts, y: ReadFacts) -> bool:
    """The same files: one real path, or one run id of one checkpoint."""
    if x.real_path == y.real_path:
        return True
    return x.run_id is not None and x.run_id == y.run_id and x.checkpoint == y.checkpoint


def _protocol_reference(facts: list[ReadFacts]) -> Execution:
    """The execution constants most reads share (ties: the first read's)."""
    counts = Counter(f.execution for f in facts)
    best = max(counts.values())
    return next(f.execution for f in facts if counts[f.execution] == best)


def _refuse_repeats(side: str, items: list[tuple[str, ReadFacts]]) -> None:
    """One read per replicate and one replicate per checkpoint on each side."""
    name = {"a": "--a", "b": "--b", "bc": "--bc"}[side]
    seen_keys: dict[str, ReadFacts] = {}
    seen_ckpt: dict[str, tuple[str, ReadFacts]] = {}
    for key, facts in items:
        if key in seen_keys:
            raise Refused(
                f"{name} gives replicate {key} twice ({seen_keys[key].label} and {facts.label}); "
                "a contrast takes one read per replicate (a re-read is a reproducibility check)."
            )
        seen_keys[key] = facts
        for other_key, other in seen_ckpt.values():
            if same_read(facts, other):
                what = "the same read (same files or run id)"
            elif facts.checkpoint is not None and facts.checkpoint == other.checkpoint:
                what = f"checkpoint {facts.checkpoint} (manifest.policy name and version)"
            else:
                continue
            raise Refused(
                f"{name} holds {what} twice: replicate {other_key} ({other.label}) and "
                f"replicate {key} ({facts.label}). Each replicate is its own training run; "
                "give each its own checkpoint."
            )
        seen_ckpt[key] = (key, facts)


def _refuse_mixed_task_sets(reads: list[tuple[Run, ReadFacts]]) -> None:
    """The all-T rates of a contrast average the same tasks: reads of other task sets are not
    reads of one benchmark schedule (a partial or foreign read), and their difference means
    nothing."""
    first_run, first = reads[0]
    tasks = set(map(str, first_run.scheduled().task))
    for run, other in reads[1:]:
        theirs = set(map(str, run.scheduled().task))
        if theirs != tasks:
            only_first, only_other = sorted(tasks - theirs), sorted(theirs - tasks)
            shown = "; ".join(
                f"only in {label}: {', '.join(names[:5])}{' …' if len(names) > 5 else ''}"
                for label, names in ((first.label, only_first), (other.label, only_other))
                if names
            )
            raise Refused(
                f"{first.label} and {other.label} select different tasks ({shown}); the all-T "
                "rates of a contrast must average the same tasks. Contrast reads of the full "
                "benchmark schedule."
            )


def _score(
    run: Run, findings: Sequence[Finding], facts: ReadFacts, allow_errors: bool
) -> tuple[float, float, tuple[str, ...]]:
    # Off-protocol reads and seed sets are the contrast's own refusals and labels (above).
    card = score_run(
        run, findings=findings, bootstrap=0, allow_errors=allow_errors, allow_off_protocol=True
    )
    if card.refusals:
        # The scorer's messages already name the read; prefix it only when one does not.
        text = " ".join(r.message for r in card.refusals)
        prefix = "" if text.startswith(facts.label) else f"{facts.label}: "
        raise Refused(f"{prefix}cannot be scored (the rules a scorer follows): {text}")
    if card.aggregate.mean is None or card.aggregate.se is None:
        raise Refused(f"{facts.label} has no all-T rate (no task with a selected case).")
    own = (DEVELOPMENT_LABEL, OFF_PROTOCOL)
    return card.aggregate.mean, card.aggregate.se, tuple(
        label for label in card.labels if not label.startswith(own)
    )


def _audit_once() -> Callable[[Run], Sequence[Finding]]:
    """The audit's findings of each read, computed at most once per Run object."""
    from evalview.audit import audit

    seen: dict[int, list[Finding]] = {}

    def findings_of(run: Run) -> Sequence[Finding]:
        if id(run) not in seen:
            seen[id(run)] = audit(run)
        return seen[id(run)]

    return findings_of


def contrast_runs(
    a: list[tuple[str, Run, str]],
    b: list[tuple[str, Run, str]],
    *,
    bc: list[tuple[str, Run, str]] | None = None,
    relative: bool = False,
    allow_off_protocol: bool = False,
    allow_errors: bool = False,
    findings_of: Callable[[Run], Sequence[Finding]] | None = None,
) -> Contrast:
    """Contrast side A against side B by replicate. Each item is (KEY, Run, label).

    `findings_of(run)`: the audit's findings of each read (the caller audited it once, as
    `evalview.session.open_run` does); without it each distinct read is audited here, once.
    """
    if findings_of is None:
        findings_of = _audit_once()
    if not a or not b:
        raise Refused("a contrast needs at least one read on each side (--a and --b).")
    if relative and not bc:
        raise Refused("--relative needs the BC reads (--bc KEY=PATH for every replicate).")
    bc = bc or []
    facts = {
        side: [(key, read_facts(run, label)) for key, run, label in items]
        for side, items in (("a", a), ("b", b), ("bc", bc))
    }
    everything = [f for side in facts.values() for _, f in side]
    refuse_mixed_benchmarks(everything)
    refuse_mixed_seed_sets(everything)
    for side, items in facts.items():
        _refuse_repeats(side, items)
    _refuse_mixed_task_sets(
        [(run, f) for items, side in ((a, "a"), (b, "b"), (bc, "bc"))
         for (_, run, _), (_, f) in zip(items, facts[side], strict=True)]
    )
    keys_a = [k for k, _ in facts["a"]]
    keys_b = {k for k, _ in facts["b"]}
    unpaired = [k for k in keys_a if k not in keys_b] + sorted(keys_b - set(keys_a))
    if unpaired:
        raise Refused(
            "replicate(s) " + ", ".join(unpaired) + " appear on one side only; pair every "
            "training replicate KEY with one --a and one --b read."
        )
    if relative:
        missing = [k for k in keys_a if k not in {k2 for k2, _ in facts["bc"]}]
        if missing:
            raise Refused(
                "--relative needs a BC read for every replicate; none for " + ", ".join(missing)
            )

    reference = _protocol_reference(everything)
    off: dict[int, tuple[str, ...]] = {}
    for f in everything:
        reasons = list(f.off_protocol)
        unlike = f.execution.differences(reference)
        if unlike:
            reasons.append(
                "executed unlike the other reads: " + "; ".join(unlike)
                + " (read vs most reads)"
            )
        if reasons:
            off[id(f)] = tuple(reasons)
    if off and not allow_off_protocol:
        lines = [f"{f.label}: {r}" for f in everything for r in off.get(id(f), ())]
        raise Refused(
            "off-protocol read(s) in the contrast: " + " | ".join(lines) + ". A contrast pairs "
            "reads executed alike; pass --allow-off-protocol to contrast them anyway (labelled "
            "OFF-PROTOCOL)."
        )

    runs = {
        (side, key): run
        for side, items in (("a", a), ("b", b), ("bc", bc))
        for key, run, _ in items
    }

    # A read may stand on two sides (the BC read as A, say): it is one Run, audited and scored once.
    scores: dict[int, tuple[float, float, tuple[str, ...]]] = {}

    def side_read(side: str, key: str, f: ReadFacts) -> SideRead:
        run = runs[(side, key)]
        if id(run) not in scores:
            scores[id(run)] = _score(run, findings_of(run), f, allow_errors)
        mean, se, labels = scores[id(run)]
        return SideRead(side, key, f, mean, se, off.get(id(f), ()), labels)

    reads = {
        side: {key: side_read(side, key, f) for key, f in items} for side, items in facts.items()
    }
    replicates: list[Replicate] = []
    for key in keys_a:
        ra, rb = reads["a"][key], reads["b"][key]
        rbc = reads["bc"].get(key) if relative else None
        notes = []
        if ra.facts.fine_tune_seed != rb.facts.fine_tune_seed:
            if ra.facts.fine_tune_seed is None or rb.facts.fine_tune_seed is None:
                notes.append(
                    "fine-tune seed declared on one side only: "
                    f"A {ra.facts.fine_tune_seed}, B {rb.facts.fine_tune_seed}"
                )
            else:
                notes.append(
                    "fine-tune seed differs inside the pair: "
                    f"A {ra.facts.fine_tune_seed}, B {rb.facts.fine_tune_seed}"
                )
        rel = rel_se = None
        if rbc is not None:
            try:
                rel, rel_se = relative_statistic(
                    ra.mean, rb.mean, rbc.mean, ra.se, rb.se, rbc.se,
                    a_is_bc=same_read(ra.facts, rbc.facts),
                    b_is_bc=same_read(rb.facts, rbc.facts),
                    a_is_b=same_read(ra.facts, rb.facts),
                )
            except ValueError as exc:
                raise Refused(f"replicate {key}: {rbc.facts.label}: {exc}.") from exc
            if same_read(ra.facts, rbc.facts) or same_read(rb.facts, rbc.facts):
                notes.append("a side is the BC read itself: its covariance se_BC² is included")
        replicates.append(
            Replicate(
                key=key, a=ra, b=rb, bc=rbc,
                difference_points=100 * (ra.mean - rb.mean),
                eval_se_points=_pair_se_points(ra, rb),
                relative=rel, relative_se=rel_se, notes=tuple(notes),
            )
        )

    diffs = [r.difference_points for r in replicates]
    rels = [r.relative for r in replicates if r.relative is not None]
    labels: list[str] = []
    if off:
        labels.append(OFF_PROTOCOL)
    for sr in (s for side in reads.values() for s in side.values()):
        labels.extend(f"{sr.facts.label}: {lab}" for lab in sr.labels)
    if everything[0].seed_set == DEVELOPMENT:
        labels.append(DEVELOPMENT_LABEL)
    return Contrast(
        replicates=replicates,
        mean_points=statistics.fmean(diffs),
        sd_points=statistics.stdev(diffs) if len(diffs) > 1 else None,
        relative=relative,
        relative_mean=statistics.fmean(rels) if relative else None,
        relative_sd=statistics.stdev(rels) if relative and len(rels) > 1 else None,
        off_protocol=bool(off),
        labels=labels,
    )
