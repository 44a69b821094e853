"""The exported result.json as pydantic models: the one place its shape is defined.

The committed JSON Schema (docs/result.schema.json) is generated from these models, the builder
fills them, and the reopen loader validates against them, so the three cannot drift apart. Every
model forbids extra keys: a field that is not declared here cannot leak into a publication.
The export checks its document with model/result_plain.py first, the same rules in plain Python
(tests/report/test_result_plain.py keeps the two in step); whatever that does not accept comes
here.
Rates and interval bounds are fractions in [0, 1]; None means "no denominator".
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from evalview.model.result_plain import (  # defined once, beside the plain check
    INSPECT_SOURCE_FORMAT,
    LEROBOT_SOURCE_FORMAT,
    SCHEMA_VERSION,
    SOURCE_FORMAT,
    TASK_RESULTS_SOURCE_FORMAT,
)

__all__ = [
    "INSPECT_SOURCE_FORMAT",
    "LEROBOT_SOURCE_FORMAT",
    "SCHEMA_VERSION",
    "SOURCE_FORMAT",
    "TASK_RESULTS_SOURCE_FORMAT",
    "Aggregate",
    "AuditNote",
    "Benchmark",
    "Counts",
    "Denominator",
    "Episode",
    "Generator",
    "Method",
    "MethodComponent",
    "Policy",
    "ProtocolDeclaration",
    "Rates",
    "Redaction",
    "Result",
    "TaskResult",
]

Fraction = Annotated[float, Field(ge=0.0, le=1.0)]
Count = Annotated[int, Field(ge=0)]
Interval = tuple[Fraction, Fraction]
ErrorCategory = Literal["policy", "protocol", "infrastructure", "evaluation"]
MetricValue = float | int | bool | None


class _Strict(BaseModel):
    """Extra keys are forbidden. Files are validated with `Result.from_json` (strict types: a
    rate of `true` or `"0.2"`, a `success` of 1 or a metric of `"0.5"` is not the number the
    schema says, so a result.json carrying one is refused rather than coerced)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Generator(_Strict):
    name: Literal["evalview"]
    version: str


class Benchmark(_Strict):
    name: str | None
    version: str | None
    protocol_version: str | None
    source_revision: str | None


class Policy(_Strict):
    name: str | None
    version: str | None


class MethodComponent(_Strict):
    id: str
    role: str | None
    provider: str | None
    model: str | None
    version: str | None


class Method(_Strict):
    """The public method declaration; `configuration` is None when it was not supplied."""

    id: str | None
    version: str | None
    origin: str | None
    models: list[MethodComponent]
    configuration: dict[str, JsonValue] | None
    configuration_supplied: bool


class ProtocolDeclaration(_Strict):
    selected_cases: Count
    max_steps: int | None
    max_policy_calls: int | None
    replan_interval: int | None
    fail_fast: bool | None


class Denominator(_Strict):
    """One labelled rate: `successes / denominator`. The first of the list is the headline."""

    name: Literal["selected", "attempted", "completed"]
    rate_name: Literal["selected_success_rate", "attempt_success_rate", "success_rate"]
    label: str
    successes: Count
    denominator: Count
    rate: Fraction | None


class Counts(_Strict):
    selected: Count
    attempted: Count
    completed: Count
    errors: Count
    successes: Count
    unattempted: Count


class Rates(_Strict):
    selected_success_rate: Fraction | None
    attempt_success_rate: Fraction | None
    success_rate: Fraction | None


class Aggregate(_Strict):
    """The all-T aggregate: mean of per-task rates over the selected cases."""

    name: str
    tasks: Count
    mean: Fraction | None
    se: float | None = Field(ge=0.0)
    ci95: Interval | None
    #: Seed-bootstrap percentile interval (B resamples from random.Random(7)); None when off.
    bootstrap: Interval | None
    bootstrap_resamples: Count
    bootstrap_seed: int


class TaskResult(_Strict):
    task: str
    selected: Count
    attempted: Count
    completed: Count
    errors: Count
    successes: Count
    unattempted: Count
    rate: Fraction | None
    wilson95: Interval | None
    error_categories: dict[ErrorCategory, Count]


class AuditNote(_Strict):
    """An audit finding carried into the publication (warnings and info; errors refuse export)."""

    code: str
    severity: Literal["warning", "info"]
    message: str
    file: str | None
    line: int | None
    episode_id: str | None


class Episode(_Strict):
    """One selected case. Errors keep their category and type, never their message."""

    id: str
    task: str
    seed: int | None
    status: Literal["completed", "error", "unattempted"]
    success: bool | None
    termination_reason: str | None
    error_category: ErrorCategory | None
    error_type: str | None
    #: Only the keys asked for with --metric; a missing or non-native value is None.
    metrics: dict[str, MetricValue]


class Redaction(_Strict):
    """A credential-shaped value that `export --redact` replaced: where, and what it looked
    like (never the value)."""

    path: str
    field: str
    kind: str


class Result(_Strict):
    """result.json: what a reviewer hands to the world. Every field the reader needs is required
    by the schema too (no defaults), so the two accept exactly the same documents."""

    schema_version: Literal["evalview.result/v1"]
    generator: Generator
    source_format: Literal[
        "starvla-rsi.eval/v1",
        "lerobot-eval/eval_info.json",
        "miniverl-recoverybench/task-results.jsonl",
        "inspect-ai/eval-log",
        "lm-eval/results",
    ]
    run_id: str | None
    benchmark: Benchmark
    policy: Policy
    method: Method | None
    protocol: ProtocolDeclaration
    #: successes/selected first, then successes/attempted and successes/completed.
    denominators: list[Denominator]
    counts: Counts
    rates: Rates
    aggregate: Aggregate
    tasks: list[TaskResult]
    error_categories: dict[ErrorCategory, Count]
    #: Infrastructure errors are pending a re-run: a warning on the page, never a task failure.
    pending_infrastructure_errors: Count
    audit_warnings: list[AuditNote]
    #: What a reader must be told next to the numbers (from the scorecard).
    labels: list[str]
    metrics_selected: list[str]
    #: Strings the exporter replaced because they held a path or a user name.
    redactions: Count
    episodes: list[Episode]
    #: Credential-shaped values replaced by `export --redact`; absent from the file otherwise.
    redacted: list[Redaction] | None = None

    @classmethod
    def from_json(cls, data: str | bytes) -> Result:
        """The result in JSON text, validated strictly: exactly the types of the schema."""
        return cls.model_validate_json(data, strict=True)
