"""What a comparison adds where pairs are not single 0/1 outcomes: a paired bootstrap.

- **Graded metrics** (lm-eval's BLEU, F1, chrF: a value per document, not a success): each
  document both reads scored is a pair; the difference of the means, B − A, gets a 95 % paired
  bootstrap interval over the documents. McNemar and Newcombe need 0/1 outcomes, so these pairs
  are never in them, and the comparison says so.
- **Samples with repeated epochs** (Inspect): each sample's completed epoch pairs are reduced to
  the mean of each read's successes over them, and the sample-level difference of means gets a
  95 % paired bootstrap interval over the samples (a cluster bootstrap: a sample's epochs share
  its difficulty, which the sample-epoch pairs' McNemar and Newcombe take as independent).

**The paired bootstrap, draw for draw**: the per-pair differences d_1..d_n in the order given
(the reads' schedule order); for resample r = 1..B, n indices are drawn, index =
floor(w · n / 2^32) for the next 32-bit word w of `random.Random(7).getrandbits(32)`; the
resample's statistic is the mean of the drawn d. The interval is numpy's linear-interpolation
percentiles 2.5 and 97.5 of the B statistics. B = 10,000 and seed 7, as the seed bootstrap
(stats/bootstrap.py, whose word stream this reuses).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from evalview.fmt import points
from evalview.stats.bootstrap import DEFAULT_RESAMPLES, PERCENTILES, SEED, _mt19937_words

#: `method` of a graded task's interval and of the sample-level interval in `compare --json`.
GRADED_METHOD = (
    "paired bootstrap over documents: the mean of B − A per document, B = 10,000 resamples of "
    "the pairs with replacement from random.Random(7), percentile 95 % (docs/compare.md)"
)
SAMPLE_METHOD = (
    "paired bootstrap over samples: each sample's completed epoch pairs reduced to the mean of "
    "each read's successes, B = 10,000 resamples of the samples with replacement from "
    "random.Random(7), percentile 95 % (docs/compare.md)"
)
_CHUNK_WORDS = 1 << 18


def paired_bootstrap_distribution(
    diffs: npt.ArrayLike, resamples: int = DEFAULT_RESAMPLES, seed: int = SEED
) -> npt.NDArray[np.float64]:
    """The B resampled means of `diffs`, in draw order (see the module docstring)."""
    d = np.asarray(diffs, dtype=np.float64)
    n = int(d.shape[0])
    if n == 0 or resamples <= 0:
        raise ValueError("a paired bootstrap needs at least one pair and one resample")
    words = _mt19937_words(random.Random(seed))
    out = np.empty(resamples, dtype=np.float64)
    per_chunk = max(1, _CHUNK_WORDS // n)
    for first in range(0, resamples, per_chunk):
        rows = min(per_chunk, resamples - first)
        idx = words(rows * n).reshape(rows, n)
        idx *= np.uint64(n)
        idx >>= np.uint64(32)
        out[first:first + rows] = np.take(d, idx.view(np.intp), mode="clip").mean(axis=1)
    return out


def paired_bootstrap(
    diffs: npt.ArrayLike, resamples: int = DEFAULT_RESAMPLES, seed: int = SEED
) -> tuple[float, float]:
    """The 95 % percentile interval of the mean difference."""
    lo, hi = np.percentile(paired_bootstrap_distribution(diffs, resamples, seed), PERCENTILES)
    return float(lo), float(hi)


def _said(difference: float, iv: tuple[float, float], unit: str, scale: str) -> str:
    lo, hi = iv
    holds = lo <= 0 <= hi
    def fmt(x: float) -> str:
        return f"{x:+.4g}" if scale == "value" else points(x, unit="")

    end = "" if scale == "value" else " pt"
    head = f"B − A {fmt(difference)}{end}, 95 % {fmt(lo)} to {fmt(hi)}{end} (paired bootstrap " \
        f"over {unit})"
    if holds:
        return f"{head}: the interval holds 0, no difference declared"
    return f"{head}: {'B' if lo > 0 else 'A'} is higher (the interval excludes 0)"


@dataclass(frozen=True, slots=True)
class GradedPairs:
    """One task whose metric is graded (not 0/1): the documents both reads scored, paired."""

    task: str
    metric: str | None
    pairs: int
    mean_a: float
    mean_b: float
    interval: tuple[float, float]

    @property
    def difference(self) -> float:
        return self.mean_b - self.mean_a

    @property
    def text(self) -> str:
        return _said(self.difference, self.interval, f"{self.pairs:,} documents", "value")

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task, "metric": self.metric, "pairs": self.pairs,
            "mean_a": self.mean_a, "mean_b": self.mean_b, "difference": self.difference,
            "difference_ci95": {"method": GRADED_METHOD, "interval": list(self.interval)},
            "text": self.text,
            "note": "a graded metric: not a success per document, so not in McNemar, the "
            "paired score interval or the all-pairs verdict",
        }


def graded_pairs(task: str, metric: str | None, a: list[float], b: list[float]) -> GradedPairs:
    """The paired comparison of one graded task (`a[i]`, `b[i]`: one document's values)."""
    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    return GradedPairs(task, metric, len(a), math.fsum(a) / len(a), math.fsum(b) / len(b),
                       paired_bootstrap(d))


@dataclass(frozen=True, slots=True)
class SampleLevel:
    """The comparison at the sample level: each sample's completed epoch pairs reduced."""

    #: sample id -> (completed pairs, A's successes, B's successes), in schedule order
    samples: dict[str, tuple[int, int, int]]
    interval: tuple[float, float] | None

    def _rates(self) -> list[tuple[float, float]]:
        return [(ka / n, kb / n) for n, ka, kb in self.samples.values() if n]

    @property
    def n(self) -> int:
        return len(self._rates())

    @property
    def difference(self) -> float | None:
        rates = self._rates()
        return math.fsum(b - a for a, b in rates) / len(rates) if rates else None

    def counts(self) -> dict[str, int]:
        rates = self._rates()
        return {"b_higher": sum(1 for a, b in rates if b > a),
                "a_higher": sum(1 for a, b in rates if a > b),
                "equal": sum(1 for a, b in rates if a == b)}

    @property
    def text(self) -> str:
        c = self.counts()
        head = (f"{self.n:,} samples (each one's completed epoch pairs reduced to a mean): B "
                f"higher in {c['b_higher']:,}, A higher in {c['a_higher']:,}, equal in "
                f"{c['equal']:,}")
        if self.interval is None or self.difference is None:
            return head
        return f"{head}; {_said(self.difference, self.interval, 'samples', 'rate')}"

    def to_json(self) -> dict[str, Any]:
        return {
            "samples": self.n,
            "difference": self.difference,
            "difference_ci95": None if self.interval is None else {
                "method": SAMPLE_METHOD, "interval": list(self.interval)},
            **self.counts(),
            "text": self.text,
            "per_sample": [
                {"sample": s, "pairs": n, "successes_a": ka, "successes_b": kb}
                for s, (n, ka, kb) in self.samples.items()
            ],
        }


def sample_level(
    repeats: dict[str, str], paired: list[tuple[str, int, int]]
) -> SampleLevel | None:
    """`paired`: (episode id, A success, B success) of each pair completed on both reads;
    `repeats`: episode id -> sample id. None when no sample has more than one epoch."""
    if not repeats or len(set(repeats.values())) == len(repeats):
        return None
    per: dict[str, list[int]] = {}
    for eid, sa, sb in paired:
        cell = per.setdefault(repeats.get(eid, eid), [0, 0, 0])
        cell[0] += 1
        cell[1] += sa
        cell[2] += sb
    samples = {s: (c[0], c[1], c[2]) for s, c in per.items()}
    diffs = [(kb - ka) / n for n, ka, kb in samples.values() if n]
    return SampleLevel(samples, paired_bootstrap(diffs) if diffs else None)
