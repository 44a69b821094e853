"""Issue 25's shortcuts in reading an Inspect log and a strict JSON document give exactly what
the long road gives: a sound zip member read from the log's bytes is zipfile's bytes, a member
that is not sound is left to zipfile (which words what is wrong, as before), and the depth
check's reused padding serialises as the padding built anew."""

from __future__ import annotations

import io
import json
import struct
import zipfile
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalview.load.inspect_ai import container as C
from evalview.load.safe_json import MAX_DEPTH, pad_depth, padded_dumps, parse_strict
from helpers.paths import REPO, SAMPLE_RUNS

LOGS = sorted((REPO / "tests" / "fixtures" / "inspect_ai").glob("*.eval")) + sorted(
    (SAMPLE_RUNS / "inspect").glob("*.eval"))


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_a_sound_member_is_read_as_zipfile_reads_it(log: Path) -> None:
    raw = log.read_bytes()
    z = C._Zip(log, raw)
    for name, info in z.last.items():
        assert z._plain(info) == z.zf.read(info), name  # taken: the same bytes
        assert z.read(name) == z.zf.read(info)


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def _damaged(raw: bytes, how: str) -> bytes:
    """`raw` (one member) damaged at its local header or its data."""
    b = bytearray(raw)
    n = struct.unpack("<H", b[26:28])[0]
    if how == "crc":  # the stored data changed, the CRC not
        start = 30 + n + struct.unpack("<H", b[28:30])[0]
        b[start] ^= 0xFF
    elif how == "name":  # the local header names another member
        b[30] = ord("X")
    elif how == "magic":
        b[0:4] = b"PK\x05\x06"
    return bytes(b)


def _outcome(z: C._Zip, name: str) -> object:
    try:
        return z.read(name)
    except Exception as exc:  # whatever the long road raises, the short one must too
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("how", ["crc", "name", "magic"])
@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
def test_a_damaged_member_is_left_to_zipfile(
    how: str, method: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = _damaged(_zip({"samples/1_epoch_1.json": b'{"id": 1, "epoch": 1}' * 20}, method), how)
    z = C._Zip(Path("log.eval"), raw)
    assert z._plain(z.last["samples/1_epoch_1.json"]) is None
    short = _outcome(z, "samples/1_epoch_1.json")
    monkeypatch.setattr(C._Zip, "_plain", lambda self, info: None)  # zipfile alone, as before
    assert short == _outcome(z, "samples/1_epoch_1.json")
    assert not isinstance(short, bytes)


def test_a_member_longer_than_its_header_says_is_left_to_zipfile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    z = C._Zip(Path("log.eval"), _zip({"samples/1_epoch_1.json": b'{"id": 1}' * 50}))
    info = z.last["samples/1_epoch_1.json"]
    info.file_size -= 1  # the central directory declares one byte fewer
    assert z._plain(info) is None
    short = _outcome(z, "samples/1_epoch_1.json")
    monkeypatch.setattr(C._Zip, "_plain", lambda self, info: None)
    assert short == _outcome(z, "samples/1_epoch_1.json")
    assert short[0] == "InputError"  # type: ignore[index]


def _nested(depth: int, inner: object = 1) -> object:
    value = inner
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [0, 1, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 300])
def test_the_reused_padding_serialises_as_the_padding_built_anew(depth: int) -> None:
    for value in (_nested(depth), {"a": _nested(depth, {})}, _nested(depth, "x:y")):
        try:
            expected: bytes | str = orjson.dumps(pad_depth(value))
        except TypeError:
            expected = "too deep"
        for _ in range(2):  # a chain is reused from the second call on
            try:
                got: bytes | str = padded_dumps(value)
            except TypeError:
                got = "too deep"
            assert got == expected


def test_parse_strict_never_builds_the_padding(monkeypatch: pytest.MonkeyPatch) -> None:
    """126 lists per document were built and dropped: more than the parse of an Inspect
    member (issue 25). The padding is reused now."""
    import evalview.load.safe_json as sj

    def built(value: object) -> object:
        raise AssertionError("padding built")

    monkeypatch.setattr(sj, "pad_depth", built)
    assert parse_strict(b'{"a": [1, {"b": 2}]}') == ({"a": [1, {"b": 2}]}, None)
    assert parse_strict(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))[1] is not None


# -- parse_lenient: orjson first, the stdlib decoder for what orjson reads otherwise ----------

_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70),
    st.sampled_from([2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**18, 10**19, 0, -0.0]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["\ud800", "x\udfffy", "\u2028", "\x00", "😀", "a\\u0041"]),
)
_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=20,
)


def _typed(value: object) -> object:
    """A comparable form: every value with its type, NaN as a marker (NaN != NaN)."""
    if isinstance(value, dict):
        return ("dict", [(k, _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(v) for v in value])
    if isinstance(value, float) and value != value:
        return ("float", "NaN")
    if isinstance(value, float):
        return ("float", repr(value))
    return (type(value).__name__, value)


def _both(raw: bytes) -> None:
    from evalview.load.safe_json import _parse_lenient_stdlib, parse_lenient

    value, repeated, problem = parse_lenient(raw, first_line=3)
    want, want_repeated, want_problem = _parse_lenient_stdlib(raw, first_line=3)
    assert (_typed(value), repeated, problem) == (_typed(want), want_repeated, want_problem)


@settings(max_examples=400, deadline=None)
@given(_VALUE, st.sampled_from(["plain", "ascii", "dup", "deep", "bom", "tail", "bad-utf8"]))
def test_parse_lenient_reads_what_the_stdlib_decoder_reads(value: object, how: str) -> None:
    text = json.dumps(value, ensure_ascii=how == "ascii")  # NaN and Infinity as Python writes
    raw = text.encode("utf-8", "surrogatepass")  # a lone surrogate: bytes that are not UTF-8
    if how == "dup" and raw.startswith(b"{") and len(raw) > 2:
        raw = b'{"k": 1, "k": [2], ' + raw[1:]
    elif how == "deep":
        raw = b"[" * 130 + raw + b"]" * 130
    elif how == "bom":
        raw = b"\xef\xbb\xbf" + raw
    elif how == "tail":
        raw += b" x"
    elif how == "bad-utf8":
        raw = raw + b" \xff"
    _both(raw)


@pytest.mark.parametrize("raw", [
    b'{"a": 1}', b'{"a": NaN}', b'[1e400]', b'[18446744073709551616]', b'[9223372036854775808]',
    b'[123456789012345678]', b'["1234567890123456789"]', b'{"a": 1, "a": 2}', b'"\\ud800"',
    b'"\\ud83d\\ude00"', b"", b" ", b"[1] [2]", b"[" * 129 + b"]" * 129, b"7" * 5000,
])
def test_parse_lenient_at_its_edges(raw: bytes) -> None:
    _both(raw)


@pytest.mark.parametrize("n", [1, 18, 19, 25])
def test_digit_run_finds_a_run_of_digits_anywhere(n: int) -> None:
    from evalview.load.safe_json import digit_run

    runs = (b"7" * n, b'{"a": -' + b"9" * n + b"}", b'"x' + b"0" * n + b'y"', b"1.5e" + b"3" * n)
    for raw in runs:
        assert digit_run(raw) == (n >= 19), raw
    assert not digit_run(b"1234567890.123456789 " * 3)


def _deflated_log_with_bad_stream(tmp: Path) -> tuple[Path, str]:
    """The sample log rewritten with deflate, one sample's compressed data made invalid (its
    first block type 3, which no deflate stream has): zlib raises on it."""
    src = SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval"
    with zipfile.ZipFile(src) as zf:
        members = {info.filename: zf.read(info) for info in zf.infolist()}
    raw = bytearray(_zip(members))
    victim = next(name for name in members if name.startswith("samples/"))
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as zf:
        off = zf.getinfo(victim).header_offset
    n, m = struct.unpack("<HH", raw[off + 26 : off + 30])
    raw[off + 30 + n + m] = 0xFF  # BFINAL=1, BTYPE=11: "invalid block type"
    log = tmp / "damaged.eval"
    log.write_bytes(bytes(raw))
    return log, victim


def test_a_deflated_member_whose_data_is_damaged_is_an_input_error(tmp_path: Path) -> None:
    log, victim = _deflated_log_with_bad_stream(tmp_path)
    z = C._Zip(log, log.read_bytes())
    with pytest.raises(C.InputError, match="cannot be read") as caught:
        z.read(victim)
    assert victim in str(caught.value) and str(log) in str(caught.value)


def test_check_of_a_log_with_a_damaged_member_names_it_without_a_traceback(
    tmp_path: Path,
) -> None:
    import subprocess
    import sys

    log, victim = _deflated_log_with_bad_stream(tmp_path)
    done = subprocess.run([sys.executable, "-m", "evalview", "check", str(log)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert victim in done.stderr and "cannot be read" in done.stderr
