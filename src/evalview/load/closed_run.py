"""Reading a closed-run directory (`starvla-rsi.eval/v1`) into a `Run`, safely.

Nothing is written, nothing outside the files the format names is opened, symlinks are refused,
and the bounds are checked from file sizes and line counts before anything is parsed. Every
problem becomes a reading finding (EV1xx) and reading goes on with what is left, so the audit
still sees everything that could be read.

Speed (bench/bench_check.py): a result file whose bytes equal its episodes.jsonl line is not parsed
again (same bytes, same strict parse), each file is stat'ed once, paths are plain strings, and the
cyclic garbage collector is paused while the tree of parsed objects is built (it holds no cycles,
and full collections over 10,000 records cost more than the parsing).
"""

from __future__ import annotations

import contextlib
import gc
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from evalview import rules as R
from evalview.findings import Finding
from evalview.load import builtin
from evalview.load.bounds import MAX_BYTES, MAX_EPISODES, int64
from evalview.load.errors import InputError
from evalview.load.reader import NamedRun, OnRead, OnRecord, Reading, ReadOptions, RecordHook
from evalview.load.safe_json import pad_depth, parse_strict
from evalview.load.source import Source
from evalview.model.record import get_path as _get
from evalview.model.run import (
    COMPLETED,
    DEFAULT_MESSAGE_KEY,
    ERROR,
    INVALID,
    UNATTEMPTED,
    EpisodeRecord,
    EpisodeTable,
    Identity,
    Protocol,
    ResultFile,
    Run,
    run_with_table,
    split_episode_id,
)

DOCUMENTS = ("manifest.json", "status.json", "summary.json")
EPISODES_JSONL = "episodes.jsonl"
EPISODES_DIR = "episodes"
RESULT_NAME = "result.json"


#: `progress(done, total)`: bytes of the run's files processed so far, out of their total.
Progress = Callable[[int, int], None]


class _Reader:
    def __init__(
        self, root: Path, progress: Progress | None = None, on_read: OnRead | None = None
    ) -> None:
        self.root = root
        self.on_read = on_read
        #: lstat of each regular file, kept only for `on_read`
        self.stats: dict[str, os.stat_result] = {}
        self.base = os.path.join(os.fspath(root), "")
        self.findings: list[Finding] = []
        self.bytes_read = 0
        self.progress = progress
        self.done = 0
        self.total = 0
        self._next_report = 0
        #: episodes/ opened once (no symlink followed), so each result file is stat'ed and opened
        #: relative to it rather than walking the run's whole path again; None: by path
        self.episodes_fd: int | None = None
        #: sees each record as parsed (`ReadOptions.on_record`)
        self.hook: RecordHook | None = None

    def advance(self, n: int) -> None:
        """Count `n` more bytes processed; call `progress` about every 1 % of the total (callers
        check `self.progress` first, so the default path pays nothing)."""
        self.done += n
        if self.progress is not None and self.done >= self._next_report:
            self._next_report = self.done + max(1, self.total // 100)
            self.progress(min(self.done, self.total), self.total)

    def lstat(self, rel: str, *, required: bool) -> os.stat_result | None:
        """Stat without following links; report missing, symlinked and non-regular files."""
        try:
            st: os.stat_result | OSError = os.lstat(self.base + rel)
        except OSError as exc:
            st = exc
        return self.judge(rel, st, required=required)

    def judge(
        self, rel: str, st: os.stat_result | OSError, *, required: bool
    ) -> os.stat_result | None:
        """The stat result if `rel` is a regular file, else None and (maybe) a finding."""
        if isinstance(st, FileNotFoundError):
            if required:
                self.findings.append(
                    R.FILE_MISSING(
                        f"{rel} is missing; a closed run needs it. Re-export the run "
                        "or restore the file.",
                        file=rel,
                    )
                )
            return None
        if isinstance(st, OSError):
            self.findings.append(
                R.FILE_UNREADABLE(
                    f"{rel} cannot be read: {st.strerror}. Make it readable "
                    "(permissions, storage) and re-run.",
                    file=rel,
                )
            )
            return None
        if stat.S_ISLNK(st.st_mode):
            self.findings.append(
                R.SYMLINK(
                    f"{rel} is a symbolic link, which the format rejects; it was not read. "
                    "Replace it with the real file.",
                    file=rel,
                )
            )
            return None
        if not stat.S_ISREG(st.st_mode):
            self.findings.append(
                R.FILE_UNREADABLE(
                    f"{rel} is not a regular file (a directory, pipe or device); it was not "
                    "read. Replace it with the file the format names.",
                    file=rel,
                )
            )
            return None
        if self.on_read is not None:
            self.stats[rel] = st
        return st

    def read(self, rel: str, size: int = 0) -> bytes | None:
        """The file's bytes. `size` (from the stat) lets one read call suffice: asked for one byte
        more, a regular file returns exactly `size` bytes only at its end. A file that grew or
        shrank since is read on to its end. O_NOFOLLOW: a symlink swapped in after the stat is
        refused.
        """
        try:
            if self.episodes_fd is not None and rel.startswith(_EPISODES_PREFIX):
                fd = os.open(rel[_EPISODES_CUT:], _READ_FLAGS, dir_fd=self.episodes_fd)
            else:
                fd = os.open(self.base + rel, _READ_FLAGS)
            try:
                chunks = [os.read(fd, size + 1)]
                if len(chunks[0]) != size:
                    while chunks[-1]:
                        chunks.append(os.read(fd, 1 << 20))
            finally:
                os.close(fd)
        except OSError as exc:
            self.findings.append(
                R.FILE_UNREADABLE(
                    f"{rel} cannot be read: {exc.strerror}. Make it readable "
                    "(permissions, storage) and re-run.",
                    file=rel,
                )
            )
            return None
        data = chunks[0] if len(chunks) <= 2 else b"".join(chunks)
        self.bytes_read += len(data)
        if self.on_read is not None and rel in self.stats:
            self.on_read(rel, self.stats[rel], data)
        return data

    def parse_object(
        self, raw: bytes, rel: str, *, first_line: int = 1, what: str = "file"
    ) -> dict[str, Any] | None:
        value, problem = parse_strict(raw, first_line=first_line)
        if problem is not None:
            rule = R.PROBLEM_RULES[problem.kind]
            self.findings.append(
                rule(
                    f"{rel}{_at(problem.line)}: {problem.detail}; the {what} was not read. "
                    "Fix the JSON at that place and re-run the check.",
                    file=rel,
                    line=problem.line,
                )
            )
            return None
        if not isinstance(value, dict):
            self.findings.append(
                R.NOT_AN_OBJECT(
                    f"{rel}{_at(first_line if what == 'line' else None)}: expected a JSON object, "
                    f"found {_json_type(value)}; it was not read. Each "
                    f"{'line' if what == 'line' else 'file'} must be one JSON object {{...}}.",
                    file=rel,
                    line=first_line if what == "line" else None,
                )
            )
            return None
        return value


def _at(line: int | None) -> str:
    return f":{line}" if line is not None else ""


def _json_type(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def load_closed_run(
    path: Path,
    *,
    message_key: str = DEFAULT_MESSAGE_KEY,
    freeze: bool = False,
    lazy_table: bool = False,
    progress: Progress | None = None,
    on_read: OnRead | None = None,
    on_record: OnRecord | None = None,
) -> Run:
    """Read a closed-run directory. Raises InputError only when the directory itself is unusable.

    `on_read(rel, lstat, data)` (optional) sees every file's bytes once, as read.

    `on_record(documents)` (optional) makes a hook that sees each record as its line is parsed;
    the hook becomes `run.record_checks` (the audit's per-record checks: see `RecordHook`).

    `progress(done, total)` (optional, for the app's loading bar) is told the bytes processed,
    about every 1 % and once at the end; without it reading is exactly as fast as before.

    `freeze=True` is for short-lived commands that keep the Run until they exit (`check`,
    `score`): everything alive is moved to the collector's permanent generation (`gc.freeze`), so
    later collections stop re-traversing 10,000 parsed records (about 0.15 s of CPU in the
    audit of the benchmark run). Long-lived processes (the TUI) should leave it off.

    `lazy_table=True` builds `run.episodes` on first access instead (from the records as read;
    do not change them before). For `check`, which never reads the table: building it and
    importing numpy for it is about 0.15 s on the benchmark run.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        run = _load_closed_run(path, message_key, lazy_table, progress, on_read, on_record)
        if freeze:
            gc.freeze()
        return run
    finally:
        if paused:
            gc.enable()


def _load_closed_run(
    path: Path,
    message_key: str,
    lazy_table: bool,
    progress: Progress | None,
    on_read: OnRead | None = None,
    on_record: OnRecord | None = None,
) -> Run:
    _check_run_dir(path)
    reader = _Reader(path, progress, on_read)
    try:
        return _load_with(reader, path, message_key, lazy_table, progress, on_record)
    finally:
        if reader.episodes_fd is not None:
            os.close(reader.episodes_fd)


def _load_with(
    reader: _Reader,
    path: Path,
    message_key: str,
    lazy_table: bool,
    progress: Progress | None,
    on_record: OnRecord | None,
) -> Run:
    # 1. Stat everything the format names, before reading any of it.
    sizes, result_paths = _stat_files(reader)
    total = reader.total = sum(sizes.values())
    read_episodes = _within_bounds(reader, sizes, len(result_paths))
    # 2. The three small documents.
    documents = _read_documents(reader, sizes, read_episodes)
    if on_record is not None:
        reader.hook = on_record(documents)
    # 3. episodes.jsonl, line by line; 4. result files, compared with its records.
    #: parsed records by their line's bytes, so a byte-identical result file is not parsed again
    by_bytes = _SameBytes()
    #: `eids[i]` is `records[i].episode_id`, taken as each line was parsed
    records, eids = _read_records(reader, sizes, by_bytes) if read_episodes else ([], [])
    result_files: list[ResultFile] = []
    if read_episodes:
        first_by_id = _first_by_id(records, eids)
        result_files = _read_result_files(reader, result_paths, sizes, first_by_id, by_bytes)
    if progress is not None:
        progress(total, total)

    manifest = documents.get("manifest.json")
    schedule = _schedule(manifest)
    return run_with_table(
        lambda: _table(schedule, records, eids, message_key),
        lazy=lazy_table,
        path=path,
        kind="closed-run",
        identity=_identity(manifest),
        protocol=_protocol(manifest),
        schedule=schedule,
        documents=documents,
        records=records,
        result_files=result_files,
        reading_findings=reader.findings,
        bytes_read=reader.bytes_read,
        message_key=message_key,
        record_checks=reader.hook,
    )


def _check_run_dir(path: Path) -> None:
    """InputError unless `path` is a listable directory holding at least one of the run's files:
    the only problems that refuse the whole read rather than becoming findings."""
    try:
        entries = set(os.listdir(path))
    except OSError as exc:
        raise InputError(f"{path}: cannot list the directory ({exc.strerror}).") from exc
    if not entries & {*DOCUMENTS, EPISODES_JSONL}:
        raise InputError(
            f"{path}: not a closed run (no manifest.json, status.json, summary.json or "
            "episodes.jsonl). Point evalview at the run directory itself."
        )


def _stat_files(reader: _Reader) -> tuple[dict[str, int], list[str]]:
    """The size of every regular file the format names (so bounds are checked before anything
    is read), and every result file's path, readable or not."""
    sizes: dict[str, int] = {}
    for rel in (*DOCUMENTS, EPISODES_JSONL):
        st = reader.lstat(rel, required=True)
        if st is not None:
            sizes[rel] = st.st_size
    result_stats = _result_paths(reader)
    for rel, raw_st in result_stats:
        st = reader.judge(rel, raw_st, required=False)
        if st is not None:
            sizes[rel] = st.st_size
    return sizes, [rel for rel, _ in result_stats]


def _within_bounds(reader: _Reader, sizes: dict[str, int], results: int) -> bool:
    """False, with a finding for each bound exceeded, when episodes.jsonl and the result files
    must not be read (the format's bounds on bytes and episodes; `reader.total` is set)."""
    total = reader.total
    ok = True
    if total > MAX_BYTES:
        reader.findings.append(
            R.TOO_LARGE(
                f"the run's files add up to {total / 2**20:.1f} MiB, over the format's bound of "
                f"{MAX_BYTES // 2**20} MiB; episodes.jsonl and the result files were not read. "
                "Split the run or remove oversized fields.",
                # the largest file, so the finding names a place to start
                file=max(sizes, key=lambda rel: sizes[rel]),
            )
        )
        ok = False
    if results > MAX_EPISODES:
        reader.findings.append(
            R.TOO_MANY_EPISODES(
                f"episodes/ holds {results} result files, over the bound of "
                f"{MAX_EPISODES:,}; episodes were not read. Split the run.",
                file=EPISODES_DIR,
            )
        )
        ok = False
    return ok


def _read_documents(
    reader: _Reader, sizes: dict[str, int], read_episodes: bool
) -> dict[str, dict[str, Any] | None]:
    """manifest, status and summary, parsed (None: missing or unreadable). Over the bound on
    bytes, each is still read if it alone is within it: the identity stays known."""
    documents: dict[str, dict[str, Any] | None] = {}
    for rel in DOCUMENTS:
        small_enough = read_episodes or sizes.get(rel, 0) <= MAX_BYTES
        raw = reader.read(rel, sizes[rel]) if rel in sizes and small_enough else None
        documents[rel] = None if raw is None else reader.parse_object(raw, rel)
        if reader.progress is not None:
            reader.advance(sizes.get(rel, 0))
    return documents


def _read_records(
    reader: _Reader, sizes: dict[str, int], by_bytes: _SameBytes
) -> tuple[list[EpisodeRecord], list[str | None]]:
    """episodes.jsonl's records (none when it is missing or unreadable); fills `by_bytes`."""
    if EPISODES_JSONL not in sizes:
        return [], []
    raw = reader.read(EPISODES_JSONL, sizes[EPISODES_JSONL])
    return ([], []) if raw is None else _read_jsonl(reader, raw, by_bytes)


def _first_by_id(records: list[EpisodeRecord], eids: list[str | None]) -> dict[str, EpisodeRecord]:
    """The first record of each episode id: the one a result file is compared with."""
    first: dict[str, EpisodeRecord] = {}
    for rec, eid in zip(records, eids, strict=True):
        if eid is not None:
            first.setdefault(eid, rec)
    return first


def _read_result_files(
    reader: _Reader,
    result_paths: list[str],
    sizes: dict[str, int],
    first_by_id: dict[str, EpisodeRecord],
    by_bytes: _SameBytes,
) -> list[ResultFile]:
    """Every result file, read in path order (a path without a size was refused at its stat)."""
    result_files: list[ResultFile] = []
    report = reader.progress is not None
    for rel in result_paths:
        if rel not in sizes:
            result_files.append(ResultFile(rel, None, readable=False))
            continue
        raw = reader.read(rel, sizes[rel])
        if report:
            reader.advance(sizes[rel])
        result_files.append(_result_file(reader, rel, raw, first_by_id, by_bytes))
    return result_files


#: A parsed line: its record and `EpisodeRecord.episode_id`.
_Parsed = tuple[EpisodeRecord, str | None]


class _SameBytes:
    """Parsed records by their line's bytes (JSON whitespace stripped), for finding the record a
    result file repeats byte for byte. Keyed by the first `_HEAD` bytes, the rest compared on
    lookup: hashing every 2.5 KB line and file whole cost about 0.025 s on the benchmark run. A
    head shared by more than `_BUCKET` lines (a crafted run) keys its lines whole instead, so
    lookups never scan a long list."""

    __slots__ = ("_by_head",)

    def __init__(self) -> None:
        self._by_head: dict[bytes, list[tuple[bytes, _Parsed]] | dict[bytes, _Parsed]] = {}

    def add(self, line: bytes, parsed: _Parsed) -> None:
        head = line[:_HEAD]
        bucket = self._by_head.get(head)
        if bucket is None:
            self._by_head[head] = [(line, parsed)]
        elif isinstance(bucket, dict):
            bucket.setdefault(line, parsed)
        elif len(bucket) < _BUCKET:
            bucket.append((line, parsed))
        else:
            whole: dict[bytes, _Parsed] = {}
            for known, first in bucket:
                whole.setdefault(known, first)
            whole.setdefault(line, parsed)
            self._by_head[head] = whole

    def get(self, raw: bytes) -> _Parsed | None:
        """The first (record, episode id) added whose line's bytes equal `raw`."""
        bucket = self._by_head.get(raw[:_HEAD])
        if bucket is None:
            return None
        if isinstance(bucket, dict):
            return bucket.get(raw)
        for line, parsed in bucket:
            if line == raw:
                return parsed
        return None


#: Bytes of a line's head that key `_SameBytes` (past the schema version, into the episode id),
#: and the most lines one head holds in a list.
_HEAD = 192
_BUCKET = 8
#: Records per dump of the duplicate-key count (about 640 KB of JSON: stays in the CPU cache).
_DUMP_CHUNK = 256


def _result_file(
    reader: _Reader,
    rel: str,
    raw: bytes | None,
    first_by_id: dict[str, EpisodeRecord],
    by_bytes: _SameBytes,
) -> ResultFile:
    """One result file and how it matches the first record of its id. Bytes equal to a parsed
    line (JSON whitespace aside) reuse that line's object: same bytes, same strict parse."""
    if raw is None:
        return ResultFile(rel, None, readable=False)
    same = by_bytes.get(raw.strip(_JSON_WS))
    if same is not None:
        data, eid = same[0].data, same[1]  # the record's object and id, as parsed
    else:
        data = reader.parse_object(raw, rel)
        if data is None:
            return ResultFile(rel, None, readable=False)
        found = _get(data, "episode", "id")
        eid = found if isinstance(found, str) else None
    assert data is not None
    match = first_by_id.get(eid) if eid is not None else None
    if match is None:
        return ResultFile(rel, eid, readable=True, matched_line=None, differing_keys=())
    return ResultFile(
        rel,
        eid,
        readable=True,
        matched_line=match.line,
        differing_keys=() if match.data is data else _differing_keys(match.data, data),
    )


def _differing_keys(record: dict[str, Any] | None, data: dict[str, Any]) -> tuple[str, ...]:
    """Top-level keys whose values differ between a record and its result file, sorted."""
    if record == data:
        return ()
    assert record is not None
    keys = sorted(set(record) | set(data))
    return tuple(k for k in keys if record.get(k, _ABSENT) != data.get(k, _ABSENT))


def _schedule(manifest: dict[str, Any] | None) -> tuple[str, ...]:
    """The manifest's protocol.episode_ids, strings only (the audit reports the rest)."""
    schedule_raw = _get(manifest, "protocol", "episode_ids")
    if not isinstance(schedule_raw, list):
        return ()
    return tuple(x for x in schedule_raw if isinstance(x, str))


def _identity(manifest: dict[str, Any] | None) -> Identity:
    return Identity(
        run_id=_text(_get(manifest, "run_id")),
        benchmark_name=_text(_get(manifest, "benchmark", "name")),
        benchmark_version=_text(_get(manifest, "benchmark", "version")),
        protocol_version=_text(_get(manifest, "benchmark", "protocol_version")),
        source_revision=_text(_get(manifest, "benchmark", "source_revision")),
        policy_name=_text(_get(manifest, "policy", "name")),
        policy_version=_text(_get(manifest, "policy", "version")),
    )


def _protocol(manifest: dict[str, Any] | None) -> Protocol:
    fail_fast = _get(manifest, "protocol", "fail_fast")
    return Protocol(
        max_steps=_int(_get(manifest, "protocol", "max_steps")),
        max_policy_calls=_int(_get(manifest, "protocol", "max_policy_calls")),
        replan_interval=_int(_get(manifest, "protocol", "replan_interval")),
        fail_fast=fail_fast if isinstance(fail_fast, bool) else None,
    )


_ABSENT = object()
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
_DIR_FLAGS = (
    os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
#: Result files relative to an open episodes/ (fstatat, openat), where the platform has them.
_BY_DIR_FD = (
    os.lstat in os.supports_dir_fd and os.open in os.supports_dir_fd
    and os.scandir in os.supports_fd and hasattr(os, "O_DIRECTORY")
)
_EPISODES_PREFIX = EPISODES_DIR + "/"
_EPISODES_CUT = len(_EPISODES_PREFIX)
#: JSON's whitespace (bytes.strip() would also strip \v and \f, which JSON rejects).
_JSON_WS = b" \t\r\n"


def _result_paths(reader: _Reader) -> list[tuple[str, os.stat_result | OSError]]:
    """`episodes/<dir>/result.json` for every directory of episodes/ that has one, sorted, with
    its lstat (or the error; one stat per file); nothing else is looked at."""
    try:
        st = os.lstat(reader.root / EPISODES_DIR)
    except FileNotFoundError:
        return []
    except OSError as exc:
        reader.findings.append(
            R.FILE_UNREADABLE(
                f"episodes/ cannot be read: {exc.strerror}; no result file was read. Make "
                "it readable and re-run.",
                file=EPISODES_DIR,
            )
        )
        return []
    if stat.S_ISLNK(st.st_mode):
        reader.findings.append(
            R.SYMLINK(
                "episodes/ is a symbolic link, which the format rejects; no result file was read.",
                file=EPISODES_DIR,
            )
        )
        return []
    if not stat.S_ISDIR(st.st_mode):
        return []
    paths: list[tuple[str, os.stat_result | OSError]] = []
    if _BY_DIR_FD:
        with contextlib.suppress(OSError):  # else listed (and its error reported) by path
            reader.episodes_fd = os.open(reader.base + EPISODES_DIR, _DIR_FLAGS)
    fd = reader.episodes_fd
    try:
        with os.scandir(reader.base + EPISODES_DIR if fd is None else fd) as it:
            for entry in it:
                if entry.is_dir(follow_symlinks=False):
                    rel = f"{EPISODES_DIR}/{entry.name}/{RESULT_NAME}"
                    try:
                        st = (os.lstat(reader.base + rel) if fd is None
                              else os.lstat(rel[_EPISODES_CUT:], dir_fd=fd))
                        paths.append((rel, st))
                    except FileNotFoundError:
                        pass
                    except OSError as exc:
                        paths.append((rel, exc))
                elif entry.is_symlink():
                    reader.findings.append(
                        R.SYMLINK(
                            f"{EPISODES_DIR}/{entry.name} is a symbolic link, which the format "
                            "rejects; it was not followed.",
                            file=f"{EPISODES_DIR}/{entry.name}",
                        )
                    )
    except OSError as exc:
        reader.findings.append(
            R.FILE_UNREADABLE(
                f"episodes/ cannot be listed: {exc.strerror}; no result file was read. Make "
                "it readable and re-run.",
                file=EPISODES_DIR,
            )
        )
    paths.sort(key=lambda pair: pair[0])
    return paths


def _read_jsonl(
    reader: _Reader, raw: bytes, by_bytes: _SameBytes
) -> tuple[list[EpisodeRecord], list[str | None]]:
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the final newline
    if len(lines) > MAX_EPISODES:
        reader.findings.append(
            R.TOO_MANY_EPISODES(
                f"episodes.jsonl has {len(lines):,} lines, over the bound of {MAX_EPISODES:,}; "
                "it was not parsed. Split the run.",
                file=EPISODES_JSONL,
            )
        )
        return [], []
    mark = len(reader.findings)
    parsed = _parse_lines(reader, lines, batch=True, colons=raw.count(b":"))
    if parsed is None:
        # Some line repeats a key: redo every line with the exact per-line check, so the
        # findings are exactly (and in the same order as) what that check reports.
        del reader.findings[mark:]
        if reader.hook is not None:
            reader.hook.reset()
        parsed = _parse_lines(reader, lines, batch=False)
        assert parsed is not None
    for rec, line, eid in parsed:
        if rec.data is not None:
            by_bytes.add(line.strip(_JSON_WS), (rec, eid))
    return [rec for rec, _, _ in parsed], [eid for _, _, eid in parsed]


def _parse_lines(
    reader: _Reader, lines: list[bytes], *, batch: bool, colons: int = 0
) -> list[tuple[EpisodeRecord, bytes, str | None]] | None:
    """(record, line bytes, episode id) per nonempty line. With `batch`, lines that parse to an
    object are checked for duplicate keys and depth all at once (`parse_strict`'s colon count,
    summed over the lines: a dropped duplicate can only lower a line's count, so equal sums mean
    no line lost a key); returns None when the sums differ or a line is too deep. Lines with a
    `\\u` escape, lines that fail and non-objects take the exact per-line path. `colons`: the
    colons of all the lines (one count over the file; the other lines' are subtracted)."""
    out: list[tuple[EpisodeRecord, bytes, str | None]] = []
    checked: list[dict[str, Any]] = []
    unchecked_colons = 0
    hook = reader.hook
    offset = 0
    report, reported = reader.progress is not None, 0
    for i, line in enumerate(lines, start=1):
        start = offset
        offset += len(line) + 1
        if report and not i & 255:
            reader.advance(offset - reported)
            reported = offset
        if not line.strip():  # whitespace only: no colon to count
            reader.findings.append(
                R.EMPTY_LINE(
                    f"episodes.jsonl:{i} is empty; every line must be one episode result. "
                    "Remove the empty line.",
                    file=EPISODES_JSONL,
                    line=i,
                )
            )
            continue
        data: dict[str, Any] | None = None
        if batch and (b"\\" not in line or b"\\u" not in line):  # memchr first: far faster
            try:
                value = orjson.loads(line)
            except orjson.JSONDecodeError:
                value = None
            if isinstance(value, dict):
                data = value
                checked.append(value)
        if data is None:
            unchecked_colons += line.count(b":")
            data = reader.parse_object(line, EPISODES_JSONL, first_line=i, what="line")
        rec = EpisodeRecord(line=i, data=data, offset=start)
        eid = rec.episode_id  # taken once, while the record is in the cache
        if hook is not None and data is not None:
            hook(i, data, eid)
        out.append((rec, line, eid))
    if report:
        reader.advance(offset - reported)
    if checked:
        try:  # in chunks: one 25 MB dump cost a fresh process its growth and page faults
            parsed_colons = sum(
                orjson.dumps(pad_depth(checked[i:i + _DUMP_CHUNK])).count(b":")
                for i in range(0, len(checked), _DUMP_CHUNK)
            )
        except TypeError:  # some line is nested too deep: the per-line path names it
            return None
        if colons - unchecked_colons != parsed_colons:
            return None
    return out


def _table(
    schedule: tuple[str, ...],
    records: list[EpisodeRecord],
    eids: list[str | None],
    message_key: str,
) -> EpisodeTable:
    """The episode table: schedule cases first (in schedule order), then stray records.

    Built column by column in one pass over the records (no row dicts: this runs once per
    episode, 10,000 times on the benchmark run, on the way to the app's first screen).
    `eids[i]` is `records[i].episode_id`, computed once.
    """
    first: dict[str, int] = {}
    for idx, (rec, eid) in enumerate(zip(records, eids, strict=True)):
        if eid is not None and rec.data is not None:
            first.setdefault(eid, idx)
    cols = _Columns()
    scheduled: set[str] = set()
    for eid in schedule:
        if eid in scheduled:
            continue  # a duplicated schedule id is an audit finding; one case per id
        scheduled.add(eid)
        found = first.get(eid)
        if found is None:
            task, seed = split_episode_id(eid)
            cols.unattempted(eid, task, seed)
        else:
            rec = records[found]
            assert rec.data is not None
            cols.record(rec.data, rec.line, eid, message_key, True, found)
    for idx, (rec, eid) in enumerate(zip(records, eids, strict=True)):
        if eid is not None and eid in scheduled and first.get(eid) == idx:
            continue
        if rec.data is None:
            cols.unparsed(rec.line, idx)
        else:
            cols.record(rec.data, rec.line, eid, message_key, False, idx)
    return cols.table()


class _Columns:
    """The table's columns as lists while the records are walked; `table()` makes the arrays.
    The values are those of `EpisodeTable.row` (None, -1 or NaN where a record says nothing)."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.task: list[str | None] = []
        self.seed: list[int] = []
        self.status: list[str] = []
        self.success: list[int] = []
        self.category: list[str | None] = []
        self.etype: list[str | None] = []
        self.reason: list[str | None] = []
        self.score: list[float] = []
        self.message: list[str | None] = []
        self.in_schedule: list[bool] = []
        self.file: list[str | None] = []
        self.line: list[int] = []
        self.record_index: list[int] = []

    def _nothing(self) -> None:
        """The columns a case without a parsed record leaves empty."""
        self.success.append(-1)
        self.category.append(None)
        self.etype.append(None)
        self.reason.append(None)
        self.score.append(_NAN)
        self.message.append(None)

    def unattempted(self, eid: str, task: str, seed: int | None) -> None:
        self.ids.append(eid)
        self.task.append(task)
        self.seed.append(-1 if seed is None else seed)
        self.status.append(UNATTEMPTED)
        self._nothing()
        self.in_schedule.append(True)
        self.file.append(None)
        self.line.append(0)
        self.record_index.append(-1)

    def unparsed(self, line: int, index: int) -> None:
        self.ids.append(f"<line {line}>")
        self.task.append(None)
        self.seed.append(-1)
        self.status.append(INVALID)
        self._nothing()
        self.in_schedule.append(False)
        self.file.append(EPISODES_JSONL)
        self.line.append(line)
        self.record_index.append(index)

    def record(
        self,
        data: dict[str, Any],
        line: int,
        eid: str | None,
        message_key: str,
        in_schedule: bool,
        index: int,
    ) -> None:
        ep = data.get("episode")
        if not isinstance(ep, dict):
            ep = _NO_OBJECT
        metrics = data.get("metrics")
        if not isinstance(metrics, dict):
            metrics = _NO_OBJECT
        error = data.get("error")
        if not isinstance(error, dict):
            error = _NO_OBJECT
        task = ep.get("task")
        seed = ep.get("seed")
        if not int64(seed):  # a wider one is the audit's finding (EV3xx), never a column value
            seed = None
        if (seed is None or not isinstance(task, str)) and eid is not None:
            id_task, id_seed = split_episode_id(eid)
            task = task if isinstance(task, str) else id_task
            seed = id_seed if seed is None else seed
        elif not isinstance(task, str):
            task = None
        status = data.get("status")
        success = data.get("success")
        category = error.get("category")
        etype = error.get("type")
        reason = data.get("termination_reason")
        score = metrics.get("score")
        message = metrics.get(message_key)
        self.ids.append(eid if eid is not None else f"<line {line}>")
        self.task.append(task)
        self.seed.append(-1 if seed is None else seed)
        self.status.append(status if status in (COMPLETED, ERROR) else INVALID)
        self.success.append(int(success) if isinstance(success, bool) else -1)
        self.category.append(category if isinstance(category, str) else None)
        self.etype.append(etype if isinstance(etype, str) else None)
        self.reason.append(reason if isinstance(reason, str) else None)
        self.score.append(
            float(score) if isinstance(score, int | float) and not isinstance(score, bool)
            else _NAN
        )
        self.message.append(message if isinstance(message, str) else None)
        self.in_schedule.append(in_schedule)
        self.file.append(EPISODES_JSONL)
        self.line.append(line)
        self.record_index.append(index)

    def table(self) -> EpisodeTable:
        import numpy as np

        def obj(values: list[Any]) -> Any:
            arr = np.empty(len(values), dtype=object)
            arr[:] = values
            return arr

        return EpisodeTable(
            ids=obj(self.ids),
            task=obj(self.task),
            seed=np.array(self.seed, dtype=np.int64),
            status=obj(self.status),
            success=np.array(self.success, dtype=np.int8),
            error_category=obj(self.category),
            error_type=obj(self.etype),
            termination_reason=obj(self.reason),
            score=np.array(self.score, dtype=np.float64),
            message=obj(self.message),
            in_schedule=np.array(self.in_schedule, dtype=np.bool_),
            file=obj(self.file),
            line=np.array(self.line, dtype=np.int64),
            record_index=np.array(self.record_index, dtype=np.int64),
        )


_NO_OBJECT: dict[str, Any] = {}
_NAN = float("nan")


#: The files of a closed run; any one of them given as the path opens the run around it.
RUN_FILES = (*DOCUMENTS, EPISODES_JSONL)


def _detect(source: Source) -> bool:
    """Every directory is read as a closed run (a missing file is a finding, not a refusal), and
    so is a path to one of the run's own files."""
    return source.is_dir or source.path.name in RUN_FILES


def _read(source: Source, options: ReadOptions) -> Reading:
    root = source.path if source.is_dir else source.path.parent
    run = load_closed_run(
        root,
        message_key=options.message_key,
        freeze=options.freeze,
        lazy_table=options.lazy_table,
        progress=options.progress,
        on_read=options.on_read,
        on_record=options.on_record,
    )
    return Reading(root, "closed-run", (NamedRun(None, run),))


#: Its declaration (evalview.load.builtin: the registry asks it without importing this module).
READER = builtin.CLOSED_RUN
