"""result.json checked in plain Python: a fast path in front of the pydantic `Result` model.

The pydantic models (`evalview.model.result`) are the schema: docs/result.schema.json is
generated from them and a reopened result.json is validated by them. Importing pydantic and
building those models costs `evalview export` about 0.15 s of CPU, a quarter of `check`'s whole
run (issue 25), so the export checks the document it built here first. `check(document)` checks
the parsed JSON text against the same fields with the same strict rules (JSON types
only, no coercion, extra keys forbidden, every field required but `redacted`, counts >= 0,
fractions in [0, 1]), and returns what `Result.from_json(text).model_dump()` returns: the same
values in the models' field order, integers in float fields as floats, intervals as tuples.

It only ever says yes on its own. Whatever it does not accept (a wrong type, a missing or extra
key, an integer too large to be exactly a float) the export hands to the pydantic model
(`evalview.report.builder.validated`: this module never imports the model it mirrors), which
raises its own ValidationError as before, or, were it to accept what this check refused, gives
the values. So a document this module accepts is one pydantic accepts with
the same values (tests/report/test_result_plain.py shows it on every exported sample and on
mutations of every field), and refusals are pydantic's by construction.
`tests/report/test_result_plain.py` also keeps the field lists here in step with the models.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

__all__ = [
    "LEROBOT_SOURCE_FORMAT",
    "SCHEMA_VERSION",
    "SOURCE_FORMAT",
    "SOURCE_FORMATS",
    "check",
]

#: Our own schema identifier; bump the suffix when a field changes meaning or disappears.
SCHEMA_VERSION: Final = "evalview.result/v1"
SOURCE_FORMAT: Final = "starvla-rsi.eval/v1"
#: `source_format` of a result exported from a LeRobot lerobot-eval eval_info.json.
LEROBOT_SOURCE_FORMAT: Final = "lerobot-eval/eval_info.json"
#: `source_format` of a result exported from one read of a RecoveryBench task-results JSONL.
TASK_RESULTS_SOURCE_FORMAT: Final = "miniverl-recoverybench/task-results.jsonl"
#: `source_format` of a result exported from an Inspect AI eval log (.eval or .json).
INSPECT_SOURCE_FORMAT: Final = "inspect-ai/eval-log"
#: Every `source_format` the model's Literal allows (the test compares the two).
SOURCE_FORMATS: Final = (
    SOURCE_FORMAT,
    LEROBOT_SOURCE_FORMAT,
    TASK_RESULTS_SOURCE_FORMAT,
    INSPECT_SOURCE_FORMAT,
    "lm-eval/results",
)
ERROR_CATEGORIES: Final = ("policy", "protocol", "infrastructure", "evaluation")


class _No(Exception):
    """This check does not accept the value: pydantic decides (and words the error)."""


#: The largest integer every float holds exactly; a larger one in a float field goes to pydantic.
_EXACT = 1 << 53

Check = Callable[[Any], Any]


def _str(v: Any) -> Any:
    if type(v) is not str:
        raise _No
    return v


def _int(v: Any) -> Any:
    if type(v) is not int:  # strict: not a bool, not 1.0
        raise _No
    return v


def _count(v: Any) -> Any:
    if type(v) is not int or v < 0:
        raise _No
    return v


def _bool(v: Any) -> Any:
    if type(v) is not bool:
        raise _No
    return v


def _float(v: Any) -> float:
    """A JSON number as the strict float field keeps it: an integer becomes a float."""
    t = type(v)
    if t is float:
        return v  # type: ignore[no-any-return]
    if t is int and -_EXACT <= v <= _EXACT:
        return float(v)
    raise _No


def _fraction(v: Any) -> float:
    x = _float(v)
    if not 0.0 <= x <= 1.0:
        raise _No
    return x


def _non_negative(v: Any) -> float:
    x = _float(v)
    if not x >= 0.0:
        raise _No
    return x


def _interval(v: Any) -> tuple[float, float]:
    if type(v) is not list or len(v) != 2:
        raise _No
    return (_fraction(v[0]), _fraction(v[1]))


def _optional(check: Check) -> Check:
    def optional(v: Any) -> Any:
        return None if v is None else check(v)

    return optional


def _literal(*allowed: str) -> Check:
    choices = frozenset(allowed)

    def literal(v: Any) -> Any:
        if type(v) is not str or v not in choices:
            raise _No
        return v

    return literal


def _list(check: Check) -> Check:
    def items(v: Any) -> list[Any]:
        if type(v) is not list:
            raise _No
        return [check(x) for x in v]

    return items


def _error_counts(v: Any) -> dict[str, int]:
    """dict[ErrorCategory, Count]"""
    if type(v) is not dict:
        raise _No
    for k, n in v.items():
        if k not in ERROR_CATEGORIES or type(n) is not int or n < 0:
            raise _No
    return dict(v)


def _json_object(v: Any) -> Any:
    """dict[str, JsonValue]: any parsed JSON object (orjson gives only JSON values)."""
    if type(v) is not dict:
        raise _No
    return v


_METRIC_TYPES = frozenset((float, int, bool, type(None)))


def _metrics(v: Any) -> dict[str, Any]:
    """dict[str, float | int | bool | None]: each JSON value keeps its own type."""
    if type(v) is not dict:
        raise _No
    for x in v.values():
        if type(x) not in _METRIC_TYPES:
            raise _No
    return dict(v)


def _model(
    fields: Mapping[str, Check], optional: Mapping[str, Check] | None = None
) -> Callable[[Any], dict[str, Any]]:
    """A model's check: exactly these keys (the optional ones may be missing, then None), each
    value checked, the result in the declared order."""
    names = tuple(fields)
    required = frozenset(names)
    extra = dict(optional or {})
    everything = required | frozenset(extra)
    checks = tuple(fields.values())

    def model(v: Any) -> dict[str, Any]:
        if type(v) is not dict:
            raise _No
        keys = v.keys()
        if keys != required and not (extra and required <= keys <= everything):
            raise _No
        out = {name: check(v[name]) for name, check in zip(names, checks, strict=True)}
        for name, check in extra.items():
            x = v.get(name)
            out[name] = None if x is None else check(x)
        return out

    return model


_opt_str = _optional(_str)
_opt_int = _optional(_int)
_error_category = _literal(*ERROR_CATEGORIES)

#: Field name -> check, in the models' declared order (evalview.model.result).
GENERATOR: Final = {"name": _literal("evalview"), "version": _str}
BENCHMARK: Final = {
    "name": _opt_str,
    "version": _opt_str,
    "protocol_version": _opt_str,
    "source_revision": _opt_str,
}
POLICY: Final = {"name": _opt_str, "version": _opt_str}
METHOD_COMPONENT: Final = {
    "id": _str,
    "role": _opt_str,
    "provider": _opt_str,
    "model": _opt_str,
    "version": _opt_str,
}
METHOD: Final = {
    "id": _opt_str,
    "version": _opt_str,
    "origin": _opt_str,
    "models": _list(_model(METHOD_COMPONENT)),
    "configuration": _optional(_json_object),
    "configuration_supplied": _bool,
}
PROTOCOL: Final = {
    "selected_cases": _count,
    "max_steps": _opt_int,
    "max_policy_calls": _opt_int,
    "replan_interval": _opt_int,
    "fail_fast": _optional(_bool),
}
DENOMINATOR: Final = {
    "name": _literal("selected", "attempted", "completed"),
    "rate_name": _literal("selected_success_rate", "attempt_success_rate", "success_rate"),
    "label": _str,
    "successes": _count,
    "denominator": _count,
    "rate": _optional(_fraction),
}
COUNTS: Final = {
    k: _count
    for k in ("selected", "attempted", "completed", "errors", "successes", "unattempted")
}
RATES: Final = {
    k: _optional(_fraction)
    for k in ("selected_success_rate", "attempt_success_rate", "success_rate")
}
AGGREGATE: Final = {
    "name": _str,
    "tasks": _count,
    "mean": _optional(_fraction),
    "se": _optional(_non_negative),
    "ci95": _optional(_interval),
    "bootstrap": _optional(_interval),
    "bootstrap_resamples": _count,
    "bootstrap_seed": _int,
}
TASK_RESULT: Final = {
    "task": _str,
    **{k: _count for k in ("selected", "attempted", "completed", "errors", "successes",
                           "unattempted")},
    "rate": _optional(_fraction),
    "wilson95": _optional(_interval),
    "error_categories": _error_counts,
}
AUDIT_NOTE: Final = {
    "code": _str,
    "severity": _literal("warning", "info"),
    "message": _str,
    "file": _opt_str,
    "line": _opt_int,
    "episode_id": _opt_str,
}
EPISODE: Final = {
    "id": _str,
    "task": _str,
    "seed": _opt_int,
    "status": _literal("completed", "error", "unattempted"),
    "success": _optional(_bool),
    "termination_reason": _opt_str,
    "error_category": _optional(_error_category),
    "error_type": _opt_str,
    "metrics": _metrics,
}
REDACTION: Final = {"path": _str, "field": _str, "kind": _str}
RESULT: Final = {
    "schema_version": _literal(SCHEMA_VERSION),
    "generator": _model(GENERATOR),
    "source_format": _literal(*SOURCE_FORMATS),
    "run_id": _opt_str,
    "benchmark": _model(BENCHMARK),
    "policy": _model(POLICY),
    "method": _optional(_model(METHOD)),
    "protocol": _model(PROTOCOL),
    "denominators": _list(_model(DENOMINATOR)),
    "counts": _model(COUNTS),
    "rates": _model(RATES),
    "aggregate": _model(AGGREGATE),
    "tasks": _list(_model(TASK_RESULT)),
    "error_categories": _error_counts,
    "pending_infrastructure_errors": _count,
    "audit_warnings": _list(_model(AUDIT_NOTE)),
    "labels": _list(_str),
    "metrics_selected": _list(_str),
    "redactions": _count,
    "episodes": _list(_model(EPISODE)),
}
#: Fields with a default (None), which the document may leave out.
RESULT_OPTIONAL: Final = {"redacted": _list(_model(REDACTION))}

_result = _model(RESULT, RESULT_OPTIONAL)


def check(document: Any) -> dict[str, Any] | None:
    """The parsed result.json as `Result(...).model_dump()` gives it, or None when this check
    does not accept it (then only pydantic can say what is wrong, or that nothing is)."""
    try:
        return _result(document)
    except _No:
        return None
