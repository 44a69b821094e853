"""Where each value of a JSON document sits: JSON path → line, for findings that point at a line.

orjson and the json module give values, not positions, so one pass of a small tokenizer records,
for every object and array, the byte offset of each member; a line is then one binary search in
the offsets of the newlines. lerobot-eval writes with `indent=2`, one list element per line, so
the line of a success is the line of that episode. The pass is linear and allocation-light, and
made on the first line asked for beyond the document's first: `check` of a file with no finding
inside it (its two notes are about the whole document, line 1) and no episode table to build
never makes it (it was 10 times the parse of the 2,000-episode bench file; docs/performance.md).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import cached_property
from typing import Any

import orjson

#: A JSON path: keys and list indexes from the document root.
Path = tuple[str | int, ...]

# The patterns are kept as text and compiled on first use (`re`'s own cache): a clean file's
# `check` never locates a line, so it never needs them.
# A string (escapes included), one structural character, or a bare literal (number, true, NaN, …).
_TOKEN = rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+'
_NEWLINE = rb"\n"
#: One element of an array of plain scalars (numbers, true, false, null, NaN).
_SCALAR = rb"[^\s,]+"


class Locator:
    """Byte offsets of members, by container path; `line(path)` is 1-based, None when unknown.

    An array of plain scalars (no string, object or array inside, like `successes`) is not
    tokenized member by member: its span is kept and its elements are found when asked for.
    Pure Python (no numpy), so `evalview check` on a LeRobot file never imports numpy.
    """

    def __init__(self, raw: bytes, first_line: int = 1) -> None:
        self._raw = raw
        self._first_line = first_line

    @cached_property
    def _newlines(self) -> list[int]:
        return [m.start() for m in re.finditer(_NEWLINE, self._raw)]

    @cached_property
    def members(self) -> dict[Path, Any]:
        """Container path → list of member offsets, dict key → offset, or (start, end) of a
        scalar array's brackets: the pass over the document, made when first asked."""
        members: dict[Path, Any] = {}
        self._scan(self._raw, members)
        return members

    def _scan(self, raw: bytes, members: dict[Path, Any]) -> None:
        # Each frame: [path, members (list of offsets, or dict key → offset), expecting_key, key]
        stack: list[list[Any]] = []
        pos = 0
        search = re.compile(_TOKEN).search
        while (m := search(raw, pos)) is not None:
            pos = m.end()
            tok = m.group()
            c = tok[:1]
            if c in b",:":
                if c == b"," and stack and isinstance(stack[-1][1], dict):
                    stack[-1][2] = True
                continue
            if c in b"}]":
                if stack:
                    stack.pop()
                continue
            top = stack[-1] if stack else None
            if top is not None and top[2]:  # an object key
                try:
                    key = orjson.loads(tok)
                except orjson.JSONDecodeError:
                    key = tok.decode("utf-8", "replace")
                top[3] = key
                top[2] = False
                continue
            # A value starts here: record its offset in its container.
            if top is None:
                path: Path = ()
            elif isinstance(top[1], dict):
                top[1][top[3]] = m.start()
                path = (*top[0], top[3])
            else:
                path = (*top[0], len(top[1]))
                top[1].append(m.start())
            if c == b"{":
                frame: list[Any] = [path, {}, True, None]
                members[path] = frame[1]
                stack.append(frame)
            elif c == b"[":
                close = raw.find(b"]", pos)
                if close >= 0 and not any(
                    raw.find(ch, pos, close) >= 0 for ch in (b"[", b"{", b'"')
                ):
                    members[path] = (m.start(), close)
                    pos = close + 1
                    continue
                frame = [path, [], False, None]
                members[path] = frame[1]
                stack.append(frame)

    def _list_members(self, path: Path) -> list[int] | dict[str, int] | None:
        members = self.members.get(path)
        if isinstance(members, tuple):
            start, end = members
            members = [m.start() for m in re.compile(_SCALAR).finditer(self._raw, start + 1, end)]
            self.members[path] = members
        return members

    def line_of_offset(self, offset: int) -> int:
        if offset == 0:  # the document's start: no newline is before it
            return self._first_line
        return bisect_left(self._newlines, offset) + self._first_line

    def offset(self, path: Path) -> int | None:
        if not path:
            return 0
        members = self._list_members(path[:-1])
        if members is None:
            return None
        last = path[-1]
        if isinstance(members, dict):
            return members.get(last) if isinstance(last, str) else None
        if isinstance(last, int) and 0 <= last < len(members):
            return int(members[last])
        return None

    def line(self, path: Path) -> int | None:
        """Line of the value at `path`; else of its nearest located ancestor."""
        for cut in range(len(path), -1, -1):
            off = self.offset(path[:cut])
            if off is not None:
                return self.line_of_offset(off)
        return None

    def element_lines(self, path: Path) -> list[int]:
        """Lines of every element of the list at `path` (empty when it is not a located list)."""
        members = self._list_members(path)
        if not isinstance(members, list):
            return []
        newlines, first = self._newlines, self._first_line
        return [bisect_left(newlines, off) + first for off in members]


def show_path(path: Path) -> str:
    """`per_task[3].metrics.successes[7]`, as a user would type it in jq; "" for the root."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part):
            out += f".{part}" if out else part
        else:
            out += f"[{orjson.dumps(part).decode()}]"
    return out
