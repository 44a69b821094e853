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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from evalview.compare import contrast_policy as policy
from evalview.compare.contrast_policy import MIN_PAIRS_FOR_CLAIM, same_read
from evalview.compare.reads import ReadFacts, Refused, read_facts
from evalview.findings import Finding
from evalview.fmt import exact, fixed
from evalview.model.run import Run
from evalview.stats.scorecard import score_run

__all__ = [
    "MIN_PAIRS_FOR_CLAIM",
    "Contrast",
    "Replicate",
    "SideRead",
    "contrast_runs",
    "relative_statistic",
    "same_read",
]


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
    #: the all-T mean as an exact fraction: differences are computed from it and rounded once
    exact_mean: Fraction | None = field(default=None, compare=False, repr=False)

    @property
    def exact(self) -> Fraction:
        return self.exact_mean if self.exact_mean is not None else exact(self.mean)

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
        return policy.claim_label(self.pairs)

    @property
    def title(self) -> str:
        """`a42+a43+a44 - b42+b43+b44`, as the reporting rules print it."""
        keys = [r.key for r in self.replicates]
        return "+".join(f"a{k}" for k in keys) + " - " + "+".join(f"b{k}" for k in keys)

    def statement(self) -> str:
        """The claim, or why there is none."""
        if not self.claim:
            return policy.no_claim_statement(self.pairs)
        what = "R" if self.relative else "A − B"
        value, sd = (
            (self.relative_mean, self.relative_sd) if self.relative
            else (self.mean_points, self.sd_points)
        )
        unit = " %" if self.relative else " pt"
        assert value is not None
        sd_text = "" if sd is None else f", sample SD {fixed(sd, 2)}{unit}"
        return (
            f"{what} = {fixed(value, 2, sign=True)}{unit} over {self.pairs} training "
            f"replicates{sd_text}"
        )

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


def _score(
    run: Run, findings: Sequence[Finding], facts: ReadFacts, allow_errors: bool
) -> tuple[float, float, tuple[str, ...], Fraction | None]:
    # Off-protocol reads and seed sets are the contrast's own refusals and labels.
    card = score_run(
        run, findings=findings, bootstrap=0, allow_errors=allow_errors, allow_off_protocol=True
    )
    mean, se = policy.refuse_unscored(card, facts)
    return mean, se, policy.read_labels(card), card.aggregate.exact_mean


def contrast_runs(
    a: list[tuple[str, Run, str]],
    b: list[tuple[str, Run, str]],
    *,
    bc: list[tuple[str, Run, str]] | None = None,
    relative: bool = False,
    allow_off_protocol: bool = False,
    allow_errors: bool = False,
    findings_of: Callable[[Run], Sequence[Finding]],
) -> Contrast:
    """Contrast side A against side B by replicate. Each item is (KEY, Run, label).

    `findings_of(run)`: each read's whole audit, as its session holds it (the caller opened
    and audited every read once through `evalview.session`; nothing here audits again).
    """
    policy.refuse_incomplete_request(bool(a), bool(b), relative, bool(bc))
    bc = bc or []
    facts = {
        side: [(key, read_facts(run, label)) for key, run, label in items]
        for side, items in (("a", a), ("b", b), ("bc", bc))
    }
    everything = [f for side in facts.values() for _, f in side]
    policy.refuse_unpoolable(
        facts,
        [(run, f) for items, side in ((a, "a"), (b, "b"), (bc, "bc"))
         for (_, run, _), (_, f) in zip(items, facts[side], strict=True)],
        relative,
    )
    keys_a = [k for k, _ in facts["a"]]
    off = policy.off_protocol_reasons(everything, allow_off_protocol)

    runs = {
        (side, key): run
        for side, items in (("a", a), ("b", b), ("bc", bc))
        for key, run, _ in items
    }

    # A read may stand on two sides (the BC read as A, say): it is one Run, audited and scored once.
    scores: dict[int, tuple[float, float, tuple[str, ...], Fraction | None]] = {}

    def side_read(side: str, key: str, f: ReadFacts) -> SideRead:
        run = runs[(side, key)]
        if id(run) not in scores:
            scores[id(run)] = _score(run, findings_of(run), f, allow_errors)
        mean, se, labels, exact_mean = scores[id(run)]
        return SideRead(side, key, f, mean, se, off.get(id(f), ()), labels, exact_mean)

    reads = {
        side: {key: side_read(side, key, f) for key, f in items} for side, items in facts.items()
    }
    replicates: list[Replicate] = []
    for key in keys_a:
        ra, rb = reads["a"][key], reads["b"][key]
        rbc = reads["bc"].get(key) if relative else None
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
            rel = float(100 * (ra.exact - rb.exact) / rbc.exact)  # exact, rounded once
        notes = policy.pair_notes(ra.facts, rb.facts, None if rbc is None else rbc.facts)
        replicates.append(
            Replicate(
                key=key, a=ra, b=rb, bc=rbc,
                difference_points=float(100 * (ra.exact - rb.exact)),
                eval_se_points=_pair_se_points(ra, rb),
                relative=rel, relative_se=rel_se, notes=notes,
            )
        )

    # exact differences: their mean is rounded once where it is shown
    diffs = [100 * (r.a.exact - r.b.exact) for r in replicates]
    rels = [
        100 * (r.a.exact - r.b.exact) / r.bc.exact
        for r in replicates if r.relative is not None and r.bc is not None
    ]
    labels = policy.contrast_labels(
        bool(off),
        [(sr.facts, sr.labels) for side in reads.values() for sr in side.values()],
        everything[0].seed_set,
    )
    return Contrast(
        replicates=replicates,
        mean_points=float(sum(diffs, Fraction(0)) / len(diffs)),
        sd_points=float(statistics.stdev(diffs)) if len(diffs) > 1 else None,
        relative=relative,
        relative_mean=float(sum(rels, Fraction(0)) / len(rels)) if relative and rels else None,
        relative_sd=float(statistics.stdev(rels)) if relative and len(rels) > 1 else None,
        off_protocol=bool(off),
        labels=labels,
    )
