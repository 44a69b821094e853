"""Pydantic models of the benchmark harness's results (miniVERL `BenchmarkResult`, schema 1-3).

Field for field the newest harness's `src/miniverl/evaluation/schema.py` (schema 3 adds
RecoveryBench's preregistration, budget-view, recovery and task-level artifact provenance).
Strict on purpose: extra keys are forbidden (as in the harness's own schema), booleans are not
numbers and strings are not counts, so a file evalview accepts is a file the harness would accept.
What the harness's validator requires of a schema-3 file is audited (EV816), not refused here,
so a file missing one provenance field still shows its numbers beside that finding.
Version 1 spellings of three renamed arm fields (`selected_training_tokens`, `seconds`,
`cache_bytes`) are read into their version 2 names, and the model remembers that it did.
NaN and Infinity are *read* (the audit reports them, EV809) rather than refused here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

#: The v1 spelling of renamed arm fields -> the v2 name.
LEGACY_ARM_FIELDS = {
    "selected_training_tokens": "selected_training_tokens_total",
    "seconds": "wall_seconds",
    "cache_bytes": "cache_current_bytes",
}

#: Provenance a schema-2 or 3 file must carry (the harness refuses to write one without them).
V2_REQUIRED = (
    "invocation",
    "budget_axis",
    "cold_start",
    "common_resolved_config",
    "common_resolved_config_digest",
)

_STRICT = ConfigDict(extra="forbid", strict=True)


class ArmResult(BaseModel):
    """One arm at one seed: its declared differences, its budget and its measured outcome."""

    model_config = _STRICT

    name: str = Field(min_length=1)
    description: str = ""
    mode: str
    seed: int
    run_id: str
    run_dir: str
    objective: str = "legacy_unreported"
    opd_freshness: str | None = None
    loss_mode: str | None = None
    divergence: str | None = None
    selector: str | None = None
    top_k: int | None = None

    resolved_config_digest: str | None = None
    structured_diff: list[dict[str, Any]] = Field(default_factory=list)
    student_model_id: str | None = None
    student_model_revision: str | None = None
    teacher_model_id: str | None = None
    teacher_model_revision: str | None = None
    teacher_adapter: dict[str, Any] | None = None
    tokenizer_fingerprint: str | None = None
    teacher_context_mode: str | None = None

    declared_config_digest: str | None = None
    runtime_resolved_config_digest: str | None = None
    scientific_config_diff: list[dict[str, Any]] = Field(default_factory=list)
    runtime_resolution_diff: list[dict[str, Any]] = Field(default_factory=list)
    harness_config_diff: list[dict[str, Any]] = Field(default_factory=list)

    optimizer_steps: int = Field(ge=0)
    policy_version: int
    total_trajectories: int = 0
    generated_training_tokens_total: int = 0
    selected_training_tokens_total: int = Field(default=0, ge=0)
    model_generated_training_tokens_total: int = 0
    selected_position_ratio: float | None = None
    teacher_queried_positions_total: int | None = None
    teacher_queried_position_ratio: float | None = None

    tasks: int = Field(ge=0)
    success_rate: float
    strict_task_success_rate: float | None = None
    lenient_diagnostic_success_rate: float | None = None
    avg_turns: float
    avg_tool_calls: float
    # The precise rollout counters (RolloutStats), recorded by newer harnesses.
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
    # Deprecated aliases the harness still writes for schema-1/2 readers.
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
    measurement_status: dict[str, str] | str = Field(default_factory=dict)
    # Schema 3 (RecoveryBench), per (arm, seed).
    recovery_metrics: dict[str, Any] = Field(default_factory=dict)
    frozen_dataset_identity: dict[str, Any] | None = None
    stop_criterion: dict[str, Any] | None = None
    overshoot: dict[str, Any] = Field(default_factory=dict)
    task_level_artifact: dict[str, Any] | None = None

    _legacy_names: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _read_v1_names(cls, value: Any, handler: Any) -> Any:
        """Accept the three v1 spellings (never both spellings of one field)."""
        if not isinstance(value, dict):
            return handler(value)
        payload = dict(value)
        used = []
        for old, new in LEGACY_ARM_FIELDS.items():
            if old in payload:
                if new in payload:
                    raise ValueError(f"both {old!r} (v1) and {new!r} (v2) are given; keep one")
                payload[new] = payload.pop(old)
                used.append(old)
        arm = handler(payload)
        arm._legacy_names = tuple(used)
        return arm

    @property
    def legacy_names(self) -> tuple[str, ...]:
        return self._legacy_names

    @property
    def key(self) -> str:
        """`arm/s<seed>`: how findings and screens name one (arm, seed) read."""
        return f"{self.name}/s{self.seed}"


class BenchmarkResult(BaseModel):
    """A whole harness result: provenance, controls, one ArmResult per arm per seed."""

    model_config = _STRICT

    schema_version: Literal[1, 2, 3]
    miniverl_version: str
    name: str
    description: str = ""
    created_at: str
    git_commit: str | None = None
    invocation: list[str] | None = None
    budget_axis: str | None = None
    hardware: dict[str, Any] = Field(default_factory=dict)
    software: dict[str, Any] = Field(default_factory=dict)
    cold_start: dict[str, Any] | None = None
    common_resolved_config: dict[str, Any] | None = None
    common_resolved_config_digest: str | None = None
    common_declared_config: dict[str, Any] | None = None
    common_declared_config_digest: str | None = None
    controlled: dict[str, Any] = Field(default_factory=dict)
    arms: list[ArmResult] = Field(default_factory=list)
    notes: str = ""
    seeds: list[int] = Field(default_factory=list)

    # Schema 3 (RecoveryBench) provenance; EV816 audits the set the harness requires.
    preregistration_sha: str | None = None
    preregistration_digest: str | None = None
    hypothesis_ids: list[str] = Field(default_factory=list)
    task_schedule_digest: str | None = None
    template_registry_version: int | None = None
    template_registry_digest: str | None = None
    selected_teacher_candidate: dict[str, Any] | None = None
    teacher_gate_results: list[dict[str, Any]] = Field(default_factory=list)
    teacher_preparation_cost: dict[str, Any] | None = None
    frozen_dataset_identity: dict[str, Any] = Field(default_factory=dict)
    budget_view: str | None = None
    stop_criterion: dict[str, Any] | None = None
    overshoot: dict[str, Any] = Field(default_factory=dict)
    recovery_metrics: dict[str, Any] = Field(default_factory=dict)
    task_level_artifacts: list[dict[str, Any]] = Field(default_factory=list)
    result_analysis_version: str | None = None
    invalidation_status: dict[str, Any] | None = None

    @field_validator("schema_version", mode="before")
    @classmethod
    def _whole_version(cls, value: Any) -> Any:
        """1, 2 or 3 as a JSON integer: `2.0` and `true` compare equal to 2 and 1 in Python, and
        a Literal would take them, but the harness writes (and its model reads) only integers."""
        if type(value) is not int:
            raise ValueError("schema_version must be the integer 1, 2 or 3")
        return value

    @model_validator(mode="after")
    def _v2_provenance(self) -> BenchmarkResult:
        if self.schema_version >= 2:
            missing = [k for k in V2_REQUIRED if getattr(self, k) is None]
            if missing:
                raise ValueError(
                    f"schema_version {self.schema_version} requires the provenance fields "
                    + ", ".join(missing)
                )
        return self

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
