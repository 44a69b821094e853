"""One realistic episode result, drawn from a seeded `random.Random` (no clock, no machine state).

Counts respect the protocol limits and their definitions: `action_decisions <= policy_calls`,
every decision acknowledges at least one control so `environment_steps >= action_decisions`, and
`environment_steps <= max_steps`. Usage is partially known on purpose: calls are always counted by
the driver, tokens and cost only when the provider reported them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from evalview.samples.catalog import ERROR_KINDS, ERROR_WEIGHTS, Task
from evalview.samples.usage import USAGE_FIELDS, sum_usage, unknown_usage

SCHEMA_VERSION = "starvla-rsi.eval/v1"

#: Per-token prices used to make plausible costs (USD per token).
_PRICE_IN, _PRICE_OUT, _PRICE_CACHED = 1.25e-6, 1.0e-5, 1.25e-7


@dataclass(frozen=True, slots=True)
class EpisodeSpec:
    """What the run declares that every episode must respect."""

    max_steps: int
    max_policy_calls: int | None
    replan_interval: int
    control_hz: int
    components: tuple[str, ...]
    verbose: bool = False


def episode_id(task: str, seed: int) -> str:
    return f"{task}/seed{seed}"


def episode_dir(task: str, seed: int) -> str:
    """A safe, descriptive directory name (matching uses episode.id, not this)."""
    return f"{task}-seed{seed}"


def make_episode(
    rng: random.Random,
    task: Task,
    task_name: str,
    seed: int,
    spec: EpisodeSpec,
    *,
    error_category: str | None,
    success: bool | None = None,
) -> dict[str, Any]:
    """One episode result; `error_category` set makes it an errored episode of that category.

    `success` given decides the outcome of a completed episode (a second read correlated with a
    first one); otherwise it is drawn from the task's success probability.
    """
    errored = error_category is not None
    lighting = rng.choice(_LIGHTING) if spec.verbose else None
    if success is None:
        success = (not errored) and rng.random() < task.p_success
    else:
        success = success and not errored
    steps, termination = _steps_and_termination(rng, spec, success=success, errored=errored)
    if error_category is not None:
        termination = f"error:{error_category}"
    decisions = max(1, -(-steps // spec.replan_interval) + rng.randint(0, 2)) if steps else 0
    decisions = min(decisions, steps)
    extra_calls = rng.choice((0, 0, 0, 1, 1, 2, 3))
    policy_calls = decisions + extra_calls
    if spec.max_policy_calls is not None:
        policy_calls = min(policy_calls, spec.max_policy_calls)
        decisions = min(decisions, policy_calls)
    rejected = extra_calls + rng.choice((0, 0, 0, 0, 1, 2))
    usage, component_usage = _usage(rng, spec, policy_calls, decisions)
    latency = usage["latency_s"] if isinstance(usage["latency_s"], float) else 0.0
    duration = round(steps / spec.control_hz * rng.uniform(1.15, 1.6) + latency + 2.0, 3)

    record: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "episode": {
            "id": episode_id(task_name, seed),
            "task": task_name,
            "seed": seed,
            "instruction": _instruction(rng, task, lighting),
            "metadata": _metadata(rng, task, seed, lighting),
        },
        "status": "error" if errored else "completed",
        "success": None if errored else success,
        "termination_reason": termination,
        "policy_calls": policy_calls,
        "action_decisions": decisions,
        "environment_steps": steps,
        "rejected_actions": rejected,
        "duration_s": duration,
        "reward_sum": 1.0 if success else 0.0,
        "usage": usage,
    }
    if component_usage is not None:
        record["component_usage"] = component_usage
    record["metrics"] = {} if errored else _metrics(rng, task, success)
    record["artifacts"] = _artifacts(rng, task_name, seed, steps, spec.verbose)
    record["error"] = _error(rng, error_category) if error_category is not None else None
    return record


def _steps_and_termination(
    rng: random.Random, spec: EpisodeSpec, *, success: bool, errored: bool
) -> tuple[int, str]:
    top = spec.max_steps
    if errored:
        # Interrupted somewhere, sometimes before the first control was acknowledged.
        return (0 if rng.random() < 0.15 else rng.randint(1, top - 1)), ""
    if success:
        return rng.randint(top // 8, top * 4 // 5), "environment:success"
    roll = rng.random()
    if roll < 0.55:
        return top, "environment:truncated"
    if roll < 0.8:
        return rng.randint(top // 10, top - 1), "policy:stop"
    return rng.randint(top // 10, top - 1), "environment:terminated"


def _usage(
    rng: random.Random, spec: EpisodeSpec, policy_calls: int, decisions: int
) -> tuple[dict[str, Any], dict[str, dict[str, Any]] | None]:
    """Total usage and, with declared components, per-component usage summing to it."""
    mode = rng.choices(("full", "no-cost", "calls-only"), weights=(0.6, 0.25, 0.15))[0]
    if not spec.components:
        part = _component_usage(rng, max(policy_calls, 0), mode)
        return part, None
    parts: dict[str, dict[str, Any]] = {}
    for i, cid in enumerate(spec.components):
        calls = policy_calls if i == 0 else rng.randint(decisions * 3 // 10, decisions * 6 // 10)
        parts[cid] = _component_usage(rng, calls, mode)
    total = sum_usage(parts[cid] for cid in spec.components)
    return total, parts


def _component_usage(rng: random.Random, calls: int, mode: str) -> dict[str, Any]:
    usage = unknown_usage()
    usage["calls"] = calls
    if mode == "calls-only":
        return usage
    inp = calls * rng.randint(1800, 2600)
    out = calls * rng.randint(30, 90)
    cached = int(inp * rng.uniform(0.3, 0.7))
    usage["input_tokens"], usage["output_tokens"], usage["cached_input_tokens"] = inp, out, cached
    usage["latency_s"] = round(calls * rng.uniform(0.2, 0.6), 3)
    if mode == "full":
        cost = (inp - cached) * _PRICE_IN + cached * _PRICE_CACHED + out * _PRICE_OUT
        usage["estimated_cost_usd"] = round(cost, 6)
    assert tuple(usage) == USAGE_FIELDS
    return usage


def _metrics(rng: random.Random, task: Task, success: bool) -> dict[str, Any]:
    """`success`, a graded `score` (0-100) and the verifier's checkpoint message."""
    parts: list[str] = []
    credits: list[float] = []
    values: list[int | bool] = []
    for cp in task.checkpoints:
        if cp.target is None:
            values.append(True if success else rng.random() < 0.6)
        else:
            values.append(cp.target if success else rng.randint(0, cp.target))
    if not success and all(
        v is True or (cp.target is not None and v == cp.target)
        for v, cp in zip(values, task.checkpoints, strict=True)
    ):
        k = rng.randrange(len(values))  # a failed episode misses at least one checkpoint
        target = task.checkpoints[k].target
        values[k] = False if target is None else target - 1
    for v, cp in zip(values, task.checkpoints, strict=True):
        if cp.target is None:
            parts.append(f"{cp.label}: {v is True}")
            credits.append(1.0 if v is True else 0.0)
        else:
            parts.append(f"{cp.label}: {int(v)}/{cp.target}")
            credits.append(min(int(v) / cp.target, 1.0))
    score = 100 if success else round(100 * sum(credits) / len(credits))
    return {"success": success, "score": score, "message": ", ".join(parts)}


def _error(rng: random.Random, category: str) -> dict[str, Any]:
    etype, template = rng.choice(ERROR_KINDS[category])
    return {"type": etype, "category": category, "message": template.format(w=rng.randint(0, 15))}


def pick_error_category(rng: random.Random) -> str:
    names = [name for name, _ in ERROR_WEIGHTS]
    weights = [w for _, w in ERROR_WEIGHTS]
    return rng.choices(names, weights=weights)[0]


_SCENE_OBJECTS = ("bowl", "cup", "sponge", "cutting board", "towel", "bottle", "plate", "box")
_LIGHTING = ("overhead", "window", "dim", "mixed")


def _instruction(rng: random.Random, task: Task, lighting: str | None) -> str:
    """The task's instruction; verbose runs (bench data) add the longer scene briefing."""
    if lighting is None:
        return task.instruction
    clutter = ", ".join(rng.sample(_SCENE_OBJECTS, 4))
    return (
        f"{task.instruction} The scene is {task.scene} under {lighting} lighting; "
        f"distractor objects on the surface: {clutter}. Move slowly near the edges of the "
        "workspace, keep the gripper above the table when carrying objects, do not touch the "
        "distractors, and stop once the goal state is reached and the arm is back at its "
        "rest pose. If the target object is occluded, look from the front camera first, then "
        "from the wrist camera, before you commit to a grasp."
    )


def _metadata(rng: random.Random, task: Task, seed: int, lighting: str | None) -> dict[str, Any]:
    meta: dict[str, Any] = {"scene": task.scene, "difficulty": _difficulty(task.p_success)}
    if lighting is None:
        return meta
    meta["lighting"] = lighting
    meta["objects"] = [
        {
            "name": name,
            "pose": [round(rng.uniform(-0.4, 0.4), 4), round(rng.uniform(-0.3, 0.3), 4),
                     round(rng.uniform(0.0, 0.2), 4), round(rng.uniform(-3.1416, 3.1416), 4)],
            "mass_kg": round(rng.uniform(0.05, 1.2), 3),
            "friction": round(rng.uniform(0.3, 1.0), 3),
        }
        for name in rng.sample(_SCENE_OBJECTS, 4)
    ]
    meta["camera_jitter"] = {"front": round(rng.uniform(0, 0.02), 4),
                             "wrist": round(rng.uniform(0, 0.01), 4)}
    meta["initial_joint_positions"] = [round(rng.uniform(-1.5, 1.5), 4) for _ in range(7)]
    meta["layout_seed"] = seed * 7919 % 100003
    return meta


def _difficulty(p: float) -> str:
    return "easy" if p >= 0.8 else "medium" if p >= 0.4 else "hard"


def _artifacts(
    rng: random.Random, task_name: str, seed: int, steps: int, verbose: bool
) -> dict[str, Any]:
    if not verbose:
        return {}

    def entry(name: str, kind: str, size: int) -> dict[str, Any]:
        return {
            "path": f"artifacts/{task_name}-seed{seed}/{name}",
            "kind": kind,
            "bytes": size,
            "sha256": f"{rng.getrandbits(256):064x}",
        }

    return {
        "trajectory": entry("trajectory.npz", "trajectory", 900 * steps + 4096),
        "video_front": entry("front.mp4", "video", rng.randint(2_000_000, 9_000_000)),
        "video_wrist": entry("wrist.mp4", "video", rng.randint(2_000_000, 9_000_000)),
    }
