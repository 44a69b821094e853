"""Pydantic models of the closed-run files (`starvla-rsi.eval/v1`): the format as types.

They document the format and generate its JSON Schema (`json_schemas()`). The audit does not
validate episodes through them: plain dict checks are faster on 10,000 episodes and name the exact
field and fix, which a schema error cannot. Models are strict (no `"3"` -> 3, no `true` -> 1).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

NonEmpty = Annotated[str, StringConstraints(min_length=1)]
Count = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(gt=0)]
NonNegative = Annotated[float, Field(ge=0)]
ComponentId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]
ErrorCategory = Literal["policy", "protocol", "infrastructure", "evaluation"]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class _Open(BaseModel):
    """Declarations copied from a service may carry more fields than the format names."""

    model_config = ConfigDict(strict=True, extra="allow")


class Usage(_Strict):
    """Reported inference usage. Unknown values are null, never zero or omitted."""

    calls: Count | None
    input_tokens: Count | None
    output_tokens: Count | None
    cached_input_tokens: Count | None
    estimated_cost_usd: NonNegative | None
    latency_s: NonNegative | None

    @model_validator(mode="after")
    def _cached_within_input(self) -> Usage:
        if (
            self.cached_input_tokens is not None
            and self.input_tokens is not None
            and self.cached_input_tokens > self.input_tokens
        ):
            raise ValueError("cached_input_tokens exceeds input_tokens")
        return self


class ComponentUsage(_Strict):
    """One component's usage: missing fields are unknown (null)."""

    calls: Count | None = None
    input_tokens: Count | None = None
    output_tokens: Count | None = None
    cached_input_tokens: Count | None = None
    estimated_cost_usd: NonNegative | None = None
    latency_s: NonNegative | None = None


class Benchmark(_Open):
    name: NonEmpty
    version: NonEmpty
    protocol_version: NonEmpty
    source_revision: NonEmpty


class Policy(_Open):
    name: NonEmpty
    kind: str | None = None
    model: str | None = None
    provider: str | None = None
    version: str | None = None


class ActionSpec(_Open):
    mode: NonEmpty
    size: Positive
    names: list[str]
    low: list[float] | None = None
    high: list[float] | None = None
    control_hz: Annotated[float, Field(gt=0)] | None = None
    frame: str | None = None
    rotation: str | None = None
    gripper: str | None = None

    @model_validator(mode="after")
    def _lengths_match_size(self) -> ActionSpec:
        for key in ("names", "low", "high"):
            value = getattr(self, key)
            if value is not None and len(value) != self.size:
                raise ValueError(f"{key} has {len(value)} entries, size is {self.size}")
        return self


class ObservationSpec(_Open):
    cameras: list[str]
    state_names: list[str]
    modalities: list[str]
    privileged: Literal[False]
    control_feedback_schema: Any = None


class Protocol(_Open):
    episode_ids: Annotated[list[NonEmpty], Field(min_length=1)]
    max_steps: Positive
    max_policy_calls: Positive | None
    replan_interval: Positive | None
    fail_fast: bool
    usage_accounting_version: Literal["starvla-rsi.method-usage/v1"] | None = None


class MethodModel(_Strict):
    """One model component of a method; unknown provider/model/version stay null."""

    id: ComponentId
    role: str
    provider: str | None
    model: str | None
    version: str | None


class Method(_Strict):
    schema_version: Literal["starvla-rsi.method/v1"]
    id: NonEmpty
    version: NonEmpty
    models: list[MethodModel]
    configuration: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _unique_component_ids(self) -> Method:
        ids = [m.id for m in self.models]
        if len(ids) != len(set(ids)):
            raise ValueError("component ids must be unique")
        return self


class Recording(_Open):
    schema_version: Literal["starvla-rsi.recording/v2"]
    mode: str = "minimal"
    interactions: bool = False
    model_io: bool = False
    tool_traces: bool = False
    images: bool = False
    videos: bool = False
    copy_server_media: bool = False


class Manifest(_Open):
    """manifest.json. The credential-name and absolute-path rules are audit checks (EV212/213)."""

    schema_version: Literal["starvla-rsi.eval/v1"]
    run_id: NonEmpty
    benchmark: Benchmark
    policy: Policy
    action_spec: ActionSpec
    observation_spec: ObservationSpec
    protocol: Protocol
    method: Method | None = None
    method_origin: Literal["participant_declaration", "legacy_policy_projection"] | None = None
    recording: Recording | None = None


class Status(_Strict):
    """status.json: how the run closed."""

    status: Literal["completed", "completed_with_errors"]
    episodes_written: Count


Rate = Annotated[float, Field(ge=0, le=1)]


class Summary(_Open):
    """summary.json: identity and totals; rates are optional and must agree with the counts."""

    run_id: NonEmpty
    benchmark: NonEmpty
    policy: NonEmpty
    attempted: Count
    completed: Count
    errors: Count
    successes: Count
    policy_calls: Count
    rejected_actions: Count
    usage: Usage
    component_usage: dict[ComponentId, ComponentUsage] | None = None
    success_rate: Rate | None = None
    attempt_success_rate: Rate | None = None
    selected_success_rate: Rate | None = None
    completion_rate: Rate | None = None


class EpisodeInfo(_Open):
    id: NonEmpty
    task: NonEmpty
    seed: int | str | None = None
    instruction: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class EpisodeError(_Open):
    type: NonEmpty
    category: ErrorCategory
    message: str | None = None


class EpisodeResult(_Open):
    """One line of episodes.jsonl, identical to its episodes/<dir>/result.json."""

    schema_version: Literal["starvla-rsi.eval/v1"]
    episode: EpisodeInfo
    status: Literal["completed", "error"]
    success: bool | None
    termination_reason: str | None
    policy_calls: Count
    action_decisions: Count
    environment_steps: Count
    rejected_actions: Count
    duration_s: NonNegative | None = None
    reward_sum: float | None = None
    usage: Usage
    component_usage: dict[ComponentId, ComponentUsage] | None = None
    metrics: dict[str, Any]
    artifacts: dict[str, Any] = Field(default_factory=dict)
    error: EpisodeError | None
    agent_events_written: bool | None = None

    @model_validator(mode="after")
    def _status_rules(self) -> EpisodeResult:
        if self.status == "completed":
            if self.success is None or self.metrics.get("success") is not self.success:
                raise ValueError("a completed episode has boolean success equal to metrics.success")
            if self.error is not None:
                raise ValueError("a completed episode has error null")
            if (self.termination_reason or "").startswith("error:"):
                raise ValueError("an interruption cannot be a completed episode")
        else:
            if self.success is not None:
                raise ValueError("an errored episode has success null")
            if self.error is None:
                raise ValueError("an errored episode has an error object")
        if self.action_decisions > self.policy_calls:
            raise ValueError("action_decisions exceeds policy_calls")
        if self.action_decisions > self.environment_steps:
            raise ValueError("action_decisions exceeds environment_steps")
        return self


#: File name -> model, for tools that validate or document one file at a time.
FILE_MODELS: dict[str, type[BaseModel]] = {
    "manifest.json": Manifest,
    "status.json": Status,
    "summary.json": Summary,
    "episodes.jsonl": EpisodeResult,
}


def json_schemas() -> dict[str, dict[str, Any]]:
    """JSON Schema of each closed-run file, keyed by file name."""
    return {name: model.model_json_schema() for name, model in FILE_MODELS.items()}
