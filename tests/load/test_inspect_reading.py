"""Reading Inspect logs safely: detection by content, zstd members, and hostile files (zip bombs,
too many members, encrypted or damaged members, broken JSON, duplicate keys) refused or reported
with the file and the member named, never a traceback."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from evalview.load import read_input
from evalview.load.errors import InputError, NotARead
from evalview.load.inspect_ai import container as C
from evalview.load.inspect_ai import read_log
from evalview.load.source import Source
from evalview.model.run import COMPLETED, INVALID
from evalview.samples import inspect_ai as G
from helpers.inspect_logs import run_cli, small_log, write

VALUES = [["C", "I"], ["I", "I"], ["C", "C"]]


def _members(tmp_path: Path) -> list[tuple[str, bytes]]:
    return G.eval_members(small_log(VALUES))


def test_zstd_members_read_like_deflate(tmp_path: Path) -> None:
    """Current Inspect writes .eval members with zstd (method 93): read them the same."""
    log = small_log(VALUES)
    a = read_log(Source(write(log, tmp_path / "a.eval")))
    b = read_log(Source(write(log, tmp_path / "b.eval", zstd=True)))
    assert list(a.episodes.success) == list(b.episodes.success)
    assert [f.code for f in a.reading_findings] == [f.code for f in b.reading_findings]


def test_detected_by_content_not_by_name(tmp_path: Path) -> None:
    log = small_log(VALUES)
    for name, fmt in (("log.zip", "eval"), ("log.txt", "json"), ("log", "eval")):
        path = write(log, tmp_path / name, fmt)
        assert read_input(path).format == "inspect-ai", name


def test_a_zip_that_is_not_inspect_is_not_claimed(tmp_path: Path) -> None:
    path = tmp_path / "other.eval"
    G.write_zip(path, [("data.json", b"{}")])
    with pytest.raises(InputError) as caught:
        read_input(path)
    assert "Inspect log" not in str(caught.value)  # another format's refusal, not ours


def test_json_that_is_not_inspect_is_not_claimed(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"version": 2, "eval": {"task": "t"}}), encoding="utf-8")
    with pytest.raises(NotARead):
        read_input(path)


def test_an_inspect_log_quoting_another_format_s_keys_is_still_inspect(tmp_path: Path) -> None:
    """A transcript may hold any text, LeRobot's marker keys included: detection is by the log's
    own top-level keys, asked before the LeRobot reader."""
    log = small_log(VALUES)
    log.samples[0]["messages"][0]["content"] = '"per_task" and "per_episode" {"overall": 1}'
    log.samples[1]["scores"]["includes"]["answer"] = float("nan")  # not strict JSON
    path = write(log, tmp_path / "log.json", "json")
    assert read_input(path).format == "inspect-ai"


def test_nan_in_a_json_log_is_read(tmp_path: Path) -> None:
    log = small_log(VALUES)
    log.samples[0]["scores"]["includes"]["value"] = float("nan")
    path = write(log, tmp_path / "log.json", "json")
    assert b"NaN" in path.read_bytes()
    run = read_log(Source(path))
    assert "EV014" in {f.code for f in run.reading_findings}


def test_duplicate_keys_refuse_the_json_log(tmp_path: Path) -> None:
    path = write(small_log(VALUES), tmp_path / "log.json", "json")
    text = path.read_text(encoding="utf-8").replace('"status": "success"',
                                                    '"status": "success", "status": "error"', 1)
    path.write_text(text, encoding="utf-8")
    done = run_cli(["check", path])
    assert done.code == 2
    assert "log.json:3" in done.text and "'status' appears twice" in done.text


def test_truncated_json_log_names_file_and_line(tmp_path: Path) -> None:
    path = write(small_log(VALUES), tmp_path / "log.json", "json")
    path.write_bytes(path.read_bytes()[:900])
    done = run_cli(["check", path])
    assert done.code == 2 and "log.json:" in done.text and "Traceback" not in done.text


def test_a_broken_sample_member_is_a_finding_and_its_episode_invalid(tmp_path: Path) -> None:
    members = [(n, b'{"id": 2, "epoch": 1, ' if n == "samples/2_epoch_1.json" else b)
               for n, b in _members(tmp_path)]
    path = tmp_path / "log.eval"
    G.write_zip(path, members)
    run = read_log(Source(path))
    bad = [f for f in run.reading_findings if f.code == "EV104"]
    assert bad and "samples/2_epoch_1.json" in bad[0].message
    i = list(run.episodes.ids).index("2/epoch1")
    assert run.episodes.status[i] == INVALID
    assert run.episodes.file[i] == "samples/2_epoch_1.json"
    j = list(run.episodes.ids).index("2/epoch2")
    assert run.episodes.status[j] == COMPLETED


def test_a_damaged_zip_is_refused_naming_it(tmp_path: Path) -> None:
    path = write(small_log(VALUES), tmp_path / "log.eval")
    path.write_bytes(path.read_bytes()[: 200])  # the central directory is gone
    done = run_cli(["check", path])
    assert done.code == 2
    assert "log.eval" in done.text and "not a readable zip" in done.text


def test_header_not_json_is_refused(tmp_path: Path) -> None:
    members = [(n, b"{oops" if n == "header.json" else b) for n, b in _members(tmp_path)]
    path = tmp_path / "log.eval"
    G.write_zip(path, members)
    done = run_cli(["check", path])
    assert done.code == 2 and "member header.json is not valid JSON" in done.text


def test_zip_bomb_member_is_refused_before_decompression(tmp_path: Path) -> None:
    """A member that decompresses 1,000 times its size is refused from the central directory."""
    members = _members(tmp_path)
    members.insert(1, ("samples/9_epoch_1.json", b" " * (8 * 1024 * 1024)))
    path = tmp_path / "log.eval"
    G.write_zip(path, members)
    with pytest.raises(InputError, match="zip bomb"):
        read_log(Source(path))


def test_member_count_and_size_bounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(small_log(VALUES), tmp_path / "log.eval")
    monkeypatch.setattr(C, "MAX_MEMBERS", 5)
    with pytest.raises(InputError, match="zip members, over the bound of 5"):
        read_log(Source(path))
    monkeypatch.setattr(C, "MAX_MEMBERS", 1000)
    monkeypatch.setattr(C, "MAX_MEMBER_BYTES", 100)
    with pytest.raises(InputError, match="over the bound of 0 MiB per member"):
        read_log(Source(path))
    monkeypatch.setattr(C, "MAX_MEMBER_BYTES", 1 << 30)
    monkeypatch.setattr(C, "MAX_TOTAL_BYTES", 2000)
    with pytest.raises(InputError, match="decompress to"):
        read_log(Source(path))


def test_sample_count_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from evalview.load.inspect_ai import reader

    monkeypatch.setattr(reader, "MAX_SAMPLES", 3)
    with pytest.raises(InputError, match="6 samples, over the bound of 3"):
        read_log(Source(write(small_log(VALUES), tmp_path / "log.eval")))


def test_encrypted_member_is_refused(tmp_path: Path) -> None:
    path = write(small_log(VALUES), tmp_path / "log.eval")
    raw = bytearray(path.read_bytes())
    cd = raw.rfind(b"PK\x01\x02")  # the last central entry: header.json
    flags = struct.unpack_from("<H", raw, cd + 8)[0]
    struct.pack_into("<H", raw, cd + 8, flags | 0x1)
    path.write_bytes(bytes(raw))
    with pytest.raises(InputError, match="encrypted"):
        read_log(Source(path))


def test_a_member_that_lies_about_its_size_is_refused(tmp_path: Path) -> None:
    """A zstd member whose header declares fewer bytes than it decompresses to."""
    path = write(small_log(VALUES), tmp_path / "log.eval", zstd=True)
    raw = bytearray(path.read_bytes())
    pos = raw.rfind(b"PK\x01\x02")  # the last central entry: header.json
    size = struct.unpack_from("<I", raw, pos + 24)[0]
    struct.pack_into("<I", raw, pos + 24, size - 10)
    path.write_bytes(bytes(raw))
    with pytest.raises(InputError, match=r"damaged|another checksum"):
        read_log(Source(path))


def test_a_log_being_written_reads_from_start_json(tmp_path: Path) -> None:
    """No header.json yet (Inspect writes it last): start.json is the header, the log is
    'started', and what is not yet logged is unattempted."""
    members = [(n, b) for n, b in _members(tmp_path)
               if n not in ("header.json", "summaries.json", "reductions.json")
               and n != "samples/3_epoch_2.json"]
    path = tmp_path / "log.eval"
    G.write_zip(path, members)
    run = read_log(Source(path))
    codes = {f.code for f in run.reading_findings}
    assert "EV002" in codes and "EV013" not in codes  # status 'started', not 'success'
    assert "no header.json yet" in (run.source_format or "")
    i = list(run.episodes.ids).index("3/epoch2")
    assert run.episodes.status[i] == "unattempted"
