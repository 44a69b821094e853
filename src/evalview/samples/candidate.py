"""A second read of the robobench-24x50 schedule by a later checkpoint, for the compare screen.

`evalview compare` pairs two reads of one schedule by episode id, so a realistic demo needs a
candidate that shares the sample's manifest schedule and protocol and whose outcomes are
correlated with the first read per episode: the same seed sets the same scene, so a case one
checkpoint solves is usually solved by the next (most pairs are concordant) and a task's rate moves
by the discordant pairs. Each episode carries a latent difficulty `u` in [0, 1) consistent with
the first read's outcome (below the task's old rate when it succeeded, above when it failed); the
candidate keeps `u` with probability `concordance` (else draws it afresh) and succeeds when `u` is
below the task's new rate. Not committed (sample_runs/ stays small): generate it on demand.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

from evalview.samples.catalog import TASKS, Task
from evalview.samples.closed_run import ClosedRun, build_closed_run, refresh, write_closed_run
from evalview.samples.episode_result import EpisodeSpec, make_episode, pick_error_category

CANDIDATE_RUN_ID = "robobench-pi-test-002"
CANDIDATE_VERSION = "ckpt-52000"

#: The candidate's true success probability per task: a few large moves either way (stacking and
#: mug hanging learned, peg insertion and pancake flipping regressed), small drifts elsewhere, and
#: the floor and ceiling tasks mostly where they were.
CANDIDATE_RATES: dict[str, float] = {
    "pick-red-cube": 1.0,
    "open-top-drawer": 0.86,
    "close-microwave": 0.94,
    "stack-three-blocks": 0.56,
    "insert-peg": 0.08,
    "pour-beans": 0.28,
    "fold-towel": 0.0,
    "hang-mug": 0.78,
    "sort-fruit": 0.26,
    "push-button": 1.0,
    "turn-faucet-on": 0.72,
    "wipe-table": 0.58,
    "unscrew-cap": 0.12,
    "place-book-shelf": 0.72,
    "plug-cable": 0.04,
    "open-jar": 0.08,
    "move-chair": 0.88,
    "slide-block-left": 0.98,
    "pick-place-can": 0.9,
    "water-plant": 0.46,
    "arrange-cups": 0.66,
    "knot-rope": 0.0,
    "flip-pancake": 0.42,
    "press-elevator": 0.98,
}


def _reference() -> ClosedRun:
    """The committed robobench-24x50 sample (same options as `runs._robobench`)."""
    return build_closed_run(tasks=24, seeds=50)


def _spec(manifest: dict[str, Any]) -> EpisodeSpec:
    """The reference's declared limits, so the candidate respects the same protocol."""
    protocol = manifest["protocol"]
    return EpisodeSpec(
        max_steps=protocol["max_steps"],
        max_policy_calls=protocol["max_policy_calls"],
        replan_interval=protocol["replan_interval"],
        control_hz=manifest["action_spec"]["control_hz"],
        components=tuple(m["id"] for m in manifest["method"]["models"]),
    )


def _latent(rng: random.Random, p_old: float, outcome: bool | None) -> float:
    """A difficulty in [0, 1) consistent with the reference's outcome (uniform when unknown)."""
    if outcome is True:
        return rng.uniform(0.0, p_old)
    if outcome is False:
        return rng.uniform(p_old, 1.0)
    return rng.random()


def build_candidate_read(
    *,
    rng_seed: int = 52000,
    run_id: str = CANDIDATE_RUN_ID,
    policy_version: str = CANDIDATE_VERSION,
    rates: dict[str, float] | None = None,
    concordance: float = 0.8,
    error_rate: float = 0.03,
) -> ClosedRun:
    """The candidate read in memory: the reference's manifest with another run id and version.

    `rates` overrides per-task success probabilities (tasks not named keep the reference's);
    `concordance` in [0, 1] is how strongly each episode's outcome follows the reference's.
    """
    if not 0.0 <= concordance <= 1.0:
        raise ValueError("concordance must be in [0, 1]")
    reference = _reference()
    by_name: dict[str, Task] = {t.name: t for t in TASKS}
    new_rates = {**CANDIDATE_RATES, **(rates or {})}
    unknown = sorted(set(new_rates) - set(by_name))
    if unknown:
        raise ValueError(f"unknown task names in rates: {', '.join(unknown)}")
    rng = random.Random(rng_seed)
    manifest = copy.deepcopy(reference.manifest)
    manifest["run_id"] = run_id
    manifest["policy"]["version"] = policy_version
    spec = _spec(manifest)
    records: list[dict[str, Any]] = []
    for ref in reference.records:
        name, seed = ref["episode"]["task"], ref["episode"]["seed"]
        task = by_name[name]
        p_new = new_rates.get(name, task.p_success)
        u = _latent(rng, task.p_success, ref["success"])
        if rng.random() >= concordance:
            u = rng.random()
        category: str | None = None
        if 0.0 < p_new < 1.0 and rng.random() < error_rate:
            category = pick_error_category(rng)
        records.append(
            make_episode(rng, task, name, seed, spec, error_category=category, success=u < p_new)
        )
    run = ClosedRun(manifest, records, {}, {}, {})
    refresh(run)
    return run


def generate_candidate_read(out_dir: str | Path, **options: Any) -> Path:
    """Write the candidate read (options of `build_candidate_read`) to a new `out_dir`.

    Compare it with the sample: `evalview compare sample_runs/robobench-24x50 OUT_DIR`.
    """
    return write_closed_run(build_candidate_read(**options), out_dir)
