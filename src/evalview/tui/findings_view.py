"""Findings: every audit finding, the rule behind the highlighted one, Enter to go to its record."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import Static

from evalview.findings import Finding
from evalview.session import Session
from evalview.tui.fmt import SEVERITY_MARK, SEVERITY_STYLE
from evalview.tui.record import FileScreen, RecordScreen
from evalview.tui.safe import clean
from evalview.tui.safe import esc as escape
from evalview.tui.vtable import Column, VirtualTable

COLUMNS = (
    Column("severity", 10),
    Column("code", 6),
    Column("rule", 22),
    Column("where", 34),
    Column("message"),
)


def locate_row(session: Session, finding: Finding) -> int | None:
    """The episode-table row a finding is about: by its JSONL line first, then by episode id."""
    ep = session.run.episodes
    if finding.line is not None and finding.file == "episodes.jsonl":
        hits = np.flatnonzero(ep.line == finding.line)
        if len(hits):
            return int(hits[0])
    if finding.episode_id is not None:
        hits = np.flatnonzero(ep.ids == finding.episode_id)
        if len(hits):
            in_schedule = hits[ep.in_schedule[hits]]
            return int(in_schedule[0] if len(in_schedule) else hits[0])
    return None


def rule_text(code: str) -> Text:
    """The rule's explanation, shown under the table for the highlighted finding."""
    from evalview.audit import RULES

    rule = RULES.get(code)
    text = Text()
    if rule is None:
        text.append(f"{code}: no registered rule.", style="dim")
        return text
    text.append(f"{rule.code} {rule.name}", style="bold")
    text.append(f"  ({rule.family}, {rule.severity.value})\n", style="dim")
    text.append(rule.summary)
    text.append(f"\nMore: docs/rules.md, rule {rule.code}.", style="dim")
    return text


class FindingsPane(Vertical):
    """The table of findings and, beneath, what the highlighted rule means."""

    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.findings = session.findings

    def compose(self) -> ComposeResult:
        counts = self.session.counts
        tally = "  ".join(
            f"[{SEVERITY_STYLE[sev] if counts.get(sev, 0) else 'dim'}]"
            f"{SEVERITY_MARK[sev]} {counts.get(sev, 0)} {label}[/]"
            for sev, label in (("error", "errors"), ("warning", "warnings"), ("info", "info"))
        )
        yield Static(
            f"{tally}   [dim]Enter opens the record or file a finding names[/]",
            classes="pane-title",
        )
        yield VirtualTable(COLUMNS, id="findings-table")
        yield Static(id="rule-explanation")

    def on_mount(self) -> None:
        table = self.query_one(VirtualTable)
        table.set_rows(len(self.findings), self._render_row)
        if not self.findings:
            self.query_one("#rule-explanation", Static).update(
                Text("✓ The audit found nothing to report.", style="green")
            )

    def _render_row(self, i: int) -> list[str | Text]:
        f = self.findings[i]
        sev = f.severity.value
        from evalview.audit import RULES

        rule = RULES.get(f.code)
        return [
            Text(f"{SEVERITY_MARK[sev]} {sev}", style=SEVERITY_STYLE[sev]),
            f.code,
            rule.name if rule else "",
            Text(f.location, style="cyan"),
            f.message,
        ]

    @on(VirtualTable.Highlighted, "#findings-table")
    def _explain(self, event: VirtualTable.Highlighted) -> None:
        event.stop()
        f = self.findings[event.index]
        text = rule_text(f.code)
        text.append("\n")
        text.append(clean(f.message))
        self.query_one("#rule-explanation", Static).update(text)

    @on(VirtualTable.Selected, "#findings-table")
    def _open(self, event: VirtualTable.Selected) -> None:
        event.stop()
        self.open_finding(self.findings[event.index])

    def open_finding(self, finding: Finding) -> None:
        """Show the record the finding names, else its file, else say it is run-wide."""
        row = locate_row(self.session, finding)
        if row is not None:
            self.app.push_screen(RecordScreen(self.session, row))
        elif finding.file:
            self.app.push_screen(FileScreen(self.session, finding.file, finding.line))
        else:
            self.app.notify(
                escape(f"{finding.code} is about the run as a whole; no single record to open."),
                title="Nothing to open",
            )
