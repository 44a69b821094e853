"""Manifest checks (EV2xx): required declarations, their constraints, the optional method and
recording declarations, and nothing private in what will be published."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from evalview.audit import registry as R
from evalview.audit.checks._common import (
    MANIFEST,
    SCHEMA_VERSION,
    describe,
    is_int,
    is_nonempty_str,
    is_number,
)
from evalview.findings import Finding
from evalview.model.run import Run

E, W = R.E, R.W

SCHEMA = R.rule(
    "EV201", "manifest-schema-version", E,
    "A schema version in manifest.json (run, method, recording, usage accounting) is not the "
    "one this format defines.",
)
MISSING = R.rule("EV202", "manifest-field-missing", E, "A required manifest field is absent.")
WRONG_TYPE = R.rule(
    "EV203", "manifest-field-type", E,
    "A manifest field has the wrong type, is empty, or is null where null is not allowed.",
)
NOT_POSITIVE = R.rule(
    "EV204", "manifest-not-positive", E,
    "A size or limit (action size, max_steps, max_policy_calls, replan_interval, control_hz) is "
    "not positive.",
)
PRIVILEGED = R.rule(
    "EV205", "privileged-observation", E, "observation_spec.privileged is not false."
)
SIZE_MISMATCH = R.rule(
    "EV206", "action-size-mismatch", E,
    "action_spec.names (or low/high) do not have action_spec.size entries.",
)
SCHEDULE = R.rule(
    "EV207", "schedule-invalid", E,
    "protocol.episode_ids is not a nonempty list of nonempty strings.",
)
SCHEDULE_DUP = R.rule(
    "EV208", "schedule-duplicate-id", E, "protocol.episode_ids selects the same id twice."
)
METHOD = R.rule(
    "EV209", "method-invalid", E, "The optional method declaration is malformed."
)
COMPONENT_ID = R.rule(
    "EV210", "component-id-invalid", E,
    "A method component id is not ASCII letters/digits/dot/underscore/dash starting with a "
    "letter or digit.",
)
COMPONENT_DUP = R.rule(
    "EV211", "component-id-duplicate", E, "Two method components share an id."
)
CREDENTIAL = R.rule(
    "EV212", "credential-field", E,
    "A credential-named field (api_key, token, secret, password, ...) in a public declaration.",
)
ABSOLUTE_PATH = R.rule(
    "EV213", "absolute-path", E, "An absolute path in a public declaration."
)
RECORDING = R.rule(
    "EV214", "recording-invalid", E, "The optional recording declaration is malformed."
)

METHOD_ORIGIN = R.rule(
    "EV215", "method-origin-unknown", W,
    "method_origin is neither participant_declaration nor legacy_policy_projection.",
)
CONFIG_UNBOUNDED = R.rule(
    "EV216", "method-configuration-unbounded", W,
    "method.configuration is larger or deeper than a bounded public declaration "
    "(16 KiB, nesting depth 8).",
)
UNKNOWN_NOT_NULL = R.rule(
    "EV217", "unknown-not-null", W,
    "A method component's provider, model or version is a placeholder string (empty, "
    "'unknown', 'n/a') instead of null.",
)

METHOD_SCHEMA = "starvla-rsi.method/v1"
METHOD_ORIGINS = ("participant_declaration", "legacy_policy_projection")
#: evalview's bound on method.configuration (the format says "bounded" without a number): larger
#: than any hand-written public declaration, smaller than a dump of runtime settings.
CONFIG_MAX_BYTES = 16 * 1024
CONFIG_MAX_DEPTH = 8
#: Strings that claim a value while meaning "unknown", which the format writes as null.
_PLACEHOLDERS = frozenset({"", "unknown", "none", "null", "n/a", "na", "?", "-", "tbd"})
RECORDING_SCHEMA = "starvla-rsi.recording/v2"
USAGE_ACCOUNTING = "starvla-rsi.method-usage/v1"
RECORDING_FLAGS = (
    "interactions", "model_io", "tool_traces", "images", "videos", "copy_server_media",
)
COMPONENT_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")

#: Words that make a key credential-named, after splitting on separators and camelCase.
_CREDENTIAL_WORDS = frozenset(
    {
        "password", "passwd", "passphrase", "secret", "token", "credential", "credentials",
        "auth", "authorization", "apikey", "bearer", "cookie",
    }
)
#: Joined forms (`api_key`, `AccessKey`, `private-key`) that are credentials as a whole.
_CREDENTIAL_JOINED = ("apikey", "accesskey", "privatekey", "secretkey", "clientsecret")
_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_WINDOWS_ABS = re.compile(r"[A-Za-z]:[\\/]")


def is_credential_name(key: str) -> bool:
    """Credential-named by its words; `max_tokens` or `author` are not, `auth_token` is."""
    words = {w.lower() for w in _WORD_RE.findall(key)}
    if words & _CREDENTIAL_WORDS:
        return True
    joined = re.sub(r"[^a-z0-9]", "", key.lower())
    return any(j in joined for j in _CREDENTIAL_JOINED)


def is_absolute_path(text: str) -> bool:
    """POSIX `/...`, home `~`, Windows `C:\\` or UNC `\\\\host`, and `file:/` URLs."""
    s = text.strip()
    return (
        s.startswith(("/", "~", "\\\\", "file:/"))
        or _WINDOWS_ABS.match(s) is not None
    )


class _Ctx:
    """Collects manifest findings; `at` is the dotted field path used in messages."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def add(self, rule: R.Rule, message: str) -> None:
        self.findings.append(rule(f"{MANIFEST}: {message}", file=MANIFEST))

    def obj(self, parent: dict[str, Any], key: str, at: str) -> dict[str, Any] | None:
        if key not in parent:
            self.add(MISSING, f"`{at}` is missing. Add the {at} object the service declared.")
            return None
        v = parent[key]
        if not isinstance(v, dict):
            self.add(WRONG_TYPE, f"`{at}` is {describe(v)}; it must be an object.")
            return None
        return v

    def field(
        self,
        parent: dict[str, Any],
        key: str,
        at: str,
        test: Callable[[Any], bool],
        what: str,
        *,
        required: bool = True,
        nullable: bool = False,
    ) -> Any:
        """The value when present and valid (None otherwise), reporting what is wrong."""
        if key not in parent:
            if required:
                self.add(MISSING, f"`{at}` is missing; add it ({what}).")
            return None
        v = parent[key]
        if v is None and nullable:
            return None
        if not test(v):
            self.add(WRONG_TYPE, f"`{at}` is {describe(v)}; it must be {what}.")
            return None
        return v


def _str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _num_list(v: Any) -> bool:
    return isinstance(v, list) and all(is_number(x) for x in v)


def _opt_str(v: Any) -> bool:
    return v is None or isinstance(v, str)


def _positive(ctx: _Ctx, value: Any, at: str) -> None:
    if value is not None and value <= 0:
        ctx.add(NOT_POSITIVE, f"`{at}` is {describe(value)}; it must be positive.")


@R.check
def check_manifest(run: Run) -> Iterator[Finding]:
    manifest = run.manifest
    if manifest is None:
        return  # missing or unreadable: the reading finding says so
    ctx = _Ctx()
    version = manifest.get("schema_version")
    if version != SCHEMA_VERSION:
        ctx.add(
            SCHEMA,
            f"`schema_version` is {describe(version)}; a closed run declares "
            f"{SCHEMA_VERSION!r}. Re-export with a driver that writes this format.",
        )
    ctx.field(manifest, "run_id", "run_id", is_nonempty_str, "a nonempty string")
    _benchmark(ctx, manifest)
    policy = ctx.obj(manifest, "policy", "policy")
    if policy is not None:
        ctx.field(policy, "name", "policy.name", is_nonempty_str, "a nonempty declared name")
        for key in ("kind", "model", "provider", "version"):
            ctx.field(policy, key, f"policy.{key}", _opt_str, "a string or null", required=False)
    _action_spec(ctx, manifest)
    _observation_spec(ctx, manifest)
    _protocol(ctx, manifest)
    _method(ctx, manifest)
    _recording(ctx, manifest)
    _public_declarations(ctx, manifest)
    yield from ctx.findings


def _benchmark(ctx: _Ctx, manifest: dict[str, Any]) -> None:
    bench = ctx.obj(manifest, "benchmark", "benchmark")
    if bench is None:
        return
    for key in ("name", "version", "protocol_version", "source_revision"):
        ctx.field(
            bench, key, f"benchmark.{key}", is_nonempty_str,
            "a nonempty string copied from the service's recorded declaration",
        )


def _action_spec(ctx: _Ctx, manifest: dict[str, Any]) -> None:
    spec = ctx.obj(manifest, "action_spec", "action_spec")
    if spec is None:
        return
    ctx.field(spec, "mode", "action_spec.mode", is_nonempty_str, "the service-declared mode")
    size = ctx.field(spec, "size", "action_spec.size", is_int, "a positive integer")
    _positive(ctx, size, "action_spec.size")
    names = ctx.field(spec, "names", "action_spec.names", _str_list, "a list of strings")
    low, high = (
        ctx.field(
            spec, key, f"action_spec.{key}", _num_list, "a list of numbers or null",
            required=False, nullable=True,
        )
        for key in ("low", "high")
    )
    if size is not None and size > 0:
        for key, value in (("names", names), ("low", low), ("high", high)):
            if value is not None and len(value) != size:
                ctx.add(
                    SIZE_MISMATCH,
                    f"`action_spec.{key}` has {len(value)} entries but `action_spec.size` is "
                    f"{size}. Copy both from the service's action declaration.",
                )
    hz = ctx.field(
        spec, "control_hz", "action_spec.control_hz", is_number, "a positive number or null",
        required=False, nullable=True,
    )
    _positive(ctx, hz, "action_spec.control_hz")
    for key in ("frame", "rotation", "gripper"):
        ctx.field(spec, key, f"action_spec.{key}", _opt_str, "a string or null", required=False)


def _observation_spec(ctx: _Ctx, manifest: dict[str, Any]) -> None:
    spec = ctx.obj(manifest, "observation_spec", "observation_spec")
    if spec is None:
        return
    for key in ("cameras", "state_names", "modalities"):
        ctx.field(spec, key, f"observation_spec.{key}", _str_list, "a list of strings")
    privileged = ctx.field(
        spec, "privileged", "observation_spec.privileged",
        lambda v: isinstance(v, bool), "the boolean false",
    )
    if privileged is True:
        ctx.add(
            PRIVILEGED,
            "`observation_spec.privileged` is true: the policy saw privileged state, which a "
            "publishable closed run forbids. Re-run with privileged observations off.",
        )


def _protocol(ctx: _Ctx, manifest: dict[str, Any]) -> None:
    protocol = ctx.obj(manifest, "protocol", "protocol")
    if protocol is None:
        return
    if "episode_ids" not in protocol:
        ctx.add(MISSING, "`protocol.episode_ids` is missing; list the selected episode ids.")
    else:
        ids = protocol["episode_ids"]
        if not isinstance(ids, list) or not ids:
            ctx.add(
                SCHEDULE,
                f"`protocol.episode_ids` is {describe(ids) if ids != [] else 'empty'}; it must "
                "list the selected episode ids in schedule order.",
            )
        else:
            bad = [i for i, x in enumerate(ids) if not is_nonempty_str(x)]
            if bad:
                ctx.add(
                    SCHEDULE,
                    f"`protocol.episode_ids[{bad[0]}]` is {describe(ids[bad[0]])}; every "
                    f"selected id must be a nonempty string ({len(bad)} bad entries).",
                )
            seen: set[str] = set()
            for x in ids:
                if isinstance(x, str):
                    if x in seen:
                        ctx.add(
                            SCHEDULE_DUP,
                            f"`protocol.episode_ids` selects {x!r} more than once; each case "
                            "is selected once. Remove the repeat.",
                        )
                    seen.add(x)
    max_steps = ctx.field(
        protocol, "max_steps", "protocol.max_steps", is_int, "a positive integer"
    )
    _positive(ctx, max_steps, "protocol.max_steps")
    for key in ("max_policy_calls", "replan_interval"):
        value = ctx.field(
            protocol, key, f"protocol.{key}", is_int, "a positive integer or null",
            nullable=True,
        )
        _positive(ctx, value, f"protocol.{key}")
    ctx.field(
        protocol, "fail_fast", "protocol.fail_fast", lambda v: isinstance(v, bool), "a boolean"
    )
    if "usage_accounting_version" in protocol:
        v = protocol["usage_accounting_version"]
        if v != USAGE_ACCOUNTING:
            ctx.add(
                SCHEMA,
                f"`protocol.usage_accounting_version` is {describe(v)}; the defined version is "
                f"{USAGE_ACCOUNTING!r}.",
            )


def _method(ctx: _Ctx, manifest: dict[str, Any]) -> None:
    if "method_origin" in manifest and not is_nonempty_str(manifest["method_origin"]):
        ctx.add(
            METHOD,
            f"`method_origin` is {describe(manifest['method_origin'])}; use "
            "'participant_declaration' or 'legacy_policy_projection'.",
        )
    elif manifest.get("method_origin", METHOD_ORIGINS[0]) not in METHOD_ORIGINS:
        ctx.add(
            METHOD_ORIGIN,
            f"`method_origin` is {describe(manifest['method_origin'])}; the format defines "
            "'participant_declaration' (a declared method) and 'legacy_policy_projection' (a "
            "policy identity projected without a method file). Use one of them; the report "
            "cannot tell whether the configuration was supplied.",
        )
    if "method" not in manifest or manifest["method"] is None:
        return
    method = manifest["method"]
    if not isinstance(method, dict):
        ctx.add(METHOD, f"`method` is {describe(method)}; it must be an object (or absent).")
        return
    if method.get("schema_version") != METHOD_SCHEMA:
        ctx.add(
            SCHEMA,
            f"`method.schema_version` is {describe(method.get('schema_version'))}; a method "
            f"declaration uses {METHOD_SCHEMA!r}.",
        )
    for key in ("id", "version"):
        if not is_nonempty_str(method.get(key)):
            ctx.add(
                METHOD, f"`method.{key}` is {describe(method.get(key))}; it must be a nonempty "
                "string.",
            )
    config = method.get("configuration")
    if "configuration" in method and config is not None and not isinstance(config, dict):
        ctx.add(
            METHOD,
            f"`method.configuration` is {describe(config)}; it must be a public JSON object.",
        )
    elif isinstance(config, dict):
        _configuration_bound(ctx, config)
    models = method.get("models")
    if not isinstance(models, list):
        ctx.add(
            METHOD,
            f"`method.models` is {describe(models)}; it must be a list (empty when the "
            "composition is unknown).",
        )
        return
    seen: set[str] = set()
    for i, model in enumerate(models):
        at = f"method.models[{i}]"
        if not isinstance(model, dict):
            ctx.add(METHOD, f"`{at}` is {describe(model)}; each component is an object.")
            continue
        cid = model.get("id")
        if not isinstance(cid, str):
            ctx.add(METHOD, f"`{at}.id` is {describe(cid)}; each component needs a string id.")
        elif not cid.isascii() or COMPONENT_ID_RE.match(cid) is None:
            ctx.add(
                COMPONENT_ID,
                f"`{at}.id` {cid!r} is not a valid component id: use ASCII letters, digits, "
                "dot, underscore or dash, beginning with a letter or digit.",
            )
        elif cid in seen:
            ctx.add(
                COMPONENT_DUP,
                f"`{at}.id` {cid!r} repeats an earlier component id; ids must be unique.",
            )
        if isinstance(cid, str):
            seen.add(cid)
        if "role" in model and not isinstance(model["role"], str):
            ctx.add(METHOD, f"`{at}.role` is {describe(model['role'])}; it must be a string.")
        for key in ("provider", "model", "version"):
            if key in model and not _opt_str(model[key]):
                ctx.add(
                    METHOD,
                    f"`{at}.{key}` is {describe(model[key])}; it must be a string, or null "
                    "when unknown.",
                )
            elif isinstance(model.get(key), str) and model[key].strip().lower() in _PLACEHOLDERS:
                ctx.add(
                    UNKNOWN_NOT_NULL,
                    f"`{at}.{key}` is {describe(model[key])}; an unknown {key} stays null, so "
                    "readers do not take the placeholder for a declared identity.",
                )


def _configuration_bound(ctx: _Ctx, config: dict[str, Any]) -> None:
    """Warn (not refuse: the format gives no number) when the configuration looks like a dump."""
    try:
        size = len(orjson.dumps(config))
    except (TypeError, orjson.JSONEncodeError):
        return  # not JSON-encodable cannot come from a JSON file
    depth = _depth(config)
    if size > CONFIG_MAX_BYTES or depth > CONFIG_MAX_DEPTH:
        ctx.add(
            CONFIG_UNBOUNDED,
            f"`method.configuration` is {size:,} bytes with nesting depth {depth} (evalview's "
            f"bound: {CONFIG_MAX_BYTES // 1024} KiB, depth {CONFIG_MAX_DEPTH}). The "
            "configuration is a bounded public declaration, not a dump of runtime settings: "
            "keep the choices that define the method and review it before publishing.",
        )


def _depth(value: Any) -> int:
    """Nesting depth of containers (an object of scalars is 1), without recursion limits."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in children)
    return deepest


def _recording(ctx: _Ctx, manifest: dict[str, Any]) -> None:
    if "recording" not in manifest or manifest["recording"] is None:
        return
    rec = manifest["recording"]
    if not isinstance(rec, dict):
        ctx.add(RECORDING, f"`recording` is {describe(rec)}; it must be an object (or absent).")
        return
    if rec.get("schema_version") != RECORDING_SCHEMA:
        ctx.add(
            SCHEMA,
            f"`recording.schema_version` is {describe(rec.get('schema_version'))}; recording "
            f"settings use {RECORDING_SCHEMA!r}.",
        )
    if "mode" in rec and not is_nonempty_str(rec["mode"]):
        ctx.add(RECORDING, f"`recording.mode` is {describe(rec['mode'])}; it must be a string.")
    for key in RECORDING_FLAGS:
        if key in rec and not isinstance(rec[key], bool):
            ctx.add(
                RECORDING, f"`recording.{key}` is {describe(rec[key])}; it must be a boolean."
            )


def _public_declarations(ctx: _Ctx, manifest: dict[str, Any]) -> None:
    for key in ("benchmark", "policy", "method"):
        if key in manifest:
            for at, name, value in _walk(manifest[key], key):
                if name is not None and is_credential_name(name):
                    ctx.add(
                        CREDENTIAL,
                        f"`{at}` is credential-named; public declarations must not carry "
                        "credentials. Remove the field (and rotate the credential if it was "
                        "real).",
                    )
                if isinstance(value, str) and is_absolute_path(value):
                    ctx.add(
                        ABSOLUTE_PATH,
                        f"`{at}` holds an absolute path ({describe(value)}); public "
                        "declarations must not reveal private paths. Use a relative or "
                        "descriptive value.",
                    )


def _walk(value: Any, at: str, name: str | None = None) -> Iterator[tuple[str, str | None, Any]]:
    """(path, key name, value) for every node below `value`, depth first."""
    yield at, name, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, f"{at}.{k}", k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{at}[{i}]", None)
