"""Credential-shaped values in what an export would publish: refused, or redacted on request.

The builder publishes ids, task names, termination reasons, error types and declarations as they
were written on someone's machine, so an API key planted in policy.version, an e-mail address in
a run id, a host name in a termination reason or a stack trace in an error type would be
published with them. Every string of the finished document (keys included) is matched against the
shapes below; a match refuses the export with one finding per value, naming the field and its
JSON path, unless `--redact` asks for the matched text to be replaced, in which case result.json
and the page list what was redacted. This is pattern matching, not general secret detection (the
format says so too): it catches the shapes seen leaking, and the reviewer still reads the files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalview.report.sanitize import Scrubber

_HOST_TLDS = (
    "com|net|org|io|ai|dev|app|cloud|edu|gov|internal|local|localdomain|lan|corp|intranet|"
    "home|example|test"
)

#: (kind, pattern). Kinds are what a finding and the page say; never the value itself.
#: Each runs in linear time on any text (a 10 MB task name is scanned once): a match may start
#: only where its run of characters starts (the e-mail's lookbehind), and a repeated group is
#: bounded (at most 8 dash-separated segments before an API key's body), so no start rescans
#: what the previous one scanned.
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("API key", re.compile(r"(?<![A-Za-z0-9])sk-(?:[A-Za-z0-9]+-){0,8}[A-Za-z0-9_]{16,}")),
    (
        "GitHub token",
        re.compile(r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,})"),
    ),
    ("AWS access key", re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])")),
    ("bearer token", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}")),
    (
        "e-mail address",
        re.compile(
            r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
            r"\.[A-Za-z]{2,}"
        ),
    ),
    (
        "private IP address",
        re.compile(
            r"(?<![\d.])(?:10(?:\.\d{1,3}){3}|127(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}"
            r"|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2})(?![\d.])"
        ),
    ),
    (
        "host name",
        re.compile(
            r"(?i)(?<![\w.-])(?:localhost|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+"
            r"(?:" + _HOST_TLDS + r"))(?![\w-])"
        ),
    ),
    (
        "stack trace",
        re.compile(
            r"Traceback \(most recent call last\)|File \"[^\"]*\", line \d+"
            r"|\bat [\w$.]+\([\w$]+\.(?:java|kt|scala|js|ts):\d+\)"
        ),
    ),
)

REDACTED = "[redacted {kind}]"


@dataclass(frozen=True, slots=True)
class Leak:
    """One credential-shaped value: where it sits in result.json and what it looks like."""

    path: str  # JSON path in result.json, e.g. `$.episodes[3].termination_reason`
    field: str  # the field's own name (`termination_reason`; `key` for an object key)
    kind: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "field": self.field, "kind": self.kind}


def kinds_in(text: str) -> list[str]:
    """The kinds of credential-shaped text in `text`, in PATTERNS order."""
    if PLAIN_TEXT.fullmatch(text) is not None and not _may_leak_plain(text):
        return []  # what `_kinds_searched` finds in such a text: nothing (see PLAIN_TEXT)
    return _kinds_searched(text)


def _kinds_searched(text: str) -> list[str]:
    """`kinds_in` by searching every pattern (no shortcut)."""
    return [kind for kind, pattern in PATTERNS if pattern.search(text)]


#: Text of ASCII letters, digits and `/ _ : -` only: most published strings (ids such as
#: `task-03/seed1000`, tasks, statuses). In such a text no pattern can match but those shown by
#: `_may_leak_plain`: an e-mail needs `@`, an IP address or a dotted host name `.`, a bearer
#: token and a stack trace a space (a stack trace also `(` or `"`); a GitHub token holds `_`, an
#: API key `sk-`, an AWS key `AKIA` or `ASIA`, the remaining host name is `localhost` (ASCII,
#: so `lower()` finds it as `(?i)` does). The 10,000 episode ids of a large export were searched
#: eight times each (about 0.04 s); tests/report/test_scrub_prefilter.py compares the two ways.
PLAIN_TEXT = re.compile(r"[A-Za-z0-9/_:-]*")


def _may_leak_plain(text: str) -> bool:
    """Whether a PLAIN_TEXT string holds what a pattern needs to match in such a text."""
    return (
        "_" in text
        or "sk-" in text
        or "AKIA" in text
        or "ASIA" in text
        or "localhost" in text.lower()
    )


_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Walker:
    """One pass over a document. The same strings recur thousands of times (every episode's
    keys, outcomes, task names), so each distinct string is matched once and its kinds kept;
    paths are built only for a value that matches."""

    def __init__(self, redact: bool) -> None:
        self.redact = redact
        self.found: list[Leak] = []
        self._kinds: dict[str, list[str]] = {}

    def kinds(self, text: str) -> list[str]:
        kinds = self._kinds.get(text)
        if kinds is None:
            kinds = self._kinds[text] = kinds_in(text)
        return kinds

    def walk(self, value: Any, where: _Where, field: str) -> Any:
        if isinstance(value, str):
            kinds = self.kinds(value)
            if not kinds:
                return value
            path = _path(where)
            self.found.extend(Leak(path, field, k) for k in kinds)
            return _redact_text(value) if self.redact else value
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            for k, v in value.items():
                key = str(k)
                kinds = self.kinds(key)
                if kinds:
                    at = f"{_path(where)} (a key)"
                    self.found.extend(Leak(at, "key", k2) for k2 in kinds)
                    out[_redact_text(key) if self.redact else key] = self.walk(
                        v, (where, key), key
                    )
                else:
                    out[key] = self.walk(v, (where, key), key)
            return out
        if isinstance(value, list):
            return [self.walk(v, (where, i), field) for i, v in enumerate(value)]
        return value


#: Where a value sits, as (parent, key or index) links from the root (None): the JSON path
#: string is built only for a value that matches.
_Where = tuple[Any, str | int] | None


def _redact_text(text: str) -> str:
    for kind, pattern in PATTERNS:
        text = pattern.sub(REDACTED.format(kind=kind), text)
    return text


def _path(where: _Where) -> str:
    parts: list[str] = []
    while where is not None:
        where, step = where
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif _NAME_RE.fullmatch(step):
            parts.append(f".{step}")
        else:
            parts.append(f"[{step!r}]")
    return "$" + "".join(reversed(parts))


def find_leaks(document: dict[str, Any]) -> list[Leak]:
    """Every credential-shaped value of the document (its JSON path, field and kind)."""
    walker = _Walker(redact=False)
    walker.walk(document, None, "$")
    return walker.found


def redact_leaks(document: dict[str, Any]) -> tuple[dict[str, Any], list[Leak]]:
    """The document with every credential-shaped text replaced by `[redacted KIND]`, and what
    was replaced."""
    walker = _Walker(redact=True)
    clean = walker.walk(document, None, "$")
    return clean, walker.found


def scrub_and_find_leaks(
    document: dict[str, Any], scrubber: Scrubber, *, redact: bool = False
) -> tuple[dict[str, Any], list[Leak]]:
    """`scrubber.scrub_tree(document)`, then `find_leaks` of the result (or `redact_leaks` when
    `redact`), in one walk instead of two or three: the same tree, the same redaction count
    (every occurrence) and the same leaks in the same order (tests/report compare the two).

    Each distinct string is scrubbed and matched once, and each distinct set of dict keys
    looked up once (the export's 10,000 episodes share their keys and most of their values):
    0.42 -> 0.35 s CPU on the 10,000-episode run (docs/performance.md, "export").
    """
    walk = _ScrubWalk(scrubber, redact)
    return walk.mapping(document, None), walk.found


class _ScrubWalk:
    """The single pass of `scrub_and_find_leaks`."""

    def __init__(self, scrubber: Scrubber, redact: bool) -> None:
        self.scrubber = scrubber
        self.redact = redact
        self.found: list[Leak] = []
        #: raw string -> (scrubbed, whether scrubbing redacted something, kinds of the scrubbed)
        self._memo: dict[str, tuple[str, bool, list[str]]] = {}
        #: a dict's keys (as given) -> their entries, how many count as redactions, and
        #: whether the scrubbed keys are distinct. Every episode has the same keys.
        self._shapes: dict[tuple[str, ...], tuple[list[tuple[str, bool, list[str]]], int, bool]]
        self._shapes = {}

    def entry(self, raw: str) -> tuple[str, bool, list[str]]:
        memo = self._memo.get(raw)
        if memo is None:
            out, redacted = self.scrubber.scrubbed(raw)
            memo = self._memo[raw] = (out, redacted, kinds_in(out))
        return memo

    def value(self, value: Any, where: _Where, field: str) -> Any:
        if isinstance(value, str):
            out, redacted, kinds = self.entry(value)
            if redacted:
                self.scrubber.redactions += 1
            if kinds:
                path = _path(where)
                self.found.extend(Leak(path, field, k) for k in kinds)
                return _redact_text(out) if self.redact else out
            return out
        if isinstance(value, dict):
            return self.mapping(value, where)
        if isinstance(value, list | tuple):
            return [self.value(v, (where, i), field) for i, v in enumerate(value)]
        return value

    def mapping(self, value: dict[Any, Any], where: _Where) -> dict[str, Any]:
        raw_keys = tuple(map(str, value))  # as text: the keys 1 and True are equal, "1" "True" not
        shape = self._shapes.get(raw_keys)
        if shape is None:
            entries = [self.entry(k) for k in raw_keys]
            distinct = len({e[0] for e in entries}) == len(entries)
            shape = self._shapes[raw_keys] = (entries, sum(e[1] for e in entries), distinct)
        entries, redacted_keys, distinct = shape
        if not distinct:
            # Two keys scrub to the same text: the scrubbed dict keeps the last value (at the
            # first key's place), so scrub it whole first, then walk that, as the two passes did.
            scrubbed = self.scrubber.scrub_tree(value)
            walker = _Walker(self.redact)
            walker.found = self.found
            out: dict[str, Any] = walker.walk(scrubbed, where, "")
            return out
        count = redacted_keys
        memo = self._memo
        out = {}
        for (key, _, key_kinds), v in zip(entries, value.values(), strict=True):
            name = key
            if key_kinds:
                at = f"{_path(where)} (a key)"
                self.found.extend(Leak(at, "key", k) for k in key_kinds)
                if self.redact:
                    name = _redact_text(key)
            if isinstance(v, str):  # most values: inline, one dict lookup
                text, redacted, kinds = memo.get(v) or self.entry(v)
                count += redacted
                if kinds:
                    path = _path((where, key))
                    self.found.extend(Leak(path, key, k) for k in kinds)
                    if self.redact:
                        text = _redact_text(text)
                out[name] = text
            elif isinstance(v, dict | list | tuple):
                out[name] = self.value(v, (where, key), key)
            else:
                out[name] = v
        self.scrubber.redactions += count
        return out
