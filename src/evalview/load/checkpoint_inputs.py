"""The reader of PSR checkpoint-inputs files: detected by shape, handed to `evalview.psr` as JSON.

A checkpoint-inputs file (psr-metrics.txt) holds verifier messages per model and task, not
episodes, so its `Reading` has no run: the parsed document is the `payload`, and the caller that
asked for partial credit validates it row by row (`evalview.psr.inputs.parse_checkpoint_inputs`,
whose refusals name the model, task and row).
"""

from __future__ import annotations

from typing import Any

from evalview.load import builtin
from evalview.load.bounds import MAX_BYTES
from evalview.load.reader import Reading, ReadOptions
from evalview.load.source import Source

FORMAT = "psr-checkpoint-inputs"


def looks_like_checkpoint_inputs(value: Any) -> bool:
    """An object of lists: model name → rows (the format the spec describes). Rows are not looked
    into here, so a file with one bad row is validated (and the row named) rather than taken for
    some other format; no other input evalview reads is an object made only of lists."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(isinstance(v, list) for v in value.values())
    )


def _detect(source: Source) -> bool:
    if source.is_dir:
        return False
    size = source.size
    if size is None or size > MAX_BYTES:
        return False
    return looks_like_checkpoint_inputs(source.json_value)


def _read(source: Source, options: ReadOptions) -> Reading:
    return Reading(source.path, FORMAT, payload=source.json_value)


#: Its declaration (evalview.load.builtin: the registry asks it without importing this module).
READER = builtin.CHECKPOINT_INPUTS
