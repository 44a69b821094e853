"""A single file that is not a run: the message says what the file is, and what to pass instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalview.load import InputError, load_run


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"hello\n", "not strict JSON (unexpected character"),
        (b'{"a": 1,\n "a": 2}', "the key 'a' appears twice in one object at line 2"),
        (b'{"a": NaN}', "NaN is not a JSON number at line 1"),
        (b"[1, 2]", "valid JSON, but of no format evalview reads"),
    ],
)
def test_a_file_that_is_not_a_run_is_explained(
    tmp_path: Path, content: bytes, expected: str
) -> None:
    path = tmp_path / "thing.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        load_run(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert expected in message
    # what to pass instead, from the registry: every format evalview reads is named
    assert "evalview reads: a closed-run directory" in message
    assert "a LeRobot eval_info.json" in message and "benchmark-harness result" in message
    assert path.read_bytes() == content
