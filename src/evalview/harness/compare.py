"""Two harness results side by side, only when they are a matched comparison.

The spec: hardware, software, miniverl_version and git_commit are recorded in every result, and
two results that differ in any of them are not a matched comparison, whatever the controlled block
says. So `compare` refuses them unless the caller allows the mismatch, and then labels every
number of the comparison (EV812). Arms are paired by name, reads by seed: per arm the difference
of the means (B - A) and, over shared seeds, the per-seed differences with their mean and sample
SD, a claim only at three or more shared seeds and never for a single-seed file.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from evalview.errors import Refused
from evalview.findings import Finding
from evalview.harness import rules as R
from evalview.harness.audit import SINGLE_SEED_LABEL
from evalview.harness.score import (
    MIN_SEEDS_FOR_CLAIM,
    HarnessScore,
    exact_mean,
    seed_differences,
)
from evalview.model.harness_plain import BenchmarkResult

#: The provenance fields that must agree for a matched comparison, in the spec's order.
MATCHED_FIELDS = ("hardware", "software", "miniverl_version", "git_commit")


class HarnessMismatch(Refused):
    """Two results from different machines, software or commits (exit 1 without the flag)."""


def mismatched_fields(a: BenchmarkResult, b: BenchmarkResult) -> list[str]:
    return [f for f in MATCHED_FIELDS if getattr(a, f) != getattr(b, f)]


@dataclass(frozen=True, slots=True)
class ArmComparison:
    name: str
    #: None when a seed's success_rate is not a fraction (the arm has no mean: audit errors)
    mean_a: float | None
    mean_b: float | None
    shared_seeds: tuple[int, ...]
    differences: tuple[float, ...]  # per shared seed, B - A
    claim: bool
    #: mean_b − mean_a from the exact rates (rounded once where it is shown)
    exact_difference: Fraction = Fraction(0)
    #: the per-seed differences' mean, exact; None without a shared seed
    exact_seed_mean: Fraction | None = None

    @property
    def difference(self) -> float | None:
        if self.mean_a is None or self.mean_b is None:
            return None  # an arm without a mean (a success_rate that is not a fraction)
        return float(self.exact_difference)

    @property
    def sd(self) -> float | None:
        return statistics.stdev(self.differences) if len(self.differences) >= 2 else None

    @property
    def label(self) -> str:
        kind = "paired" if self.claim else "descriptive"
        return f"{kind}, n_seeds={len(self.shared_seeds)}"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mean_a": self.mean_a,
            "mean_b": self.mean_b,
            "difference": self.difference,
            "shared_seeds": list(self.shared_seeds),
            "seed_differences": list(self.differences),
            "mean_seed_difference": (
                None if self.exact_seed_mean is None else float(self.exact_seed_mean)),
            "sd": self.sd,
            "label": self.label,
            "claim": self.claim,
        }


@dataclass(frozen=True)
class HarnessComparison:
    a: HarnessScore
    b: HarnessScore
    mismatched: tuple[str, ...]
    arms: tuple[ArmComparison, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    labels: tuple[str, ...]
    findings: tuple[Finding, ...]

    @property
    def matched(self) -> bool:
        return not self.mismatched

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "miniverl-benchmark-result",
            "a": self.a.name,
            "b": self.b.name,
            "matched": self.matched,
            "mismatched_fields": list(self.mismatched),
            "labels": list(self.labels),
            "arms": [x.to_json() for x in self.arms],
            "only_a": list(self.only_a),
            "only_b": list(self.only_b),
            "findings": [f.to_json() for f in self.findings],
        }


def leaf_differences(a: object, b: object, where: str) -> list[str]:
    """`software.packages.torch: '2.4.1+cu124' vs '2.4.1+cpu'` for every differing leaf."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(set(a) | set(b), key=str):
            out += leaf_differences(a.get(key), b.get(key), f"{where}.{key}")
        return out
    if a == b:
        return []
    return [f"{where}: {_short(a)} vs {_short(b)}"]


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def compare_harness(
    a: BenchmarkResult, b: BenchmarkResult, score_a: HarnessScore, score_b: HarnessScore, *,
    label_a: str, label_b: str, allow_mismatch: bool = False,
) -> HarnessComparison:
    """Compare two scored results. Raises HarnessMismatch unless matched or allowed."""
    fields = mismatched_fields(a, b)
    leaves = [d for f in fields for d in leaf_differences(getattr(a, f), getattr(b, f), f)]
    details = "; ".join(leaves[:6]) + (f"; and {len(leaves) - 6} more" if len(leaves) > 6 else "")
    if fields and not allow_mismatch:
        raise HarnessMismatch(
            f"{label_a} and {label_b} are not a matched comparison: {', '.join(fields)} "
            f"differ ({details}). Compare results of one machine, software stack, miniVERL "
            "version and commit, or pass --allow-mismatch to see them labelled as unmatched."
        )
    labels: list[str] = []
    findings: list[Finding] = []
    if fields:
        labels.append(f"NOT MATCHED: {', '.join(fields)} differ")
        findings.append(R.UNMATCHED_MACHINES(
            f"{label_a} vs {label_b}: {details}. Not a matched comparison (shown with "
            "--allow-mismatch); no difference below is evidence about the arms.",
            file=label_b))
    single = a.single_seed or b.single_seed
    if single:
        labels.append(SINGLE_SEED_LABEL)
    if a.name != b.name:
        labels.append(f"different benchmarks: {a.name} vs {b.name}")
    for side, card in (("A", score_a), ("B", score_b)):
        errors = sorted({f.code for f in card.findings if f.severity.value == "error"})
        if errors:
            labels.append(f"{side} has audit errors ({', '.join(errors)}): not a publishable "
                          "result; see `evalview check`")
    rows_a = {r.name: r for r in score_a.arms}
    rows_b = {r.name: r for r in score_b.arms}
    arms = []
    for name, ra in rows_a.items():
        rb = rows_b.get(name)
        if rb is None:
            continue
        # an arm without a mean has a rate that is not a fraction: nothing is differenced
        valid = ra.mean is not None and rb.mean is not None
        ran = {r.seed for r in ra.reads}
        shared = tuple(r.seed for r in rb.reads if r.seed in ran)
        seeds = seed_differences(rb.reads, ra.reads) if valid else []
        diffs = tuple(float(d) for _, d in seeds)
        claim = len(shared) >= MIN_SEEDS_FOR_CLAIM and not single and not fields and valid
        arms.append(ArmComparison(
            name, ra.mean, rb.mean, shared, diffs, claim,
            exact_difference=(exact_mean(r.exact_rate for r in rb.reads)
                              - exact_mean(r.exact_rate for r in ra.reads)) if valid
            else Fraction(0),
            exact_seed_mean=exact_mean(d for _, d in seeds) if seeds else None,
        ))
    return HarnessComparison(
        a=score_a, b=score_b, mismatched=tuple(fields), arms=tuple(arms),
        only_a=tuple(n for n in rows_a if n not in rows_b),
        only_b=tuple(n for n in rows_b if n not in rows_a),
        labels=tuple(labels), findings=tuple(findings),
    )
