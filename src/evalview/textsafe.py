"""Run data is untrusted text: make control and invisible characters visible before display.

An ANSI escape, a carriage return or a right-to-left override in a task name or a message would
reach the terminal as is and repaint or reorder what the reviewer reads. Every display (the CLI's
text output, the TUI) passes data through `clean`, which swaps each such character for one
visible stand-in, one character for one, so offsets into the string stay valid.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, is_dataclass
from datetime import date
from enum import Enum
from functools import cache
from typing import Any

#: C0 controls show as their Unicode control pictures (␛ for ESC, ␊ for a newline); DEL as ␡.
_PICTURES = {c: 0x2400 + c for c in range(0x20)} | {0x7F: 0x2421}
#: C1 controls, bidirectional overrides/isolates/marks, separators and other invisible format
#: characters that reorder or hide text: one replacement character each.
_HIDDEN = (
    range(0x80, 0xA0),
    (0x061C,),
    range(0x200B, 0x2010),
    (0x2028, 0x2029),
    range(0x202A, 0x202F),
    range(0x2060, 0x2070),
    (0xFEFF,),
    # lone surrogates: a file name whose bytes are not UTF-8 reaches Python as these, and no
    # terminal, UTF-8 file or JSON document can hold them
    range(0xD800, 0xE000),
)
#: Any character `clean` replaces; public because the export drops the same set
#: (report/sanitize.py), so what a display shows and what is published cannot drift apart.
#: Built on first use (module `__getattr__`), with `clean`'s table: `--json` output never
#: needs either, and the 2,100-entry table and its pattern cost ~0.5 ms of every start-up.
UNSAFE_CHARS: re.Pattern[str]


@cache
def _unsafe() -> tuple[dict[int, int], re.Pattern[str]]:
    """`clean`'s translation table and the pattern of the characters it replaces."""
    table = _PICTURES | dict.fromkeys((c for run in _HIDDEN for c in run), 0xFFFD)
    return table, re.compile("[" + _ranges(sorted(table)) + "]")


def __getattr__(name: str) -> Any:
    if name == "UNSAFE_CHARS":
        return _unsafe()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _ranges(codes: list[int]) -> str:
    """A character class body of `codes` as runs (`\\x00-\\x1f`...): compiling 2,100 single
    escapes cost about 8 ms of every command's start-up; a dozen ranges cost nothing."""
    runs: list[list[int]] = []
    for c in codes:
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in runs
    )


def clean(value: object) -> str:
    """`str(value)` with every control or invisible format character made visible, one
    character for one (so offsets into the string stay valid)."""
    text = str(value)
    table, unsafe = _unsafe()
    return text.translate(table) if unsafe.search(text) else text


#: DEL and the UTF-8 form of every character `_HIDDEN` lists (C1 controls, U+061C,
#: U+200B-U+200F, U+2028-U+202E, U+2060-U+206F, U+FEFF). orjson escapes C0 controls already;
#: these it writes raw.
_HIDDEN_UTF8 = re.compile(
    rb"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8b-\x8f\xa8-\xae]|\xe2\x81[\xa0-\xaf]"
    rb"|\xef\xbb\xbf"
)


def _escape(match: re.Match[bytes]) -> bytes:
    return b"\\u%04x" % ord(match.group().decode("utf-8"))


def json_text(document: Any) -> bytes:
    """The one way evalview writes JSON for a person or a program to read (`--json`, `table
    --format json`): two-space indent, no trailing newline, every control, DEL, C1, bidi and
    invisible character as a `\\uXXXX` escape. orjson writes it; what orjson cannot write (an
    integer past 64 bits, a path whose bytes are not UTF-8) is written by the standard library
    instead, the integer exactly and the bytes as U+FFFD, never a traceback."""
    import orjson

    try:
        data = orjson.dumps(document, option=orjson.OPT_INDENT_2 | orjson.OPT_SERIALIZE_NUMPY)
    except TypeError:
        import json

        data = json.dumps(_plain(document), indent=2, ensure_ascii=False).encode("utf-8")
    return escape_invisible_json(data)


_SURROGATES = "[\ud800-\udfff]"  # compiled on first use (rare): `re`'s cache


def _plain(value: Any) -> Any:
    """`value` as the standard library's json writes it the way orjson would have: numpy values
    as numbers, NaN and infinity as null, text with lone surrogates as U+FFFD."""
    if isinstance(value, str):
        return re.sub(_SURROGATES, "\ufffd", value)
    if isinstance(value, dict):
        return {_plain(str(k)): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, Enum):
        return _plain(value.value)
    if is_dataclass(value) and not isinstance(value, type):
        return _plain(asdict(value))
    if isinstance(value, date):  # datetime too: orjson writes both as ISO 8601
        return value.isoformat()
    tolist = getattr(value, "tolist", None)  # numpy scalars and arrays
    return _plain(tolist()) if callable(tolist) else str(value)


def escape_invisible_json(data: bytes) -> bytes:
    """JSON text with every invisible or bidirectional character written as a `\\uXXXX` escape.

    Such characters are legal inside JSON strings, and a reader paging `--json` output would see
    nothing, or text reordered by a right-to-left override. They cannot occur outside a string
    (they are not JSON whitespace), so replacing them byte-wise is exact; the parsed value is the
    same. Output without them is returned unchanged (the same object).
    """
    return _HIDDEN_UTF8.sub(_escape, data) if _HIDDEN_UTF8.search(data) else data
