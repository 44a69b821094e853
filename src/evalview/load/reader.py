"""The reader interface: what a module must give to join the registry (`evalview.load.registry`).

A reader is a `Reader(name, summary, detect, read)`:

- `detect(source) -> bool` says, from the content (`source.head()`, `source.json_value`, or
  `source.is_dir`), whether the input is its format. It must be cheap and must not raise for
  someone else's format (return False); once the content is clearly its own (a schema marker)
  it may raise `InputError` for a broken file. The file is read and parsed at most once for all
  readers.
- `read(source, options) -> Reading` reads it. It raises `InputError` (exit 2) when the input is
  its format but unreadable as a whole, or a `evalview.errors.Refused` subclass (exit 1) when it
  reads but must be refused; every message names the file (and line, key or episode) and the fix.

A `Reading` carries what was read:

- `runs`: the episode reads, each a `NamedRun(name, run)`. A single read has `name=None`; a file of
  several named reads (LeRobot's `{"eval_results_400": {...}, "eval_results_800": {...}}`) gives
  one `NamedRun` per key, in file order, the key as `name` (and as the Run's `run_id`).
- `payload`: anything format-specific the caller dispatches on by `Reading.format` (the PSR
  checkpoint inputs as parsed JSON; a benchmark-harness result's arms × seeds). A reader may give
  runs, a payload, or both; a reading with no run is not "a run" to `load_run` (which says so).

A reader module must be cheap to import (it is imported whenever anything is read): import heavy
dependencies (pydantic models, numpy-heavy helpers) inside `read`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from evalview.load.source import Source
from evalview.model import DEFAULT_MESSAGE_KEY

if TYPE_CHECKING:
    from evalview.model.run import Run

__all__ = [
    "Holds",
    "NamedRun",
    "OnRead",
    "OnRecord",
    "Progress",
    "ReadOptions",
    "Reader",
    "Reading",
    "RecordHook",
    "Source",
]

#: What a format's reading holds, which decides the road every door takes with it:
#: episodes: `Reading.runs` (audited, scored, compared, exported like a closed run);
#: arms: a benchmark harness's arms x seeds (`Reading.payload`, its own audit and score);
#: checkpoint-inputs: PSR checkpoint messages by model and task (`evalview psr`, not a read).
Holds = Literal["episodes", "arms", "checkpoint-inputs"]

#: `progress(done, total)`: units (bytes, for a closed run) read so far, out of their total.
Progress = Callable[[int, int], None]
#: `on_read(rel, lstat, data)`: a file's bytes as read, with the lstat taken before reading them
#: (the export hashes them there instead of reading every input again: report/snapshot.py).
OnRead = Callable[[str, os.stat_result, bytes], None]


class RecordHook(Protocol):
    """Sees each episode record of a closed run as its line is parsed (`line`, the object, its
    `EpisodeRecord.episode_id`), in file order; `reset()` when the reader parses the lines again
    (a line repeats a key)."""

    def __call__(self, line: int, data: dict[str, Any], episode_id: str | None) -> None: ...

    def reset(self) -> None: ...


#: `on_record(documents)`: the hook for a closed run whose manifest, status and summary are
#: `documents` (by file name; None when unreadable), called before its episodes are read.
OnRecord = Callable[[dict[str, dict[str, Any] | None]], RecordHook]


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How to read; a reader ignores what does not apply to its format.

    `message_key`: the metrics key holding the verifier message (PSR). `freeze`, `lazy_table`:
    speed options of short-lived commands (see `load_closed_run`). `progress`: for a loading bar.
    `on_read`: sees each file of a closed run once, as read (the export's input record).
    `on_record`: sees each episode record of a closed run as it is parsed (the audit's
    per-record checks, while the record is still in the CPU cache: `Run.record_checks`).
    """

    message_key: str = DEFAULT_MESSAGE_KEY
    freeze: bool = False
    lazy_table: bool = False
    progress: Progress | None = None
    on_read: OnRead | None = None
    on_record: OnRecord | None = None


@dataclass(frozen=True, slots=True)
class NamedRun:
    """One read of an input; `name` is its key in a file of several reads, None when alone."""

    name: str | None
    run: Run


@dataclass(frozen=True, slots=True)
class Reading:
    """What one reader read from one input (see the module docstring)."""

    path: Path
    #: the `Reader.name` that read it: "closed-run", "result-json", "psr-checkpoint-inputs", ...
    format: str
    runs: tuple[NamedRun, ...] = ()
    payload: Any = None

    @property
    def names(self) -> tuple[str | None, ...]:
        return tuple(r.name for r in self.runs)


@dataclass(frozen=True, slots=True)
class Reader:
    """A format evalview reads, described in one place: help, refusals ("evalview reads: ..."),
    the Runs screen, the export and docs/formats.md all list formats from these declarations."""

    name: str
    #: one line for messages and docs: what the format is
    summary: str
    detect: Callable[[Source], bool]
    read: Callable[[Source, ReadOptions], Reading]
    #: what its reading holds (see `Holds`)
    holds: Holds = "episodes"
    #: what a user passes, as a noun phrase for "evalview reads: ..." ("a LeRobot eval_info.json")
    noun: str = ""
    #: `source_format` of a result.json exported from it (None: not exported as such)
    export_label: str | None = None
    #: detection order, lowest first; a broad detector (one that would also take other formats'
    #: files) declares a high number, so it is asked last whatever order modules are listed in
    priority: int = 50
    #: why its episodes give no partial credit (None: they record verifier messages), said after
    #: "FILE is " (so it starts with the format's noun)
    no_partial_credit: str | None = None
    #: why a read of it can hold no case to score, and what would give it some (None: a read
    #: with no case is an empty schedule, said in the closed run's terms), said after
    #: "FILE: no selected case to score: " by `score`, `export`, `compare` and the app
    no_cases: str | None = None
    #: why such a read cannot be compared, and what would make it comparable, in compare's
    #: words, said after "FILE: not compared, nothing to pair: " (None: `no_cases` is said)
    no_pairs: str | None = None
    #: what two of its reads must share to be paired, said after "Pairs need " when their
    #: declared pairing facts (`Run.pairing`) differ
    pairs_need: str | None = None
    #: the file name endings (lower case) a folder scan offers to the readers as candidates;
    #: whether a candidate is this format is still decided by `detect`, never by its name
    suffixes: tuple[str, ...] = (".json",)

    @property
    def described(self) -> str:
        """The noun phrase, or the summary when the reader gives none."""
        return self.noun or self.summary
