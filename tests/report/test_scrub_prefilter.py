"""The shortcuts for plain text (ASCII letters, digits and `/ _ : -`) in the scrubber and the
credential patterns: the same answers as running every pattern, on texts built to sit at the
shortcuts' edges (paths after `:` and `/`, `file://`, drive letters, every credential's literal
part, `localhost` in any case, user names) and on any text at all."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from evalview.report import sanitize
from evalview.report.leaks import PLAIN_TEXT, _kinds_searched, kinds_in
from evalview.report.sanitize import REDACTED_PATH, REDACTED_USER, Scrubber, strip_controls

#: Pieces that make a plain text interesting to some pattern, and plain filler.
PIECES = [
    "/", "//", ":", ":/", "://", "file://", "C:/", "c:", "~", "-", "_", "sk-", "sk-proj-",
    "AKIA", "ASIA", "ghp_", "github_pat_", "localhost", "LocalHost", "LOCALHOST", "home",
    "alice", "Alice", "seed1000", "task-03", "a", "Z", "0", "9", "abcdefghij", "ABCDEFGHIJ",
    "0123456789", "x" * 20, "A" * 16,
]
PLAINISH = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)
ANY = st.text(max_size=30) | st.lists(
    st.sampled_from([*PIECES, " ", ".", "@", "\x1b", "\u202e", '"', "(", "\\", "é"]), max_size=8
).map("".join)
NAMES = st.sampled_from([(), ("alice",), ("alice", "seed")])


def scrubbed_the_long_way(scrubber: Scrubber, text: str) -> tuple[str, bool]:
    """What Scrubber.scrubbed did before the shortcut."""
    stripped = strip_controls(text)
    out = sanitize._PATH_RE.sub(REDACTED_PATH, stripped)
    if scrubber._user_re is not None:
        out = scrubber._user_re.sub(REDACTED_USER, out)
    return out, out != stripped


@settings(max_examples=3000, deadline=None)
@given(text=PLAINISH | ANY, names=NAMES)
def test_the_shortcuts_answer_as_the_patterns(text: str, names: tuple[str, ...]) -> None:
    assert kinds_in(text) == _kinds_searched(text)
    scrubber = Scrubber(user_names=names)
    assert scrubber.scrubbed(text) == scrubbed_the_long_way(scrubber, text)


def test_edges_by_hand() -> None:
    for text, kinds in [
        ("pick-red-cube/seed1000", []),
        ("sk-abcdefghijklmnopqrstuv", ["API key"]),
        ("x-AKIAABCDEFGHIJKLMNOP", ["AWS access key"]),
        ("ghp_abcdefghijklmnopqrstu", ["GitHub token"]),
        ("LocalHost:8080", ["host name"]),
    ]:
        assert PLAIN_TEXT.fullmatch(text)
        assert kinds_in(text) == _kinds_searched(text) == kinds, text
    s = Scrubber(user_names=("alice",))
    for text, out in [
        ("task/seed1", "task/seed1"),
        ("/home/x", REDACTED_PATH),
        ("ab:/home/x", "ab:" + REDACTED_PATH),
        ("a//b", "a/" + REDACTED_PATH),
        ("file://x", REDACTED_PATH),
        ("C:/x", REDACTED_PATH),
        ("run-alice-3", f"run-{REDACTED_USER}-3"),
    ]:
        assert PLAIN_TEXT.fullmatch(text)
        assert s.scrubbed(text)[0] == out == scrubbed_the_long_way(s, text)[0], text


def test_plain_text_holds_no_unsafe_character() -> None:
    from evalview.textsafe import UNSAFE_CHARS

    alphabet = "".join(chr(c) for c in range(128) if PLAIN_TEXT.fullmatch(chr(c)))
    assert alphabet == "-/0123456789:ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
    assert not UNSAFE_CHARS.search(alphabet)
    assert not any(PLAIN_TEXT.fullmatch(chr(c)) for c in range(128, 0x3000))
    assert re.fullmatch(sanitize._PLAIN.pattern, alphabet)
