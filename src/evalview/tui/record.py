"""The full record of one episode, and the raw text of a file a finding points at.

The record comes from what the loader already parsed (no I/O). A file view reads in a thread
worker, refuses symbolic links like the loader, and never writes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import orjson
from rich.console import Group, RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from evalview.session import Session
from evalview.tui.clipboard import copy_to_clipboard
from evalview.tui.header import RunHeader
from evalview.tui.keygate import focus_search
from evalview.tui.safe import clean, clean_block, plain
from evalview.tui.safe import esc as escape

if TYPE_CHECKING:  # rich.syntax brings Pygments (0.07 s): imported when a record is shown
    from rich.syntax import Syntax

#: The episode fields an exported result.json publishes (model/result.py), shown for its rows.
PUBLISHED_FIELDS = (
    "id", "task", "seed", "status", "success", "error_category", "error_type",
    "termination_reason", "score",
)
#: Lines of context shown on each side of the line a finding names.
CONTEXT_LINES = 15
#: Syntax theme made of the terminal's own ANSI colours: reads in 16 colours and true colour.
SYNTAX_THEME = "ansi_dark"


def _json_text(data: object) -> str:
    """Indented JSON; orjson escapes C0 controls, `clean` shows the rest (DEL, C1, bidi)."""
    return clean_block(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())


class FindBar(Input):
    """The record's find bar: Escape closes the bar (the record stays open; a second Escape
    goes back), as in a browser or an editor. It used to close the whole record."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close find", show=False, id="find.close"),
    ]

    def action_close(self) -> None:
        self.display = False
        self.screen.query_one("#detail-body").focus()


class _DetailScreen(Screen[None]):
    """A scrollable page under the run's header (verdict and headline stay in view), with a
    title line; escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace", "app.pop_screen", "Back", id="detail.back"),
    ]

    def __init__(self, session: Session, title: str) -> None:
        super().__init__()
        self.session = session
        self.heading = title

    def compose(self) -> ComposeResult:
        yield RunHeader(self.session)
        yield Static(plain(self.heading), id="detail-title")
        yield Static(id="detail-where", classes="where")
        yield FindBar(
            placeholder="find in this record…  (Enter: next match, Escape: close)",
            id="detail-find", compact=True,
        )
        with VerticalScroll(id="detail-body"):
            yield Static(id="detail-content")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#detail-body").focus()


class RecordScreen(_DetailScreen):
    """One episode row: where it came from and its JSON, syntax-highlighted; `/` finds text in
    it, `c` copies it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority, with keygate.focus_search: the bar has the focus before the next key (the
        # keys typed right after `/` went to the record, and a `q` among them quit the app).
        Binding("slash", "find", "Find", id="record.find", priority=True),
        Binding("c", "copy", "Copy JSON", id="record.copy"),
    ]

    def __init__(self, session: Session, row: int) -> None:
        ep = session.run.episodes
        super().__init__(session, f"Episode {ep.ids[row]}")
        self.row = row
        #: The JSON shown (None when the row has no record to show), and the find state.
        self.json_text: str | None = None
        self.matches: list[int] = []
        self.match_at = 0

    def on_mount(self) -> None:
        super().on_mount()
        where, body = self.describe()
        self.query_one("#detail-where", Static).update(where)
        self.query_one("#detail-content", Static).update(body)

    def _syntax(self, text: str, highlight: set[int] | None = None) -> Syntax:
        from rich.syntax import Syntax

        self.json_text = text
        return Syntax(
            text, "json", theme=SYNTAX_THEME, line_numbers=True, word_wrap=True,
            highlight_lines=highlight,
        )

    # -- find and copy -------------------------------------------------------------------------

    def action_find(self) -> None:
        if self.json_text is not None:
            find = self.query_one("#detail-find", Input)
            find.display = True
            focus_search(find)

    @on(Input.Changed, "#detail-find")
    def _find(self, event: Input.Changed) -> None:
        needle = event.value.strip().lower()
        lines = (self.json_text or "").split("\n")
        self.matches = [i + 1 for i, line in enumerate(lines) if needle and needle in line.lower()]
        self.match_at = 0
        self._show_match()

    @on(Input.Submitted, "#detail-find")
    def _next(self) -> None:
        if self.matches:
            self.match_at = (self.match_at + 1) % len(self.matches)
            self._show_match()

    def _show_match(self) -> None:
        """Mark the matching lines, scroll to the current one, say `2/5 matches`."""
        if self.json_text is None:
            return
        content = self.query_one("#detail-content", Static)
        content.update(self._syntax(self.json_text, set(self.matches) or None))
        needle = self.query_one("#detail-find", Input).value.strip()
        title = self.heading
        if needle:
            found = len(self.matches)
            at = f"{self.match_at + 1}/{found}" if found else "no"
            title += f"  · {at} match{'es' * (found != 1)} for “{needle}”"
        self.query_one("#detail-title", Static).update(plain(title))
        if self.matches:
            line = self.matches[self.match_at]
            self.query_one("#detail-body", VerticalScroll).scroll_to(
                y=max(line - 3, 0), animate=False
            )

    def action_copy(self) -> None:
        if self.json_text is None:
            self.app.notify("This row has no record to copy.", severity="warning")
            return
        copy_to_clipboard(self.app, self.json_text, "record JSON")

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
        if index < 0 and run.kind == "result-json":
            # An exported result publishes each episode's outcome fields, not its record.
            where.append(f"\npublished in {clean(run.path.name)} (outcome fields only)")
            published = {k: v for k, v in ep.row(r).items() if k in PUBLISHED_FIELDS}
            return where, self._syntax(_json_text(published))
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
        return where, self._syntax(_json_text(record.data))


class FileScreen(_DetailScreen):
    """The text of a run file around a line, read off the UI thread."""

    def __init__(
        self, session: Session, rel: str, line: int | None = None, *, key: str | None = None
    ) -> None:
        where = f", line {line}" if line else f", at `{key}`" if key else ""
        super().__init__(session, f"File {rel}{where}")
        self.rel = rel
        self.line = line
        #: A dotted key (`method.configuration.token`) to open the file at, when no line is known.
        self.key = key

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#detail-where", Static).update(
            f"{escape(str(self.session.run.path / self.rel))}"
        )
        doc = self.session.run.documents.get(self.rel)
        if doc is not None and self.line is None and self.key is None:
            from rich.syntax import Syntax

            self._show(Syntax(_json_text(doc), "json", theme=SYNTAX_THEME, line_numbers=True))
            return
        self.query_one("#detail-content", Static).update(Text("reading…", style="dim"))
        self._read()

    @work(thread=True, exclusive=True, group="file-view")
    def _read(self) -> None:
        body = read_excerpt(self.session.run.path, self.rel, self.line, key=self.key)
        self.app.call_from_thread(self._show, body)

    def _show(self, body: RenderableType) -> None:
        self.query_one("#detail-content", Static).update(body)


def key_line(lines: list[str], key: str) -> int | None:
    """The 1-based line of a dotted key in a JSON text laid out one key per line: each part is
    looked for after the line of the part before it (`method` then `configuration` then ...)."""
    at = 0
    for part in key.split("."):
        quoted = f'"{part}"'
        hit = next(
            (i for i in range(at, len(lines)) if quoted in lines[i]
             and lines[i].split(quoted, 1)[1].lstrip().startswith(":")),
            None,
        )
        if hit is None:
            return None
        at = hit
    return at + 1


def read_excerpt(
    root: Path, rel: str, line: int | None, *, key: str | None = None
) -> RenderableType:
    """The file (or CONTEXT_LINES around `line`, or around the line of `key`) as highlighted
    text, or why it cannot be shown."""
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
    if line is None and key is not None:
        line = key_line(lines, key)
    lexer = "json" if rel.endswith((".json", ".jsonl")) else "text"
    if line is None:
        start, excerpt = 1, lines[:2000]
    else:
        start = max(line - CONTEXT_LINES, 1)
        excerpt = lines[start - 1 : line + CONTEXT_LINES]
    if not excerpt:
        return Text(f"{clean(rel)} has no line {line}.", style="yellow")
    from rich.syntax import Syntax

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
