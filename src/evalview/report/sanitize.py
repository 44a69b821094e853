"""Scrubbing machine-specific text from what gets published.

The builder copies only whitelisted fields, so messages, tracebacks, metadata and arbitrary metrics
never reach the result. What is copied (ids, task names, declarations, audit messages) is still
free text written on someone's machine, so every string of the document passes through
`scrub` last: absolute paths (POSIX, home-relative, Windows, UNC, file URLs) and the exporting
user's name are replaced by a marker, and control and invisible characters are dropped.
Redaction, not refusal: a task name with a path in it is a publication mistake to report, not a
reason to publish nothing. (Credential-shaped values are refused instead: report/leaks.py.)
"""

from __future__ import annotations

import getpass
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalview.textsafe import UNSAFE_CHARS

REDACTED_PATH = "[path]"
REDACTED_USER = "[user]"

#: Boundary before a path: start of text or a character that cannot be part of a relative path.
#: `<` is not one: `</tag>` in a (hostile) task name is markup for the page to escape, not a path.
#: `/` is one: a LeRobot task is GROUP/ID, and an ID of `/home/alice/x` joins to
#: `g//home/alice/x`, whose absolute path starts at the second slash.
_BEFORE = r"(?:(?<=^)|(?<=[\s'\"`=(\[{,;:|/]))"
_PATH_RE = re.compile(
    "|".join(
        (
            r"file://\S*",
            # /abs/path (at least one component) and ~/ or ~user/ home paths
            _BEFORE + r"(?:~[\w.-]*)?/[^\s'\"`<>|,;)\]}]+",
            # C:\dir or C:/dir
            _BEFORE + r"[A-Za-z]:[\\/][^\s'\"`<>|,;)\]}]*",
            # \\server\share
            _BEFORE + r"\\\\[^\s'\"`<>|,;)\]}]+",
        )
    )
)

#: Text of ASCII letters, digits and `/ _ : -` only (most published strings: ids such as
#: `task-03/seed1000`). It holds no control character, and _PATH_RE can match in it only where
#: `_may_hold_path` says: a path starts at the text's start or after `:` or `/` (the only
#: boundary characters of _BEFORE in this alphabet; no `~`, no backslash), so it needs a leading
#: `/`, or `:/` or `//` inside (`file://` and `C:/` hold `:/`). Scrubbing the 10,000 episode ids
#: of a large export ran _PATH_RE on each; tests/report/test_scrub_prefilter.py compares.
_PLAIN = re.compile(r"[A-Za-z0-9/_:-]*")


def _may_hold_path(text: str) -> bool:
    return text.startswith("/") or ":/" in text or "//" in text


#: Login names too generic to identify anyone; matching them would mangle ordinary words.
_GENERIC_USERS = frozenset({"root", "user", "admin", "runner", "ubuntu", "debian", "nobody", "ci"})


def local_user_names() -> tuple[str, ...]:
    """Names of the person exporting, as they would appear in leaked paths or ids."""
    names: set[str] = set()
    for getter in (getpass.getuser, lambda: os.environ.get("USER", ""),
                   lambda: os.environ.get("LOGNAME", ""), lambda: Path.home().name):
        try:
            name = getter()
        except Exception:  # getpass raises when no name is known; that is fine
            continue
        if name and len(name) >= 3 and name.lower() not in _GENERIC_USERS:
            names.add(name)
    return tuple(sorted(names))


@dataclass
class Scrubber:
    """Redacts paths and user names, and counts what it redacted (the CLI reports the count)."""

    user_names: tuple[str, ...] = field(default_factory=local_user_names)
    redactions: int = 0

    def __post_init__(self) -> None:
        self._memo: dict[str, tuple[str, bool]] = {}
        self._user_re = (
            re.compile(
                r"(?<![A-Za-z0-9])(?:" + "|".join(re.escape(n) for n in self.user_names)
                + r")(?![A-Za-z0-9])",
                re.IGNORECASE,
            )
            if self.user_names
            else None
        )

    def scrub(self, text: str) -> str:
        # A document repeats the same strings thousands of times (keys, outcomes, task names):
        # each distinct one is scrubbed once, and every occurrence still counts.
        out, redacted = self.scrubbed(text)
        if redacted:
            self.redactions += 1
        return out

    def scrubbed(self, text: str) -> tuple[str, bool]:
        """(`text` scrubbed, whether a path or name was redacted), not counted: for a caller
        that counts occurrences itself (report/leaks.py's single pass)."""
        memo = self._memo.get(text)
        if memo is None:
            if _PLAIN.fullmatch(text) is not None and not _may_hold_path(text):
                # no control character and no path (see _PLAIN): only the user names to look for
                out = text if self._user_re is None else self._user_re.sub(REDACTED_USER, text)
                memo = self._memo[text] = (out, out != text)
                return memo
            stripped = strip_controls(text)  # not a redaction: never publishable, never counted
            out = _PATH_RE.sub(REDACTED_PATH, stripped)
            if self._user_re is not None:
                out = self._user_re.sub(REDACTED_USER, out)
            memo = self._memo[text] = (out, out != stripped)
        return memo

    def scrub_tree(self, value: Any) -> Any:
        """Every string in a JSON-like tree, keys included."""
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, dict):
            return {self.scrub(str(k)): self.scrub_tree(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.scrub_tree(v) for v in value]
        return value


def strip_controls(text: str) -> str:
    """`text` without C0/C1 control characters, DEL, and the invisible or bidirectional format
    characters `textsafe` makes visible on screen: none of them may reach a published file (an
    ESC or a right-to-left override would act on whoever opens it)."""
    return UNSAFE_CHARS.sub("", text) if UNSAFE_CHARS.search(text) else text


def leaks(strings: Iterable[str], user_names: tuple[str, ...] | None = None) -> list[str]:
    """Strings that still look machine-specific (used by tests and as a last self-check)."""
    probe = Scrubber(user_names=local_user_names() if user_names is None else user_names)
    return [s for s in strings if probe.scrub(s) != s]


def iter_strings(value: Any) -> Iterable[str]:
    """Every string in a JSON-like tree, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from iter_strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from iter_strings(v)
