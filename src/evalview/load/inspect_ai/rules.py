"""EV0xx: what evalview says about an Inspect AI eval log (registered on import).

The reader makes these findings while it reads the log (it has no manifest or episodes.jsonl for
the closed-run checks), so they arrive as the run's reading findings. Each names the log's member
(`header.json`, `samples/3_epoch_1.json`) or, in a `.json` log, the JSON path of the value.
"""

from __future__ import annotations

from evalview.rules import E, I, W, rule

STRUCTURE = rule(
    "EV001", "inspect-structure", E,
    "A key Inspect writes is missing from the log, or its value has the wrong type (the eval "
    "spec, a sample's id or epoch, a score).",
)
LOG_STATUS = rule(
    "EV002", "inspect-log-status", W,
    "The log's status is not `success` (started, cancelled or error): the eval did not finish, "
    "and the sample-epochs it did not run stay in the selected denominator.",
)
SAMPLE_ERRORS = rule(
    "EV003", "inspect-sample-errors", W,
    "Samples ended in an error: errored rollouts, pending a re-run, never dropped. They count "
    "as non-successes over selected; Inspect's own accuracy leaves them out.",
)
LIMITS = rule(
    "EV004", "inspect-sample-limits", I,
    "Samples hit a token, message, time, working or other limit: a termination reason, scored "
    "as Inspect scored them and counted over selected.",
)
SUBSET = rule(
    "EV005", "inspect-dataset-subset", W,
    "`limit` or `sample_id` selected part of the dataset (or the log lists fewer sample ids "
    "than the dataset holds): the numbers are not the whole dataset's.",
)
REDUCER = rule(
    "EV006", "inspect-epoch-reducer", I,
    "Epochs repeat each sample: Inspect's headline is the metric of per-sample values reduced "
    "over the epochs (by the reducer named here); evalview's episodes are the sample-epochs.",
)
DUPLICATE_SAMPLE = rule(
    "EV007", "inspect-duplicate-sample", E,
    "Two samples of the log share a sample id and epoch, or the dataset lists a sample id twice.",
)
SUPERSEDED = rule(
    "EV008", "inspect-superseded-sample", I,
    "A .eval log holds two members of one name (a requeued sample re-logged): as Inspect does, "
    "the last one is read.",
)
SCORE_VALUE = rule(
    "EV009", "inspect-score-value", E,
    "A score value the scorer cannot produce: not a value Inspect's value_to_float reads (it "
    "would count it as 0 with a warning), or outside what a binary scorer writes.",
)
METRIC_MISMATCH = rule(
    "EV010", "inspect-metric-mismatch", E,
    "A metric the log records (accuracy, mean, stderr, std, var) differs from the same metric "
    "recomputed from the samples.",
)
COUNT_MISMATCH = rule(
    "EV011", "inspect-count-mismatch", E,
    "A count the log records (total_samples, completed_samples, scored_samples, "
    "unscored_samples) differs from the samples.",
)
REDUCTION_MISMATCH = rule(
    "EV012", "inspect-reduction-mismatch", E,
    "A per-sample value of the log's reductions differs from its epochs' scores reduced by the "
    "named reducer, or names a sample the log does not hold.",
)
MISSING_SAMPLES = rule(
    "EV013", "inspect-missing-samples", E,
    "The log's status is `success` but sample-epochs its dataset selected have no sample record.",
)
UNSCORED = rule(
    "EV014", "inspect-unscored", W,
    "Samples without a score for the headline scorer (missing, or NaN: Inspect's unscored "
    "sentinel): counted as evaluation errors, not as failures.",
)
GRADED = rule(
    "EV015", "inspect-graded-scorer", W,
    "The headline scorer gives values other than 0 and 1 (P = 0.5, fractions): the binary rate "
    "counts only full credit as a success; the graded mean is `score --metric score`.",
)
HEADLINE = rule(
    "EV016", "inspect-headline", I,
    "Inspect's own headline (its accuracy, over the samples it scored) beside evalview's "
    "(successes / selected sample-epochs), and which is which.",
)
SUMMARY_MISMATCH = rule(
    "EV017", "inspect-summary-mismatch", E,
    "A .eval log's summaries.json gives a sample a score, error or limit its own sample member "
    "does not.",
)
NOT_RECOMPUTED = rule(
    "EV018", "inspect-not-recomputed", I,
    "A metric or reducer evalview cannot recompute from the samples (a bootstrap, clustered or "
    "custom one): it is shown as recorded, unchecked.",
)
NO_SAMPLES = rule(
    "EV019", "inspect-no-samples", E,
    "The log records no sample (written without samples, or header only): none of its numbers "
    "can be checked, and there is nothing to score.",
)
UNKNOWN_SAMPLE = rule(
    "EV020", "inspect-unknown-sample", E,
    "A sample's id is not among the sample ids the log's dataset selected, or its epoch is "
    "outside 1 to the epochs configured.",
)
