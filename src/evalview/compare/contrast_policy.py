"""The reporting rules' verdict on a contrast: what refuses it, and its labels and notes.

`contrast_runs` pairs the reads and does the arithmetic (differences, eval SEs, R); the rules
that refuse a contrast or label it live here, so every refusal and label of `evalview contrast`
is worded in one place (reporting-rules.txt, "Comparing two methods" and "What the scorer pools").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from evalview.compare.reads import (
    DEVELOPMENT,
    Execution,
    ReadFacts,
    Refused,
    refuse_mixed_benchmarks,
    refuse_mixed_seed_sets,
)
from evalview.model.run import Run
from evalview.stats import Scorecard
from evalview.stats.policy import DEVELOPMENT as DEVELOPMENT_LABEL
from evalview.stats.policy import OFF_PROTOCOL

#: A claim needs at least this many training replicates (reporting rules).
MIN_PAIRS_FOR_CLAIM = 3

#: Facts of each side's reads, by side ("a", "b", "bc"), each as (KEY, facts).
SideFacts = dict[str, list[tuple[str, ReadFacts]]]


def claim_label(pairs: int) -> str:
    """`paired, n_seeds=k`, or `descriptive, n_seeds=k` below the pairs a claim needs."""
    kind = "paired" if pairs >= MIN_PAIRS_FOR_CLAIM else "descriptive"
    return f"{kind}, n_seeds={pairs}"


def no_claim_statement(pairs: int) -> str:
    """Why a contrast of `pairs` replicates makes no claim."""
    return (
        f"no claim: {pairs} training replicate(s), a claim needs at least "
        f"{MIN_PAIRS_FOR_CLAIM} pairs"
    )


def same_read(x: ReadFacts, y: ReadFacts) -> bool:
    """The same files: one real path and run id (a file of named reads holds several reads, each
    its own run id), or one run id of one checkpoint."""
    if x.real_path == y.real_path and x.run_id == y.run_id:
        return True
    return x.run_id is not None and x.run_id == y.run_id and x.checkpoint == y.checkpoint


def refuse_incomplete_request(a_given: bool, b_given: bool, relative: bool, bc_given: bool) -> None:
    """Both sides, and the BC reads when `--relative` asks for R."""
    if not a_given or not b_given:
        raise Refused("a contrast needs at least one read on each side (--a and --b).")
    if relative and not bc_given:
        raise Refused("--relative needs the BC reads (--bc KEY=PATH for every replicate).")


def refuse_unpoolable(facts: SideFacts, reads: list[tuple[Run, ReadFacts]], relative: bool) -> None:
    """One benchmark, version and seed set; one read per replicate and checkpoint on each side;
    the same tasks everywhere; every replicate on both sides (and with a BC read for R)."""
    everything = [f for side in facts.values() for _, f in side]
    refuse_mixed_benchmarks(everything)
    refuse_mixed_seed_sets(everything)
    for side, items in facts.items():
        _refuse_repeats(side, items)
    _refuse_mixed_task_sets(reads)
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


def off_protocol_reasons(
    everything: list[ReadFacts], allow_off_protocol: bool
) -> dict[int, tuple[str, ...]]:
    """Why each read (by `id` of its facts) is off-protocol: a declared mark, or execution
    constants unlike most reads'. Refused unless `allow_off_protocol` (then labelled)."""
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
    return off


def refuse_unscored(card: Scorecard, facts: ReadFacts) -> tuple[float, float]:
    """The read's all-T mean and SE, or the scorer's refusal worded for the contrast."""
    if card.refusals:
        # The scorer's messages already name the read; prefix it only when one does not.
        text = " ".join(r.message for r in card.refusals)
        prefix = "" if text.startswith(facts.label) else f"{facts.label}: "
        raise Refused(f"{prefix}cannot be scored (the rules a scorer follows): {text}")
    if card.aggregate.mean is None or card.aggregate.se is None:
        raise Refused(f"{facts.label} has no all-T rate (no task with a selected case).")
    return card.aggregate.mean, card.aggregate.se


def read_labels(card: Scorecard) -> tuple[str, ...]:
    """The scorer's labels a contrast carries per read: off-protocol and the seed set are the
    contrast's own labels, stated once for the whole contrast."""
    own = (DEVELOPMENT_LABEL, OFF_PROTOCOL)
    return tuple(label for label in card.labels if not label.startswith(own))


def pair_notes(a: ReadFacts, b: ReadFacts, bc: ReadFacts | None) -> tuple[str, ...]:
    """What the contrast records about one replicate's pair (reporting rules)."""
    notes = []
    if a.fine_tune_seed != b.fine_tune_seed:
        if a.fine_tune_seed is None or b.fine_tune_seed is None:
            notes.append(
                "fine-tune seed declared on one side only: "
                f"A {a.fine_tune_seed}, B {b.fine_tune_seed}"
            )
        else:
            notes.append(
                "fine-tune seed differs inside the pair: "
                f"A {a.fine_tune_seed}, B {b.fine_tune_seed}"
            )
    if bc is not None and (same_read(a, bc) or same_read(b, bc)):
        notes.append("a side is the BC read itself: its covariance se_BC² is included")
    return tuple(notes)


def contrast_labels(
    off_protocol: bool,
    read_labels: Sequence[tuple[ReadFacts, Sequence[str]]],
    seed_set: str,
) -> list[str]:
    """The contrast's labels: OFF-PROTOCOL first, each read's own labels, then the seed set."""
    labels: list[str] = []
    if off_protocol:
        labels.append(OFF_PROTOCOL)
    for facts, own in read_labels:
        labels.extend(f"{facts.label}: {lab}" for lab in own)
    if seed_set == DEVELOPMENT:
        labels.append(DEVELOPMENT_LABEL)
    return labels


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
