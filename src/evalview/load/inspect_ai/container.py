"""The two files Inspect writes a log as, read into the same documents, within bounds.

- `.eval` (Inspect's `EvalRecorder`): a zip whose members are JSON documents: `header.json` (the
  log without samples: version, status, eval, plan, results, stats, error), `_journal/start.json`
  (version, eval, plan: all a log still being written has), `summaries.json`, `reductions.json`
  and one `samples/<id>_epoch_<n>.json` per sample and epoch. A re-logged sample (a requeued one)
  appends a second member of the same name; Inspect reads the last, and so does evalview.
- `.json` (`JSONRecorder`): one document with the header's keys plus `samples` and `reductions`.

Inspect writes NaN for an unscored value (pydantic's `ser_json_inf_nan="constants"`), which strict
JSON forbids: a document that is not strict JSON only for that reason is parsed by the stdlib with
duplicate keys still refused.

Bounds, checked from the zip's central directory before a member is decompressed, and again
while it is read (a member never yields more than its bound, whatever its header says): at most
`MAX_MEMBERS` members, `MAX_MEMBER_BYTES` per member, `MAX_TOTAL_BYTES` in all, and a compression
ratio of at most `MAX_RATIO` for a member over 1 MiB (a zip bomb reaches 1,000:1). The file itself
is within the input bound (`load.bounds.MAX_BYTES`) before any reader sees it. The header and the
summaries are read first; the samples then member by member, each parsed, reduced to what evalview
keeps of it (`parse.py`) and dropped, so the transcripts are never all in memory at once.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalview.findings import Finding
from evalview.load.errors import InputError
from evalview.load.safe_json import JsonProblem, parse_lenient, parse_strict

HEADER = "header.json"
START = "_journal/start.json"
SUMMARIES = "summaries.json"
REDUCTIONS = "reductions.json"
SAMPLES_DIR = "samples/"
ZIP_MAGIC = b"PK\x03\x04"
#: The zip compression method number of zstd (Inspect's default since it adopted zstd).
ZIP_ZSTANDARD = 93

#: Members a .eval may hold (a sample-epoch each, plus the journal): 200,000 sample-epochs.
MAX_MEMBERS = 250_000
#: Uncompressed bytes of one member, and of all members together.
MAX_MEMBER_BYTES = 128 * 1024 * 1024
MAX_TOTAL_BYTES = 1024 * 1024 * 1024
#: Uncompressed / compressed size of a member over `_RATIO_FLOOR` bytes.
MAX_RATIO = 200
_RATIO_FLOOR = 1024 * 1024

#: Flag bits zipfile refuses or needs a password for (encrypted, patched, strong encryption).
_UNREAD_FLAGS = 0x1 | 0x20 | 0x40

_SAMPLE_NAME = re.compile(r"^samples/(?P<id>.+)_epoch_(?P<epoch>\d+)\.json$")


@dataclass(frozen=True, slots=True)
class Doc:
    """One JSON document of the log and where it is (a member name, or a JSON path)."""

    where: str
    value: Any


@dataclass
class LogFile:
    """What a log holds, before its meaning is read: the header's documents, and the samples as
    an iterator (each document read, parsed and handed on in turn)."""

    path: Path
    container: str  # "eval" | "json"
    header: Doc
    #: None: a .eval without header.json (being written, or crashed): start.json is the header
    complete: bool
    summaries: Doc | None
    reductions: Doc | None
    samples: Callable[[], Iterator[Doc]]
    #: how many sample documents `samples()` will yield (for progress and the bound)
    sample_count: int
    #: reading problems found so far (unparseable members, superseded members)
    findings: list[Finding] = field(default_factory=list)
    #: sample member names that appear more than once (the last is read)
    superseded: list[str] = field(default_factory=list)
    size: int = 0


def sample_key_of_member(name: str) -> tuple[str, int] | None:
    """(id text, epoch) from a sample member's name, for a member too broken to say itself."""
    m = _SAMPLE_NAME.match(name)
    return None if m is None else (m.group("id"), int(m.group("epoch")))


# -- parsing one document ------------------------------------------------------------------


def parse_doc(raw: bytes, first_line: int = 1) -> tuple[Any, JsonProblem | None]:
    """Strict JSON, except the NaN / Infinity tokens Inspect writes (duplicates still refused)."""
    value, problem = parse_strict(raw, first_line=first_line)
    if problem is None or problem.kind != "nonfinite-number":
        return value, problem
    # bounded as the strict parse is (depth, lone surrogates), never json.loads (issue 24)
    value, repeated, problem = parse_lenient(raw, first_line=first_line)
    if problem is not None:
        return None, problem
    if repeated:
        return None, JsonProblem("duplicate-key", f"the key {repeated[0]!r} appears twice in "
                                 "one object")
    return value, None


def _problem_text(problem: JsonProblem) -> str:
    at = f" (line {problem.line})" if problem.line is not None and "line" not in problem.detail \
        else ""
    return f"{problem.detail}{at}"


# -- .eval ---------------------------------------------------------------------------------


def looks_like_eval(head: bytes) -> bool:
    """A zip whose first member is one Inspect writes first (`_journal/start.json`, or
    `header.json` in a log rewritten whole): read from the local header, no central directory."""
    if not head.startswith(ZIP_MAGIC) or len(head) < 30:
        return False
    n = int.from_bytes(head[26:28], "little")
    name = head[30 : 30 + n]
    return name in (START.encode(), HEADER.encode())


def zip_members(raw: bytes) -> list[str] | None:
    """The member names of a zip, or None when it is not a readable zip."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            return zf.namelist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError):
        return None


class _Zip:
    """A .eval's zip, every member checked against the bounds from the central directory."""

    def __init__(self, path: Path, raw: bytes) -> None:
        self.path = path
        self.raw = raw
        try:
            self.zf = zipfile.ZipFile(io.BytesIO(raw))
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError) as exc:
            raise InputError(
                f"{path}: not a readable zip ({exc}), so not an Inspect .eval log that can be "
                "read; was it copied while Inspect was writing it? Copy it again."
            ) from exc
        infos = self.zf.infolist()
        if len(infos) > MAX_MEMBERS:
            raise InputError(
                f"{path}: {len(infos):,} zip members, over the bound of {MAX_MEMBERS:,}; the log "
                "was not read. Split the eval."
            )
        total = 0
        #: name -> the last member of that name (Inspect reads the last), in central order
        self.last: dict[str, zipfile.ZipInfo] = {}
        self.repeated: list[str] = []
        for info in infos:
            self._check(info)
            total += info.file_size
            if info.filename in self.last and info.filename not in self.repeated:
                self.repeated.append(info.filename)
            self.last[info.filename] = info
        if total > MAX_TOTAL_BYTES:
            raise InputError(
                f"{path}: its members decompress to {total / 2**20:,.0f} MiB, over the bound of "
                f"{MAX_TOTAL_BYTES // 2**20:,} MiB; the log was not read."
            )

    def _check(self, info: zipfile.ZipInfo) -> None:
        where = f"{self.path}: member {info.filename!r}"
        if info.flag_bits & 0x1:
            raise InputError(f"{where} is encrypted; Inspect never writes one. Not read.")
        if info.file_size > MAX_MEMBER_BYTES:
            raise InputError(
                f"{where} is {info.file_size / 2**20:,.0f} MiB uncompressed, over the bound of "
                f"{MAX_MEMBER_BYTES // 2**20} MiB per member; the log was not read."
            )
        if info.file_size > _RATIO_FLOOR and info.file_size > MAX_RATIO * max(
            info.compress_size, 1
        ):
            raise InputError(
                f"{where} would decompress {info.file_size / max(info.compress_size, 1):,.0f} "
                f"times its size (bound {MAX_RATIO}:1, a zip bomb's mark); the log was not read."
            )

    def has(self, name: str) -> bool:
        return name in self.last

    def read(self, name: str) -> bytes:
        """The member's bytes, never more than its declared size; InputError when the zip is
        damaged there."""
        info = self.last[name]
        if info.compress_type == ZIP_ZSTANDARD:
            return self._zstd(info)
        data = self._plain(info)
        if data is not None:
            return data
        try:
            with self.zf.open(info) as f:
                data = f.read(info.file_size + 1)
        except (
            zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError, zlib.error
        ) as exc:  # zlib.error: a deflated member whose data is damaged
            raise InputError(f"{self.path}: member {name!r} cannot be read ({exc}).") from exc
        except RuntimeError as exc:  # zipfile: an encrypted member
            raise InputError(f"{self.path}: member {name!r} cannot be read ({exc}).") from exc
        if len(data) > info.file_size:
            raise InputError(
                f"{self.path}: member {name!r} holds more than the {info.file_size:,} bytes its "
                "header declares; the log was not read."
            )
        return data

    def _plain(self, info: zipfile.ZipInfo) -> bytes | None:
        """A stored or deflated member read straight from the log's bytes, as zipfile reads it
        (local header, name, flags, at most its declared size, CRC) without zipfile's file
        object per member, which cost a third of reading a 6,000-member log. None when anything
        is not as in a sound member: zipfile then reads it, and words what is wrong."""
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or (
            info.flag_bits & _UNREAD_FLAGS
        ):
            return None
        raw, off = self.raw, info.header_offset
        head = raw[off : off + 30]
        if len(head) < 30 or not head.startswith(ZIP_MAGIC):
            return None
        flags = int.from_bytes(head[6:8], "little")
        n = int.from_bytes(head[26:28], "little")
        start = off + 30 + n + int.from_bytes(head[28:30], "little")
        try:
            name = raw[off + 30 : off + 30 + n].decode("utf-8" if flags & 0x800 else "cp437")
        except UnicodeDecodeError:
            return None
        packed = raw[start : start + info.compress_size]
        if name != info.orig_filename or len(packed) != info.compress_size:
            return None
        if info.compress_type == zipfile.ZIP_STORED:
            data = packed
        else:
            try:
                data = zlib.decompressobj(-15).decompress(packed, info.file_size + 1)
            except zlib.error:
                return None
        if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
            return None
        return data

    def _zstd(self, info: zipfile.ZipInfo) -> bytes:
        """A zstd member (Inspect's default compression; several frames when large), read from
        its local header, decompressed no further than its declared size, its CRC checked."""
        where = f"{self.path}: member {info.filename!r}"
        raw, off = self.raw, info.header_offset
        head = raw[off : off + 30]
        if len(head) < 30 or not head.startswith(ZIP_MAGIC):
            raise InputError(f"{where}: its local header is not where the zip says; not read.")
        start = off + 30 + int.from_bytes(head[26:28], "little") + int.from_bytes(
            head[28:30], "little")
        packed = raw[start : start + info.compress_size]
        try:
            import zstandard
        except ImportError as exc:  # a dependency of evalview: only a broken install lacks it
            raise InputError(f"{where} is zstd-compressed and the zstandard package is not "
                             "installed; `pip install zstandard`.") from exc
        chunks: list[bytes] = []
        size = 0
        try:
            reader = zstandard.ZstdDecompressor().stream_reader(
                io.BytesIO(packed), read_across_frames=True)
            while size <= info.file_size:
                chunk = reader.read(min(1 << 20, info.file_size + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        except zstandard.ZstdError as exc:
            raise InputError(f"{where} cannot be decompressed ({exc}); not read.") from exc
        data = b"".join(chunks)
        if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
            raise InputError(
                f"{where} decompresses to {len(data):,} bytes with another checksum than its "
                f"header's {info.file_size:,}; the zip is damaged there."
            )
        return data

    def doc(self, name: str, what: str) -> Doc:
        """A member that must parse (the header): InputError naming the member otherwise."""
        value, problem = parse_doc(self.read(name))
        if problem is not None:
            raise InputError(
                f"{self.path}: member {name} is not valid JSON ({_problem_text(problem)}); the "
                f"{what} was not read. Re-write the log (`inspect log convert`)."
            )
        return Doc(name, value)

    def sample_names(self) -> list[str]:
        return [n for n in self.last if n.startswith(SAMPLES_DIR) and n.endswith(".json")]


def read_eval(path: Path, raw: bytes, on_bad: Callable[[str, JsonProblem], None],
              progress: Callable[[int, int], None] | None = None) -> LogFile:
    """The documents of a .eval log; the samples are read when `LogFile.samples()` is iterated.
    `on_bad(member, problem)` hears of a sample member that does not parse."""
    z = _Zip(path, raw)
    if z.has(HEADER):
        header, complete = z.doc(HEADER, "log header"), True
    elif z.has(START):
        header, complete = z.doc(START, "log header (_journal/start.json)"), False
    else:
        raise InputError(
            f"{path}: a zip with neither header.json nor _journal/start.json, so not an Inspect "
            ".eval log; evalview reads the .eval files Inspect writes."
        )
    summaries = _optional(z, SUMMARIES, on_bad)
    reductions = _optional(z, REDUCTIONS, on_bad)
    names = z.sample_names()
    sizes = [z.last[n].file_size for n in names]

    def samples() -> Iterator[Doc]:
        total, done = sum(sizes), 0
        for name, size in zip(names, sizes, strict=True):
            value, problem = parse_doc(z.read(name))
            done += size
            if progress is not None:
                progress(done, total)
            if problem is not None:
                on_bad(name, problem)
                continue
            yield Doc(name, value)

    return LogFile(
        path=path, container="eval", header=header, complete=complete, summaries=summaries,
        reductions=reductions, samples=samples, sample_count=len(names),
        superseded=[n for n in z.repeated if n.startswith(SAMPLES_DIR)], size=len(raw),
    )


def _optional(z: _Zip, name: str, on_bad: Callable[[str, JsonProblem], None]) -> Doc | None:
    if not z.has(name):
        return None
    value, problem = parse_doc(z.read(name))
    if problem is not None:
        on_bad(name, problem)
        return None
    return Doc(name, value)


# -- .json ---------------------------------------------------------------------------------

#: The top of a JSON log as pydantic writes it: version, then status (then eval). Enough to
#: call a file Inspect's, so that a truncated log is refused as one, naming its line.
_JSON_HEAD = re.compile(rb'^\s*\{\s*"version"\s*:\s*-?\d+\s*,\s*"status"\s*:')


def looks_like_json_log(head: bytes) -> bool:
    return _JSON_HEAD.match(head) is not None


def is_log_document(value: Any) -> bool:
    """An Inspect log's shape: an object with an integer version and an eval spec naming its
    task, dataset and model (whatever order the keys were written in)."""
    if not isinstance(value, dict):
        return False
    spec = value.get("eval")
    return (
        isinstance(value.get("version"), int)
        and not isinstance(value.get("version"), bool)
        and isinstance(spec, dict)
        and all(k in spec for k in ("task", "dataset", "model"))
    )


def read_json(path: Path, raw: bytes, strict: tuple[Any, JsonProblem | None]) -> LogFile:
    """The documents of a .json log (parsed whole: the format is one document)."""
    value, problem = strict if strict[1] is None or strict[1].kind != "nonfinite-number" \
        else parse_doc(raw)
    if problem is not None:
        at = f":{problem.line}" if problem.line is not None else ""
        raise InputError(
            f"{path}{at}: {problem.detail}; the Inspect log was not read. Re-write it with "
            "Inspect (`inspect log convert`)."
        )
    if not is_log_document(value):
        raise InputError(
            f"{path}: starts as an Inspect log but its top level lacks version or eval "
            "(task, dataset, model); it was not read."
        )
    samples = value.get("samples")
    listed = samples if isinstance(samples, list) else []
    header = Doc(path.name, {k: v for k, v in value.items() if k not in ("samples",)})
    reductions = value.get("reductions")

    def docs() -> Iterator[Doc]:
        for i, s in enumerate(listed):
            yield Doc(f"$.samples[{i}]", s)

    return LogFile(
        path=path, container="json", header=header, complete=True, summaries=None,
        reductions=None if reductions is None else Doc("$.reductions", reductions),
        samples=docs, sample_count=len(listed), size=len(raw),
    )
