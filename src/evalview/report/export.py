"""The export pipeline: refuse early, build in memory, write beside the destination, rename.

Order matters. The destination is checked first (cheap, and nothing is read for nothing), then the
inputs are loaded (each hashed as it is read), audited and scored; the files are rendered in
memory and written into a temporary sibling directory; the inputs are checked again (one lstat
each, see report/snapshot.py); only then is the temporary directory renamed into place. Only that
final directory is created: a missing parent is a refusal naming it. Any refusal or failure
removes the temporary directory, so a refused export leaves nothing behind, and a successful one
never exposes a half-written directory under the destination's name.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from evalview.findings import Finding, Severity
from evalview.report import snapshot
from evalview.report.destination import (
    AuditRefused,
    ExportRefused,
    check_destination,
    write_new_directory,
)
from evalview.report.render import render_html
from evalview.report.sanitize import Scrubber

if TYPE_CHECKING:
    from evalview.model.address import Address
    from evalview.model.result import Result
    from evalview.report.harness_export import HarnessExported
    from evalview.session import HarnessSession, Session

__all__ = ["AuditRefused", "Exported", "document_bytes", "export_run", "result_bytes"]

RESULT_JSON = "result.json"
INDEX_HTML = "index.html"


@dataclass
class Exported:
    destination: Path
    #: The published result as plain values: `Result.model_dump()` of result.json, validated
    #: (model/result_plain.py). `result` is the pydantic model of the same, built on first use.
    document: dict[str, Any]
    files: list[Path]
    findings: list[Finding] = field(default_factory=list)
    #: The read run, only for a short-lived caller (`short_lived`): kept so that it is not
    #: freed object by object (about 0.1 s at 10,000 episodes) just before the process ends.
    session: Session | None = field(default=None, repr=False, compare=False)
    _result: Result | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def result(self) -> Result:
        """result.json as the pydantic model, validated from the bytes written (on first use:
        the export itself never needs pydantic)."""
        if self._result is None:
            from evalview.model.result import Result

            self._result = Result.from_json(document_bytes(self.document))
        return self._result


def _export_harness(
    session: HarnessSession, dest: Path, metrics: Sequence[str], redact: bool
) -> HarnessExported:
    from evalview.errors import Refused
    from evalview.report.harness_export import export_harness

    if metrics:
        raise Refused(
            "--metric applies to episode reads; a benchmark-harness result has none. Drop the "
            "option."
        )
    return export_harness(session, dest, redact=redact)


def result_bytes(result: Result) -> bytes:
    """result.json as written: two-space indent, declared key order, trailing newline."""
    # `redacted` is written only when --redact replaced something, so other exports are as before
    skip = {"redacted"} if result.redacted is None else None
    data = result.model_dump(mode="json", exclude=skip)
    return orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n"


def document_bytes(document: dict[str, Any]) -> bytes:
    """`result_bytes` of the result whose `model_dump()` is `document` (the same bytes: the
    document holds its values in the declared key order, and orjson writes a tuple as a list)."""
    if document.get("redacted") is None:
        document = {k: v for k, v in document.items() if k != "redacted"}
    return orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"


def export_run(
    source: str | Path | Address,
    output_dir: str | Path,
    *,
    metrics: Sequence[str] = (),
    bootstrap: int | None = None,
    scrubber: Scrubber | None = None,
    before_commit: Callable[[], None] | None = None,
    redact: bool = False,
    read: str | None = None,
    short_lived: bool = False,
) -> Exported | HarnessExported:
    """Export the read `source` addresses (a path, or an `Address` naming the read) into the new
    directory `output_dir`: an episode read as below, a benchmark-harness result as its own
    document and page (`report/harness_export.py`). `evalview export` and the app's dialog both
    come through here, and the input is read once.

    Raises InputError (the input is unreadable, exit 2) or ExportRefused (exit 1, nothing
    written). The run is read, audited and scored by `evalview.session`, as every view does.
    A credential-shaped value in a published field refuses the export (EV606) unless `redact`,
    which replaces it and lists it in result.json and on the page.
    `before_commit` runs after the files are written and before the inputs are re-checked: a
    seam for tests that change an input mid-export. `read`: the named read of a file of several
    (LeRobot), required there.

    The cyclic garbage collector is paused meanwhile (as the loader does while it reads): with
    a parsed 10,000-episode run alive, its collections re-traversed every record again and
    again, about a fifth of the export's CPU. Nothing here builds reference cycles to reclaim.
    `short_lived` (the `evalview export` process, which ends right after): the read run is
    returned in `Exported.session` and everything alive is moved out of the collector's reach
    (`gc.freeze`, as `check` does), so it is neither freed nor traversed again before the exit.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        done = _export_run(
            source,
            output_dir,
            metrics=metrics,
            bootstrap=bootstrap,
            scrubber=scrubber,
            before_commit=before_commit,
            redact=redact,
            read=read,
            keep=short_lived,
        )
        if short_lived:
            gc.freeze()
        return done
    finally:
        if paused:
            gc.enable()


def _export_run(
    source: str | Path | Address,
    output_dir: str | Path,
    *,
    metrics: Sequence[str],
    bootstrap: int | None,
    scrubber: Scrubber | None,
    before_commit: Callable[[], None] | None,
    redact: bool,
    read: str | None,
    keep: bool,
) -> Exported | HarnessExported:
    from dataclasses import replace

    from evalview.folder.discover import one_read
    from evalview.load import ReadOptions
    from evalview.load.input_path import check_input_path
    from evalview.model.address import Address
    from evalview.report.builder import build_published
    from evalview.session import EXPORT_SCORING, HarnessSession, open_one, score_session

    address = one_read(Address.of(source, read), "export")
    src, dest = address.path, Path(output_dir)
    check_input_path(src)  # before the snapshot opens anything: no symlink, FIFO or device
    check_destination(src, dest)
    # A closed run's files are hashed as the loader reads them (once); a single-file input is
    # recorded before it is read, as it is not read through the closed-run reader.
    recorder = snapshot.Recorder()
    early = None if os.path.isdir(src) else snapshot.take(src)
    session = open_one(address, read=ReadOptions(on_read=recorder))
    if isinstance(session, HarnessSession):
        return _export_harness(session, dest, metrics, redact)
    before = early if early is not None else recorder.snapshot(src)
    run, findings = session.run, session.findings
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if errors:
        raise AuditRefused(
            f"{src}: the audit finds {len(errors)} error(s); an inconsistent record is not "
            "exported. Fix them (see `evalview check`) and export again.",
            errors,
        )
    card = score_session(session, replace(EXPORT_SCORING, bootstrap=bootstrap))
    document = build_published(
        run, card, findings, metrics=metrics, scrubber=scrubber, redact=redact
    )
    payload = {
        RESULT_JSON: document_bytes(document),
        INDEX_HTML: render_html(document).encode("utf-8"),
    }

    def unchanged() -> None:
        """The last check before the rename: the test hook, then the run as it was read."""
        if before_commit is not None:
            before_commit()
        changed = snapshot.changed(src, before, since_ns=recorder.started_ns)
        if changed:
            more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
            shown = ", ".join(changed[:5]) + more
            raise ExportRefused(
                f"{src}: {shown} changed while the export was reading the run; nothing was "
                "written. Wait until the run is closed (nothing writing to it) and export again."
            )

    written = write_new_directory(dest, payload, before_rename=unchanged)
    return Exported(dest, document, written, findings, session if keep else None)
