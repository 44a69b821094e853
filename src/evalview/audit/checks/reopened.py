"""Rules for a reopened result.json (EV9xx): the numbers it records, recomputed from the episodes
it lists, must agree. The findings are made by report/reaudit.py when the file is read; the rules
are registered here so every code lives in the one registry (and in docs/rules.md)."""

from __future__ import annotations

from evalview.audit import registry as R

E = R.E

NO_EPISODES = R.rule(
    "EV901", "result-no-episodes", E,
    "A result.json lists no episode, so none of the numbers it records can be checked.",
)
COUNT_MISMATCH = R.rule(
    "EV902", "result-count-mismatch", E,
    "A count recorded in result.json differs from the count of its own episodes.",
)
RATE_MISMATCH = R.rule(
    "EV903", "result-rate-mismatch", E,
    "A rate, the aggregate mean or its SE recorded in result.json differs from its episodes'.",
)
INTERVAL_MISMATCH = R.rule(
    "EV904", "result-interval-mismatch", E,
    "An interval in result.json (Wilson, the aggregate's 95 %, the bootstrap) differs from its "
    "episodes', or its low end is above its high end.",
)
TASKS_MISMATCH = R.rule(
    "EV905", "result-tasks-mismatch", E,
    "The tasks result.json lists differ from the tasks of its episodes.",
)
EPISODE_INVALID = R.rule(
    "EV906", "result-episode-invalid", E,
    "An episode of result.json contradicts itself (a completed case without a boolean success, "
    "an error without its category, an outcome on an unattempted case).",
)
