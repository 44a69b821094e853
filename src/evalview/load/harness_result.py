"""Reading a benchmark-harness result file: detect it by content, parse it, validate it.

Detection looks at content only (never the file name): a JSON object with `miniverl_version`, a
`schema_version` and an `arms` list is a harness result. Parsing is lenient where the audit has
something to say (NaN and Infinity, which the harness wrote before it stored them as null, and
repeated keys) and strict everywhere else; a file that is recognisably a harness result but does
not validate is still *read*: its schema problems become findings (EV801), never a traceback.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from evalview.load import builtin
from evalview.load.bounds import MAX_BYTES, MAX_NAME
from evalview.load.errors import InputError
from evalview.load.reader import Reading, ReadOptions
from evalview.load.safe_json import JsonProblem, digit_run, parse_lenient, wide_ints
from evalview.load.source import Source
from evalview.model.harness_file import HarnessFile, SchemaProblem
from evalview.model.harness_plain import BenchmarkResult, from_model, validate

#: The registry's name of the format (`Reading.format`).
FORMAT = "benchmark-harness"
#: The `format` of the result.json `evalview export` writes for a harness result
#: (report/harness_export.py). Not read back: the loader names it so the user opens the source.
EXPORTED_FORMAT = "evalview.harness-result/v1"

#: Keys whose presence together identifies a harness result (schema 1, 2 or 3), in any order.
SIGNATURE = builtin.HARNESS_SIGNATURE


def looks_like_harness(doc: object) -> bool:
    """True for a JSON object carrying the harness signature keys."""
    return isinstance(doc, dict) and all(k in doc for k in SIGNATURE) and isinstance(
        doc.get("arms"), list
    )


def sniff(raw: bytes) -> bool:
    """Cheap content test before a full parse: the signature keys appear in the text."""
    return all(f'"{k}"'.encode() in raw for k in SIGNATURE)


def read_harness_bytes(
    path: Path, raw: bytes, strict: tuple[Any, JsonProblem | None] | None = None
) -> HarnessFile | None:
    """A HarnessFile when `raw` is a harness result, None when it is some other format.

    `strict`: `parse_strict(raw)` when the caller has it (the detection's cached parse). When
    it took the file and no integer literal is wide enough to read differently, its value is
    the lenient parse's, with no repeated key, NaN, infinity or integer past 64 bits to look for
    (strict JSON has none), so the second parse and its three walks are skipped.

    Raises InputError only when the content cannot be parsed as JSON at all although it
    carries the signature (so the user learns it is a broken harness file, not a wrong path).
    """
    if not sniff(raw):
        return None
    if len(raw) > MAX_BYTES:
        raise InputError(
            f"{path}: {len(raw):,} bytes, over the {MAX_BYTES // (1024 * 1024)} MiB bound of a "
            "results JSON. Pass the harness's <name>.json, not a concatenation of runs."
        )
    if strict is not None and strict[1] is None and not digit_run(raw):
        return _harness_file(path, raw, strict[0], [], strictly=True)
    doc, duplicates, problem = parse_lenient(raw)
    if problem is not None:
        at = f":{problem.line}" if problem.line is not None else ""
        what = "is nested too deep to read" if problem.kind == "too-deep" else "is not JSON"
        raise InputError(
            f"{path}{at}: looks like a benchmark-harness result (miniverl_version, "
            f"schema_version, arms) but {what} ({problem.detail}); it was not read. Re-write "
            "it with the harness, or restore it from where it was published."
        )
    return _harness_file(path, raw, doc, duplicates, strictly=False)


def _harness_file(
    path: Path, raw: bytes, doc: Any, duplicates: list[str], *, strictly: bool
) -> HarnessFile | None:
    """The HarnessFile of the parsed `doc` (None when it is not a harness result). `strictly`:
    `doc` is a strict parse with no integer past 64 bits (`read_harness_bytes`)."""
    if not looks_like_harness(doc):
        return None
    assert isinstance(doc, dict)
    text = raw.decode("utf-8")
    nonfinite = [] if strictly else sorted(_nonfinite_paths(doc, ""))
    # Never handed to the model: nothing may compute with an integer past 64 bits, nor key
    # reads by a name of megabytes (EV801 at each place, the first _SHOWN of each).
    wide = [] if strictly else wide_ints(doc)
    out_of_bounds = ([_wide_problem(doc, text, w) for w in wide]
                     + [_long_problem(doc, text, loc) for loc in _long_names(doc)])
    if out_of_bounds:
        shown = out_of_bounds[:_SHOWN]
        if len(out_of_bounds) > _SHOWN:
            shown.append(SchemaProblem(
                "(top level)", f"{len(out_of_bounds) - _SHOWN:,} more values out of bounds "
                f"(the first {_SHOWN} are listed)"))
        return HarnessFile(path, text, doc, None, shown, sorted(set(duplicates)), nonfinite)
    result, problems = _validated(doc, text)
    return HarnessFile(path, text, doc, result, problems, sorted(set(duplicates)), nonfinite)


def _validated(
    doc: dict[str, Any], text: str
) -> tuple[BenchmarkResult | None, list[SchemaProblem]]:
    """The result, or the schema problems (EV801) in pydantic's words.

    The plain-Python check (`evalview.model.harness_plain`) takes a valid file without importing
    pydantic (about 0.2 s); only a file it refuses is handed to the pydantic models, whose errors
    are the findings' messages and locations.
    """
    result = validate(doc)
    if result is not None:
        return result, []
    from pydantic import ValidationError

    from evalview.model.harness import BenchmarkResult as Model

    try:
        model = Model.model_validate(doc)
    except ValidationError as exc:
        return None, [_problem(doc, text, e) for e in exc.errors(include_url=False)]
    return from_model(model), []  # not expected: tests/harness/test_harness_plain.py


#: How many values out of bounds are listed one by one (the rest are counted).
_SHOWN = 20
#: The names an arm record keys its read by (`name/s<seed>`, findings' places).
_NAMES = ("name", "run_id")


def _long_names(doc: dict[str, Any]) -> list[tuple[str | int, ...]]:
    arms = doc.get("arms")
    return [("arms", i, key) for i, arm in enumerate(arms if isinstance(arms, list) else [])
            if isinstance(arm, dict)
            for key in _NAMES if isinstance(arm.get(key), str) and len(arm[key]) > MAX_NAME]


def _long_problem(doc: dict[str, Any], text: str, loc: tuple[str | int, ...]) -> SchemaProblem:
    where = location(loc)
    return SchemaProblem(
        where,
        f"{where}: a name of more than {MAX_NAME:,} characters (the longest evalview reads); "
        "every read, finding and published string repeats it, so the file is not read further",
        _line_for(doc, text, loc[:2]),
    )


def _wide_problem(doc: dict[str, Any], text: str, loc: tuple[str | int, ...]) -> SchemaProblem:
    where = location(loc) + _arm_key(doc, loc)
    return SchemaProblem(
        where,
        f"{where}: an integer that does not fit 64 bits (signed); evalview stores, adds and "
        "writes integers as 64-bit numbers, so the file is not read further",
        _line_for(doc, text, loc),
    )


def _detect(source: Source) -> bool:
    """The signature keys anywhere in the bytes, then the parsed document says so.

    The harness writes sorted keys (`arms` first, `miniverl_version` and `schema_version` near
    the end), so no head of the file is enough. The byte test is cheap and runs first, so only a
    file naming all three keys is parsed (the parse is the shared, cached one, bounded by
    MAX_BYTES); a file that is not strict JSON but names them (NaN as older harnesses wrote it,
    or a broken file) is taken, and the reader words what is wrong with it.
    """
    if source.is_dir or source.size is None or source.size > MAX_BYTES:
        return False
    try:
        raw = source.raw
    except InputError:
        return False
    if not sniff(raw):
        return False
    value, problem = source.parsed
    return problem is not None or looks_like_harness(value)


def _read(source: Source, options: ReadOptions) -> Reading:
    hf = read_harness_bytes(source.path, source.raw, source.parsed)
    if hf is None:
        raise InputError(
            f"{source.path}: names miniverl_version, schema_version and arms but is not a "
            "benchmark-harness result (a JSON object with an `arms` list). Pass the harness's "
            "<name>.json or benchmark-submission.json as written."
        )
    return Reading(source.path, FORMAT, payload=hf)


#: Joins the registry (`evalview.load.registry.READERS`): no episode read, the file as payload.
#: Its declaration (evalview.load.builtin: the registry asks it without importing this module).
READER = builtin.HARNESS_RESULT


def read_harness(path: str | Path) -> HarnessFile | None:
    """Read `path` if it is a harness result file (None for any other file or a directory).

    Cheap for anything else: a directory is not opened, and the models (pydantic) are imported
    only once the content carries the harness signature.
    """
    p = Path(path)
    if not p.is_file():
        return None
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p}: cannot be read ({exc.strerror}).") from exc
    return read_harness_bytes(p, raw)


def _nonfinite_paths(value: Any, where: str) -> list[str]:
    if isinstance(value, float) and not math.isfinite(value):
        return [where]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _nonfinite_paths(v, _join(where, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _nonfinite_paths(v, f"{where}[{i}]")]
    return []


def _join(where: str, key: object) -> str:
    return f"{where}.{key}" if where else str(key)


def location(loc: tuple[int | str, ...]) -> str:
    """`('arms', 3, 'optimizer_steps')` -> `arms[3].optimizer_steps`."""
    out = ""
    for part in loc:
        out = f"{out}[{part}]" if isinstance(part, int) else _join(out, part)
    return out or "(top level)"


def _problem(doc: dict[str, Any], text: str, err: Any) -> SchemaProblem:
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    where = location(loc) + _arm_key(doc, loc)
    kind = err["type"]
    if kind == "extra_forbidden":
        message = f"{where}: unknown key (the format forbids extra keys); remove it or rename it"
    elif kind == "missing":
        message = f"{where}: required field is missing"
    else:
        message = f"{where}: {err['msg']} (got {_short(err.get('input'))})"
    return SchemaProblem(where, message, _line_for(doc, text, loc))


def _arm_key(doc: dict[str, Any], loc: tuple[int | str, ...]) -> str:
    """` (arm/s<seed>)` for a location inside an arm record, so the reader knows which read."""
    if len(loc) >= 2 and loc[0] == "arms" and isinstance(loc[1], int):
        arms = doc.get("arms")
        if isinstance(arms, list) and 0 <= loc[1] < len(arms) and isinstance(arms[loc[1]], dict):
            rec = arms[loc[1]]
            name, seed = (_cut(rec.get(k)) for k in ("name", "seed"))
            return f" ({name}/s{seed})"
    return ""


def _cut(value: object) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _short(value: object) -> str:
    text = json.dumps(value, default=str, allow_nan=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _line_for(doc: dict[str, Any], text: str, loc: tuple[int | str, ...]) -> int | None:
    """Best line for a location: the arm's run_id line, then the key within it."""
    start = 0
    if len(loc) >= 2 and loc[0] == "arms" and isinstance(loc[1], int):
        arms = doc.get("arms")
        if isinstance(arms, list) and 0 <= loc[1] < len(arms) and isinstance(arms[loc[1]], dict):
            run_id = arms[loc[1]].get("run_id")
            if isinstance(run_id, str):
                at = text.find(json.dumps(run_id))
                start = max(text.rfind("{", 0, at), 0) if at >= 0 else 0
    last = next((p for p in reversed(loc) if isinstance(p, str)), None)
    idx = text.find(f"{json.dumps(last)}:", start) if last is not None else -1
    if idx < 0:
        idx = start if start else -1
    return None if idx < 0 else text.count("\n", 0, idx) + 1
