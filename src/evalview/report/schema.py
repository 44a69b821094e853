"""Generate the committed JSON Schema of result.json from the pydantic model.

`python -m evalview.report.schema` rewrites docs/result.schema.json; `--check` exits 1 when the
committed file is stale (a test runs the same comparison), so the published schema cannot drift
from what the exporter writes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from evalview.model.result import SCHEMA_VERSION, Result

#: docs/result.schema.json of the source checkout this module lives in.
DEFAULT_PATH = Path(__file__).resolve().parents[3] / "docs" / "result.schema.json"


def schema_text() -> str:
    """The schema as committed: sorted keys, two-space indent, trailing newline."""
    schema = Result.model_json_schema(mode="serialization")
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_VERSION,
        **schema,
    }
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evalview.report.schema",
        description="Write (or check) the JSON Schema of evalview's exported result.json.",
    )
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    text = schema_text()
    if args.check:
        try:
            current = args.path.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != text:
            print(
                f"{args.path} is stale; regenerate it with `python -m evalview.report.schema`.",
                file=sys.stderr,
            )
            return 1
        return 0
    args.path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
