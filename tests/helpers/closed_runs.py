"""Write small closed runs for comparison tests: the example run's manifest, chosen outcomes.

Outcomes per episode id: "s" success, "f" failure, "e:<category>" errored, "u" unattempted (kept
in the schedule, no record). The manifest starts from the example run's and `manifest` updates
are merged on top.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from helpers.paths import EXAMPLE

#: The example run's manifest, the base every written run's manifest starts from.
EXAMPLE_MANIFEST = EXAMPLE / "manifest.json"


def _merge(base: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def outcomes_for(rates: dict[str, tuple[int, int]], seeds: int = 50) -> dict[str, str]:
    """`{task: (successes, seeds)}` -> outcomes where the first k seeds succeed."""
    out: dict[str, str] = {}
    for task, (k, n) in rates.items():
        for s in range(n or seeds):
            out[f"{task}/seed{1000 + s}"] = "s" if s < k else "f"
    return out


def write_run(
    root: Path, outcomes: dict[str, str], *, manifest: dict[str, Any] | None = None
) -> Path:
    """Write a closed run at `root` (created) and return it."""
    base = json.loads(EXAMPLE_MANIFEST.read_text())
    man = _merge(base, manifest or {})
    man["protocol"]["episode_ids"] = list(outcomes)
    root.mkdir(parents=True)
    lines: list[str] = []
    successes = errors = completed = 0
    for eid, outcome in outcomes.items():
        if outcome == "u":
            continue
        task, _, tail = eid.rpartition("/")
        seed = int(tail.removeprefix("seed"))
        rec: dict[str, Any] = {
            "schema_version": "starvla-rsi.eval/v1",
            "episode": {"id": eid, "task": task, "seed": seed,
                        "instruction": "Perform the declared task.", "metadata": {}},
            "policy_calls": 1, "action_decisions": 1, "environment_steps": 1,
            "rejected_actions": 0, "duration_s": 1.0, "reward_sum": 0.0,
            "usage": dict.fromkeys(("calls", "input_tokens", "output_tokens",
                                    "cached_input_tokens", "estimated_cost_usd", "latency_s")),
            "artifacts": {},
        }
        if outcome.startswith("e"):
            category = outcome.partition(":")[2] or "infrastructure"
            rec.update(status="error", success=None, termination_reason="error:crash",
                       metrics={}, error={"type": "Crash", "category": category})
            errors += 1
        else:
            ok = outcome == "s"
            rec.update(status="completed", success=ok, termination_reason="environment:done",
                       metrics={"success": ok, "score": 100 if ok else 0}, error=None)
            completed += 1
            successes += ok
        line = json.dumps(rec, separators=(",", ":"))
        lines.append(line)
        d = root / "episodes" / eid.replace("/", "-")
        d.mkdir(parents=True)
        (d / "result.json").write_text(line)
    (root / "episodes.jsonl").write_text("".join(line + "\n" for line in lines))
    (root / "manifest.json").write_text(json.dumps(man, indent=1))
    (root / "status.json").write_text(json.dumps(
        {"status": "completed_with_errors" if errors else "completed",
         "episodes_written": len(lines)}))
    (root / "summary.json").write_text(json.dumps({
        "run_id": man["run_id"], "benchmark": man["benchmark"]["name"],
        "policy": man["policy"]["name"], "attempted": len(lines), "completed": completed,
        "errors": errors, "successes": successes, "policy_calls": len(lines),
        "rejected_actions": 0,
        "usage": dict.fromkeys(("calls", "input_tokens", "output_tokens",
                                "cached_input_tokens", "estimated_cost_usd", "latency_s")),
    }))
    return root
