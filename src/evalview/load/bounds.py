"""Input bounds: enforced before any data is parsed (sizes), or before any arithmetic (numbers)."""

import math
from typing import TypeGuard

MAX_EPISODES = 10_000
MAX_BYTES = 128 * 1024 * 1024

#: Characters in a name a reader keys reads by (a LeRobot task or read key, a harness arm, a
#: RecoveryBench arm or task): each is repeated in every episode id, finding and published
#: string of its read, so a 10 MB name would make a 500 MB export. Longer is a finding, not read.
MAX_NAME = 4096

#: Integers evalview keeps (seeds in an int64 column, counts it adds and writes with orjson) must
#: fit 64 bits, signed; a JSON number past it is a finding at its place, never arithmetic.
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


def int64(value: object) -> TypeGuard[int]:
    """True for an int (not a bool) that fits a signed 64-bit column."""
    return type(value) is int and INT64_MIN <= value <= INT64_MAX


def finite_number(value: object) -> float | None:
    """A JSON number evalview may compute with, as a float: a finite float or an int within 64
    bits (never a bool); None for anything else (NaN, Infinity, an int past 64 bits, text)."""
    if type(value) is float:
        return value if math.isfinite(value) else None
    return float(value) if int64(value) else None
