"""Refusing reads that cannot be pooled or compared: mixed benchmarks, versions or seed sets.

What each read declares (benchmark, seed set, off-protocol marks, checkpoint) is read by
`evalview.model.facts`, one place for the scorer and the comparison.
"""

from __future__ import annotations

from evalview.errors import Refused as _Refused
from evalview.model.facts import (
    DEVELOPMENT,
    TEST,
    Execution,
    ReadFacts,
    read_facts,
)

__all__ = [
    "DEVELOPMENT",
    "TEST",
    "Execution",
    "ReadFacts",
    "Refused",
    "read_facts",
    "refuse_mixed_benchmarks",
    "refuse_mixed_seed_sets",
]


class Refused(_Refused):
    """The reads cannot be compared as given (exit 1). The message names both values and the fix."""


def _show(value: str | None) -> str:
    return "not declared" if value is None else repr(value)


def refuse_mixed_benchmarks(reads: list[ReadFacts]) -> None:
    """One benchmark and one version: a version declared by one read and not another is a mix."""
    first = reads[0]
    checks = (
        ("benchmark_name", "benchmark", "name", "only reads of one benchmark can be compared."),
        ("benchmark_version", "benchmark version", "version",
         "only reads of one version can be compared. Re-evaluate both checkpoints on the same "
         "version."),
    )
    for other in reads[1:]:
        for attr, what, key, fix in checks:
            mine, theirs = getattr(first, attr), getattr(other, attr)
            if theirs != mine:
                raise Refused(
                    f"{first.label} is {what} {_show(mine)} but {other.label} is {_show(theirs)} "
                    f"(manifest.benchmark.{key}); {fix}"
                )


def refuse_mixed_seed_sets(reads: list[ReadFacts]) -> None:
    """Test reads with test reads, development with development (reporting rules)."""
    first = reads[0]
    for other in reads[1:]:
        if other.seed_set != first.seed_set:
            raise Refused(
                f"{first.label} is a {first.seed_set}-seed read ({first.seed_set_source}) but "
                f"{other.label} is a {other.seed_set}-seed read ({other.seed_set_source}); "
                "pair test reads with test reads and development reads with development reads."
            )
