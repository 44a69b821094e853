"""EV05x–EV06x: what evalview says about lm-evaluation-harness output (registered on import).

EV0xx belongs to Inspect AI, which uses EV001–EV020; lm-eval takes EV050–EV069 of the same digit,
a sub-family of its own (`evalview.rules.FAMILIES["05"]`, `["06"]`). The reader makes these while
it reads (there is no manifest or episodes.jsonl), so they arrive as reading findings; each names
the file and the task, metric or line.
"""

from __future__ import annotations

from evalview.rules import E, I, W, rule

STRUCTURE = rule(
    "EV050", "lmeval-structure", E,
    "A key lm-eval writes is missing from the results JSON or a samples line, or its value has "
    "the wrong type (a metric value, n-samples, a doc_id).",
)
LIMIT = rule(
    "EV051", "lmeval-limit", W,
    "The run was made with `--limit` (n-samples effective below original, or config.limit set): "
    "the number is over part of the benchmark, not the benchmark's, and not publishable as such.",
)
STDERR_NA = rule(
    "EV052", "lmeval-stderr-missing", W,
    "A metric's stderr is 'N/A', NaN or absent (lm-eval writes 'N/A' when it cannot compute one): "
    "the number has no uncertainty beside it.",
)
PROVENANCE = rule(
    "EV053", "lmeval-provenance", W,
    "The results do not say which code and data made them: git_hash missing, or task_hashes "
    "missing or empty (no hash of each task's documents to check a re-run against).",
)
MODEL_ARGS = rule(
    "EV054", "lmeval-model-args-private", W,
    "config.model_args holds a local path or something shaped like a token: never published "
    "(the export leaves every model_args value out), and the model is not identified by it.",
)
GROUP_MISMATCH = rule(
    "EV055", "lmeval-group-mismatch", E,
    "A group's recorded metric differs from the size-weighted mean of its subtasks' recorded "
    "metrics (weighted by n-samples effective).",
)
STDERR_MISMATCH = rule(
    "EV056", "lmeval-stderr-mismatch", E,
    "A proportion's recorded stderr differs from sqrt(p(1-p)/(n-1)) of its value and n-samples "
    "effective (lm-eval's mean_stderr), or the value is not k/n for a whole k.",
)
METRIC_MISMATCH = rule(
    "EV057", "lmeval-metric-mismatch", E,
    "A metric recorded in the results differs from the same metric recomputed from the "
    "per-document values of its samples file (mean aggregation).",
)
DUPLICATE_DOC = rule(
    "EV058", "lmeval-duplicate-document", E,
    "A samples file repeats a doc_id for one filter, or two doc_ids share a doc_hash (one "
    "document counted twice), or one doc_hash carries two target_hashes.",
)
COUNT_MISMATCH = rule(
    "EV059", "lmeval-count-mismatch", E,
    "A samples file holds a different number of documents than n-samples effective records.",
)
NOT_RECOMPUTED = rule(
    "EV060", "lmeval-not-recomputed", I,
    "A metric evalview cannot recompute (a corpus-level or custom aggregation, or no samples "
    "logged for it): shown as recorded, unchecked.",
)
AGGREGATES_ONLY = rule(
    "EV061", "lmeval-aggregates-only", I,
    "The results JSON was read without samples files (--log_samples not used, or not beside it): "
    "a read of aggregates, with no per-document outcome to score, pair or recompute from.",
)
SAMPLES_LINE = rule(
    "EV062", "lmeval-samples-line", E,
    "A line of a samples file is not a JSON object lm-eval writes: it was not read.",
)
GRADED = rule(
    "EV063", "lmeval-graded-headline", W,
    "A task's headline metric (its first) is not 0 or 1 per document (BLEU, F1, chrF): evalview's "
    "successes count only a value of 1 (none, outside 0 to 1); the graded mean is lm-eval's own "
    "number, shown by `score` as recorded and recomputed.",
)
