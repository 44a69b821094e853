"""lm-evaluation-harness output: results_<ts>.json, and its samples_<task>_<ts>.jsonl if logged."""

from evalview.load.lm_eval.reader import READER

__all__ = ["READER"]
