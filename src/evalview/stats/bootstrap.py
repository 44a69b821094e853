"""The seed bootstrap of the all-T aggregate, reproducible draw for draw.

The reporting rules fix the generator (`random.Random(7)`) and B = 10,000 so that anyone can
recompute the interval; docs/statistics.md states the draw order and gives a plain-Python reference
that tests/stats/test_bootstrap.py checks against this vectorized version. The words come from the
generator in bulk (`getrandbits(32·m)` yields the same 32-bit words, in the same order, as m calls
of `getrandbits(32)`), and numpy does the arithmetic.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from evalview.stats.intervals import Interval

#: The reporting rules' defaults.
DEFAULT_RESAMPLES = 10_000
SEED = 7
#: Percentile bounds of a 95 % interval.
PERCENTILES = (2.5, 97.5)
#: About this many 32-bit words per vectorized chunk (bounds memory to a few tens of MB).
_CHUNK_WORDS = 1 << 20


def bootstrap_interval(
    outcomes: Sequence[Sequence[int]] | Sequence[npt.NDArray[np.int8]],
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = SEED,
) -> Interval:
    """95 % percentile interval of the mean of per-task rates under seed resampling.

    `outcomes[t]` holds task t's 0/1 outcomes over its selected cases, in schedule order; tasks are
    in schedule order too. Both orders are part of the definition (they fix which draw goes where).
    """
    stats = bootstrap_distribution(outcomes, resamples, seed)
    lo, hi = np.percentile(stats, PERCENTILES)  # numpy's default: linear interpolation
    return float(lo), float(hi)


def bootstrap_distribution(
    outcomes: Sequence[Sequence[int]] | Sequence[npt.NDArray[np.int8]],
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = SEED,
) -> npt.NDArray[np.float64]:
    """The B resampled aggregates, in draw order."""
    if resamples <= 0:
        raise ValueError(f"the bootstrap needs at least one resample, got {resamples}")
    if not outcomes or any(len(x) == 0 for x in outcomes):
        raise ValueError("the bootstrap needs at least one task and one case per task")
    sizes = np.array([len(x) for x in outcomes], dtype=np.uint64)
    values = np.concatenate([np.asarray(x, dtype=np.int32) for x in outcomes])
    total = int(values.shape[0])
    t = len(outcomes)
    # For each column of a resample: the task's size (the range of the draw), and where the task's
    # outcomes start in `values`.
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    col_size = np.repeat(sizes, sizes.astype(np.intp))
    col_offset = np.repeat(starts, sizes.astype(np.intp)).astype(np.uint64)
    size_f = sizes.astype(np.float64)

    rng = random.Random(seed)
    out = np.empty(resamples, dtype=np.float64)
    per_chunk = max(1, _CHUNK_WORDS // total)
    for first in range(0, resamples, per_chunk):
        rows = min(per_chunk, resamples - first)
        words = _words(rng, rows * total).reshape(rows, total)
        # index = floor(word · n_t / 2^32), the same as `(word * n_t) >> 32` in Python.
        idx = ((words * col_size) >> np.uint64(32)) + col_offset
        drawn = values[idx.astype(np.intp)]
        counts = np.add.reduceat(drawn, starts, axis=1)
        out[first : first + rows] = (counts / size_f).sum(axis=1) / t
    return out


def _words(rng: random.Random, m: int) -> npt.NDArray[np.uint64]:
    """The next m 32-bit words of the generator, in generation order (as uint64)."""
    raw = rng.getrandbits(32 * m).to_bytes(4 * m, "little")
    return np.frombuffer(raw, dtype="<u4").astype(np.uint64)
