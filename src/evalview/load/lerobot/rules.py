"""EV7xx: what the audit says about a LeRobot `eval_info.json` (registered on import).

The reader makes these findings while it reads (the file has no manifest or episodes.jsonl for the
closed-run checks to look at), so they arrive as the run's reading findings. Each points at the
JSON path of the value in its message and at the line where that value is written.
"""

from __future__ import annotations

from evalview.rules import E, I, W, rule

STRUCTURE = rule(
    "EV701", "lerobot-structure", E,
    "A key lerobot-eval writes is missing, or its value has the wrong type.",
)
LENGTHS = rule(
    "EV702", "lerobot-list-lengths", E,
    "A task's sum_rewards, max_rewards and successes lists have different lengths.",
)
SUCCESS_INVALID = rule(
    "EV703", "lerobot-success-invalid", E,
    "A per-episode success is not true or false (a number, null, NaN, a string).",
)
REWARD_INVALID = rule(
    "EV704", "lerobot-reward-invalid", E,
    "A per-episode reward is not a finite number (NaN, Infinity, null, a string).",
)
DUPLICATE_EPISODE = rule(
    "EV705", "lerobot-duplicate-episode", E,
    "Two per_episode records share an episode_ix.",
)
DUPLICATE_SEED = rule(
    "EV706", "lerobot-duplicate-seed", E,
    "Two episodes of one task record the same seed: the same start was run twice.",
)
AGGREGATE_MISMATCH = rule(
    "EV707", "lerobot-aggregate-mismatch", E,
    "A recorded aggregate (pc_success, n_episodes, n_success, pc_success_ci95, avg_sum_reward, "
    "avg_max_reward) disagrees with the per-episode lists.",
)
UNDEFINED_AGGREGATE = rule(
    "EV708", "lerobot-undefined-aggregate", I,
    "NaN in an aggregate evalview recomputes (lerobot-eval writes NaN for an empty group).",
)
UNKNOWN_KEY = rule(
    "EV709", "lerobot-unknown-key", I,
    "A key lerobot-eval does not write (a user's own, such as run_config); it is kept, not read.",
)
DUPLICATE_TASK = rule(
    "EV710", "lerobot-duplicate-task", E,
    "Two per_task entries name the same task_group and task_id.",
)
GROUP_MISMATCH = rule(
    "EV711", "lerobot-group-mismatch", E,
    "per_group does not list exactly the task groups of per_task.",
)
NO_ERRORS_RECORDED = rule(
    "EV712", "lerobot-no-error-record", I,
    "The format records no errored or unattempted episodes: every denominator is the episodes "
    "recorded.",
)
EMPTY_TASK = rule(
    "EV713", "lerobot-empty-task", W,
    "A task (or the single environment) recorded no episode: it has no rate.",
)
VIDEO_PATHS = rule(
    "EV714", "lerobot-video-paths", I,
    "The file lists local video paths; evalview never publishes them.",
)
