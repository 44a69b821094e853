"""The three denominators of the closed-result format, counted from the selected cases.

A rate is never shown without its denominator: one success, one infrastructure error and one
fail-fast-unattempted case is 1/3 over selected, 1/2 over attempted and 1/1 over completed, and
only the first is the headline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from evalview.model.run import COMPLETED, ERROR, INVALID, UNATTEMPTED


@dataclass(frozen=True, slots=True)
class Denominators:
    """Counts over the selected cases. `invalid` records have a status the format does not know."""

    selected: int
    attempted: int
    completed: int
    errors: int
    successes: int
    unattempted: int
    invalid: int = 0
    #: Declared cases absent from the run (only with a benchmark declaration); also in unattempted.
    missing: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "selected": self.selected,
            "attempted": self.attempted,
            "completed": self.completed,
            "errors": self.errors,
            "successes": self.successes,
            "unattempted": self.unattempted,
            "invalid": self.invalid,
            "missing": self.missing,
        }


@dataclass(frozen=True, slots=True)
class Rates:
    """The three labelled rates as fractions; None when the denominator is zero."""

    selected_success_rate: float | None
    attempt_success_rate: float | None
    success_rate: float | None

    def to_json(self) -> dict[str, float | None]:
        return {
            "selected_success_rate": self.selected_success_rate,
            "attempt_success_rate": self.attempt_success_rate,
            "success_rate": self.success_rate,
        }


def _ratio(k: int, n: int) -> float | None:
    return k / n if n else None


def rates_of(d: Denominators) -> Rates:
    return Rates(
        selected_success_rate=_ratio(d.successes, d.selected),
        attempt_success_rate=_ratio(d.successes, d.attempted),
        success_rate=_ratio(d.successes, d.completed),
    )


def outcomes(
    status: npt.NDArray[np.object_], success: npt.NDArray[np.int8]
) -> npt.NDArray[np.int8]:
    """1 for a completed success, 0 for everything else (failure, error, unattempted, invalid)."""
    done: npt.NDArray[np.bool_] = (status == COMPLETED) & (success == 1)
    return done.astype(np.int8)


def count(
    status: npt.NDArray[np.object_], success: npt.NDArray[np.int8], *, missing: int = 0
) -> Denominators:
    """Denominators over the rows given (the selected cases, one row each)."""
    n_unattempted = int(np.count_nonzero(status == UNATTEMPTED))
    return Denominators(
        selected=int(status.shape[0]),
        attempted=int(status.shape[0]) - n_unattempted,
        completed=int(np.count_nonzero(status == COMPLETED)),
        errors=int(np.count_nonzero(status == ERROR)),
        successes=int(np.count_nonzero(outcomes(status, success))),
        unattempted=n_unattempted,
        invalid=int(np.count_nonzero(status == INVALID)),
        missing=missing,
    )
