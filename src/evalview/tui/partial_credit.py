"""Partial credit: reconstructed PSR beside SR, and the checkpoints behind a selected row.

The numbers come from `evalview.psr` (the same objects `evalview psr --json` prints); this module
only lays them out. For a run: tasks → that task's episodes → the highlighted episode's checkpoints
(observed, target, credit). For a checkpoint-inputs file: split summaries, then every row with its
checkpoints.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from evalview.fmt import fixed, ratio
from evalview.psr import CheckpointReport, RunPsrReport
from evalview.psr.coverage import Coverage
from evalview.psr.parser import Checkpoint
from evalview.session import Session
from evalview.tui.fmt import pct
from evalview.tui.safe import clean, plain
from evalview.tui.safe import esc as escape
from evalview.tui.vtable import middle_cut

TITLE = "reconstructed PSR (checkpoint_fraction_v1, not the historical PSR program)"

_CSS = """
PartialCreditPane, CheckpointInputsPane { height: 1fr; }
PartialCreditPane DataTable, CheckpointInputsPane DataTable { height: 1fr; }
PartialCreditPane .psr-checkpoints, CheckpointInputsPane .psr-checkpoints {
    height: auto; max-height: 12;
}
/* On a short terminal the checkpoints give way, so the tables above keep some rows. */
.-short PartialCreditPane .psr-checkpoints, .-short CheckpointInputsPane .psr-checkpoints {
    max-height: 7;
}
PartialCreditPane Static, CheckpointInputsPane Static { height: auto; }
"""


def _p(x: float | None) -> Text:
    return Text(pct(x, 2), justify="right")


#: Task names are cut in the middle beyond this (the episodes title below names it whole).
_TASK_WIDTH = 16
def _value(x: float | bool | None) -> str:
    if x is None:
        return "—"
    if isinstance(x, bool):
        return str(x)
    return f"{x:g}"


def fill_checkpoints(
    table: DataTable[str | Text], checkpoints: Sequence[Checkpoint] | None, note: str | None
) -> None:
    """One row per checkpoint: label, kind, observed, target, credit (or why there are none)."""
    table.clear()
    if checkpoints is None:
        table.add_row(plain(note or "no checkpoints", style="dim"), "", "", "", "")
        return
    for c in checkpoints:
        table.add_row(
            plain(c.label),
            plain(c.kind.replace("_", " ")),
            Text(clean(_value(c.observed)), justify="right"),
            Text(clean(_value(c.target)), justify="right"),
            Text(fixed(c.credit, 2), justify="right", style="bold"),
        )


def _checkpoint_table(id: str) -> DataTable[str | Text]:
    table: DataTable[str | Text] = DataTable(id=id, classes="psr-checkpoints", cursor_type="row")
    for key, label in (
        ("label", "checkpoint"),
        ("kind", "kind"),
        ("observed", "observed"),
        ("target", "target"),
        ("credit", "credit"),
    ):
        table.add_column(label, key=key)
    return table


class PartialCreditPane(Vertical):
    """A run's PSR per task beside SR; Enter/highlight walks task → episode → checkpoints.

    The report was computed by the loading worker (`Session.psr`); this pane only lays it out.
    """

    DEFAULT_CSS = _CSS
    SCOPED_CSS = False  # the app's `.-short` class must reach it

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.report: RunPsrReport | None = session.psr
        self.refusal: str | None = session.psr_refusal
        self._filled = False

    def compose(self) -> ComposeResult:
        yield Static(id="psr-title", classes="pane-title")
        yield DataTable(id="psr-tasks", cursor_type="row", zebra_stripes=True)
        yield Static(id="psr-episodes-title")
        yield DataTable(id="psr-episodes", cursor_type="row", zebra_stripes=True)
        yield Static(id="psr-checkpoints-title")
        yield _checkpoint_table("psr-checkpoints")

    def on_mount(self) -> None:
        if not self.children:  # mounted as its screen or the app closed: never composed
            return
        if self.session.psr_pending:
            self.query_one("#psr-title", Static).update(f"{TITLE}\n[dim]scoring partial credit…[/]")
            return
        self._fill()

    def psr_updated(self) -> None:
        """The worker finished the report after the run screen painted: lay it out now."""
        self._fill()

    def _fill(self) -> None:
        if self._filled or self.session.psr_pending:
            return
        self._filled = True
        self.report, self.refusal = self.session.psr, self.session.psr_refusal
        title = self.query_one("#psr-title", Static)
        if self.report is None:
            title.update(f"[yellow]{TITLE}\nNo partial credit: {escape(str(self.refusal))}[/]")
            for table in self.query(DataTable):
                table.display = False  # empty tables would only look like missing data
            return
        r = self.report
        status = {"final": "green", "partial": "yellow"}.get(r.status, "dim")
        pending = (
            " · errored and unattempted cases are listed, never scored as zero"
            if r.status != "final"
            else ""
        )
        title.update(
            f"{TITLE}\nmean over tasks: PSR [bold]{pct(r.psr, 2)}[/] · SR {pct(r.sr, 2)} "
            f"(scored) · {pct(r.selected_success_rate, 2)} succ / sel · "
            f"[{status}]{r.status}[/]\n[dim]succ / sel: successes / selected · scored: cases "
            f"with a verifier outcome / selected{pending}[/]"
        )
        tasks = self.query_one("#psr-tasks", DataTable)
        for key, label in (
            ("task", "task"),
            ("psr", "PSR"),
            ("sr", "SR"),
            ("successes", "succ / sel"),
            ("scored", "scored"),
            ("unscored", "not scored"),
        ):
            tasks.add_column(label, key=key)
        for t in r.tasks:
            unscored = t.not_scored()
            tasks.add_row(
                plain(middle_cut(t.task, _TASK_WIDTH)),
                _p(t.psr),
                _p(t.sr),
                Text(ratio(t.successes, t.selected), justify="right"),
                Text(ratio(t.scored, t.selected), justify="right"),
                # how many; why is on the task's episodes title below (it held every reason
                # and pushed the table off an 80-column screen)
                Text(f"{t.selected - t.scored:,}" if unscored else "—", justify="right",
                     style="yellow" if unscored else "dim"),
                key=t.task,
            )
        episodes = self.query_one("#psr-episodes", DataTable)
        for key, label in (
            ("episode", "episode"),
            ("status", "status"),
            ("success", "success"),
            ("psr", "PSR"),
            ("message", "verifier message"),
        ):
            episodes.add_column(label, key=key)
        if r.tasks:
            self.show_task(r.tasks[0].task)

    def show_task(self, task: str) -> None:
        """List the task's selected cases and show the first one's checkpoints."""
        assert self.report is not None
        episodes = self.query_one("#psr-episodes", DataTable)
        episodes.clear()
        rows = [e for e in self.report.episodes if e.task == task]
        row = next((t for t in self.report.tasks if t.task == task), None)
        why = ", ".join(row.not_scored()) if row is not None else ""
        self.query_one("#psr-episodes-title", Static).update(
            f"[b]{escape(task)}[/] · {len(rows)} selected cases"
            + (f" · [yellow]not scored: {escape(why)}[/]" if why else "")
        )
        for e in rows:
            episodes.add_row(
                plain(e.episode_id),
                plain(e.status),
                "—" if e.success is None else ("yes" if e.success else "no"),
                _p(e.psr),
                Text(clean(e.message or "—"), style="" if e.message else "dim"),
                key=e.episode_id,
            )
        if rows:
            self.show_episode(rows[0].episode_id)

    def show_episode(self, episode_id: str) -> None:
        assert self.report is not None
        ep = next(e for e in self.report.episodes if e.episode_id == episode_id)
        where = f" · {ep.file}:{ep.line}" if ep.file and ep.line else ""
        self.query_one("#psr-checkpoints-title", Static).update(
            f"checkpoints of [b]{escape(ep.episode_id)}[/]{escape(where)} · PSR {pct(ep.psr, 2)}"
        )
        fill_checkpoints(self.query_one("#psr-checkpoints", DataTable), ep.checkpoints, ep.note)

    @on(DataTable.RowHighlighted, "#psr-tasks")
    def _task_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.show_task(event.row_key.value)

    @on(DataTable.RowHighlighted, "#psr-episodes")
    def _episode_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.show_episode(event.row_key.value)

    @on(DataTable.RowSelected, "#psr-tasks")
    def _task_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.query_one("#psr-episodes", DataTable).focus()


def coverage_cell(c: Coverage) -> str:
    """`3/4 partial`, `100/100 final`, `3/? partial`: the status said once."""
    return f"{c.fraction} {c.status}"


class CheckpointInputsPane(Vertical):
    """A checkpoint-inputs report: split summaries per model, then every row's checkpoints."""

    DEFAULT_CSS = _CSS
    SCOPED_CSS = False  # the app's `.-short` class must reach it

    def __init__(self, report: CheckpointReport, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.report = report
        self._rows = {f"{m.model}\x1f{t.row}": (m.model, t) for m in report.models for t in m.tasks}

    def compose(self) -> ComposeResult:
        yield Static(id="psr-title", classes="pane-title")
        yield DataTable(id="psr-summaries", cursor_type="row", zebra_stripes=True)
        yield DataTable(id="psr-rows", cursor_type="row", zebra_stripes=True)
        yield Static(id="psr-checkpoints-title")
        yield _checkpoint_table("psr-checkpoints")

    def on_mount(self) -> None:
        catalog = "" if self.report.options.catalog else " · no catalog: coverage n/?"
        self.query_one("#psr-title", Static).update(
            f"{TITLE}\n{escape(str(self.report.input_path))}{catalog}"
        )
        summaries = self.query_one("#psr-summaries", DataTable)
        for label in ("model", "split", "PSR", "SR", "CCE", "Rounds", "Chats", "coverage"):
            summaries.add_column(label, key=label)
        for m in self.report.models:
            for s in m.summaries:
                summaries.add_row(
                    plain(m.model),
                    plain(s.title),
                    _p(s.psr),
                    _p(s.sr),
                    _p(s.cce),
                    Text("—" if s.rounds is None else fixed(s.rounds, 2), justify="right"),
                    Text("—" if s.chats is None else fixed(s.chats, 2), justify="right"),
                    Text(
                        coverage_cell(s.coverage),
                        style={"final": "green", "partial": "yellow"}.get(s.status, "dim"),
                    ),
                )
        rows = self.query_one("#psr-rows", DataTable)
        for label in ("model", "split", "task", "success", "PSR", "verifier message"):
            rows.add_column(label, key=label)
        for key, (model, t) in self._rows.items():
            rows.add_row(
                plain(model),
                plain(t.split),
                plain(t.task),
                "yes" if t.success else "no",
                _p(t.psr),
                plain(t.message or ""),
                key=key,
            )
        if self._rows:
            self.show_row(next(iter(self._rows)))

    def show_row(self, key: str) -> None:
        model, t = self._rows[key]
        self.query_one("#psr-checkpoints-title", Static).update(
            f"checkpoints of [b]{escape(t.task)}[/] ({escape(model)}, row {t.row}) · "
            f"PSR {pct(t.psr, 2)}"
        )
        fill_checkpoints(self.query_one("#psr-checkpoints", DataTable), t.checkpoints, t.note)

    @on(DataTable.RowHighlighted, "#psr-rows")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.show_row(event.row_key.value)


class CheckpointInputsScreen(Screen[None]):
    """What `evalview inputs.json` shows for a PSR checkpoint-inputs file, inside the run app."""

    def __init__(self, report: CheckpointReport) -> None:
        super().__init__(id="checkpoint-inputs")
        self.report = report

    def compose(self) -> ComposeResult:
        models = len(self.report.models)
        rows = sum(len(m.tasks) for m in self.report.models)
        yield Static(
            f"[b]Partial credit[/] · checkpoint-inputs file · {models} "
            f"model{'s' * (models != 1)}, {rows} row{'s' * (rows != 1)} · "
            "[dim]↑↓ moves in a table, tab switches table, ? keys, q quits[/]",
            id="inputs-header",
        )
        yield CheckpointInputsPane(self.report, id="partial-credit-pane")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#psr-rows", DataTable).focus()
