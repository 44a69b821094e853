"""Every input format evalview reads, joined explicitly here: path → `Reading` (→ `Run`).

Adding a format is one new module in `evalview/load/` that defines `READER = Reader(...)` (the
interface: `evalview.load.reader`) and one line in `READERS` below. Readers are asked in order and
the first whose `detect` says yes reads the input; put a reader before any whose detection its
files would also pass (PSR checkpoint inputs: any JSON object whose values are all lists).
Nothing else in evalview changes: the session, the commands and the app take the `Run`s (or
dispatch on `Reading.format` for a payload).
"""

from __future__ import annotations

from pathlib import Path

from evalview.load import checkpoint_inputs, closed_run, harness_result, lerobot, result_json
from evalview.load.errors import InputError
from evalview.load.reader import OnRead, Reader, Reading, ReadOptions
from evalview.load.source import Source
from evalview.model.run import DEFAULT_MESSAGE_KEY, Run

__all__ = ["READERS", "load_run", "read_input", "select_run"]

#: The formats, in detection order (one line each).
READERS: tuple[Reader, ...] = (
    closed_run.READER,
    result_json.READER,
    checkpoint_inputs.READER,
    harness_result.READER,
    lerobot.READER,
)

_WHAT_TO_PASS = (
    "Pass the run directory (the one holding manifest.json) or a result.json written by "
    "`evalview export`."
)


def read_input(
    path: str | Path | Source,
    options: ReadOptions | None = None,
    *,
    readers: tuple[Reader, ...] = READERS,
) -> Reading:
    """Read `path` with the first reader that recognises its content.

    Raises InputError (exit 2) when nothing is there, it cannot be read, or no reader knows it;
    a reader may also raise a `Refused` (exit 1).
    """
    source = path if isinstance(path, Source) else Source(path)
    source.check()  # before any reader opens it: no symlink, FIFO or device; bounded
    for reader in readers:
        if reader.detect(source):
            return reader.read(source, options or ReadOptions())
    raise InputError(f"{source.path}: {_why_not_a_run(source)}")


def select_run(reading: Reading, name: str | None = None) -> Run:
    """The one run of `reading` (or the one called `name`). InputError when there is none, or
    several and no name says which."""
    if not reading.runs:
        raise InputError(
            f"{reading.path}: a {reading.format} input, which holds no episode read. "
            + _WHAT_TO_PASS
        )
    if name is not None:
        for r in reading.runs:
            if r.name == name:
                return r.run
        known = ", ".join(str(n) for n in reading.names)
        raise InputError(f"{reading.path}: no read named {name!r} (it holds: {known}).")
    if len(reading.runs) > 1:
        known = ", ".join(str(n) for n in reading.names)
        raise InputError(
            f"{reading.path}: holds {len(reading.runs)} named reads ({known}); say which one."
        )
    return reading.runs[0].run


def load_run(
    path: str | Path,
    *,
    message_key: str = DEFAULT_MESSAGE_KEY,
    freeze: bool = False,
    lazy_table: bool = False,
    progress: closed_run.Progress | None = None,
    on_read: OnRead | None = None,
) -> Run:
    """The one `Run` at `path` (a closed-run directory or a results JSON). Raises InputError
    (exit 2) when unusable. `freeze`, `lazy_table`: see `load_closed_run` (short-lived commands
    only). `progress`: called with (bytes done, total) while a closed run is read."""
    source = Source(path)
    reading = read_input(source, ReadOptions(message_key, freeze, lazy_table, progress, on_read))
    if reading.format == harness_result.FORMAT:
        raise InputError(
            f"{source.path}: a benchmark-harness input, which holds no episode read (arms x "
            "seeds); `evalview check`, `score`, `compare` and `export` read it as such."
        )
    if not reading.runs:  # e.g. PSR checkpoint inputs: valid JSON, but not a run
        raise InputError(f"{source.path}: {_why_not_a_run(source)}")
    return select_run(reading)


def _why_not_a_run(source: Source) -> str:
    """Say what the file is instead, and what to pass, so the user can tell a wrong path from a
    broken file."""
    value, problem = source.parsed
    if problem is not None:
        has_line = problem.line is not None and "line" not in problem.detail
        where = f" at line {problem.line}" if has_line else ""
        return f"not strict JSON ({problem.detail}{where}), so not a results JSON. {_WHAT_TO_PASS}"
    if isinstance(value, dict) and value.get("format") == harness_result.EXPORTED_FORMAT:
        source_doc = value.get("source")
        name = source_doc.get("file") if isinstance(source_doc, dict) else None
        origin = f" ({name!r})" if isinstance(name, str) and name.isprintable() else ""
        return (
            f"an evalview export of a benchmark-harness result ({harness_result.EXPORTED_FORMAT}): "
            "a copy for publication, which evalview does not read back. Open the harness "
            f"result it was exported from{origin} instead."
        )
    return f"valid JSON, but neither a closed run nor an evalview result.json. {_WHAT_TO_PASS}"
