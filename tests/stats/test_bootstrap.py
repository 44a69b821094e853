"""The seed bootstrap: the documented draw order, reproducibility, and agreement with the SE."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from evalview.stats import bootstrap as bootstrap_mod
from evalview.stats.aggregate import all_tasks_mean
from evalview.stats.bootstrap import bootstrap_distribution, bootstrap_interval
from helpers.paths import REPO

DOC = REPO / "docs" / "statistics.md"


def doc_reference() -> Callable[..., tuple[float, float]]:
    """The plain-Python reference printed in docs/statistics.md, executed as written."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Reference implementation", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "docs/statistics.md lost its reference implementation"
    namespace: dict[str, Any] = {}
    exec(match.group(1), namespace)
    fn: Callable[..., tuple[float, float]] = namespace["reference_bootstrap"]
    return fn


def independent_slow(outcomes: list[list[int]], resamples: int, seed: int = 7) -> list[float]:
    """Written separately from the doc: the same draw order, one word at a time."""
    rng = random.Random(seed)
    out = []
    for _ in range(resamples):
        rates = []
        for x in outcomes:
            picks = [x[(rng.getrandbits(32) * len(x)) >> 32] for _ in x]
            rates.append(sum(picks) / len(x))
        out.append(sum(rates) / len(rates))
    return out


def grid(tasks: int, seeds: int, seed: int = 1) -> list[list[int]]:
    r = random.Random(seed)
    rates = [r.random() for _ in range(tasks)]
    return [[int(r.random() < p) for _ in range(seeds)] for p in rates]


def test_vectorized_matches_the_doc_reference() -> None:
    data = [*grid(5, 20), [0] * 7, [1] * 3]  # unequal sizes, floor and ceiling tasks
    expected = doc_reference()(data, resamples=3000)
    assert bootstrap_interval(data, 3000) == pytest.approx(expected, abs=1e-12)


def test_vectorized_distribution_matches_an_independent_slow_version() -> None:
    data = grid(4, 13, seed=3)
    fast = bootstrap_distribution(data, 500)
    slow = independent_slow(data, 500)
    assert list(fast) == pytest.approx(slow, abs=1e-12)


def test_chunking_does_not_change_the_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    data = grid(6, 11, seed=5)
    whole = bootstrap_distribution(data, 700)
    monkeypatch.setattr(bootstrap_mod, "_CHUNK_WORDS", 100)  # one resample per chunk
    monkeypatch.setattr(bootstrap_mod, "_MIN_ROWS", 1)
    assert bootstrap_mod._rows_per_chunk(66) == 1
    assert list(bootstrap_distribution(data, 700)) == list(whole)


def test_large_grids_take_more_resamples_per_chunk_and_the_same_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """10,000 cases: 13 resamples per chunk instead of 2^15 words' 3; 1,200 (24 x 50): as
    before, 2^15 words (27 resamples)."""
    assert bootstrap_mod._rows_per_chunk(10_000) == 13
    assert bootstrap_mod._rows_per_chunk(1_200) == (1 << 15) // 1_200
    data = grid(40, 100, seed=4)  # 4,000 cases: 16 resamples per chunk, not 8
    assert bootstrap_mod._rows_per_chunk(4_000) == 16
    whole = bootstrap_distribution(data, 50)  # not a multiple of 16: a short last chunk
    monkeypatch.setattr(bootstrap_mod, "_MIN_ROWS", 1)  # the rule before: 2^15 words a chunk
    assert bootstrap_mod._rows_per_chunk(4_000) == 8
    assert list(bootstrap_distribution(data, 50)) == list(whole)
    assert list(whole) == python_words_distribution(data, 50)


def test_identical_across_runs_and_seed_matters() -> None:
    data = grid(24, 50)
    a = bootstrap_interval(data)
    assert bootstrap_interval(data) == a
    # the statistic is discrete, so another seed may give the same bounds; the draws differ
    assert list(bootstrap_distribution(data, 100, seed=8)) != list(
        bootstrap_distribution(data, 100)
    )


def test_floor_and_ceiling_collapse_to_a_point() -> None:
    # every resample of 0/50 is 0/50 (the reporting rules' remark)
    assert bootstrap_interval([[0] * 50], 200) == (0.0, 0.0)
    assert bootstrap_interval([[1] * 50, [0] * 50], 200) == (0.5, 0.5)


def test_close_to_the_analytic_interval_on_a_large_grid() -> None:
    data = grid(24, 400, seed=11)
    value = all_tasks_mean([sum(x) for x in data], [len(x) for x in data])
    lo, hi = bootstrap_interval(data)
    assert lo < value.mean < hi
    # percentile bootstrap of a mean of binomials ≈ mean ± 1.96 SE; B = 10,000 is within ~2 %
    assert lo == pytest.approx(value.ci95[0], abs=0.1 * value.se)
    assert hi == pytest.approx(value.ci95[1], abs=0.1 * value.se)
    assert (hi - lo) / (2 * 1.959964 * value.se) == pytest.approx(1.0, abs=0.05)


@pytest.mark.parametrize("bad", [[], [[]], [[1, 0], []]])
def test_empty_inputs_are_refused(bad: list[list[int]]) -> None:
    with pytest.raises(ValueError):
        bootstrap_interval(bad, 10)


def test_resamples_must_be_positive() -> None:
    with pytest.raises(ValueError):
        bootstrap_interval([[1, 0]], 0)


def python_words_distribution(outcomes: list[list[int]], resamples: int) -> list[float]:
    """The implementation before numpy's MT19937 took over the words: `getrandbits(32·m)` of
    `random.Random(7)`, chunk by chunk, then the same arithmetic. Kept here as the bit-for-bit
    reference for the full-size case (the slow references are too slow at B = 10,000)."""
    import numpy as np

    sizes = np.array([len(x) for x in outcomes], dtype=np.uint64)
    values = np.concatenate([np.asarray(x, dtype=np.int32) for x in outcomes])
    total = len(values)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    col_size = np.repeat(sizes, sizes.astype(np.intp))
    col_offset = np.repeat(starts, sizes.astype(np.intp)).astype(np.uint64)
    rng = random.Random(7)
    out: list[float] = []
    per_chunk = max(1, (1 << 20) // total)
    for first in range(0, resamples, per_chunk):
        rows = min(per_chunk, resamples - first)
        raw = rng.getrandbits(32 * rows * total).to_bytes(4 * rows * total, "little")
        words = np.frombuffer(raw, dtype="<u4").astype(np.uint64).reshape(rows, total)
        idx = ((words * col_size) >> np.uint64(32)) + col_offset
        counts = np.add.reduceat(values[idx.astype(np.intp)], starts, axis=1)
        out.extend((counts / sizes.astype(np.float64)).sum(axis=1) / len(outcomes))
    return out


@pytest.mark.parametrize(
    ("data", "resamples"),
    [(grid(24, 50), 10_000), ([*grid(7, 31, seed=2), [1] * 5, grid(1, 400)[0]], 2_000)],
    ids=["24x50-B10000", "unequal-sizes"],
)
def test_bit_identical_to_the_python_generator_words(data: list[list[int]], resamples: int) -> None:
    assert list(bootstrap_distribution(data, resamples)) == python_words_distribution(
        data, resamples
    )


@pytest.mark.parametrize("used", [0, 1, 623, 624, 1000])
def test_numpy_words_are_the_generators_words(used: int) -> None:
    """From any position of the generator's state (`used` words already drawn)."""
    import numpy as np

    rng = random.Random(12345)
    for _ in range(used):
        rng.getrandbits(32)
    words = bootstrap_mod._mt19937_words(rng)(5000)
    expected = [rng.getrandbits(32) for _ in range(5000)]
    assert words.dtype == np.uint64 and list(words) == expected
