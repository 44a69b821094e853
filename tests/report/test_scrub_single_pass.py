"""The export's single walk (`scrub_and_find_leaks`) gives exactly what the two walks it
replaced gave: `Scrubber.scrub_tree`, then `find_leaks` (and `redact_leaks` with --redact). Same
tree in the same key order, same redaction count (every occurrence), same leaks in the same
order, on hostile documents: paths, user names, control characters, credential shapes in keys
and values, keys that scrub to the same text, tuples, non-string keys (2, None), repeated shapes."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from evalview.report.leaks import Leak, find_leaks, redact_leaks, scrub_and_find_leaks
from evalview.report.sanitize import Scrubber

USERS = ("alice", "Bob-Smith")

#: Strings that scrub, leak, both, or neither; some recur so the memo is exercised.
HOSTILE = (
    "ok",
    "success",
    "task-00",
    "/home/alice/runs/x.json",
    "/srv/data",
    "C:\\Users\\alice\\x",
    "file:///tmp/a b",
    "made by alice on gpu-node-07.cluster.internal",
    "Bob-Smith",
    "sk-proj-AbCdEfGh0123456789ijklMNOP",
    "ghp_0123456789abcdefghijABCDEFGHIJ0123",
    "AKIAIOSFODNN7EXAMPLE",
    "Bearer eyJhbGciOiJIUzI1NiJ9.payload",
    "alice.researcher@lab.example.org at /home/alice",
    "192.168.4.17",
    'Traceback (most recent call last): File "drv.py", line 3',
    "\x1b[31mred\x07\u202e",
    "ctrl\x00/opt/x sk-ABCDEFGHIJKLMNOPQRSTUVWX",
    "not an identifier key",
    "",
)


def two_passes(document: Any, *, redact: bool) -> tuple[Any, list[Leak], int]:
    """What build_result did before the single walk."""
    scrubber = Scrubber(user_names=USERS)
    clean = scrubber.scrub_tree(document)
    leaks = find_leaks(clean)
    if redact and leaks:
        clean, again = redact_leaks(clean)
        assert again == leaks
    return clean, leaks, scrubber.redactions


def one_pass(document: Any, *, redact: bool) -> tuple[Any, list[Leak], int]:
    scrubber = Scrubber(user_names=USERS)
    clean, leaks = scrub_and_find_leaks(document, scrubber, redact=redact)
    return clean, leaks, scrubber.redactions


def assert_same(document: dict[str, Any], redact: bool) -> None:
    old_tree, old_leaks, old_count = two_passes(document, redact=redact)
    new_tree, new_leaks, new_count = one_pass(document, redact=redact)
    # orjson keeps key order, so equal bytes mean the same keys in the same order
    assert orjson.dumps(new_tree) == orjson.dumps(old_tree)
    assert new_leaks == old_leaks
    assert new_count == old_count


def hostile_document() -> dict[str, Any]:
    episode = {"id": "e1", "task": "task-00", "status": "ok", "metrics": {"score": 1.5}}
    return {
        "run_id": "run by alice@lab.example.org",
        "policy": {"name": "/home/alice/p", "version": "sk-proj-AbCdEfGh0123456789ijklMNOP"},
        # two keys that scrub to the same "[path]": the last value wins, at the first's place
        "collide": {"/home/alice/a": "10.0.0.1", "/srv/b": ["x", "/srv/c"], "k": 1},
        "nested": {"collide": {"/a/b": {"/c/d": 1, "/e/f": "gpu1.corp"}, "/g/h": "ok"}},
        "gpu-node-07.cluster.internal": {"sk-ABCDEFGHIJKLMNOPQRSTUVWX": "192.168.1.1"},
        "not an identifier key": ["a", ("tuple", "/home/alice"), {"x": None}],
        2: "an integer key",
        None: "a null key",
        "labels": list(HOSTILE),
        "episodes": [
            episode,
            {**episode, "id": "e2", "status": "/home/alice/secret"},
            {**episode, "task": "Bearer abcdefghijkl"},
            {"id": "e4", "task": "task-00", "status": "ok", "metrics": {"score": None}},
            episode,
        ],
    }


@pytest.mark.parametrize("redact", [False, True])
def test_one_pass_equals_two_passes_on_a_hostile_document(redact: bool) -> None:
    document = hostile_document()
    assert_same(document, redact)
    _, leaks, count = one_pass(document, redact=redact)
    assert count > 10 and len(leaks) > 10  # the document really is hostile


def _random_tree(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth <= 0 or roll < 0.4:
        return rng.choice([*HOSTILE, 0, 1.5, None, True])
    if roll < 0.6:
        items = [_random_tree(rng, depth - 1) for _ in range(rng.randrange(4))]
        return tuple(items) if rng.random() < 0.2 else items
    return {rng.choice(HOSTILE): _random_tree(rng, depth - 1) for _ in range(rng.randrange(5))}


@pytest.mark.parametrize("redact", [False, True])
def test_one_pass_equals_two_passes_on_random_hostile_trees(redact: bool) -> None:
    rng = random.Random(15)
    for _ in range(300):
        document = {rng.choice(HOSTILE): _random_tree(rng, 4) for _ in range(4)}
        assert_same(document, redact)


def test_redaction_counts_every_occurrence() -> None:
    _, _, once = one_pass({"a": "/srv/x"}, redact=False)
    _, _, three = one_pass({"a": "/srv/x", "b": ["/srv/x", "/srv/x"]}, redact=False)
    assert (once, three) == (1, 3)
