"""A benchmark-harness result as plain Python: the models of `evalview.model.harness`, unvalidated.

The pydantic models (`evalview.model.harness`) are the schema; importing pydantic and building
them costs about 0.2 s, four times the harness `check`'s parse floor (issue 25). This module
checks the same schema in plain Python and builds the same values (defaults filled in, integers
in float fields as floats, the v1 spellings of three arm fields read into their v2 names), so a
file that validates never imports pydantic. When this check says no, the reader asks pydantic to
word the errors (EV801's messages and JSON locations are pydantic's), so the findings are the
same by construction; tests/harness/test_harness_plain.py shows the two accept the same files
and build the same values. `test_harness_plain` also keeps `FIELDS` in step with the models.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ARM_FIELDS", "RESULT_FIELDS", "ArmResult", "BenchmarkResult", "validate"]

#: The v1 spelling of renamed arm fields -> the v2 name (as `evalview.model.harness`).
LEGACY_ARM_FIELDS = {
    "selected_training_tokens": "selected_training_tokens_total",
    "seconds": "wall_seconds",
    "cache_bytes": "cache_current_bytes",
}
#: Provenance a schema-2 or 3 file must carry (as `evalview.model.harness.V2_REQUIRED`).
V2_REQUIRED = (
    "invocation",
    "budget_axis",
    "cold_start",
    "common_resolved_config",
    "common_resolved_config_digest",
)


@dataclass(slots=True, kw_only=True)
class ArmResult:
    """One arm at one seed (the fields of `evalview.model.harness.ArmResult`)."""

    name: str
    description: str = ''
    mode: str
    seed: int
    run_id: str
    run_dir: str
    objective: str = 'legacy_unreported'
    opd_freshness: str | None = None
    loss_mode: str | None = None
    divergence: str | None = None
    selector: str | None = None
    top_k: int | None = None
    resolved_config_digest: str | None = None
    structured_diff: list[dict[str, Any]] = field(default_factory=list)
    student_model_id: str | None = None
    student_model_revision: str | None = None
    teacher_model_id: str | None = None
    teacher_model_revision: str | None = None
    teacher_adapter: dict[str, Any] | None = None
    tokenizer_fingerprint: str | None = None
    teacher_context_mode: str | None = None
    declared_config_digest: str | None = None
    runtime_resolved_config_digest: str | None = None
    scientific_config_diff: list[dict[str, Any]] = field(default_factory=list)
    runtime_resolution_diff: list[dict[str, Any]] = field(default_factory=list)
    harness_config_diff: list[dict[str, Any]] = field(default_factory=list)
    optimizer_steps: int
    policy_version: int
    total_trajectories: int = 0
    generated_training_tokens_total: int = 0
    selected_training_tokens_total: int = 0
    model_generated_training_tokens_total: int = 0
    selected_position_ratio: float | None = None
    teacher_queried_positions_total: int | None = None
    teacher_queried_position_ratio: float | None = None
    tasks: int
    success_rate: float
    strict_task_success_rate: float | None = None
    lenient_diagnostic_success_rate: float | None = None
    avg_turns: float
    avg_tool_calls: float
    assistant_turns: int | None = None
    emitted_tool_calls: int | None = None
    parsed_tool_calls: int | None = None
    tool_execution_successes: int | None = None
    tool_execution_errors: int | None = None
    unknown_tool_calls: int | None = None
    parse_errors: int | None = None
    repeated_call_terminations: int | None = None
    final_answers_emitted: int | None = None
    final_answers_format_valid: int | None = None
    final_answers_verified: int | None = None
    parse_valid_tool_call_rate: float | None = None
    tool_execution_success_rate: float | None = None
    tool_execution_error_rate: float | None = None
    tool_call_count: int | None = None
    valid_tool_call_rate: float | None = None
    invalid_tool_call_rate: float
    final_answer_format_validity_rate: float | None = None
    protocol_token_accuracy: float | None = None
    generated_tokens_per_task: float
    tokens_per_solved_task: float | None = None
    cache_current_bytes: int | None = None
    cache_bytes_written_total: int | None = None
    cache_compression_ratio: float | None = None
    peak_allocated_bytes: int | None = None
    peak_reserved_bytes: int | None = None
    train_seconds: float | None = None
    evaluation_seconds: float | None = None
    wall_seconds: float
    baseline_success_rate: float | None = None
    measurement_status: dict[str, str] | str = field(default_factory=dict)
    recovery_metrics: dict[str, Any] = field(default_factory=dict)
    frozen_dataset_identity: dict[str, Any] | None = None
    stop_criterion: dict[str, Any] | None = None
    overshoot: dict[str, Any] = field(default_factory=dict)
    task_level_artifact: dict[str, Any] | None = None
    #: the v1 spellings this record used (read into their v2 names)
    legacy_names: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """`arm/s<seed>`: how findings and screens name one (arm, seed) read."""
        return f"{self.name}/s{self.seed}"


@dataclass(slots=True, kw_only=True)
class BenchmarkResult:
    """A whole harness result (the fields of `evalview.model.harness.BenchmarkResult`)."""

    schema_version: int
    miniverl_version: str
    name: str
    description: str = ''
    created_at: str
    git_commit: str | None = None
    invocation: list[str] | None = None
    budget_axis: str | None = None
    hardware: dict[str, Any] = field(default_factory=dict)
    software: dict[str, Any] = field(default_factory=dict)
    cold_start: dict[str, Any] | None = None
    common_resolved_config: dict[str, Any] | None = None
    common_resolved_config_digest: str | None = None
    common_declared_config: dict[str, Any] | None = None
    common_declared_config_digest: str | None = None
    controlled: dict[str, Any] = field(default_factory=dict)
    arms: list[ArmResult] = field(default_factory=list)
    notes: str = ''
    seeds: list[int] = field(default_factory=list)
    preregistration_sha: str | None = None
    preregistration_digest: str | None = None
    hypothesis_ids: list[str] = field(default_factory=list)
    task_schedule_digest: str | None = None
    template_registry_version: int | None = None
    template_registry_digest: str | None = None
    selected_teacher_candidate: dict[str, Any] | None = None
    teacher_gate_results: list[dict[str, Any]] = field(default_factory=list)
    teacher_preparation_cost: dict[str, Any] | None = None
    frozen_dataset_identity: dict[str, Any] = field(default_factory=dict)
    budget_view: str | None = None
    stop_criterion: dict[str, Any] | None = None
    overshoot: dict[str, Any] = field(default_factory=dict)
    recovery_metrics: dict[str, Any] = field(default_factory=dict)
    task_level_artifacts: list[dict[str, Any]] = field(default_factory=list)
    result_analysis_version: str | None = None
    invalidation_status: dict[str, Any] | None = None

    @property
    def recovery(self) -> bool:
        """A RecoveryBench (schema 3) result: budget views, recovery metrics, task artifacts."""
        return self.schema_version == 3

    @property
    def allowed_differences(self) -> list[str]:
        """Declared difference paths (`controlled.allowed_differences`), [] when not recorded."""
        value = self.controlled.get("allowed_differences")
        return [str(v) for v in value] if isinstance(value, list) else []

    @property
    def arm_names(self) -> list[str]:
        """Arm names in the order the file first lists them."""
        return list(dict.fromkeys(a.name for a in self.arms))

    @property
    def single_seed(self) -> bool:
        """One seed in `seeds`, or (with no seed list) every arm seen at one seed only."""
        if self.seeds:
            return len(set(self.seeds)) == 1
        return len({a.seed for a in self.arms}) <= 1

    @property
    def submission(self) -> bool:
        """A single-run submission (`export-benchmark`): a single-arm result."""
        return len(self.arm_names) == 1


class _Invalid(Exception):
    """The document does not validate (pydantic words why)."""


@dataclass(frozen=True, slots=True)
class _Const:
    value: Any


_REQUIRED = None  # a field the document must give
Default = Callable[[], Any] | _Const | None

#: (field, kind, default) of each model in declaration order; kind: a base type with a leading
#: "?" when None is allowed; default: a factory, a constant, or _REQUIRED.
ARM_FIELDS: tuple[tuple[str, str, Default], ...] = (
    ("name", "str_nonempty", _REQUIRED),
    ("description", "str", _Const('')),
    ("mode", "str", _REQUIRED),
    ("seed", "int", _REQUIRED),
    ("run_id", "str", _REQUIRED),
    ("run_dir", "str", _REQUIRED),
    ("objective", "str", _Const('legacy_unreported')),
    ("opd_freshness", "?str", _Const(None)),
    ("loss_mode", "?str", _Const(None)),
    ("divergence", "?str", _Const(None)),
    ("selector", "?str", _Const(None)),
    ("top_k", "?int", _Const(None)),
    ("resolved_config_digest", "?str", _Const(None)),
    ("structured_diff", "list_dict", list),
    ("student_model_id", "?str", _Const(None)),
    ("student_model_revision", "?str", _Const(None)),
    ("teacher_model_id", "?str", _Const(None)),
    ("teacher_model_revision", "?str", _Const(None)),
    ("teacher_adapter", "?dict", _Const(None)),
    ("tokenizer_fingerprint", "?str", _Const(None)),
    ("teacher_context_mode", "?str", _Const(None)),
    ("declared_config_digest", "?str", _Const(None)),
    ("runtime_resolved_config_digest", "?str", _Const(None)),
    ("scientific_config_diff", "list_dict", list),
    ("runtime_resolution_diff", "list_dict", list),
    ("harness_config_diff", "list_dict", list),
    ("optimizer_steps", "int_ge0", _REQUIRED),
    ("policy_version", "int", _REQUIRED),
    ("total_trajectories", "int", _Const(0)),
    ("generated_training_tokens_total", "int", _Const(0)),
    ("selected_training_tokens_total", "int_ge0", _Const(0)),
    ("model_generated_training_tokens_total", "int", _Const(0)),
    ("selected_position_ratio", "?float", _Const(None)),
    ("teacher_queried_positions_total", "?int", _Const(None)),
    ("teacher_queried_position_ratio", "?float", _Const(None)),
    ("tasks", "int_ge0", _REQUIRED),
    ("success_rate", "float", _REQUIRED),
    ("strict_task_success_rate", "?float", _Const(None)),
    ("lenient_diagnostic_success_rate", "?float", _Const(None)),
    ("avg_turns", "float", _REQUIRED),
    ("avg_tool_calls", "float", _REQUIRED),
    ("assistant_turns", "?int", _Const(None)),
    ("emitted_tool_calls", "?int", _Const(None)),
    ("parsed_tool_calls", "?int", _Const(None)),
    ("tool_execution_successes", "?int", _Const(None)),
    ("tool_execution_errors", "?int", _Const(None)),
    ("unknown_tool_calls", "?int", _Const(None)),
    ("parse_errors", "?int", _Const(None)),
    ("repeated_call_terminations", "?int", _Const(None)),
    ("final_answers_emitted", "?int", _Const(None)),
    ("final_answers_format_valid", "?int", _Const(None)),
    ("final_answers_verified", "?int", _Const(None)),
    ("parse_valid_tool_call_rate", "?float", _Const(None)),
    ("tool_execution_success_rate", "?float", _Const(None)),
    ("tool_execution_error_rate", "?float", _Const(None)),
    ("tool_call_count", "?int", _Const(None)),
    ("valid_tool_call_rate", "?float", _Const(None)),
    ("invalid_tool_call_rate", "float", _REQUIRED),
    ("final_answer_format_validity_rate", "?float", _Const(None)),
    ("protocol_token_accuracy", "?float", _Const(None)),
    ("generated_tokens_per_task", "float", _REQUIRED),
    ("tokens_per_solved_task", "?float", _Const(None)),
    ("cache_current_bytes", "?int", _Const(None)),
    ("cache_bytes_written_total", "?int", _Const(None)),
    ("cache_compression_ratio", "?float", _Const(None)),
    ("peak_allocated_bytes", "?int", _Const(None)),
    ("peak_reserved_bytes", "?int", _Const(None)),
    ("train_seconds", "?float", _Const(None)),
    ("evaluation_seconds", "?float", _Const(None)),
    ("wall_seconds", "float", _REQUIRED),
    ("baseline_success_rate", "?float", _Const(None)),
    ("measurement_status", "status", dict),
    ("recovery_metrics", "dict", dict),
    ("frozen_dataset_identity", "?dict", _Const(None)),
    ("stop_criterion", "?dict", _Const(None)),
    ("overshoot", "dict", dict),
    ("task_level_artifact", "?dict", _Const(None)),
)
RESULT_FIELDS: tuple[tuple[str, str, Default], ...] = (
    ("schema_version", "version", _REQUIRED),
    ("miniverl_version", "str", _REQUIRED),
    ("name", "str", _REQUIRED),
    ("description", "str", _Const('')),
    ("created_at", "str", _REQUIRED),
    ("git_commit", "?str", _Const(None)),
    ("invocation", "?list_str", _Const(None)),
    ("budget_axis", "?str", _Const(None)),
    ("hardware", "dict", dict),
    ("software", "dict", dict),
    ("cold_start", "?dict", _Const(None)),
    ("common_resolved_config", "?dict", _Const(None)),
    ("common_resolved_config_digest", "?str", _Const(None)),
    ("common_declared_config", "?dict", _Const(None)),
    ("common_declared_config_digest", "?str", _Const(None)),
    ("controlled", "dict", dict),
    ("arms", "arms", list),
    ("notes", "str", _Const('')),
    ("seeds", "list_int", list),
    ("preregistration_sha", "?str", _Const(None)),
    ("preregistration_digest", "?str", _Const(None)),
    ("hypothesis_ids", "list_str", list),
    ("task_schedule_digest", "?str", _Const(None)),
    ("template_registry_version", "?int", _Const(None)),
    ("template_registry_digest", "?str", _Const(None)),
    ("selected_teacher_candidate", "?dict", _Const(None)),
    ("teacher_gate_results", "list_dict", list),
    ("teacher_preparation_cost", "?dict", _Const(None)),
    ("frozen_dataset_identity", "dict", dict),
    ("budget_view", "?str", _Const(None)),
    ("stop_criterion", "?dict", _Const(None)),
    ("overshoot", "dict", dict),
    ("recovery_metrics", "dict", dict),
    ("task_level_artifacts", "list_dict", list),
    ("result_analysis_version", "?str", _Const(None)),
    ("invalidation_status", "?dict", _Const(None)),
)


def _int(v: Any) -> bool:
    return type(v) is int  # strict: a bool is not a count


def _value(kind: str, v: Any) -> Any:
    """`v` as the model would hold it, or _Invalid (pydantic's strict mode, kind by kind)."""
    if kind[0] == "?":
        return None if v is None else _value(kind[1:], v)
    if kind == "str" and type(v) is str:
        return v
    if kind == "str_nonempty" and type(v) is str and v:
        return v
    if kind == "int" and _int(v):
        return v
    if kind == "int_ge0" and _int(v) and v >= 0:
        return v
    if kind == "float" and (type(v) is float or _int(v)):
        return float(v)
    if kind == "dict" and type(v) is dict:
        return dict(v)
    if kind == "list_dict" and type(v) is list and all(type(x) is dict for x in v):
        return [dict(x) for x in v]
    if kind == "list_str" and type(v) is list and all(type(x) is str for x in v):
        return list(v)
    if kind == "list_int" and type(v) is list and all(_int(x) for x in v):
        return list(v)
    if kind == "status" and type(v) is str:
        return v
    if kind == "status" and type(v) is dict and all(type(x) is str for x in v.values()):
        return dict(v)
    if kind == "version" and _int(v) and v in (1, 2, 3):
        return v
    raise _Invalid


def _fields(spec: tuple[tuple[str, str, Default], ...], doc: dict[str, Any]) -> dict[str, Any]:
    """The model's field values from `doc`: each checked, defaults filled, no extra key."""
    out: dict[str, Any] = {}
    for name, kind, default in spec:
        if name in doc:
            out[name] = _value(kind, doc[name])
        elif default is None:
            raise _Invalid
        else:
            out[name] = default.value if isinstance(default, _Const) else default()
    if len(out) != len(doc) and any(k not in out for k in doc):
        raise _Invalid  # the format forbids extra keys
    return out


def _arm(value: Any) -> ArmResult:
    if type(value) is not dict:
        raise _Invalid
    payload = dict(value)
    used = []
    for old, new in LEGACY_ARM_FIELDS.items():
        if old in payload:
            if new in payload:
                raise _Invalid
            payload[new] = payload.pop(old)
            used.append(old)
    return ArmResult(**_fields(ARM_FIELDS, payload), legacy_names=tuple(used))


def validate(doc: Any) -> BenchmarkResult | None:
    """The result `doc` holds when it validates against the harness schema, else None (then
    `evalview.model.harness.BenchmarkResult.model_validate` words why)."""
    if type(doc) is not dict:
        return None
    try:
        values = _fields(RESULT_FIELDS, {k: v for k, v in doc.items() if k != "arms"})
        arms = doc.get("arms", [])
        if type(arms) is not list:
            raise _Invalid
        values["arms"] = [_arm(a) for a in arms]
    except _Invalid:
        return None
    if values["schema_version"] >= 2 and any(values[k] is None for k in V2_REQUIRED):
        return None
    return BenchmarkResult(**values)


def from_model(model: Any) -> BenchmarkResult:
    """The plain result of a validated `evalview.model.harness.BenchmarkResult` (its values)."""
    arms = [
        ArmResult(**{n: getattr(a, n) for n, _, _ in ARM_FIELDS}, legacy_names=a.legacy_names)
        for a in model.arms
    ]
    values = {n: getattr(model, n) for n, _, _ in RESULT_FIELDS if n != "arms"}
    return BenchmarkResult(**values, arms=arms)
