"""What a scorer and a comparison must know about each read: benchmark, seeds, protocol.

The reporting rules pool and compare reads of one benchmark version, one seed set and one
protocol. A closed run does not carry the benchmark's `execution.json` nor a `--seed-set` flag, so
this module fixes (and docs/compare.md documents) where each fact comes from:

- benchmark: `manifest.benchmark.name` and `.version`;
- seed set: `manifest.protocol.seed_set` (or `manifest.seed_set`) when declared (`test`,
  `dev`/`development`); otherwise `development` when the run id or directory name ends in `_dev`
  (the reporting rules file development reads under `<run>_dev`); otherwise `test`;
- off-protocol: `off_protocol: true` (a run started with --off-protocol) or a non-empty
  `deviations` list, at the top of the manifest or in its `protocol` object; and, inside a
  contrast, execution constants that differ from the other reads' (see `contrast.py`);
- checkpoint: `manifest.policy.name` + `.version` (when a version is declared);
- fine-tune seed: `fine_tune_seed` (or `finetune_seed`) in `manifest.policy`, else in
  `manifest.method.configuration`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The loader's lookup of a nested manifest key (None where a level is missing or not an object):
# one helper for the loader and the comparison, so both read a manifest the same way.
from evalview.model.record import get_path as _get
from evalview.model.run import Run

TEST = "test"
DEVELOPMENT = "development"

_SEED_SET_ALIASES = {"test": TEST, "dev": DEVELOPMENT, "development": DEVELOPMENT}
_FINE_TUNE_KEYS = ("fine_tune_seed", "finetune_seed")


@dataclass(frozen=True, slots=True)
class Execution:
    """The execution constants a closed run declares; reads pooled together must share them."""

    protocol_version: str | None
    max_steps: int | None
    max_policy_calls: int | None
    replan_interval: int | None
    fail_fast: bool | None

    def describe(self) -> str:
        return (
            f"protocol_version={self.protocol_version}, max_steps={self.max_steps}, "
            f"max_policy_calls={self.max_policy_calls}, replan_interval={self.replan_interval}, "
            f"fail_fast={self.fail_fast}"
        )

    def differences(self, other: Execution) -> list[str]:
        out = []
        for name in ("protocol_version", "max_steps", "max_policy_calls", "replan_interval",
                     "fail_fast"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine != theirs:
                out.append(f"{name} {mine} vs {theirs}")
        return out


@dataclass(frozen=True, slots=True)
class ReadFacts:
    """The identity of one read as a comparison sees it. `label` is the path as the user gave it."""

    label: str
    run_id: str | None
    benchmark_name: str | None
    benchmark_version: str | None
    seed_set: str
    seed_set_source: str
    execution: Execution
    #: Why the read itself is off-protocol (empty when it declares nothing of the kind).
    off_protocol: tuple[str, ...]
    policy_name: str | None
    policy_version: str | None
    fine_tune_seed: str | None
    real_path: str

    @property
    def checkpoint(self) -> str | None:
        """`name@version` when the manifest declares a version; None when it cannot be told."""
        if self.policy_version is None:
            return None
        return f"{self.policy_name}@{self.policy_version}"

    @property
    def benchmark(self) -> str:
        """The benchmark as text for people: never Python's `None` when a read does not say."""
        named = " ".join(x for x in (self.benchmark_name, self.benchmark_version) if x)
        return named or "benchmark not declared"

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.label,
            "run_id": self.run_id,
            "benchmark": self.benchmark_name,
            "benchmark_version": self.benchmark_version,
            "seed_set": self.seed_set,
            "policy": self.policy_name,
            "policy_version": self.policy_version,
            "fine_tune_seed": self.fine_tune_seed,
            "off_protocol": list(self.off_protocol),
        }


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str | int):
        return str(value)
    return None


def _seed_set(run: Run, label: str) -> tuple[str, str]:
    manifest = run.manifest
    for where in (("protocol", "seed_set"), ("seed_set",)):
        declared = _get(manifest, *where)
        if isinstance(declared, str) and declared.lower() in _SEED_SET_ALIASES:
            return _SEED_SET_ALIASES[declared.lower()], "manifest." + ".".join(where)
    for name, source in ((run.identity.run_id, "run id"), (Path(label).name, "directory name")):
        if name and name.endswith("_dev"):
            return DEVELOPMENT, f"{source} ends in _dev"
    return TEST, "default (no development marker)"


def _off_protocol(run: Run) -> tuple[str, ...]:
    reasons: list[str] = []
    manifest = run.manifest
    for prefix in ((), ("protocol",)):
        where = ".".join(("manifest", *prefix))
        if _get(manifest, *prefix, "off_protocol") is True:
            reasons.append(f"{where}.off_protocol is true (run started off-protocol)")
        deviations = _get(manifest, *prefix, "deviations")
        if isinstance(deviations, list) and deviations:
            reasons.append(f"{where}.deviations records {len(deviations)} deviation(s)")
    return tuple(reasons)


def _fine_tune_seed(run: Run) -> str | None:
    for where in (("policy",), ("method", "configuration")):
        for key in _FINE_TUNE_KEYS:
            value = _scalar_text(_get(run.manifest, *where, key))
            if value is not None:
                return value
    return None


def read_facts(run: Run, label: str | None = None) -> ReadFacts:
    """Everything a comparison checks about one read, from its manifest and path."""
    name = label if label is not None else str(run.path)
    seed_set, source = _seed_set(run, name)
    ident, proto = run.identity, run.protocol
    return ReadFacts(
        label=name,
        run_id=ident.run_id,
        benchmark_name=ident.benchmark_name,
        benchmark_version=ident.benchmark_version,
        seed_set=seed_set,
        seed_set_source=source,
        execution=Execution(
            protocol_version=ident.protocol_version,
            max_steps=proto.max_steps,
            max_policy_calls=proto.max_policy_calls,
            replan_interval=proto.replan_interval,
            fail_fast=proto.fail_fast,
        ),
        off_protocol=_off_protocol(run),
        policy_name=ident.policy_name,
        policy_version=ident.policy_version,
        fine_tune_seed=_fine_tune_seed(run),
        real_path=os.path.realpath(run.path),
    )
