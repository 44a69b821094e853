"""The declarations of the formats evalview ships, without their modules.

The registry orders, lists and asks readers from these declarations; a format's module (its
parser, its rules, zipfile for Inspect's .eval) is imported only when its cheap content sniff
here passes, and its reader only for the input it claims: `check` of a closed run never imports
the Inspect AI, lm-eval, LeRobot or harness readers (docs/performance.md, "command line (issue
25)"). Each sniff is a necessary condition of the module's full `_detect` (a sniff that says no
means the full test would say no without raising; anything else is left to the full test), so
detection gives the same answer as asking every module; tests/load/test_lazy_registry.py keeps
the two in step. A format's module re-exports its declaration as `READER`.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from evalview.load.bounds import MAX_BYTES
from evalview.load.errors import InputError
from evalview.load.reader import Reader, Reading, ReadOptions
from evalview.load.source import Source

__all__ = [
    "BUILTIN",
    "CHECKPOINT_INPUTS",
    "CLOSED_RUN",
    "HARNESS_RESULT",
    "HARNESS_SIGNATURE",
    "INSPECT_AI",
    "LEROBOT",
    "LEROBOT_MARKERS",
    "LM_EVAL",
    "RESULT_JSON",
    "RUN_FILES",
    "TASK_RESULTS",
]

Sniff = Callable[[Source], bool]

#: A closed run's own files: a path to one of them is read as its run (closed_run.RUN_FILES).
RUN_FILES = ("manifest.json", "status.json", "summary.json", "episodes.jsonl")
#: The keys every benchmark-harness result names (harness_result.SIGNATURE).
HARNESS_SIGNATURE = ("miniverl_version", "schema_version", "arms")
#: lerobot-eval's top-level list keys, one of which every eval_info.json holds.
LEROBOT_MARKERS = (b'"per_task"', b'"per_episode"')
#: How far into a file the Inspect and lm-eval detectors look for their marker key.
_MARKER_SPAN = 1 << 16


def _detector(sniff: Sniff, module: str) -> Callable[[Source], bool]:
    """`module._detect`, imported and asked only when `sniff` does not rule the input out."""

    def detect(source: Source) -> bool:
        try:
            if not sniff(source):
                return False
        except InputError:
            pass  # the full test decides (and words) what the sniff could not read
        found: Callable[[Source], bool] = import_module(module)._detect
        return found(source)

    return detect


def _reader(module: str) -> Callable[[Source, ReadOptions], Reading]:
    """`module._read`, imported when an input of its format is read."""

    def read(source: Source, options: ReadOptions) -> Reading:
        found: Callable[[Source, ReadOptions], Reading] = import_module(module)._read
        return found(source, options)

    return read


def _file(source: Source) -> bool:
    return not source.is_dir and source.size is not None


def _closed_run(source: Source) -> bool:
    return source.is_dir or source.path.name in RUN_FILES


def _result_json(source: Source) -> bool:
    return not source.is_dir and b'"evalview.result/v1"' in source.head()


def _harness(source: Source) -> bool:
    if not _file(source) or (source.size or 0) > MAX_BYTES:
        return False
    raw = source.raw
    return all(f'"{k}"'.encode() in raw for k in HARNESS_SIGNATURE)


def _inspect(source: Source) -> bool:
    if not _file(source):
        return False
    head = source.head()
    return (
        head.startswith(b"PK\x03\x04")  # a .eval zip
        or b'"status"' in head  # the top of a JSON log: version, then status
        or b'"eval"' in source.raw[:_MARKER_SPAN]
    )


def _lm_eval(source: Source) -> bool:
    return _file(source) and b'"results"' in source.raw[:_MARKER_SPAN]


def _task_results(source: Source) -> bool:
    if not _file(source):
        return False
    head = source.head()
    return head.startswith(b'{"arm":') or b'"analysis_version"' in head


def _lerobot(source: Source) -> bool:
    if not _file(source):
        return False
    if (source.size or 0) > MAX_BYTES:
        return True  # the full test reads the head of such a file itself
    raw = source.raw
    return any(m in raw for m in LEROBOT_MARKERS)


def _any(source: Source) -> bool:
    return True


CLOSED_RUN = Reader(
    detect=_detector(_closed_run, "evalview.load.closed_run"),
    read=_reader("evalview.load.closed_run"),
    name="closed-run",
    summary="a closed-run directory (starvla-rsi.eval/v1), or one of its files",
    holds="episodes",
    noun="a closed-run directory (starvla-rsi.eval/v1, the one holding manifest.json)",
    export_label="starvla-rsi.eval/v1",
    priority=10,
)

RESULT_JSON = Reader(
    detect=_detector(_result_json, "evalview.load.result_json"),
    read=_reader("evalview.load.result_json"),
    name="result-json",
    summary="a result.json written by `evalview export` (evalview.result/v1)",
    holds="episodes",
    noun="a result.json written by `evalview export`",
    priority=20,
    no_partial_credit=(
        "an exported result, which publishes outcomes but not the verifier messages partial "
        "credit is read from. Open the closed run it came from."
    ),
)

#: Joins the registry: no episode read, the file as payload (evalview.load.harness_result).
HARNESS_RESULT = Reader(
    detect=_detector(_harness, "evalview.load.harness_result"),
    read=_reader("evalview.load.harness_result"),
    name="benchmark-harness",
    summary="miniVERL benchmark-harness result (BenchmarkResult, schema 1, 2 or 3): arms x seeds",
    holds="arms",
    noun="a miniVERL benchmark-harness result (BenchmarkResult JSON)",
    export_label="evalview.harness-result/v1",
    priority=30,
)

INSPECT_AI = Reader(
    detect=_detector(_inspect, "evalview.load.inspect_ai.reader"),
    read=_reader("evalview.load.inspect_ai.reader"),
    name="inspect-ai",
    summary="Inspect AI eval logs (.eval zip or .json): one task, samples x epochs",
    holds="episodes",
    noun="an Inspect AI eval log (.eval or .json)",
    export_label="inspect-ai/eval-log",
    priority=32,
    no_partial_credit=(
        "an Inspect AI eval log: it records each sample's score, not the verifier checkpoint "
        "messages partial credit is read from."
    ),
    pairs_need="the same task, task version, dataset and sample ids",
    suffixes=(".eval", ".json"),
)

LM_EVAL = Reader(
    detect=_detector(_lm_eval, "evalview.load.lm_eval.reader"),
    read=_reader("evalview.load.lm_eval.reader"),
    name="lm-eval",
    summary="lm-evaluation-harness results_<ts>.json (with its samples_<task>_<ts>.jsonl)",
    holds="episodes",
    noun="an lm-evaluation-harness results JSON (samples files beside it are read with it)",
    export_label="lm-eval/results",
    priority=33,
    no_partial_credit=(
        "an lm-evaluation-harness results JSON: it records each document's metrics, not the "
        "verifier checkpoint messages partial credit is read from."
    ),
    no_cases=(
        "it is an lm-evaluation-harness results JSON read without samples files: it records each "
        "task's aggregates, not per-document samples. Run lm-eval with --log_samples and keep its "
        "samples_<task>_<ts>.jsonl beside the results JSON; lm-eval's own numbers are shown as "
        "recorded."
    ),
    no_pairs=(
        "it is an lm-evaluation-harness results JSON read without samples files, so it holds "
        "each task's aggregates and no per-document outcome, and a comparison pairs the two "
        "models document by document (McNemar, the paired interval, the paired bootstrap). Run "
        "lm-eval with --log_samples for both models and keep each samples_<task>_<ts>.jsonl "
        "beside its results JSON; `evalview table` sets aggregates side by side, unpaired."
    ),
    pairs_need=(
        "the same documents (task, doc_id and doc_hash), n-shot, task version and filter"
    ),
    suffixes=(".json",),
)

TASK_RESULTS = Reader(
    detect=_detector(_task_results, "evalview.load.task_results"),
    read=_reader("evalview.load.task_results"),
    name="recoverybench-task-results",
    summary="RecoveryBench (miniVERL) task-level results, one named read per BUDGET_VIEW/ARM",
    holds="episodes",
    noun="a RecoveryBench task-results JSONL (miniVERL)",
    export_label="miniverl-recoverybench/task-results.jsonl",  # model.result accepts it
    priority=35,
    suffixes=(".jsonl", ".json"),
    no_partial_credit=(
        "a RecoveryBench task-results JSONL: it records each task's binary outcomes, not the "
        "verifier checkpoint messages partial credit is read from."
    ),
)

LEROBOT = Reader(
    detect=_detector(_lerobot, "evalview.load.lerobot.reader"),
    read=_reader("evalview.load.lerobot.reader"),
    name="lerobot-eval",
    summary="LeRobot lerobot-eval results (eval_info.json: single-env, multi-task, named reads)",
    holds="episodes",
    noun="a LeRobot eval_info.json (lerobot-eval)",
    export_label="lerobot-eval/eval_info.json",
    priority=40,
    no_partial_credit=(
        "a LeRobot eval_info.json: it records each episode's success, not the verifier "
        "checkpoint messages partial credit is read from."
    ),
)

CHECKPOINT_INPUTS = Reader(
    detect=_detector(_any, "evalview.load.checkpoint_inputs"),
    read=_reader("evalview.load.checkpoint_inputs"),
    name="psr-checkpoint-inputs",
    summary="PSR checkpoint inputs: verifier messages by model and task (psr-metrics.txt)",
    holds="checkpoint-inputs",
    noun="a PSR checkpoint-inputs JSON (`evalview psr`)",
    # Broad: any JSON object whose values are all lists ({"arms": [...]} too), so asked last.
    priority=90,
)

#: The formats evalview ships (any order: the registry sorts them by their declared priority).
BUILTIN: tuple[Reader, ...] = (
    CLOSED_RUN,
    RESULT_JSON,
    HARNESS_RESULT,
    LEROBOT,
    CHECKPOINT_INPUTS,
    TASK_RESULTS,
    INSPECT_AI,
    LM_EVAL,
)
