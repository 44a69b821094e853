"""EV8xx: the benchmark harness's own honesty rules, as audit rules with stable codes.

Registered in the one rule registry (so `check` names them and docs/rules.md documents them), but
run by `evalview.harness.audit`, not by the closed-run checks: a harness result is arms x seeds,
not episodes.
"""

from __future__ import annotations

from evalview.audit.registry import E, I, W, rule

SCHEMA = rule(
    "EV801", "harness-schema", E,
    "Not a valid BenchmarkResult (schema 1, 2 or 3): a key is missing, mistyped or not in the "
    "format.",
)
UNDECLARED_DIFFERENCE = rule(
    "EV802", "undeclared-difference", E,
    "An arm's declared config difference is a path outside `allowed_differences`.",
)
UNEQUAL_BUDGET = rule(
    "EV803", "unequal-budget", E,
    "Arms differ in optimizer steps although the budget axis makes them equal, with no allowed "
    "difference that covers it.",
)
SINGLE_SEED = rule(
    "EV804", "single-seed", W,
    "One seed only: every number is labelled 'single seed -- no significance claimed'.",
)
REFERENCE_MISSING = rule(
    "EV805", "reference-missing", W,
    "No cold-start-only arm: deltas cannot be quoted over the shared starting point.",
)
REFERENCE_TRAINED = rule(
    "EV806", "reference-trained", E,
    "The cold-start-only arm reports optimizer steps: it is not the shared starting point.",
)
NOT_MEASURED = rule(
    "EV807", "not-measured", I,
    "A measurement status other than `measured`, for quantities the file reports as null.",
)
UNMEASURED_NUMBER = rule(
    "EV808", "unmeasured-number", E,
    "A number is reported although its measurement status is not `measured`.",
)
NONFINITE_VALUE = rule(
    "EV809", "nonfinite-value", E,
    "NaN or Infinity in a result (`tokens_per_solved_task` must be null when nothing is solved).",
)
RATIO_NOT_OF_SUMS = rule(
    "EV810", "ratio-not-of-sums", E,
    "A position ratio disagrees with the summed numerators it must be the ratio of.",
)
LOCAL_IDENTITY = rule(
    "EV811", "local-identity", W,
    "A machine-local absolute path, host name or user name in run_dir, hardware or invocation.",
)
UNMATCHED_MACHINES = rule(
    "EV812", "unmatched-machines", W,
    "Two results compared across different hardware, software, miniverl_version or git_commit.",
)
RATE_NOT_A_COUNT = rule(
    "EV813", "rate-not-a-count", E,
    "An arm's success_rate times its tasks is not a whole number of solved tasks (or no task).",
)
SEEDS_INCOMPLETE = rule(
    "EV814", "seeds-incomplete", E,
    "The arms x seeds grid does not match `seeds`: a missing, undeclared or repeated read.",
)
CONTROLS_UNRECORDED = rule(
    "EV815", "controls-unrecorded", I,
    "No budget axis or allowed differences recorded (schema 1): budgets and diffs not checked.",
)
RECOVERY_PROVENANCE = rule(
    "EV816", "recovery-provenance-missing", E,
    "A schema-3 (RecoveryBench) result lacks provenance the harness's validator requires, or a "
    "digest in it is not a hex digest.",
)
INVALIDATED = rule(
    "EV817", "result-invalidated", E,
    "invalidation_status is not {valid: true, reasons: []}: the harness's publisher refuses it.",
)
OVERSHOOT_INCONSISTENT = rule(
    "EV818", "overshoot-inconsistent", E,
    "An arm's overshoot is not actual - target, is negative (stopped short of the budget), or "
    "exceeds the file's recorded maximum.",
)
TASK_ARTIFACT_UNRECORDED = rule(
    "EV819", "task-artifact-unrecorded", E,
    "A schema-3 arm records no task-level artifact (path, sha256, bytes), or the file's "
    "task_level_artifacts list does not hold exactly the arms' artifacts.",
)
TASK_ARTIFACT_CHANGED = rule(
    "EV821", "task-artifact-changed", E,
    "A task-level artifact beside the result does not have the size or SHA-256 the result "
    "records: its per-task outcomes are not the ones the numbers came from.",
)
TASK_ARTIFACT_ABSENT = rule(
    "EV822", "task-artifact-absent", I,
    "A task-level artifact the result records is not beside it, so its hash is not verified.",
)
BUDGET_CAP_STOP = rule(
    "EV820", "budget-cap-stop", W,
    "An arm stopped at its configured cycle cap before the budget view's target: not an "
    "equal-budget comparison on that axis.",
)
