"""The loader reads each file with one call sized from its stat; a file whose size changed since
the stat is still read whole (closed_run._Reader.read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalview.load.closed_run import _Reader


@pytest.mark.parametrize("stale_size", [0, 1, 99, 100, 101, 5000])
def test_file_is_read_whole_whatever_the_stat_said(tmp_path: Path, stale_size: int) -> None:
    body = bytes(range(100))
    (tmp_path / "f.json").write_bytes(body)
    reader = _Reader(tmp_path)
    assert reader.read("f.json", stale_size) == body
    assert reader.bytes_read == 100 and reader.findings == []


def test_large_file_grown_past_the_stat_is_read_to_its_end(tmp_path: Path) -> None:
    body = b"x" * (3 << 20)  # more than one follow-up read chunk
    (tmp_path / "f.json").write_bytes(body)
    assert _Reader(tmp_path).read("f.json", 10) == body


def test_unreadable_file_is_a_finding(tmp_path: Path) -> None:
    reader = _Reader(tmp_path)
    assert reader.read("missing.json", 10) is None
    assert [f.code for f in reader.findings] == ["EV102"]
