"""The full record of one episode, and the raw text of a file a finding points at.

The record comes from what the loader already parsed (no I/O). A file view reads in a thread
worker, refuses symbolic links like the loader, and never writes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import ClassVar

import orjson
from rich.console import Group, RenderableType
from rich.syntax import Syntax
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from evalview.session import Session
from evalview.tui.safe import clean, clean_block, plain
from evalview.tui.safe import esc as escape

#: Lines of context shown on each side of the line a finding names.
CONTEXT_LINES = 15
#: Syntax theme made of the terminal's own ANSI colours: reads in 16 colours and true colour.
SYNTAX_THEME = "ansi_dark"


def _json_text(data: object) -> str:
    """Indented JSON; orjson escapes C0 controls, `clean` shows the rest (DEL, C1, bidi)."""
    return clean_block(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())


class _DetailScreen(Screen[None]):
    """A scrollable page with a title line; escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace", "app.pop_screen", "Back", id="detail.back"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.heading = title

    def compose(self) -> ComposeResult:
        yield Static(plain(self.heading), id="detail-title")
        yield Static(id="detail-where", classes="where")
        with VerticalScroll(id="detail-body"):
            yield Static(id="detail-content")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#detail-body").focus()


class RecordScreen(_DetailScreen):
    """One episode row: where it came from and its JSON, syntax-highlighted."""

    def __init__(self, session: Session, row: int) -> None:
        ep = session.run.episodes
        super().__init__(f"Episode {ep.ids[row]}")
        self.session = session
        self.row = row

    def on_mount(self) -> None:
        super().on_mount()
        where, body = self.describe()
        self.query_one("#detail-where", Static).update(where)
        self.query_one("#detail-content", Static).update(body)

    def describe(self) -> tuple[Text, RenderableType]:
        """(provenance line, body) of the row."""
        run = self.session.run
        ep = run.episodes
        r = self.row
        eid = str(ep.ids[r])
        where = Text()
        where.append(f"status {clean(ep.status[r])}", style="bold")
        if not ep.in_schedule[r]:
            where.append("  · not in the manifest schedule (stray or duplicate)", style="magenta")
        line = int(ep.line[r])
        if line:
            where.append(f"\nfrom {clean(ep.file[r] or 'episodes.jsonl')}, line {line}")
        for rf in run.result_files:
            if rf.episode_id == eid:
                same = "identical" if not rf.differing_keys else (
                    "differs in " + ", ".join(map(clean, rf.differing_keys))
                )
                where.append(f"\nresult file {clean(rf.path)} ({same})")
                break
        index = int(ep.record_index[r])
        if index < 0:
            body: RenderableType = Text(
                "No record: this selected case was never attempted. It stays in the "
                "selected denominator as a non-success.",
                style="yellow",
            )
            return where, body
        record = run.records[index]
        if record.data is None:
            return where, Text(
                f"Line {record.line} could not be parsed; the Findings tab says why.", style="red"
            )
        syntax = Syntax(
            _json_text(record.data), "json", theme=SYNTAX_THEME, line_numbers=True, word_wrap=True
        )
        return where, syntax


class FileScreen(_DetailScreen):
    """The text of a run file around a line, read off the UI thread."""

    def __init__(self, session: Session, rel: str, line: int | None = None) -> None:
        super().__init__(f"File {rel}" + (f", line {line}" if line else ""))
        self.session = session
        self.rel = rel
        self.line = line

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#detail-where", Static).update(
            f"{escape(str(self.session.run.path / self.rel))}"
        )
        doc = self.session.run.documents.get(self.rel)
        if doc is not None and self.line is None:
            self._show(Syntax(_json_text(doc), "json", theme=SYNTAX_THEME, line_numbers=True))
            return
        self.query_one("#detail-content", Static).update(Text("reading…", style="dim"))
        self._read()

    @work(thread=True, exclusive=True, group="file-view")
    def _read(self) -> None:
        body = read_excerpt(self.session.run.path, self.rel, self.line)
        self.app.call_from_thread(self._show, body)

    def _show(self, body: RenderableType) -> None:
        self.query_one("#detail-content", Static).update(body)


def read_excerpt(root: Path, rel: str, line: int | None) -> RenderableType:
    """The file (or CONTEXT_LINES around `line`) as highlighted text, or why it cannot be shown."""
    path = root / rel
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
            return Text(
                f"{clean(rel)} is not a regular file; evalview does not open it.", style="red"
            )
        raw = path.read_bytes()
    except OSError as exc:
        return Text(f"{clean(rel)} cannot be read: {exc.strerror}.", style="red")
    text = raw.decode("utf-8", errors="replace")
    lines = text.splitlines()
    lexer = "json" if rel.endswith((".json", ".jsonl")) else "text"
    if line is None:
        start, excerpt = 1, lines[:2000]
    else:
        start = max(line - CONTEXT_LINES, 1)
        excerpt = lines[start - 1 : line + CONTEXT_LINES]
    if not excerpt:
        return Text(f"{clean(rel)} has no line {line}.", style="yellow")
    syntax = Syntax(
        clean_block("\n".join(excerpt)),
        lexer,
        theme=SYNTAX_THEME,
        line_numbers=True,
        start_line=start,
        highlight_lines={line} if line else None,
        word_wrap=True,
    )
    note = Text(f"lines {start}–{start + len(excerpt) - 1} of {len(lines):,}", style="dim")
    return Group(note, syntax)
