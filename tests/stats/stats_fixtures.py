"""Runs built in code for the statistics tests (no files, no audit)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evalview.model.run import Identity, Protocol, Run, build_table


def case(
    task: str,
    seed: int,
    status: str = "completed",
    success: bool | None = None,
    *,
    category: str | None = None,
    reason: str | None = None,
    score: float | None = None,
    line: int = 0,
) -> dict[str, Any]:
    """One selected case as a table row; `success=None` on a completed case means failure."""
    row: dict[str, Any] = {
        "id": f"{task}/seed{seed}",
        "task": task,
        "seed": seed,
        "status": status,
        "in_schedule": True,
        "score": score,
    }
    if status == "completed":
        row["success"] = bool(success)
        default = "policy:stop" if success else "environment:truncated"
        row["termination_reason"] = reason or default
    if status == "error":
        row["error_category"] = category
        row["error_type"] = "RuntimeError"
        row["termination_reason"] = reason or f"error:{category}"
    if status != "unattempted":
        row["file"] = "episodes.jsonl"
        row["line"] = line or None
    return row


def make_run(
    rows: list[dict[str, Any]],
    *,
    benchmark: str = "robobench",
    version: str | None = "1.2.0",
) -> Run:
    for i, r in enumerate(rows, start=1):
        if r.get("status") != "unattempted" and not r.get("line"):
            r["line"] = i
    return Run(
        path=Path("mem-run"),
        kind="closed-run",
        identity=Identity(
            run_id="r", benchmark_name=benchmark, benchmark_version=version, policy_name="p"
        ),
        protocol=Protocol(fail_fast=True),
        schedule=tuple(r["id"] for r in rows),
        episodes=build_table(rows),
    )


def binary_run(counts: dict[str, tuple[int, int]]) -> Run:
    """A run with, per task, k successes then n − k failures (seeds 0..n−1)."""
    rows = []
    for task, (k, n) in counts.items():
        rows += [case(task, s, success=s < k) for s in range(n)]
    return make_run(rows)
