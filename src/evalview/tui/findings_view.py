"""Findings: every audit finding, the rule behind the highlighted one, Enter to go to its record."""

from __future__ import annotations

import re
from typing import ClassVar

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from evalview.findings import Finding
from evalview.model.run import ERROR, UNATTEMPTED
from evalview.session import Session
from evalview.tui.clipboard import copy_to_clipboard
from evalview.tui.episodes import EpisodeFilter
from evalview.tui.fmt import SEVERITY_MARK, SEVERITY_STYLE
from evalview.tui.keygate import focus_search
from evalview.tui.messages import ShowEpisodes
from evalview.tui.record import FileScreen, RecordScreen
from evalview.tui.safe import clean
from evalview.tui.safe import esc as escape
from evalview.tui.search_field import SearchField
from evalview.tui.vtable import Column, VirtualTable

#: The place and the message share what is left (`width=0`), so 80 columns show both and a
#: wide terminal gives both more.
COLUMNS = (
    Column("severity", 9),
    Column("code", 6),
    Column("rule", 22),
    Column("where"),
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


def message_after_place(finding: Finding) -> str:
    """The message without its leading place: the `where` column shows it already."""
    message = finding.message.removeprefix(f"{finding.location}: ")
    if message == finding.message and finding.file:
        message = finding.message.removeprefix(f"{finding.file}: ")
    return message


def group_rows(session: Session, finding: Finding) -> npt.NDArray[np.intp] | None:
    """Every episode row a grouped finding (`15 episode(s) errored …`) is about, or None when
    the finding is about one place. The predicates are the audit's own (publication.py)."""
    ep = session.run.episodes
    errored = ep.status == ERROR
    infra = ep.error_category == "infrastructure"
    masks = {
        "EV601": errored & infra,
        "EV602": (ep.status == UNATTEMPTED) & ep.in_schedule,
        "EV603": errored & ~infra,
    }
    mask = masks.get(finding.code)
    if mask is None:
        return None
    rows = np.flatnonzero(mask)
    return rows if len(rows) > 1 else None


#: A dotted key a manifest finding names in backticks: `method.configuration.openai_api_key`.
_KEY = re.compile(r"`([A-Za-z_][\w-]*(?:\.[\w-]+)*)`")


def named_key(finding: Finding) -> str | None:
    """The document key a finding about a JSON file names, so its file opens at that line."""
    if finding.line is not None or not (finding.file or "").endswith(".json"):
        return None
    match = _KEY.search(finding.message)
    return match.group(1) if match else None


def finding_line(finding: Finding) -> str:
    """One finding as a line to paste: `EV212 error manifest.json: message`."""
    return f"{finding.code} {finding.severity.value} {finding.location}: " + message_after_place(
        finding
    )


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

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: the field has the focus before the next key (keygate.focus_search).
        Binding("slash", "search", "Search", id="findings.search", priority=True),
        Binding("c", "copy", "Copy", id="findings.copy"),
    ]

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.all_findings = session.findings
        #: The findings listed (all, or those matching the search), in table order.
        self.findings = list(self.all_findings)

    def _title(self) -> str:
        if self.session.findings_pending:
            return "[dim]… auditing: the findings are listed here once the audit is in[/]"
        counts = self.session.counts
        tally = "  ".join(
            f"[{SEVERITY_STYLE[sev] if counts.get(sev, 0) else 'dim'}]"
            f"{SEVERITY_MARK[sev]} {counts.get(sev, 0)} {label}[/]"
            for sev, label in (("error", "errors"), ("warning", "warnings"), ("info", "info"))
        )
        return f"{tally}   [dim]Enter opens what it names · c copies it[/]"

    def compose(self) -> ComposeResult:
        yield Static(self._title(), classes="pane-title", id="findings-title")
        yield SearchField(
            placeholder="search code, rule, place, message…  (/)",
            id="findings-search",
            compact=True,
            classes="search",
        )
        yield VirtualTable(COLUMNS, id="findings-table")
        yield Static(id="rule-explanation")

    def on_mount(self) -> None:
        if not self.children:  # mounted as its screen or the app closed: never composed
            return
        self._show(self.all_findings)
        self._explain_empty()

    def _explain_empty(self) -> None:
        if self.session.findings_pending:
            self.query_one("#rule-explanation", Static).update(Text("… auditing", style="dim"))
        elif not self.all_findings:
            self.query_one("#rule-explanation", Static).update(
                Text("✓ The audit found nothing to report.", style="green")
            )

    def audit_updated(self) -> None:
        """The audit landed: list its findings (through the search typed meanwhile, if any)."""
        self.all_findings = self.session.findings
        self.query_one("#findings-title", Static).update(self._title())
        self._filter(self.query_one("#findings-search", Input).value)
        self._explain_empty()

    def _show(self, findings: list[Finding]) -> None:
        self.findings = findings
        self.query_one(VirtualTable).set_rows(len(findings), self._render_row)

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
            message_after_place(f),
        ]

    @on(Input.Changed, "#findings-search")
    def _search(self, event: Input.Changed) -> None:
        event.stop()
        self._filter(event.value)

    def _filter(self, value: str) -> None:
        needle = value.strip().lower()
        if not needle:
            self._show(list(self.all_findings))
            return
        from evalview.audit import RULES

        def haystack(f: Finding) -> str:
            rule = RULES.get(f.code)
            return " ".join((f.code, rule.name if rule else "", f.location, f.message)).lower()

        self._show([f for f in self.all_findings if needle in haystack(f)])

    @on(Input.Submitted, "#findings-search")
    def _search_done(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one(VirtualTable).focus()

    def action_search(self) -> None:
        focus_search(self.query_one("#findings-search", Input))

    def action_copy(self) -> None:
        table = self.query_one(VirtualTable)
        if self.findings:
            copy_to_clipboard(self.app, finding_line(self.findings[table.cursor_row]), "finding")

    @on(VirtualTable.Highlighted, "#findings-table")
    def _explain(self, event: VirtualTable.Highlighted) -> None:
        event.stop()
        if not 0 <= event.index < len(self.findings):
            return  # a highlight of the list before a search typed since narrowed it
        f = self.findings[event.index]
        text = rule_text(f.code)
        text.append("\n")
        text.append(clean(f.message))
        self.query_one("#rule-explanation", Static).update(text)

    @on(VirtualTable.Selected, "#findings-table")
    def _open(self, event: VirtualTable.Selected) -> None:
        event.stop()
        if 0 <= event.index < len(self.findings):  # (same: the list may have narrowed since)
            self.open_finding(self.findings[event.index])

    def open_finding(self, finding: Finding) -> None:
        """Show every episode of a grouped finding, else the record it names, else its file
        (at the key it names), else say it is run-wide."""
        rows = group_rows(self.session, finding)
        if rows is not None:
            label = f"the {len(rows)} episodes of {finding.code}"
            self.post_message(
                ShowEpisodes(EpisodeFilter(rows=tuple(int(r) for r in rows), group=label))
            )
            return
        row = locate_row(self.session, finding)
        if row is not None:
            self.app.push_screen(RecordScreen(self.session, row))
        elif finding.file:
            self.app.push_screen(
                FileScreen(self.session, finding.file, finding.line, key=named_key(finding))
            )
        else:
            self.app.notify(
                escape(f"{finding.code} is about the run as a whole; no single record to open."),
                title="Nothing to open",
            )
