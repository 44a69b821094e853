"""The scrubber: paths and user names go, ordinary ids and labels stay."""

from __future__ import annotations

import pytest

from evalview.report.sanitize import REDACTED_PATH, REDACTED_USER, Scrubber, leaks, local_user_names


@pytest.mark.parametrize(
    "text",
    [
        "boom at /home/alice/secret/run.py line 3",
        "/Users/bob/ckpt",
        "see ~/runs/x.json",
        "~bob/work",
        r"C:\Users\carol\model.pt",
        "D:/data/x",
        r"\\fileserver\share\x",
        "file:///tmp/x.html",
        "path=/data/eval/run-7",
        "('/srv/x', 1)",
    ],
)
def test_paths_are_redacted(text: str) -> None:
    s = Scrubber(user_names=())
    out = s.scrub(text)
    assert REDACTED_PATH in out
    assert "/home" not in out and "Users" not in out and "data/" not in out
    assert s.redactions == 1


@pytest.mark.parametrize(
    "text",
    [
        "task-00/seed1000",
        "successes / selected cases",
        "environment:truncated",
        "Logs: 3/5, Kills: 0/3",
        "starvla-rsi.eval/v1",
        "<script>document.title='pwned'</script>",
        "pick/place-cube",
        "1/2 over attempted",
    ],
)
def test_ordinary_text_is_kept(text: str) -> None:
    s = Scrubber(user_names=())
    assert s.scrub(text) == text
    assert s.redactions == 0


def test_user_name_is_redacted_as_a_word_only() -> None:
    s = Scrubber(user_names=("alice",))
    assert s.scrub("alice-run-3") == f"{REDACTED_USER}-run-3"
    assert s.scrub("run by Alice") == f"run by {REDACTED_USER}"
    assert s.scrub("malice") == "malice"  # inside another word: not the name
    assert s.redactions == 2


def test_local_user_names_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", "alice")
    monkeypatch.setenv("LOGNAME", "alice")
    monkeypatch.setenv("HOME", "/home/alice")
    assert "alice" in local_user_names()
    monkeypatch.setenv("USER", "root")
    monkeypatch.setenv("LOGNAME", "root")
    monkeypatch.setenv("HOME", "/root")
    assert "root" not in local_user_names()  # too generic to mean anyone


def test_scrub_tree_reaches_keys_and_nested_values() -> None:
    s = Scrubber(user_names=("alice",))
    tree = {"alice": ["/home/alice/x", {"k": "ok"}], "n": 3}
    out = s.scrub_tree(tree)
    assert out == {REDACTED_USER: [REDACTED_PATH, {"k": "ok"}], "n": 3}
    assert leaks(["/home/x/y", "fine"], user_names=()) == ["/home/x/y"]
