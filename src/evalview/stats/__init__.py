"""Honest scores: denominators, per-task Wilson intervals, the all-T aggregate and its bootstrap.

Headless (no Textual): the CLI, the TUI and the export all show the numbers computed here.
"""

from evalview.stats.benchmark import BenchmarkDeclaration, load_benchmark
from evalview.stats.denominators import Denominators, Rates
from evalview.stats.intervals import (
    Z95,
    clopper_pearson_interval,
    normal_interval,
    wilson_interval,
)
from evalview.stats.policy import Refusal
from evalview.stats.scorecard import (
    Aggregate,
    Scorecard,
    score_run,
    with_bootstrap,
)
from evalview.stats.task_scores import TaskScore

__all__ = [
    "Z95",
    "Aggregate",
    "BenchmarkDeclaration",
    "Denominators",
    "Rates",
    "Refusal",
    "Scorecard",
    "TaskScore",
    "clopper_pearson_interval",
    "load_benchmark",
    "normal_interval",
    "score_run",
    "wilson_interval",
    "with_bootstrap",
]
