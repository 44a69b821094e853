"""Inspect AI score values as Inspect turns them into numbers, and its epoch reducers.

Mirrors `inspect_ai.scorer._metric.value_to_float` (the default every built-in metric uses) and
the scalar reducers of `inspect_ai.scorer._reducer.reducer`, so that a recorded metric can be
recomputed from the samples exactly as Inspect computed it:

- a number or a boolean is itself (`True` is 1.0);
- "C" is 1.0, "P" 0.5, "I" and "N" 0.0 (correct, partial, incorrect, no answer);
- another string: "yes" / "true" 1.0, "no" / "false" 0.0 (any case), a numeric string its
  number; anything else (a list, a dict, other text) 0.0, which Inspect logs as a warning;
- NaN is the "unscored" sentinel: metrics leave it out (`unscored_samples`).

evalview's binary outcome of a sample is that float when it is exactly 0 or 1; any other value
(P = 0.5, 0.73) is graded (docs/inspect.md says how it is scored). Pure Python: no numpy.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

CORRECT, INCORRECT, PARTIAL, NOANSWER = "C", "I", "P", "N"

#: What value_to_float gives the four letters Inspect's scorers write.
LETTERS = {CORRECT: 1.0, PARTIAL: 0.5, INCORRECT: 0.0, NOANSWER: 0.0}


def is_unscored(value: Any) -> bool:
    """NaN at the root of a value is Inspect's "unscored" sentinel."""
    return isinstance(value, float) and math.isnan(value)


def is_scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool)


def _finite_number_text(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def value_to_float(value: Any) -> float:
    """Inspect's default `value_to_float()` (see the module docstring)."""
    if isinstance(value, bool | int | float):
        return float(value)
    if isinstance(value, str):
        if value in LETTERS:
            return LETTERS[value]
        low = value.lower()
        if low in ("yes", "true"):
            return 1.0
        if low in ("no", "false"):
            return 0.0
        if _finite_number_text(low):
            return float(low)
    return 0.0


def convertible(value: Any) -> bool:
    """True when value_to_float reads the value rather than defaulting it to 0 with a warning."""
    if isinstance(value, bool | int | float):
        return True
    if isinstance(value, str):
        return value in LETTERS or value.lower() in ("yes", "true", "no", "false") or (
            _finite_number_text(value)
        )
    return False


def binary(value: Any) -> bool | None:
    """The binary outcome of a scalar score value: True at 1.0, False at 0.0, None otherwise
    (unscored, graded, or not convertible)."""
    if not is_scalar(value) or is_unscored(value) or not convertible(value):
        return None
    x = value_to_float(value)
    if x == 1.0:
        return True
    if x == 0.0:
        return False
    return None


# -- reducers ------------------------------------------------------------------------------

Reducer = Callable[[Sequence[Any]], Any]


def _stat(statistic: Callable[[list[float]], float]) -> Reducer:
    """Inspect's `_compute_scalar_stat`: the statistic of the reducible floats (NaN if none)."""

    def reduce(values: Sequence[Any]) -> Any:
        floats = [value_to_float(v) for v in values]
        kept = [f for f in floats if not math.isnan(f)]
        return statistic(kept) if kept else math.nan

    return reduce


def _mean(values: list[float]) -> float:
    """`statistics.mean` (Inspect's), at a fraction of its cost on the usual 0/1 epochs: a sum
    of integer-valued floats is exact, and one division of it is the correctly rounded mean that
    `statistics.mean` computes by exact fractions."""
    if all(v.is_integer() and abs(v) < 2**53 for v in values):
        return sum(values) / len(values)
    import statistics  # here: with fractions and random, ~2 ms of every Inspect check's start

    return statistics.mean(values)


def _median(values: list[float]) -> float:
    import statistics

    return statistics.median(values)


def _count(counter_fn: Callable[[Counter[Any]], Any]) -> Reducer:
    """Inspect's `_count_scalar`: a function of the counts of the reducible values."""

    def reduce(values: Sequence[Any]) -> Any:
        kept = [v for v in values if not is_unscored(v)]
        return counter_fn(Counter(kept)) if kept else math.nan

    return reduce


def _max(values: Sequence[Any]) -> Any:
    kept = [v for v in values if not is_unscored(v)]
    return max(kept, key=value_to_float) if kept else math.nan


def _pass_at(k: int, threshold: float = 1.0) -> Reducer:
    def stat(values: list[float]) -> float:
        total = len(values)
        correct = sum(1 for v in values if v >= threshold)
        if total < k:
            return math.nan
        if total - correct < k:
            return 1.0
        prod = 1.0
        for n in range(total - correct + 1, total + 1):
            prod *= 1.0 - k / n
        return 1.0 - prod

    return _stat(stat)


def _pass_k(k: int, threshold: float = 1.0) -> Reducer:
    def stat(values: list[float]) -> float:
        total = len(values)
        if total < k:
            return math.nan
        correct = sum(1 for v in values if v >= threshold)
        return math.comb(correct, k) / math.comb(total, k)

    return _stat(stat)


def _at_least(k: int, threshold: float = 1.0) -> Reducer:
    def gte(counts: Counter[Any]) -> Any:
        n = sum(c for key, c in counts.items() if value_to_float(key) >= threshold)
        return 1 if n >= k else 0

    return _count(gte)


_NAMED: dict[str, Reducer] = {
    "mean": _stat(_mean),
    "median": _stat(_median),
    "mode": _count(lambda counts: counts.most_common(1)[0][0]),
    "max": _max,
}
_WITH_K = re.compile(r"^(pass_at|pass_k|at_least)_(\d+)$")


def reducer_named(name: str | None) -> Reducer | None:
    """The reducer Inspect logs as `name` (None: the implicit mean), or None when evalview does
    not know it (a custom reducer): its reductions are then not recomputed."""
    if name is None:
        return _NAMED["mean"]
    if name in _NAMED:
        return _NAMED[name]
    m = _WITH_K.match(name)
    if m is None:
        return None
    k = int(m.group(2))
    if k < 1:
        return None
    return {"pass_at": _pass_at, "pass_k": _pass_k, "at_least": _at_least}[m.group(1)](k)


# -- the metrics evalview recomputes ---------------------------------------------------------


def mean_of(values: Sequence[float]) -> float:
    """Inspect's accuracy()/mean(): the mean of the floats, 0.0 for none."""
    return math.fsum(values) / len(values) if values else 0.0


def std_of(values: Sequence[float]) -> float:
    """Sample standard deviation (ddof 1), 0 below two values (Inspect's std())."""
    n = len(values)
    if n < 2:
        return 0.0
    m = math.fsum(values) / n
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))


def stderr_of(values: Sequence[float]) -> float:
    """Inspect's stderr() without clusters: std (ddof 1) / sqrt(n), 0 below two values."""
    n = len(values)
    return std_of(values) / math.sqrt(n) if n >= 2 else 0.0


def var_of(values: Sequence[float]) -> float:
    return std_of(values) ** 2


#: Metric name -> its function of the reduced floats (the metrics Inspect computes exactly; a
#: bootstrap or clustered metric is random or needs what evalview does not keep).
METRICS: dict[str, Callable[[Sequence[float]], float]] = {
    "accuracy": mean_of,
    "mean": mean_of,
    "stderr": stderr_of,
    "std": std_of,
    "var": var_of,
}
