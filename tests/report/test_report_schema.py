"""The committed JSON Schema is the one the model generates, and exports validate against it."""

from __future__ import annotations

import json
from pathlib import Path

from report_runs import EXAMPLE

from evalview.model.result import SCHEMA_VERSION, Result
from evalview.report.export import export_run, result_bytes
from evalview.report.schema import DEFAULT_PATH, main, schema_text


def test_committed_schema_is_up_to_date() -> None:
    assert DEFAULT_PATH.read_text(encoding="utf-8") == schema_text(), (
        "docs/result.schema.json is stale: run `python -m evalview.report.schema`"
    )
    assert main(["--check"]) == 0


def test_check_flags_a_stale_file(tmp_path: Path) -> None:
    stale = tmp_path / "schema.json"
    stale.write_text(schema_text().replace("wilson95", "wilson"))
    assert main([str(stale), "--check"]) == 1
    assert main([str(stale)]) == 0 and main([str(stale), "--check"]) == 0


def test_schema_forbids_undeclared_keys_everywhere() -> None:
    schema = json.loads(schema_text())
    assert schema["$id"] == SCHEMA_VERSION
    assert schema["additionalProperties"] is False
    for name, sub in schema["$defs"].items():
        if sub.get("type") == "object":
            assert sub.get("additionalProperties") is False, name


def test_an_export_validates_and_round_trips(tmp_path: Path) -> None:
    export_run(EXAMPLE, tmp_path / "out", bootstrap=0, metrics=["score"])
    data = (tmp_path / "out" / "result.json").read_bytes()
    raw = json.loads(data)
    model = Result.from_json(data)  # strict, as the reader validates it
    assert result_bytes(model) == data
    assert "redacted" not in raw  # written only when --redact replaced something
    assert raw["schema_version"] == SCHEMA_VERSION
