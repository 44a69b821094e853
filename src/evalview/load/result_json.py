"""Reading an exported result.json back into a `Run`, so the TUI and `score` open publications.

The per-episode outcomes are enough to rebuild the episode table, so every number the file records
is recomputed from it when the session audits the run (stats/reaudit.py), each disagreement an
error finding: the file is audited, not trusted. It is read strictly (exactly the schema's
types). The published audit warnings come back as the run's reading findings (the closed-run
checks have no documents). The pydantic model is imported only once the bytes look like our
schema, so loading a closed run never pays for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from evalview.findings import Finding, Severity
from evalview.load import builtin
from evalview.load.bounds import MAX_BYTES, MAX_EPISODES
from evalview.load.errors import InputError
from evalview.load.reader import NamedRun, Reading, ReadOptions
from evalview.load.source import Source
from evalview.model.run import Identity, Protocol, Run, build_table

SCHEMA_MARKER = b'"evalview.result/v1"'


def _detect(source: Source) -> bool:
    """Our schema identifier near the top, and the parsed document says so (a JSON that merely
    mentions the identifier is someone else's)."""
    if source.is_dir or SCHEMA_MARKER not in source.head():
        return False
    raw = source.raw
    if len(raw) > MAX_BYTES:
        raise InputError(
            f"{source.path}: {len(raw) / 2**20:.1f} MiB is over the 128 MiB input bound."
        )
    value, problem = source.parsed
    if problem is not None:
        where = f":{problem.line}" if problem.line else ""
        raise InputError(f"{source.path}{where}: {problem.detail}. Re-export the result.")
    return isinstance(value, dict) and value.get("schema_version") == "evalview.result/v1"


def _read(source: Source, options: ReadOptions) -> Reading:
    run = load_result_json(source.path, len(source.raw), source.json_value)
    return Reading(source.path, "result-json", (NamedRun(None, run),))


def load_result_json(path: Path, size: int, value: Any) -> Run:
    """A Run from the parsed document of an exported result.json (`size`: its bytes)."""
    from pydantic import ValidationError

    from evalview.model.result import Result

    try:
        # strict, from the JSON text: exactly the types of docs/result.schema.json (a rate of
        # `true` or "0.2", a success of 1 is refused, never coerced)
        result = Result.from_json(orjson.dumps(value))
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
        raise InputError(
            f"{path}: not a valid evalview result ({loc}: {first['msg']}; see "
            "docs/result.schema.json). Re-export it with `evalview export`."
        ) from exc
    if len(result.episodes) > MAX_EPISODES:
        raise InputError(f"{path}: {len(result.episodes):,} episodes, over the bound of 10,000.")

    rows: list[dict[str, Any]] = []
    for e in result.episodes:
        score = e.metrics.get("score")
        rows.append(
            {
                "id": e.id,
                "task": e.task,
                "seed": e.seed,
                "status": e.status,
                "success": e.success,
                "error_category": e.error_category,
                "error_type": e.error_type,
                "termination_reason": e.termination_reason,
                "score": score if isinstance(score, int | float) and not isinstance(score, bool)
                else None,
                "in_schedule": True,
                "file": path.name,
            }
        )
    warnings = [
        Finding(w.code, Severity(w.severity), w.message, w.file, w.line, w.episode_id)
        for w in result.audit_warnings
    ]
    run = Run(
        path=path,
        kind="result-json",
        identity=Identity(
            run_id=result.run_id,
            benchmark_name=result.benchmark.name,
            benchmark_version=result.benchmark.version,
            protocol_version=result.benchmark.protocol_version,
            source_revision=result.benchmark.source_revision,
            policy_name=result.policy.name,
            policy_version=result.policy.version,
        ),
        protocol=Protocol(
            max_steps=result.protocol.max_steps,
            max_policy_calls=result.protocol.max_policy_calls,
            replan_interval=result.protocol.replan_interval,
            fail_fast=result.protocol.fail_fast,
        ),
        schedule=tuple(e.id for e in result.episodes),
        episodes=build_table(rows),
        # No documents and no records: the closed-run checks have nothing to re-audit (the
        # published warnings stand for the audit), and a re-export publishes no metrics.
        documents={},
        records=[],
        reading_findings=warnings,
        bytes_read=size,
        published=result,  # recomputed from the episodes when the session audits the run
    )
    return run


#: Its declaration (evalview.load.builtin: the registry asks it without importing this module).
READER = builtin.RESULT_JSON
