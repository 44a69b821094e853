"""LIBERO-style LeRobot `eval_info.json` samples (sample_runs/lerobot/), as lerobot-eval writes.

The aggregates are computed the way `lerobot_eval.py` computes them (numpy `nanmean` of the floats,
times 100 for percent, json.dump with indent=2), so they carry the same float noise
(`28.000000000000004` for 14/50). Two checkpoints of one policy run the same 4 suites × 10 tasks ×
50 episodes; an episode's outcome depends on a start difficulty shared by both checkpoints (the
same seeds), so the two reads are correlated the way paired evaluations are. The data is synthetic.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np

SUITES = ("libero_spatial", "libero_object", "libero_goal", "libero_10")
EPISODES = 50
START_SEED = 1000
#: file name → what it is (the README lists them)
FILES = {
    "smolvla-libero-20k.json": "checkpoint 20k, 4 suites × 10 tasks × 50 episodes, older keys "
    "(no n_success or pc_success_ci95)",
    "smolvla-libero-40k.json": "checkpoint 40k, the same 2,000 episodes, newer keys "
    "(n_episodes, n_success, pc_success, pc_success_ci95 at every level)",
    "libero10-two-reads.json": "two named reads of libero_10 (eval_results_400, eval_results_800) "
    "plus the user's own run_config key",
    "pusht-single-env.json": "a single-environment read (PushT, 50 episodes with seeds)",
}


def _wilson_pc(k: int, n: int) -> list[float]:
    z = 1.959963984540054  # NormalDist().inv_cdf(0.975), as lerobot's eval_stats computes it
    if n == 0:
        return [math.nan, math.nan]
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return [100 * max(0.0, centre - half), 100 * min(1.0, centre + half)]


def _agg(xs: list[Any]) -> float:
    return float(np.nanmean(np.array(xs, dtype=float))) if xs else math.nan


def _counts(successes: list[bool]) -> dict[str, Any]:
    n, k = len(successes), sum(successes)
    return {
        "n_episodes": n,
        "n_success": k,
        "pc_success": 100.0 * k / n if n else math.nan,
        "pc_success_ci95": _wilson_pc(k, n),
    }


def _task_rates(rng: random.Random, suites: tuple[str, ...]) -> dict[tuple[str, int], float]:
    base = {"libero_spatial": 0.86, "libero_object": 0.90, "libero_goal": 0.78, "libero_10": 0.55}
    return {
        (s, t): min(0.99, max(0.02, base[s] + rng.uniform(-0.3, 0.15)))
        for s in suites
        for t in range(10)
    }


def multi_task_info(
    rates: dict[tuple[str, int], float],
    difficulty: dict[tuple[str, int], list[float]],
    *,
    run_dir: str,
    newer_keys: bool,
    rng: random.Random,
) -> dict[str, Any]:
    """One multi-task eval_info document, with lerobot-eval's keys and arithmetic."""
    per_task = []
    group_acc: dict[str, dict[str, list[Any]]] = {}
    overall: dict[str, list[Any]] = {"sum_rewards": [], "max_rewards": [], "successes": [],
                                     "video_paths": []}
    for (suite, tid), p in rates.items():
        succ = [u < p for u in difficulty[(suite, tid)]]
        rewards = [1.0 if s else 0.0 for s in succ]
        videos = [f"{run_dir}/videos/{suite}_{tid}/eval_episode_{i}.mp4" for i in range(2)]
        metrics: dict[str, list[Any]] = {
            "sum_rewards": rewards, "max_rewards": list(rewards), "successes": succ,
            "video_paths": videos, "predicted_video_paths": [],
        }
        entry: dict[str, Any] = {"task_group": suite, "task_id": tid, "metrics": metrics}
        if newer_keys:
            entry.update(_counts(succ))
        per_task.append(entry)
        acc = group_acc.setdefault(suite, {k: [] for k in overall})
        for key in overall:
            acc[key].extend(metrics[key])
            overall[key].extend(metrics[key])

    def summary(acc: dict[str, list[Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "avg_sum_reward": _agg(acc["sum_rewards"]),
            "avg_max_reward": _agg(acc["max_rewards"]),
            "pc_success": _agg(acc["successes"]) * 100 if acc["successes"] else math.nan,
            "n_episodes": len(acc["sum_rewards"]),
        }
        if newer_keys:
            c = _counts(acc["successes"])
            out["n_success"] = c["n_success"]
            out["pc_success_ci95"] = c["pc_success_ci95"]
        return out

    per_group = {}
    for suite, acc in group_acc.items():
        per_group[suite] = {**summary(acc), "video_paths": list(acc["video_paths"]),
                            "predicted_video_paths": []}
    eval_s = round(rng.uniform(2400, 3600), 3) + 0.123456789
    total = summary(overall)
    total.update({"eval_s": eval_s, "eval_ep_s": eval_s / max(1, len(overall["successes"])),
                  "video_paths": list(overall["video_paths"]), "predicted_video_paths": []})
    return {"per_task": per_task, "per_group": per_group, "overall": total}


def _difficulty(rng: random.Random, rates: dict[tuple[str, int], float]) -> dict[
    tuple[str, int], list[float]
]:
    return {key: [rng.random() for _ in range(EPISODES)] for key in rates}


def _shifted(
    base: dict[tuple[str, int], list[float]], rng: random.Random, noise: float
) -> dict[tuple[str, int], list[float]]:
    """The same starts seen by another checkpoint: mostly the same difficulty, some noise."""
    return {k: [(1 - noise) * u + noise * rng.random() for u in us] for k, us in base.items()}


def single_env_info(rng: random.Random) -> dict[str, Any]:
    """A PushT-like single-environment read: continuous rewards, seeds, newer keys."""
    episodes = []
    for i in range(EPISODES):
        coverage = min(1.0, max(0.0, rng.betavariate(5, 1.6)))
        success = coverage > 0.8
        steps = rng.randint(80, 300)
        episodes.append({"episode_ix": i, "sum_reward": coverage * steps * 0.4,
                         "max_reward": coverage, "success": success, "seed": START_SEED + i})
    eval_s = 512.25
    succ = [bool(e["success"]) for e in episodes]
    aggregated: dict[str, Any] = {
        "avg_sum_reward": _agg([e["sum_reward"] for e in episodes]),
        "avg_max_reward": _agg([e["max_reward"] for e in episodes]),
        "pc_success": _agg(succ) * 100,
        "eval_s": eval_s,
        "eval_ep_s": eval_s / EPISODES,
    }
    c = _counts(succ)
    aggregated.update({k: c[k] for k in ("n_episodes", "n_success", "pc_success_ci95")})
    return {
        "per_episode": episodes,
        "aggregated": aggregated,
        "video_paths": [f"/home/researcher/outputs/eval/pusht/videos/eval_episode_{i}.mp4"
                        for i in range(10)],
    }


def build_lerobot_samples() -> dict[str, dict[str, Any]]:
    """File name → document, deterministic."""
    rng = random.Random(4628)
    rates_20k = _task_rates(rng, SUITES)
    rates_40k = {k: min(0.99, p + rng.uniform(-0.04, 0.12)) for k, p in rates_20k.items()}
    base = _difficulty(rng, rates_20k)
    out_root = "/home/researcher/lerobot/outputs/eval/2026-11-28"
    docs = {
        "smolvla-libero-20k.json": multi_task_info(
            rates_20k, base, run_dir=f"{out_root}/smolvla_libero_20k", newer_keys=False, rng=rng
        ),
        "smolvla-libero-40k.json": multi_task_info(
            rates_40k, _shifted(base, rng, 0.25), run_dir=f"{out_root}/smolvla_libero_40k",
            newer_keys=True, rng=rng,
        ),
    }
    l10 = {k: p for k, p in rates_20k.items() if k[0] == "libero_10"}
    l10_late = {k: min(0.99, p + 0.08) for k, p in l10.items()}
    base10 = {k: v for k, v in base.items() if k[0] == "libero_10"}
    docs["libero10-two-reads.json"] = {
        "run_config": {"policy": "smolvla", "env": "libero", "task": "libero_10",
                       "n_episodes": EPISODES, "seed": START_SEED},
        "eval_results_400": multi_task_info(
            l10, base10, run_dir=f"{out_root}/ckpt_400", newer_keys=True, rng=rng
        ),
        "eval_results_800": multi_task_info(
            l10_late, _shifted(base10, rng, 0.2), run_dir=f"{out_root}/ckpt_800",
            newer_keys=True, rng=rng,
        ),
    }
    docs["pusht-single-env.json"] = single_env_info(rng)
    return docs


def write_lerobot_samples(out_dir: str | Path) -> list[Path]:
    """Write sample_runs/lerobot/*.json (json.dump with indent=2, as lerobot-eval writes)."""
    root = Path(out_dir)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for name, doc in build_lerobot_samples().items():
        path = root / name
        path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
        written.append(path)
    return written
