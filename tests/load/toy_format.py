"""A toy input format, written as a third party would: one module, joined through the
`evalview.readers` entry-point group, touching nothing in evalview. tests/load/test_toy_format.py
shows that every door then reads it (the claim of docs/CONTRIBUTING.md, "Adding an input
format")."""

from __future__ import annotations

from evalview.errors import InputError
from evalview.load.reader import NamedRun, Reader, Reading, ReadOptions
from evalview.load.source import Source
from evalview.model.run import Identity, Protocol, Run, build_table

FORMAT = "toy-eval"
MARK = "toy-eval/v1"


def _detect(source: Source) -> bool:
    if source.is_dir or not source.exists:
        return False
    value = source.json_value
    return isinstance(value, dict) and value.get("format") == MARK


def _read(source: Source, options: ReadOptions) -> Reading:
    value = source.json_value
    assert isinstance(value, dict)
    episodes = value.get("episodes")
    if not isinstance(episodes, list) or not episodes:
        raise InputError(f"{source.path}: a {MARK} file with no `episodes` list.")
    rows = []
    for i, e in enumerate(episodes):
        task, seed, success = e["task"], int(e["seed"]), bool(e["success"])
        rows.append(
            {
                "id": f"{task}/seed{seed}",
                "task": task,
                "seed": seed,
                "status": "completed",
                "success": success,
                "in_schedule": True,
                "file": source.path.name,
                "line": i + 1,
            }
        )
    table = build_table(rows)
    run = Run(
        path=source.path,
        kind=FORMAT,
        identity=Identity(run_id=str(value.get("run", source.path.stem)), policy_name="toy"),
        protocol=Protocol(),
        schedule=tuple(r["id"] for r in rows),
        episodes=table,
        source_format=MARK,
        records_errors=False,
    )
    return Reading(source.path, FORMAT, (NamedRun(None, run),))


READER = Reader(
    name=FORMAT,
    summary="a toy format of a third-party package (tests only)",
    detect=_detect,
    read=_read,
    holds="episodes",
    noun="a toy-eval results JSON",
    export_label=None,
    priority=50,
    no_partial_credit="a toy-eval results JSON: it records no verifier messages.",
)
