"""Helpers: build harness documents from the sample generator and read them as files."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from evalview.findings import Finding
from evalview.harness.audit import audit_harness
from evalview.load.harness_result import read_harness
from evalview.model.harness_file import HarnessFile
from evalview.samples.harness import harness_bytes, shipped_example, three_seeds

_SHIPPED = shipped_example()
_THREE = three_seeds()


def shipped() -> dict[str, Any]:
    """A fresh copy of the spec's shipped example (7 arms x 2 seeds)."""
    return copy.deepcopy(_SHIPPED)


def three() -> dict[str, Any]:
    return copy.deepcopy(_THREE)


def write(tmp_path: Path, doc: dict[str, Any], name: str = "result.json") -> Path:
    path = tmp_path / name
    path.write_bytes(harness_bytes(doc))
    return path


def read(tmp_path: Path, doc: dict[str, Any]) -> HarnessFile:
    hf = read_harness(write(tmp_path, doc))
    assert hf is not None
    return hf


def findings(tmp_path: Path, doc: dict[str, Any]) -> list[Finding]:
    return audit_harness(read(tmp_path, doc))


def arm(doc: dict[str, Any], name: str, seed: int | None = None) -> dict[str, Any]:
    """The first record of arm `name` (at `seed`, if given)."""
    return next(a for a in doc["arms"] if a["name"] == name and seed in (None, a["seed"]))
