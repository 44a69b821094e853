"""Adjusted p-values for a family of tests: Holm's and Benjamini–Hochberg's.

A comparison tests every task (40 on LIBERO); at α = 0.05 about one in twenty of them comes out
"significant" with no real difference. The per-task verdicts therefore carry adjusted p-values:

- **Holm** (1979, "A simple sequentially rejective multiple test procedure", Scand. J. Statist.
  6:65–70): controls the family-wise error rate, the chance of any false claim among the tasks.
  With p sorted ascending, p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) p_(j)).
- **Benjamini–Hochberg** (1995, "Controlling the false discovery rate", J. R. Statist. Soc. B
  57:289–300): controls the expected share of false claims among the tasks declared.
  p̃_(i) = min_{j ≥ i} min(1, m p_(j) / j).

A task is significant after adjustment when p̃ < α. Both are what statsmodels'
`multipletests(method="holm")` and `method="fdr_bh"` compute (the test oracle).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["benjamini_hochberg", "holm"]


def _check(p: Sequence[float]) -> None:
    if any(not 0.0 <= x <= 1.0 for x in p):
        raise ValueError(f"p-values must lie in [0, 1], got {list(p)}")


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    _check(p)
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def benjamini_hochberg(p: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg step-up adjusted p-values (false discovery rate), in the order given."""
    _check(p)
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, min(1.0, m * p[i] / (rank + 1)))
        out[i] = running
    return out
