"""Verifier messages → checkpoint credits (method `checkpoint_fraction_v1`).

A message is comma-separated `label: value` checkpoints, e.g. `Logs: 3/5, Kills: 0/3, All alive:
True`. Anything the parser does not recognise is an error naming where it came from: a checkpoint
that silently scored zero would bias PSR downwards without anyone noticing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from evalview.errors import Refused

#: Labels whose `actual/limit` value is an upper bound (credit 1 when actual <= limit, else 0).
#: Matched case-insensitively. The spec names one: the rounds budget.
DEFAULT_UPPER_BOUND_LABELS: frozenset[str] = frozenset({"rounds"})

CheckpointKind = Literal["quantity", "boolean", "upper_bound"]

_NUMBER = r"\d+(?:\.\d+)?"
_RATIO = re.compile(rf"^({_NUMBER})\s*/\s*([+-]?{_NUMBER})$")
_BARE = re.compile(rf"^({_NUMBER})$")
_BOOLEANS = {"True": True, "False": False}
_EXACT = float(2**53)  # floats beyond this are not exact integers


class PsrError(Refused, ValueError):
    """Input that PSR must refuse (exit 1). The message names the model, task and message."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """One scored checkpoint: what was observed, against what, and the credit it earned."""

    label: str
    kind: CheckpointKind
    observed: float | bool
    target: float | None  # None for booleans
    credit: float
    #: Where the target came from: "message", "bare-targets" or None for booleans.
    target_source: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "kind": self.kind,
            "observed": self.observed,
            "target": self.target,
            "target_source": self.target_source,
            "credit": self.credit,
        }


@dataclass(frozen=True, slots=True)
class BareTargets:
    """Targets for legacy messages that omit a denominator: per-task entries win over global ones.

    Keys are matched case-insensitively, like upper-bound labels.
    """

    global_targets: Mapping[str, float]
    task_targets: Mapping[str, Mapping[str, float]]
    source: str | None = None

    @classmethod
    def empty(cls) -> BareTargets:
        return cls({}, {})

    def lookup(self, task: str, label: str) -> float | None:
        key = label.casefold()
        per_task = self.task_targets.get(task)
        if per_task is not None and key in per_task:
            return per_task[key]
        return self.global_targets.get(key)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "targets": dict(self.global_targets),
            "tasks": {t: dict(v) for t, v in self.task_targets.items()},
        }


@dataclass(frozen=True, slots=True)
class ParseContext:
    """Who the message belongs to, for error messages that say where to look."""

    model: str
    task: str
    where: str | None = None  # e.g. "row 3" or "episodes.jsonl:7 (task-00/seed1)"

    def describe(self) -> str:
        place = f" ({self.where})" if self.where else ""
        return f"model {self.model!r}, task {self.task!r}{place}"


def normalize_labels(labels: Iterable[str]) -> frozenset[str]:
    """Upper-bound labels as the parser compares them (stripped, case-folded, nonempty)."""
    return frozenset(s.strip().casefold() for s in labels if s.strip())


def parse_message(
    message: str,
    ctx: ParseContext,
    *,
    upper_bound_labels: frozenset[str] = DEFAULT_UPPER_BOUND_LABELS,
    bare_targets: BareTargets | None = None,
) -> tuple[Checkpoint, ...]:
    """Every checkpoint of a message with its credit; PsrError on anything unknown."""
    if not message.strip():
        raise PsrError(
            f"{ctx.describe()}: the verifier message is empty, so there is no checkpoint to "
            "credit. Record the verifier's message for this task."
        )
    checkpoints: list[Checkpoint] = []
    seen: set[str] = set()
    for part in message.split(","):
        label, sep, value = part.partition(":")
        label, value = label.strip(), value.strip()
        if not sep or not label or not value:
            raise PsrError(
                f"{ctx.describe()}: cannot read the checkpoint {part.strip()!r} in the message "
                f"{message!r}; expected comma-separated `label: value` items. Fix the message or "
                "version the scoring protocol for this verifier."
            )
        if label.casefold() in seen:
            raise PsrError(
                f"{ctx.describe()}: the checkpoint {label!r} appears twice in the message "
                f"{message!r}; which one counts is ambiguous."
            )
        seen.add(label.casefold())
        checkpoints.append(
            _checkpoint(label, value, message, ctx, upper_bound_labels, bare_targets)
        )
    return tuple(checkpoints)


def _checkpoint(
    label: str,
    value: str,
    message: str,
    ctx: ParseContext,
    upper_bound_labels: frozenset[str],
    bare_targets: BareTargets | None,
) -> Checkpoint:
    if value in _BOOLEANS:
        flag = _BOOLEANS[value]
        return Checkpoint(label, "boolean", flag, None, 1.0 if flag else 0.0)
    ratio = _RATIO.match(value)
    if ratio is not None:
        actual, target = float(ratio.group(1)), float(ratio.group(2))
        return _credited(label, actual, target, "message", message, ctx, upper_bound_labels)
    bare = _BARE.match(value)
    if bare is not None:
        actual = float(bare.group(1))
        known = None if bare_targets is None else bare_targets.lookup(ctx.task, label)
        if known is None:
            hint = (
                "pass a bare-target table with --bare-targets"
                if bare_targets is None
                else f"add {label!r} to the bare-target table {bare_targets.source or ''}".rstrip()
            )
            raise PsrError(
                f"{ctx.describe()}: the checkpoint {label!r} has the bare value {value!r} and no "
                f"target is known for it (message {message!r}); {hint}."
            )
        return _credited(label, actual, known, "bare-targets", message, ctx, upper_bound_labels)
    raise PsrError(
        f"{ctx.describe()}: unknown checkpoint format {label}: {value!r} in the message "
        f"{message!r}; expected `actual/target`, `True`/`False`, or a bare number with a "
        "bare-target table."
    )


def _credited(
    label: str,
    actual: float,
    target: float,
    source: str,
    message: str,
    ctx: ParseContext,
    upper_bound_labels: frozenset[str],
) -> Checkpoint:
    if not math.isfinite(target) or target <= 0:
        raise PsrError(
            f"{ctx.describe()}: the checkpoint {label!r} has the nonpositive target "
            f"{_num(target)} (message {message!r}); a credit a/r needs r > 0. Fix the verifier "
            "message or the bare-target table."
        )
    if not math.isfinite(actual):
        raise PsrError(f"{ctx.describe()}: the checkpoint {label!r} is not a finite number.")
    if label.casefold() in upper_bound_labels:
        return Checkpoint(
            label,
            "upper_bound",
            _num(actual),
            _num(target),
            1.0 if actual <= target else 0.0,
            source,
        )
    return Checkpoint(
        label, "quantity", _num(actual), _num(target), min(actual / target, 1.0), source
    )


def _num(x: float) -> float:
    """Whole numbers stay whole in the JSON (3, not 3.0), as the verifier wrote them."""
    return int(x) if x.is_integer() and -_EXACT < x < _EXACT else x
