"""`check_result_dir_names` tests every name in one match first (`_all_safe`); that may only
say "all safe" when `is_safe_dir_name` says so of each name, and must say it for real runs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from evalview.audit.checks.episodes import _all_safe, is_safe_dir_name

SPECIAL = ["con", "COM1", "lpt9", "aux.txt", "nul.", "x" * 128, "y" * 129, "a.", ".a", "é",
           "a\nb", "a/b", "", "task-a-seed7", "pick_red.cube-3"]
names = st.one_of(
    st.text(alphabet=st.sampled_from(list("aZ09._-/ \n\t\u00ff\u202e")), max_size=10),
    st.sampled_from(SPECIAL),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(names, max_size=8))
def test_all_safe_only_when_each_name_is(batch: list[str]) -> None:
    if _all_safe(batch):
        assert all(is_safe_dir_name(n) for n in batch)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,40}[A-Za-z0-9_-]", fullmatch=True)))
def test_safe_names_are_cleared_at_once(batch: list[str]) -> None:
    devices = [n for n in batch if not is_safe_dir_name(n)]  # con.x and the like
    assert _all_safe(batch) == (not devices)


def test_the_edges() -> None:
    assert _all_safe(["task-a-seed7", "x" * 128])
    assert not _all_safe(["x" * 129])
    assert not _all_safe(["ok", "a."])
    assert not _all_safe(["Con.log"])
    assert not _all_safe(["a\nb"])  # a newline inside a name is not a separator
    assert _all_safe([])
