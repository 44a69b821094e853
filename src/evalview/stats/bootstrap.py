"""The seed bootstrap of the all-T aggregate, reproducible draw for draw.

The reporting rules fix the generator (`random.Random(7)`) and B = 10,000 so that anyone can
recompute the interval; docs/statistics.md states the draw order and gives a plain-Python reference
that tests/stats/test_bootstrap.py checks against this vectorized version.

The words are those of `random.Random(7).getrandbits(32)`, in order, but produced by numpy's
MT19937 started from that generator's state (`getstate()`): the same Mersenne Twister, so the same
words, written straight into an array. Taking them from Python (`getrandbits(32·m)`, then
`to_bytes`) cost more than the rest of the bootstrap together (docs/performance.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from evalview.stats.intervals import Interval

#: The reporting rules' defaults.
DEFAULT_RESAMPLES = 10_000
SEED = 7
#: Percentile bounds of a 95 % interval.
PERCENTILES = (2.5, 97.5)
#: About this many 32-bit words per vectorized chunk: 256 KB per array, so every pass over a
#: chunk stays in the CPU cache (2^20 words took 30 % longer; docs/performance.md).
_CHUNK_WORDS = 1 << 15
#: ...but at least this many resamples per chunk while a chunk stays within _MAX_CHUNK_WORDS:
#: at 10,000 cases, 2^15 words is 3 resamples, and the 3,334 rounds of numpy calls cost more
#: than the larger chunks' cache misses (docs/performance.md, "bootstrap").
_MIN_ROWS = 16
_MAX_CHUNK_WORDS = 1 << 17


def _rows_per_chunk(total: int) -> int:
    """Resamples drawn per vectorized chunk when a resample has `total` cases."""
    return max(1, _CHUNK_WORDS // total, min(_MIN_ROWS, _MAX_CHUNK_WORDS // total))


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

    words = _mt19937_words(random.Random(seed))
    out = np.empty(resamples, dtype=np.float64)
    per_chunk = _rows_per_chunk(total)
    equal = bool(np.all(sizes == sizes[0]))
    for first in range(0, resamples, per_chunk):
        rows = min(per_chunk, resamples - first)
        idx = words(rows * total).reshape(rows, total)
        # index = floor(word · n_t / 2^32), the same as `(word * n_t) >> 32` in Python; in place.
        idx *= col_size
        idx >>= np.uint64(32)
        idx += col_offset
        # < 2^63, so the same numbers: a view, not a copy. Every index is in range by
        # construction, so "clip" never clips; it only spares `take` its bounds checks.
        drawn = np.take(values, idx.view(np.intp), mode="clip")
        if equal:  # the usual grid (every task has as many cases): a reshape, not reduceat
            # summed in int32 (a count of at most n_t), not cast to int64 first: 3x faster
            counts = drawn.reshape(rows, t, int(sizes[0])).sum(axis=2, dtype=np.int32)
        else:
            counts = np.add.reduceat(drawn, starts, axis=1)
        out[first : first + rows] = (counts / size_f).sum(axis=1) / t
    return out


def _mt19937_words(rng: random.Random) -> Callable[[int], npt.NDArray[np.uint64]]:
    """A function giving the next m 32-bit words of `rng` (as uint64), in generation order.

    numpy's MT19937 is put in `rng`'s state: Python's `getstate()` is (3, the 624 state words
    and the position, gauss), numpy's the same words and position, and both then produce
    `genrand_uint32` outputs, which is what `getrandbits(32)` returns.
    """
    version, state, _gauss = rng.getstate()
    if version != 3 or len(state) != 625:
        raise RuntimeError(f"unexpected random.Random state (version {version})")
    bits = np.random.MT19937()
    bits.state = {
        "bit_generator": "MT19937",
        "state": {"key": np.array(state[:-1], dtype=np.uint32), "pos": int(state[-1])},
    }
    return bits.random_raw


#: Words per chunk when several reads share the draws (measured: 2^17 and 2^19 alike).
_SHARED_CHUNK_WORDS = 1 << 17


def bootstrap_intervals(
    reads: Sequence[Sequence[npt.NDArray[np.int8]] | Sequence[Sequence[int]]],
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = SEED,
) -> list[Interval]:
    """`bootstrap_interval` of each read, equal to it bit for bit, in one pass per shape.

    Every read's bootstrap draws the same words (`random.Random(seed)`), and reads whose tasks
    have the same sizes (a folder of one benchmark's reads) draw the same case indices too: those
    are drawn once, counted once per resample (how often each case is drawn), and each read's
    per-task successes are then a product of those counts with its outcomes (`table` of a folder:
    one draw for every row, not one per row).
    """
    groups: dict[tuple[int, ...], list[int]] = {}
    for i, outcomes in enumerate(reads):
        groups.setdefault(tuple(len(x) for x in outcomes), []).append(i)
    out: list[Interval | None] = [None] * len(reads)
    for members in groups.values():
        if len(members) == 1:
            out[members[0]] = bootstrap_interval(reads[members[0]], resamples, seed)
            continue
        stats = _shared_distributions([reads[i] for i in members], resamples, seed)
        for i, row in zip(members, stats, strict=True):
            lo, hi = np.percentile(row, PERCENTILES)
            out[i] = (float(lo), float(hi))
    return [iv for iv in out if iv is not None]


def _shared_distributions(
    reads: Sequence[Sequence[npt.NDArray[np.int8]] | Sequence[Sequence[int]]],
    resamples: int,
    seed: int,
) -> npt.NDArray[np.float64]:
    """(reads, B) resampled aggregates of reads whose tasks all have the same sizes."""
    if resamples <= 0:
        raise ValueError(f"the bootstrap needs at least one resample, got {resamples}")
    first = reads[0]
    if not first or any(len(x) == 0 for x in first):
        raise ValueError("the bootstrap needs at least one task and one case per task")
    sizes = np.array([len(x) for x in first], dtype=np.uint64)
    if int(sizes.max()) >= 1 << 24:  # float32 counts are exact below 2^24
        return np.stack([bootstrap_distribution(r, resamples, seed) for r in reads])
    total, t, k = int(sizes.sum()), len(first), len(reads)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    ends = starts + sizes.astype(np.intp)
    col_size = np.repeat(sizes, sizes.astype(np.intp))
    col_offset = np.repeat(starts, sizes.astype(np.intp)).astype(np.uint64)
    size_f = sizes.astype(np.float64)
    # (cases, reads): each read's outcomes as a column
    values = np.stack(
        [np.concatenate([np.asarray(x, dtype=np.float32) for x in r]) for r in reads], axis=1
    )
    equal = bool(np.all(sizes == sizes[0]))
    if equal:
        n = int(sizes[0])
        values_3d = np.ascontiguousarray(values.reshape(t, n, k))
    words = _mt19937_words(random.Random(seed))
    out = np.empty((k, resamples), dtype=np.float64)
    per_chunk = max(1, _SHARED_CHUNK_WORDS // total)
    for begin in range(0, resamples, per_chunk):
        rows = min(per_chunk, resamples - begin)
        idx = words(rows * total).reshape(rows, total)
        idx *= col_size
        idx >>= np.uint64(32)
        idx += col_offset
        # how often each case is drawn in each resample
        flat = idx.view(np.intp) + (np.arange(rows, dtype=np.intp) * total)[:, None]
        drawn = np.bincount(flat.ravel(), minlength=rows * total).astype(np.float32)
        drawn = drawn.reshape(rows, total)
        # einsum, not matmul: numpy's own loop on one core (a multi-threaded BLAS spent 8x the
        # CPU on these small products, and the folder's worker processes already use the cores)
        if equal:
            per_task = np.einsum("rtn,tnk->trk", drawn.reshape(rows, t, n), values_3d)
        else:
            per_task = np.stack([
                np.einsum("rn,nk->rk", drawn[:, s:e], values[s:e])
                for s, e in zip(starts, ends, strict=True)
            ])
        # (reads, rows, t), each resample's task counts contiguous as in `bootstrap_distribution`,
        # so the same sums in the same order: the same bits
        counts = np.ascontiguousarray(per_task.transpose(2, 1, 0), dtype=np.float64)
        out[:, begin : begin + rows] = (counts / size_f).sum(axis=2) / t
    return out
