"""Strict JSON parsing: orjson speed, plus the two checks orjson does not make.

orjson already rejects NaN, Infinity, overflowing numbers, invalid UTF-8 and a BOM. It silently
keeps the last of duplicate keys, so duplicates are detected by counting colons: every key/value
pair contributes one structural colon, so the raw text has exactly as many colons as
`orjson.dumps(parsed)` unless a duplicate pair was dropped. Where the raw text contains a `\\u`
escape (which could encode a colon) the exact, slower stdlib check runs instead.

Nesting is bounded too: orjson parses about 1,024 levels but serialises only 254, and evalview
re-serialises and walks what it reads (the duplicate check, --json, the export), so a value nested
deeper than `MAX_DEPTH` levels is rejected here, at its line, instead of failing later. The check
costs nothing extra: the serialisation the duplicate check makes anyway is done with the value
wrapped in `_DEPTH_PAD` lists, so it fails exactly when the value itself is too deep.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import orjson

#: The patterns below are needed only when a document is refused or unusual: kept as text, they
#: are compiled on first use (`re`'s own cache), not when every command imports this module.
_NONFINITE = rb"(?<![\w\"])-?(NaN|Infinity)(?![\w\"])"

#: Deepest nesting of arrays and objects accepted (a scalar is depth 0, `[]` depth 1).
MAX_DEPTH = 128
#: orjson.dumps fails on a value nested 255 levels or more: wrapped in this many lists, a value
#: fails to serialise exactly when it is nested deeper than MAX_DEPTH.
_DEPTH_PAD = 254 - MAX_DEPTH
_BRACKETS = rb'"(?:[^"\\]|\\.)*"|[\[\]{}]'
#: A `\u` escape (`b"\\u" in raw`, found three times as fast in text of many `\n` escapes).
_U_ESCAPE = re.compile(rb"\\u")


@dataclass(frozen=True, slots=True)
class JsonProblem:
    """Why a document was rejected. `kind` selects the reading rule; `line` is 1-based."""

    kind: str  # "not-utf8" | "invalid-json" | "duplicate-key" | "nonfinite-number" | "too-deep"
    detail: str
    line: int | None = None


class DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKeyError(key)
        seen[key] = value
    return seen


def _reject_constant(name: str) -> Any:
    raise ValueError(f"nonfinite number {name}")


def _find_duplicate(raw: bytes) -> str | None:
    """The exact check: the first duplicated key, or None."""
    try:
        json.loads(
            raw.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_constant=_reject_constant
        )
    except DuplicateKeyError as exc:
        return exc.key
    return None


def _line_of(raw: bytes, key: str) -> int | None:
    """Line of the repeat (the second occurrence), where the reader must look; else the first."""
    needle = orjson.dumps(key) + b":"
    idx = raw.find(needle)
    if idx < 0:
        idx = raw.find(orjson.dumps(key))
    if idx >= 0:
        again = raw.find(raw[idx : idx + len(needle)], idx + 1)
        idx = again if again >= 0 else idx
    return raw.count(b"\n", 0, idx) + 1 if idx >= 0 else None


def parse_strict(raw: bytes, *, first_line: int = 1) -> tuple[Any, JsonProblem | None]:
    """Parse `raw`; return (value, None) or (None, problem). Never raises.

    `first_line` offsets reported lines, for a document that is one line of a larger file.
    """
    value, problem, _ = _strict(raw, first_line)
    return value, problem


def _strict(raw: bytes, first_line: int) -> tuple[Any, JsonProblem | None, bytes]:
    """`parse_strict`, and orjson's serialisation of the value (padded; b"" on a problem)."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return None, _classify(raw, exc, first_line), b""
    try:
        dumped = padded_dumps(value)
    except TypeError:
        return None, too_deep(raw, first_line), b""
    colons = dumped.count(b":")
    if _U_ESCAPE.search(raw):
        key = _find_duplicate(raw)
    elif raw.count(b":") != colons:
        key = _find_duplicate(raw) or "?"
    else:
        key = None
    if key is not None:
        line = _line_of(raw, key)
        return None, JsonProblem(
            "duplicate-key",
            f"the key {key!r} appears twice in one object",
            None if line is None else line + first_line - 1,
        ), b""
    return value, None, dumped


_DIGITS_AS_ZERO = bytes.maketrans(b"0123456789", b"0000000000")


def digit_run(raw: bytes, n: int = 19) -> bool:
    """True when `raw` holds `n` digits in a row. Without 19, every integer in a document has at
    most 18 digits, so it fits 64 bits. (A translation and a search: the regex `[0-9]{19}`
    starts again at every digit of every number, and took longer than parsing the document.)"""
    return b"0" * n in raw.translate(_DIGITS_AS_ZERO)


#: orjson reads an integer outside [-2**63, 2**64) as a float, which it writes back with an
#: exponent of 18 or more (`e+18`); json.loads reads it as an int. No such exponent in orjson's
#: serialisation of a value: no integer was read as a float. (Looked for from the `+`, rare in
#: text, where an `e` is in every word.)
_WIDE_EXPONENT = rb"\+(?:1[89]|[2-9][0-9]|[1-9][0-9][0-9])"


def parse_lenient(raw: bytes, *, first_line: int = 1) -> tuple[Any, list[str], JsonProblem | None]:
    """Parse as Python's json module reads what it wrote (NaN and Infinity as floats, the last of
    a repeated key, each repeated key listed), inside the bounds `parse_strict` keeps: text that
    is not UTF-8, a BOM, nesting deeper than MAX_DEPTH or no JSON at all is a problem, never an
    exception. (value, repeated keys, None) or (None, repeated keys, problem).

    A document `parse_strict` takes (no NaN, no repeated key, within the depth) in which orjson
    read no integer as a float is its value: the same value, found at orjson's speed (the stdlib
    decoder and the depth walk were five times the floor of an lm-eval samples file). Any other
    goes to the stdlib decoder (`_parse_lenient_stdlib`).
    """
    # `_strict`'s acceptance, inlined (this runs once per line of an lm-eval samples file): any
    # problem it would name sends the document to the stdlib decoder, which names it again
    try:
        value = orjson.loads(raw)
        dumped = padded_dumps(value)
    except (orjson.JSONDecodeError, TypeError):  # not strict JSON, or too deep
        return _parse_lenient_stdlib(raw, first_line=first_line)
    if _U_ESCAPE.search(raw):
        if _find_duplicate(raw) is not None:
            return _parse_lenient_stdlib(raw, first_line=first_line)
    elif raw.count(b":") != dumped.count(b":"):  # a repeated key was dropped
        return _parse_lenient_stdlib(raw, first_line=first_line)
    if b"+" in dumped and re.search(_WIDE_EXPONENT, dumped):
        return _parse_lenient_stdlib(raw, first_line=first_line)
    return value, [], None


def _parse_lenient_stdlib(
    raw: bytes, *, first_line: int = 1
) -> tuple[Any, list[str], JsonProblem | None]:
    """`parse_lenient` by the stdlib decoder. It recurses once per level and raises
    RecursionError near 1,000 levels, so that is caught and worded as too deep, and what it did
    parse is measured against MAX_DEPTH (without recursion) before anyone walks it. Integers of
    more than 4,300 digits are refused by the decoder itself (a ValueError: not JSON evalview
    reads)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + first_line
        return None, [], JsonProblem("not-utf8", f"byte {exc.start} is not valid UTF-8", line)
    if text.startswith("\ufeff"):
        return None, [], JsonProblem(
            "not-utf8", "the file starts with a UTF-8 byte order mark", first_line
        )
    repeated: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                repeated.append(key)
            out[key] = value
        return out

    try:
        value = json.loads(text, object_pairs_hook=pairs)
    except RecursionError:
        return None, repeated, too_deep(raw, first_line)
    except json.JSONDecodeError as exc:
        line = exc.lineno + first_line - 1
        if exc.pos >= len(text.rstrip()):
            return None, repeated, JsonProblem("invalid-json", "the JSON ends early (truncated?)",
                                               line)
        detail = f"{exc.msg} (line {exc.lineno}, column {exc.colno})"
        return None, repeated, JsonProblem("invalid-json", detail, line)
    except ValueError as exc:  # an integer of more than 4,300 digits
        return None, repeated, JsonProblem("invalid-json", str(exc), first_line)
    if nested_deeper(value, MAX_DEPTH):
        return None, repeated, too_deep(raw, first_line)
    if b"\\u" in raw and _has_lone_surrogate(value):  # orjson refuses these; so do we
        return None, repeated, JsonProblem(
            "invalid-json", "a \\u escape encodes half of a UTF-16 pair (a lone surrogate), "
            "which is not text", first_line)
    return value, repeated, None


_SURROGATE = "[\ud800-\udfff]"


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if re.search(_SURROGATE, item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def nested_deeper(value: Any, limit: int) -> bool:
    """True when arrays and objects nest deeper than `limit` in `value` (walked with a stack,
    not recursion: this runs before any recursive walk may)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth + 1 > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def wide_ints(value: Any, where: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """The place (keys and list indexes) of every integer that does not fit 64 bits, signed:
    such a number cannot be stored, added or written back (orjson refuses it), so a reader makes
    each a finding at its place. `value` is bounded by MAX_DEPTH already, so the recursion is."""
    from evalview.load.bounds import int64

    if type(value) is int:
        return [] if int64(value) else [where]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in wide_ints(v, (*where, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in wide_ints(v, (*where, i))]
    return []


def pad_depth(value: Any) -> Any:
    """`value` inside `_DEPTH_PAD` lists: orjson.dumps of it raises TypeError exactly when
    `value` is nested deeper than MAX_DEPTH (the colon count is unchanged)."""
    for _ in range(_DEPTH_PAD):
        value = [value]
    return value


#: Chains of `_DEPTH_PAD` nested lists not in use, each with its innermost list: `padded_dumps`
#: puts the value into one instead of building 126 lists per document (which, for the 6,000
#: members of an Inspect log, cost more than parsing them). A chain is taken from here and put
#: back (`list.pop` and `append` are atomic), so two threads never fill the same one.
_CHAINS: list[tuple[list[Any], list[Any]]] = []


def padded_dumps(value: Any) -> bytes:
    """`orjson.dumps(pad_depth(value))`, the padding reused: TypeError exactly when `value` is
    nested deeper than MAX_DEPTH."""
    try:
        outer, inner = _CHAINS.pop()
    except IndexError:
        inner = [None]
        outer = inner
        for _ in range(_DEPTH_PAD - 1):
            outer = [outer]
    inner[0] = value
    try:
        return orjson.dumps(outer)
    finally:
        inner[0] = None
        _CHAINS.append((outer, inner))


def too_deep(raw: bytes, first_line: int = 1) -> JsonProblem:
    """The problem of a document nested deeper than MAX_DEPTH, at the line where it gets too
    deep (brackets inside strings do not count)."""
    depth = 0
    line: int | None = None
    for match in re.finditer(_BRACKETS, raw):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                line = raw.count(b"\n", 0, match.start()) + first_line
                break
        elif token in (b"]", b"}"):
            depth -= 1
    return JsonProblem(
        "too-deep",
        f"a value is nested deeper than {MAX_DEPTH} levels (arrays and objects)",
        line if line is not None else first_line,
    )


def _classify(raw: bytes, exc: orjson.JSONDecodeError, first_line: int) -> JsonProblem:
    msg = str(exc.msg)
    if "depth limit" in msg or "recursion" in msg.lower():
        return too_deep(raw, first_line)
    line = (exc.lineno or 1) + first_line - 1
    if "UTF-8" in msg and "BOM" not in msg:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as uerr:
            bad_line = raw.count(b"\n", 0, uerr.start) + first_line
            return JsonProblem("not-utf8", f"byte {uerr.start} is not valid UTF-8", bad_line)
        return JsonProblem("not-utf8", msg, line)
    if "BOM" in msg:
        return JsonProblem("not-utf8", "the file starts with a UTF-8 byte order mark", line)
    match = re.search(_NONFINITE, raw)
    if match is not None and match.start() <= max(exc.pos, 0) + 1:
        bad_line = raw.count(b"\n", 0, match.start()) + first_line
        token = match.group(0).decode()
        return JsonProblem("nonfinite-number", f"{token} is not a JSON number", bad_line)
    if "infinity" in msg.lower():
        return JsonProblem("nonfinite-number", "a number overflows to infinity", line)
    if "end of data" in msg or "EOF" in msg:
        return JsonProblem("invalid-json", "the JSON ends early (truncated?)", line)
    return JsonProblem("invalid-json", f"{msg} (line {exc.lineno}, column {exc.colno})", line)
