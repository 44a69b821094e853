"""Partial success rate from verifier checkpoint messages: method `checkpoint_fraction_v1`.

Labelled "reconstructed PSR": it follows the spec's verbal checkpoint definition and has not been
cross-validated against the historical PSR program (`historical_implementation_reproduced: false`
in every report). Headless: never imports Textual.
"""

from evalview.psr.from_run import RunPsrReport, score_psr_run
from evalview.psr.inputs import load_bare_targets, load_catalog, load_checkpoint_inputs
from evalview.psr.parser import (
    DEFAULT_UPPER_BOUND_LABELS,
    BareTargets,
    Checkpoint,
    ParseContext,
    PsrError,
    parse_message,
)
from evalview.psr.scores import (
    METHOD_ID,
    METHOD_LABEL,
    CheckpointReport,
    PsrOptions,
    score_inputs,
)

__all__ = [
    "DEFAULT_UPPER_BOUND_LABELS",
    "METHOD_ID",
    "METHOD_LABEL",
    "BareTargets",
    "Checkpoint",
    "CheckpointReport",
    "ParseContext",
    "PsrError",
    "PsrOptions",
    "RunPsrReport",
    "load_bare_targets",
    "load_catalog",
    "load_checkpoint_inputs",
    "parse_message",
    "score_inputs",
    "score_psr_run",
]
