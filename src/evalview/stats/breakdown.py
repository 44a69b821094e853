"""Rates broken down by a grouping of the episodes, and the other scorers' means.

- **Groups** (`score --group-by KEY`, or `--view KEY` for a sample metadata key an Inspect log
  records, such as `category`, `subject`, `difficulty`): each value's successes over its selected
  cases with its Wilson 95 % interval, counted exactly as a task is (an errored or unattempted
  case is not a success). Cases whose sample records no value for the key form the group
  `(no value)`, last; the others are in code-point order of their value.
- **Repeated items** (an Inspect sample run for several epochs): each sample is a group of its
  epochs, so its rate is successes / epochs with a Wilson interval over the epochs.
- **Other scorers** (every Inspect scorer but the headline): the mean of their values over the
  selected cases that have one, and its SE (sample SD / sqrt(n)). They are not outcomes: a
  non-binary value (0.73, P) has no success to count, so no Wilson interval, and the rates stay
  the headline scorer's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from evalview.model.run import EpisodeTable, Run
from evalview.stats.graded import mean_and_se
from evalview.stats.task_scores import TaskScore, task_scores

#: The group of the cases whose sample records no value for the key.
NO_VALUE = "(no value)"
#: The `key` of the per-sample breakdown of repeated epochs.
SAMPLE = "sample"


@dataclass(frozen=True, slots=True)
class Breakdown:
    """The selected cases grouped by `key`: one `TaskScore` per value (its `task` is the value)."""

    key: str
    rows: tuple[TaskScore, ...]
    #: what a group is, for people ("value of the sample metadata key category")
    means: str

    def to_json(self) -> dict[str, Any]:
        rows = []
        for t in self.rows:
            doc = t.to_json()
            rows.append({"group": doc.pop("task")} | doc)
        return {"key": self.key, "means": self.means, "groups": rows}


def labels_of(cases: EpisodeTable, values: dict[str, str]) -> list[str]:
    """Each case's group: its value under the grouping, or `NO_VALUE`."""
    return [values.get(str(i), NO_VALUE) for i in cases.ids.tolist()]


def group_order(labels: list[str]) -> tuple[str, ...]:
    """Values in code-point order, `NO_VALUE` last."""
    seen = set(labels)
    return tuple(sorted(seen - {NO_VALUE})) + ((NO_VALUE,) if NO_VALUE in seen else ())


def breakdown(cases: EpisodeTable, values: dict[str, str], key: str, means: str,
              *, keep_order: bool = False) -> Breakdown:
    """Each group's counts, rate and Wilson interval over the selected cases (`values`:
    episode id -> group). `keep_order`: groups in order of first appearance (samples)."""
    labels = labels_of(cases, values)
    column = np.empty(len(labels), dtype=object)
    column[:] = labels
    order = tuple(dict.fromkeys(labels)) if keep_order else group_order(labels)
    rows = task_scores(replace(cases, task=column), order, ())
    return Breakdown(key, tuple(rows), means)


def group_keys(run: Run) -> tuple[str, ...]:
    """The keys a read can be grouped by (Inspect: its categorical sample metadata keys)."""
    return tuple(run.groupings)


def default_group_key(run: Run) -> str | None:
    """The grouping the app shows first: the first categorical key, or None."""
    return next(iter(run.groupings), None)


def by_key(run: Run, cases: EpisodeTable, key: str) -> Breakdown:
    """The breakdown by one of `group_keys(run)`: what `score --group-by KEY` and the app's
    Samples tab both show (one function, one answer)."""
    return breakdown(cases, run.groupings[key], key, f"value of the sample metadata key {key}")


def sample_breakdown(run: Run, cases: EpisodeTable) -> Breakdown | None:
    """Each repeated item's rate over its repeats (an Inspect sample's epochs); None when the
    read repeats nothing."""
    if not run.repeats:
        return None
    return breakdown(cases, run.repeats, SAMPLE, "a sample, over its epochs", keep_order=True)


@dataclass(frozen=True, slots=True)
class OtherScorer:
    """One scorer that is not the outcome: its mean and SE over the cases that have a value."""

    name: str
    n: int
    #: selected cases without a value (errored, unscored, not run)
    missing: int
    mean: float | None
    se: float | None
    #: every value is 0 or 1 (a binary scorer that is not the headline)
    binary: bool

    def words(self) -> str:
        """What follows the scorer's name, said alike by `score` and the app's Samples tab."""
        value = "—" if self.mean is None else f"{self.mean:.4g}"
        se = "" if self.se is None else f" ± {self.se:.3g} (SE)"
        kind = "0/1 values" if self.binary else "non-binary values"
        return (
            f"mean {value}{se} over {self.n:,} sample-epochs ({self.missing:,} without a value); "
            f"{kind}, not the outcome: left out of the rates, the aggregate and every Wilson "
            "interval"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "scorer": self.name, "n": self.n, "missing": self.missing, "mean": self.mean,
            "se": self.se, "binary": self.binary,
            "note": "not the outcome: its mean and SE over the cases it scored; not in the "
            "rates, the aggregate or any Wilson interval",
        }


def other_scorers(run: Run) -> tuple[OtherScorer, ...]:
    """Each of `run.scorers` over the selected cases."""
    if not run.scorers:
        return ()
    rows = np.flatnonzero(run.episodes.in_schedule)
    out = []
    for name, column in run.scorers.items():
        picked = np.asarray(column, dtype=np.float64)[rows]
        got = [float(v) for v in picked.tolist() if not math.isnan(v)]
        mean, se = mean_and_se(got)
        out.append(OtherScorer(name, len(got), len(picked) - len(got), mean, se,
                               all(v in (0.0, 1.0) for v in got)))
    return tuple(out)
