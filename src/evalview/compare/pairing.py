"""What two reads must share to be paired episode by episode, when a format declares it.

A closed run's pairs are checked by its benchmark identity (`compare.reads`); a format whose
reads say more precisely what pairs them declares it in `Run.pairing` (Inspect AI: task, task
version, dataset, its sample ids and epochs). Two such reads that differ in any of it are refused,
or, with `--allow-mismatch`, compared over the pairs both select and labelled NOT MATCHED.
"""

from __future__ import annotations

from evalview.errors import Refused
from evalview.model.run import Run

NOT_MATCHED = "NOT MATCHED"


def declares_pairing(a: Run, b: Run) -> bool:
    return bool(a.pairing or b.pairing)


def pairing_differences(a: Run, b: Run) -> list[str]:
    """Each declared pairing fact that differs, as `name 'A value' vs 'B value'`."""
    keys = list(dict.fromkeys([*a.pairing, *b.pairing]))
    return [
        f"{k} {a.pairing.get(k, 'not declared')!r} vs {b.pairing.get(k, 'not declared')!r}"
        for k in keys
        if a.pairing.get(k) != b.pairing.get(k)
    ]


def first_differing(a: Run, b: Run) -> str | None:
    """The first episode (A's schedule order, then B's) that one read has and the other lacks,
    or that the two say are different things (`Run.pair_keys`), said as `ID, in A only (KEY)` or
    `ID, KEY-A in A, KEY-B in B`; None when the reads declare no per-episode key or agree on
    every one."""
    if not (a.pair_keys or b.pair_keys):
        return None
    ids = list(dict.fromkeys([*a.schedule, *b.schedule]))
    for eid in ids:
        ka, kb = a.pair_keys.get(eid), b.pair_keys.get(eid)
        if ka == kb:
            continue
        if kb is None:
            return f"{eid}, in A only ({ka})"
        if ka is None:
            return f"{eid}, in B only ({kb})"
        return f"{eid}, {ka} in A, {kb} in B"
    return None


def _pairs_need(a: Run) -> str:
    from evalview.load.registry import reader_named

    reader = reader_named(a.kind)
    need = reader.pairs_need if reader is not None else None
    return need or "the same declared pairing facts"


def refuse_unmatched(a: Run, b: Run, label_a: str, label_b: str, *, allow: bool) -> list[str]:
    """Refused (exit 1) when the declared pairing facts differ, unless `allow`: then the labels
    the comparison carries. The refusal says what the format's pairs need (its reader's
    `pairs_need`) and names the first episode the reads do not share."""
    diffs = pairing_differences(a, b)
    if not diffs:
        return []
    first = first_differing(a, b)
    if first is not None:
        diffs = [*diffs, f"the first that differs is {first}"]
    if not allow:
        raise Refused(
            f"{label_a} and {label_b} are not two reads of the same samples: "
            f"{'; '.join(diffs)} (A vs B). Pairs need {_pairs_need(a)}; pass --allow-mismatch "
            f"to compare the pairs both select anyway (labelled {NOT_MATCHED})."
        )
    return [
        f"{NOT_MATCHED}: {'; '.join(diffs)} (A vs B, --allow-mismatch); only the pairs both "
        "select are compared"
    ]


def pairing_notes(a: Run, b: Run) -> list[str]:
    """What the tests assume that repeated epochs of one sample do not give them."""
    epochs = max(int(r.native.get("epochs") or 1) for r in (a, b))
    if epochs <= 1:
        return []
    return [
        f"pairs are (sample id, epoch) and each sample runs {epochs} epochs: a sample's epochs "
        "share its difficulty, so McNemar's p and the paired interval, which take every pair as "
        "independent, are optimistic; read them as pairs of sample-epochs, not of samples (the "
        "sample level, each sample's epochs reduced to a mean, is the comparison of samples)"
    ]
