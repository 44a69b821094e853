"""Every input format evalview reads: path → `Reading` (→ `Run`), asked by declared priority.

Adding a format is one new module in `evalview/load/` (its `_detect` and `_read`; the interface:
`evalview.load.reader`) and its declaration in `evalview.load.builtin`, whose cheap sniff keeps
the module unimported for inputs that are not its format; another package adds one
through the `evalview.readers` entry-point group (`plugin_readers`). Readers are asked in the order
of their declared `priority` (lowest first), never of their position here: a broad detector (PSR
checkpoint inputs take any JSON object whose values are all lists) declares a high number. Help,
refusals, the Runs screen and docs/formats.md list the formats from these declarations
(`formats_sentence`); nothing else in evalview names a format.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from evalview.load.builtin import BUILTIN
from evalview.load.errors import InputError, NotARead
from evalview.load.reader import Holds, OnRead, Reader, Reading, ReadOptions
from evalview.load.source import Source
from evalview.model import DEFAULT_MESSAGE_KEY

if TYPE_CHECKING:
    from evalview.load.closed_run import Progress
    from evalview.model.run import Run

__all__ = [
    "CANDIDATE_SUFFIXES",
    "ENTRY_POINT_GROUP",
    "READERS",
    "NotARead",
    "all_readers",
    "formats_markdown",
    "formats_sentence",
    "holds_of",
    "load_run",
    "ordered",
    "read_input",
    "reader_named",
    "select_run",
]

#: The entry-point group another package adds readers through (a `Reader` object each).
ENTRY_POINT_GROUP = "evalview.readers"


def ordered(readers: tuple[Reader, ...]) -> tuple[Reader, ...]:
    """`readers` in detection order: by declared priority, never by position."""
    return tuple(sorted(readers, key=lambda r: r.priority))


#: The built-in formats in detection order.
READERS: tuple[Reader, ...] = ordered(BUILTIN)
#: The file name endings a folder scan offers as candidate reads (the built-in formats').
CANDIDATE_SUFFIXES: tuple[str, ...] = tuple(sorted({s for r in READERS for s in r.suffixes}))


@cache
def plugin_readers() -> tuple[Reader, ...]:
    """Readers other packages declare in the `evalview.readers` entry-point group, by priority.

    Loaded only when no built-in reader takes an input, or when the formats are listed: the
    metadata scan costs about 60 ms, which `check` of a closed run never pays. A plugin is asked
    after the built-in formats, so it can add a format but never capture one of evalview's own.
    An entry point that fails to load or is not a `Reader` is left out (it is someone else's bug,
    and must not stop evalview reading its own formats).
    """
    from importlib.metadata import entry_points

    found: list[Reader] = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            reader = ep.load()
        except Exception:
            continue
        if isinstance(reader, Reader) and all(r.name != reader.name for r in BUILTIN):
            found.append(reader)
    return ordered(tuple(found))


def all_readers() -> tuple[Reader, ...]:
    """Every format, built-in first, each group by priority: the order inputs are asked in."""
    return READERS + plugin_readers()


def holds_of(fmt: str) -> Holds:
    """What a reading of format `fmt` holds (episodes when no reader declares the name)."""
    reader = reader_named(fmt)
    return "episodes" if reader is None else reader.holds


def reader_named(name: str) -> Reader | None:
    """The reader that declares `name` (a `Reading.format`, a `Run.kind`), or None."""
    for reader in READERS:
        if reader.name == name:
            return reader
    return next((r for r in plugin_readers() if r.name == name), None)


def no_pairs_reason(kind: str) -> str | None:
    """Why a read of format `kind` with no case cannot be paired, in compare's words."""
    reader = reader_named(kind)
    return None if reader is None else reader.no_pairs or reader.no_cases


def no_cases_reason(kind: str) -> str | None:
    """Why a read of format `kind` holds no case to score (its reader's declaration), or None."""
    reader = reader_named(kind)
    return None if reader is None else reader.no_cases


def formats_sentence() -> str:
    """`evalview reads: a closed-run directory (...); ...; or a folder of them.` From the
    declarations, so a new format is listed in every refusal and help text by itself."""
    nouns = [r.described for r in all_readers()]
    return "evalview reads: " + "; ".join(nouns) + "; or a folder of them."


_HOLDS_TEXT = {
    "episodes": "episode reads (audited, scored, compared, exported)",
    "arms": "arms x seeds (its own audit, score, compare and export)",
    "checkpoint-inputs": "verifier messages by model and task (`evalview psr`)",
}


def formats_markdown() -> str:
    """The table of docs/formats.md, "What evalview reads" (a test keeps the page in step)."""
    lines = [
        "| format | what you pass | holds | detection priority | exported as |",
        "| --- | --- | --- | ---: | --- |",
    ]
    for r in all_readers():
        label = f"`{r.export_label}`" if r.export_label else "not exported as such"
        holds = _HOLDS_TEXT.get(r.holds, r.holds)
        lines.append(f"| `{r.name}` | {r.described} | {holds} | {r.priority} | {label} |")
    return "\n".join(lines) + "\n"


def read_input(
    path: str | Path | Source,
    options: ReadOptions | None = None,
    *,
    readers: tuple[Reader, ...] | None = None,
) -> Reading:
    """Read `path` with the first reader (by priority) that recognises its content.

    Raises InputError (exit 2) when nothing is there or it cannot be read, NotARead (an
    InputError) when no reader knows it; a reader may also raise a `Refused` (exit 1).
    """
    source = path if isinstance(path, Source) else Source(path)
    source.check()  # before any reader opens it: no symlink, FIFO or device; bounded
    for reader in READERS if readers is None else readers:
        if reader.detect(source):
            return reader.read(source, options or ReadOptions())
    if readers is None:
        for reader in plugin_readers():
            if reader.detect(source):
                return reader.read(source, options or ReadOptions())
    why = _why_not_a_run(source)
    if why.startswith("not strict JSON"):
        raise InputError(f"{source.path}: {why}")
    raise NotARead(f"{source.path}: {why}")


def select_run(reading: Reading, name: str | None = None) -> Run:
    """The one run of `reading` (or the one called `name`). InputError when there is none, or
    several and no name says which."""
    if not reading.runs:
        reader = reader_named(reading.format)
        short = f"{reader.summary} (no episode read)" if reader else "no episode read"
        raise NotARead(f"{reading.path}: {_holds_no_read(reading)}", short)
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
    progress: Progress | None = None,
    on_read: OnRead | None = None,
) -> Run:
    """The one `Run` at `path` (a closed-run directory or a results JSON). Raises InputError
    (exit 2) when unusable. `freeze`, `lazy_table`: see `load_closed_run` (short-lived commands
    only). `progress`: called with (bytes done, total) while a closed run is read."""
    reading = read_input(path, ReadOptions(message_key, freeze, lazy_table, progress, on_read))
    return select_run(reading)


def _holds_no_read(reading: Reading) -> str:
    """What a reading without an episode read is, and where it is read instead."""
    reader = reader_named(reading.format)
    noun = reader.described if reader is not None else f"a {reading.format} input"
    if reader is not None and reader.holds == "arms":
        return (
            f"{noun}, which holds arms x seeds, not an episode read: `evalview check`, `score`, "
            "`compare`, `export`, `table` and the app read it as such."
        )
    if reader is not None and reader.holds == "checkpoint-inputs":
        return (
            f"{noun}, which holds verifier messages by model and task, not an episode read: "
            "`evalview psr` and the app read it."
        )
    return f"{noun}, which holds no episode read. {formats_sentence()}"


def _why_not_a_run(source: Source) -> str:
    """Say what the file is instead, and what to pass, so the user can tell a wrong path from a
    broken file."""
    value, problem = source.parsed
    if problem is not None:
        has_line = problem.line is not None and "line" not in problem.detail
        where = f" at line {problem.line}" if has_line else ""
        return (
            f"not strict JSON ({problem.detail}{where}), so not a results JSON. "
            + formats_sentence()
        )
    from evalview.load import harness_result

    if isinstance(value, dict) and value.get("format") == harness_result.EXPORTED_FORMAT:
        source_doc = value.get("source")
        name = source_doc.get("file") if isinstance(source_doc, dict) else None
        origin = f" ({name!r})" if isinstance(name, str) and name.isprintable() else ""
        return (
            f"an evalview export of a benchmark-harness result ({harness_result.EXPORTED_FORMAT}): "
            "a copy for publication, which evalview does not read back. Open the harness "
            f"result it was exported from{origin} instead."
        )
    return f"valid JSON, but of no format evalview reads. {formats_sentence()}"
