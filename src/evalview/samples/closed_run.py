"""Build a closed run in memory (manifest, records, status, summary), then write it to disk.

Building and writing are separate so the faulty sample can tamper with a conforming run (objects or
raw bytes) before anything is written. Output is a pure function of the options: a seeded
`random.Random`, no clock, no machine paths, `orjson` with fixed options, files written in sorted
order.
"""

from __future__ import annotations

import os
import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import orjson

from evalview.samples.catalog import TASKS, Task
from evalview.samples.episode_result import (
    SCHEMA_VERSION,
    EpisodeSpec,
    episode_dir,
    episode_id,
    make_episode,
    pick_error_category,
)
from evalview.samples.usage import sum_component_usage, sum_usage

METHOD_SCHEMA = "starvla-rsi.method/v1"
RECORDING_SCHEMA = "starvla-rsi.recording/v2"
USAGE_ACCOUNTING = "starvla-rsi.method-usage/v1"

#: Declared model components of the sample method (id, role, provider, model, version).
COMPONENTS: tuple[tuple[str, str, str | None, str | None, str | None], ...] = (
    ("planner", "planning", "acme-ai", "acme-vl-large", "2025-06"),
    # Unknown provider/model/version stay null, as the format requires.
    ("reviewer", "action review", None, None, None),
)


@dataclass
class ClosedRun:
    """A closed run before it is written. `result_files` maps `episodes/<dir>/result.json` to the
    object written there (normally the same object as its JSONL line); `raw` overrides bytes."""

    manifest: dict[str, Any]
    records: list[dict[str, Any]]
    result_files: dict[str, dict[str, Any]]
    status: dict[str, Any]
    summary: dict[str, Any]
    raw: dict[str, bytes] = field(default_factory=dict)

    def files(self) -> dict[str, bytes]:
        """Every file of the run, relative path -> bytes."""
        out = {
            "manifest.json": _pretty(self.manifest),
            "status.json": _pretty(self.status),
            "summary.json": _pretty(self.summary),
            "episodes.jsonl": b"".join(orjson.dumps(r) + b"\n" for r in self.records),
        }
        for rel, obj in self.result_files.items():
            out[rel] = orjson.dumps(obj) + b"\n"
        out.update(self.raw)
        return out


def _pretty(obj: dict[str, Any]) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n"


def task_list(tasks: int | Sequence[str]) -> list[tuple[str, Task]]:
    """(name, catalog task) pairs. Past the 24 catalog tasks, variants `-v2`, `-v3`... repeat it."""
    if isinstance(tasks, int):
        if tasks < 1:
            raise ValueError("tasks must be at least 1")
        out = []
        for i in range(tasks):
            base = TASKS[i % len(TASKS)]
            k = i // len(TASKS)
            out.append((base.name if k == 0 else f"{base.name}-v{k + 1}", base))
        return out
    by_name = {t.name: t for t in TASKS}
    unknown = [n for n in tasks if n not in by_name]
    if unknown:
        raise ValueError(f"unknown task names: {', '.join(unknown)}")
    return [(n, by_name[n]) for n in tasks]


def _shifted(task: Task, shift: float) -> Task:
    if task.p_success in (0.0, 1.0):
        return task
    return replace(task, p_success=min(0.98, max(0.02, task.p_success + shift)))


def seed_list(seeds: int | Sequence[int]) -> list[int]:
    if isinstance(seeds, int):
        if seeds < 1:
            raise ValueError("seeds must be at least 1")
        return list(range(1000, 1000 + seeds))
    return list(seeds)


def build_closed_run(
    *,
    tasks: int | Sequence[str] = 24,
    seeds: int | Sequence[int] = 50,
    rng_seed: int = 20240611,
    run_id: str = "robobench-pi-test-001",
    policy_name: str = "pi-test",
    policy_version: str = "ckpt-40000",
    error_rate: float = 0.04,
    fail_fast_after: int | None = None,
    components: bool = True,
    recording: bool = True,
    verbose: bool = False,
    max_steps: int = 400,
    max_policy_calls: int | None = 120,
    replan_interval: int = 5,
    success_shift: float = 0.0,
) -> ClosedRun:
    """A conforming closed run of `tasks` x `seeds` episodes in schedule order (task-major).

    `fail_fast_after=k` declares `fail_fast: true`, makes episode k (0-based, schedule order) an
    infrastructure error, keeps episodes before it free of errors and leaves the rest unattempted.
    Tasks whose success probability is exactly 0 or 1 get no errors, so they sit at the floor or
    ceiling of every rate. `success_shift` moves the other tasks' success probabilities (a
    better or worse method on the same tasks), kept inside (0, 1).
    """
    pairs = task_list(tasks)
    if success_shift:
        pairs = [(name, _shifted(task, success_shift)) for name, task in pairs]
    seed_values = seed_list(seeds)
    rng = random.Random(rng_seed)
    component_ids = tuple(c[0] for c in COMPONENTS) if components else ()
    spec = EpisodeSpec(
        max_steps=max_steps,
        max_policy_calls=max_policy_calls,
        replan_interval=replan_interval,
        control_hz=10,
        components=component_ids,
        verbose=verbose,
    )
    schedule = [(name, task, seed) for name, task in pairs for seed in seed_values]
    manifest = _manifest(
        run_id=run_id,
        schedule=[episode_id(n, s) for n, _, s in schedule],
        policy_name=policy_name,
        policy_version=policy_version,
        spec=spec,
        fail_fast=fail_fast_after is not None,
        recording=recording,
    )
    records: list[dict[str, Any]] = []
    for i, (name, task, seed) in enumerate(schedule):
        category: str | None = None
        if fail_fast_after is not None:
            if i == fail_fast_after:
                category = "infrastructure"
        elif 0.0 < task.p_success < 1.0 and rng.random() < error_rate:
            category = pick_error_category(rng)
        records.append(make_episode(rng, task, name, seed, spec, error_category=category))
        if fail_fast_after is not None and i == fail_fast_after:
            break
    run = ClosedRun(manifest, records, {}, {}, {})
    refresh(run)
    return run


def refresh(run: ClosedRun) -> None:
    """Recompute result files, status and summary from the records (after any edit to them)."""
    run.result_files = {
        result_path(r): r for r in run.records
    }
    run.status = status_of(run.records)
    run.summary = summarize(run.manifest, run.records)


def result_path(record: dict[str, Any]) -> str:
    ep = record["episode"]
    return f"episodes/{episode_dir(ep['task'], ep['seed'])}/result.json"


def status_of(records: list[dict[str, Any]]) -> dict[str, Any]:
    errored = any(r["status"] == "error" for r in records)
    return {
        "status": "completed_with_errors" if errored else "completed",
        "episodes_written": len(records),
    }


def summarize(manifest: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    """Summary totals computed from the records, unknown usage propagating as null."""
    selected = len(manifest["protocol"]["episode_ids"])
    attempted = len(records)
    completed = sum(r["status"] == "completed" for r in records)
    errors = sum(r["status"] == "error" for r in records)
    successes = sum(r["success"] is True for r in records)
    summary: dict[str, Any] = {
        "run_id": manifest["run_id"],
        "benchmark": manifest["benchmark"]["name"],
        "policy": manifest["policy"]["name"],
        "attempted": attempted,
        "completed": completed,
        "errors": errors,
        "successes": successes,
        "policy_calls": sum(r["policy_calls"] for r in records),
        "rejected_actions": sum(r["rejected_actions"] for r in records),
        "usage": sum_usage(r["usage"] for r in records),
    }
    components = [m["id"] for m in manifest.get("method", {}).get("models", [])]
    if components:
        summary["component_usage"] = sum_component_usage(
            (r.get("component_usage") for r in records), components
        )
    summary["selected_success_rate"] = successes / selected if selected else None
    summary["attempt_success_rate"] = successes / attempted if attempted else None
    summary["success_rate"] = successes / completed if completed else None
    return summary


def _manifest(
    *,
    run_id: str,
    schedule: list[str],
    policy_name: str,
    policy_version: str,
    spec: EpisodeSpec,
    fail_fast: bool,
    recording: bool,
) -> dict[str, Any]:
    revision = f"{zlib.crc32(run_id.encode()):08x}{zlib.crc32(policy_name.encode()):08x}"
    manifest: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "run_id": run_id,
        "benchmark": {
            "name": "robobench",
            "version": "1.4.0",
            "protocol_version": "3",
            "source_revision": revision,
        },
        "policy": {"name": policy_name, "kind": "vla", "version": policy_version},
        "action_spec": {
            "mode": "delta_eef",
            "size": 7,
            "names": ["x", "y", "z", "rx", "ry", "rz", "grip"],
            "low": [-0.05, -0.05, -0.05, -0.25, -0.25, -0.25, 0.0],
            "high": [0.05, 0.05, 0.05, 0.25, 0.25, 0.25, 1.0],
            "control_hz": spec.control_hz,
            "frame": "base",
            "rotation": "axis_angle",
            "gripper": "binary",
        },
        "observation_spec": {
            "cameras": ["front", "wrist"],
            "state_names": [f"q{i}" for i in range(7)] + ["gripper"],
            "modalities": ["rgb", "state"],
            "privileged": False,
        },
        "protocol": {
            "episode_ids": schedule,
            "max_steps": spec.max_steps,
            "max_policy_calls": spec.max_policy_calls,
            "replan_interval": spec.replan_interval,
            "fail_fast": fail_fast,
            "track": "open",
            "usage_accounting_version": USAGE_ACCOUNTING,
        },
    }
    if spec.components:
        manifest["method"] = {
            "schema_version": METHOD_SCHEMA,
            "id": f"{policy_name}-planner-reviewer",
            "version": "v1",
            "models": [
                {"id": cid, "role": role, "provider": prov, "model": model, "version": ver}
                for cid, role, prov, model, ver in COMPONENTS
                if cid in spec.components
            ],
            "configuration": {"memory": "rolling", "parallel": False, "review_every": 2},
        }
        manifest["method_origin"] = "participant_declaration"
    else:
        # What the reference runner writes when no method file was supplied.
        manifest["method"] = {
            "schema_version": METHOD_SCHEMA,
            "id": policy_name,
            "version": policy_version,
            "models": [],
            "configuration": {},
        }
        manifest["method_origin"] = "legacy_policy_projection"
    if recording:
        manifest["recording"] = {
            "schema_version": RECORDING_SCHEMA,
            "mode": "minimal",
            "interactions": False,
            "model_io": False,
            "tool_traces": False,
            "images": False,
            "videos": False,
            "copy_server_media": False,
        }
    return manifest


def write_closed_run(run: ClosedRun, out_dir: str | Path) -> Path:
    """Write every file under `out_dir`, which must not exist or be empty."""
    root = Path(out_dir)
    if root.exists() and any(root.iterdir()):
        raise FileExistsError(f"{root}: already exists and is not empty; choose a new directory.")
    root.mkdir(parents=True, exist_ok=True)
    for rel, data in sorted(run.files().items()):
        target = root / rel
        if target.parent != root:
            os.makedirs(target.parent, exist_ok=True)
        target.write_bytes(data)
    return root


def generate_closed_run(out_dir: str | Path, **options: Any) -> Path:
    """Build a conforming closed run (options of `build_closed_run`) and write it to `out_dir`."""
    return write_closed_run(build_closed_run(**options), out_dir)
