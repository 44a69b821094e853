"""Export from inside the app: a destination prompt, then a clear success or refusal.

The dialog calls the same `export_run` as `evalview export` (re-reading the run from disk, so the
input-change check means what it says), or `export_harness` for a benchmark-harness result, in a
worker thread so the frame never blocks. The outcome
stays on screen until dismissed; refusals list the audit's error findings like the CLI does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from evalview.model.address import Address
from evalview.report.export_summary import (
    ExportSummary,
    export_summary,
    harness_export_summary,
)
from evalview.tui.safe import clean
from evalview.tui.words import app_words

if TYPE_CHECKING:
    from evalview.report.export import Exported
    from evalview.report.harness_export import HarnessExported
    from evalview.session import HarnessSession


def default_destination(source: Path) -> Path:
    """The proposal: see `proposed_destination` (the bundled sample goes to the home folder)."""
    from evalview.report.destination import proposed_destination
    from evalview.samples.bundled import cache_root, checkout_sample_runs

    return proposed_destination(source, bundled=(checkout_sample_runs(), cache_root()))


def open_in_browser(index: Path) -> bool:
    """Open the written index.html in the default browser (False when none is available)."""
    import webbrowser

    try:
        return webbrowser.open(index.resolve().as_uri())
    except webbrowser.Error:
        return False


def _success_text(summary: ExportSummary) -> Text:
    """What `evalview export` prints (report/export_summary.py words both), as dialog text."""
    text = Text("✓ Exported ", style="bold green")
    text.append(clean(summary.destination), style="bold")
    text.append(f"\n  {clean(summary.headline)}")
    for path in summary.files:
        text.append(f"\n  wrote {clean(Path(path).absolute())}")
    for warning in summary.warnings:
        text.append(f"\n! {clean(warning)}", style="yellow")
    return text


def _refusal_text(message: str, details: list[str]) -> Text:
    text = Text("✗ Refused: ", style="bold red")
    text.append(clean(app_words(message)))  # refusals quote run data (finding messages, paths)
    for line in details[:20]:
        text.append(f"\n  {clean(line)}", style="red")
    if len(details) > 20:
        text.append(f"\n  … and {len(details) - 20} more (see the Findings tab)", style="red")
    text.append("\nNothing was written.", style="dim")
    return text


class ExportScreen(ModalScreen[None]):
    """Ask where to export, run the export off the UI thread, show what happened."""

    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    #export-dialog { width: 90; height: auto; max-height: 90%; border: thick $accent;
                     background: $surface; padding: 1 2; }
    #export-dialog Input { margin-bottom: 1; }
    #export-buttons { height: auto; margin-bottom: 1; }
    #export-buttons Button { margin-right: 2; }
    #export-status { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="export.close"),
        Binding("o", "open_page", "Open index.html", id="export.open"),
    ]

    def __init__(
        self,
        source: Path | Address,
        *,
        bootstrap: int | None = None,
        harness: HarnessSession | None = None,
    ) -> None:
        super().__init__(id="export")
        #: The read to export (path, and the read's name in a file of several): the export
        #: re-reads it from disk through the same road as `evalview export --read KEY`.
        self.address = Address.of(source)
        self.source = self.address.path
        self.bootstrap = bootstrap
        #: True for a benchmark-harness result: it has no episodes, so no metrics field.
        self.harness = harness
        self.busy = False
        #: "ok" or "refused" once an export finished (tests and the status style read it).
        self.outcome: str | None = None
        #: The written index.html once an export succeeded (`o` opens it).
        self.index_html: Path | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog"):
            yield Static(Text(f"Export {clean(self.source)}", style="bold"))
            yield Static(
                "Writes result.json and a standalone index.html into a new directory outside "
                "the run. Messages, metadata, paths and unselected metrics are not published."
            )
            yield Static(
                "Destination (a new directory outside the run; proposed under the directory "
                "you exported into last):"
            )
            yield Input(str(default_destination(self.source)), id="export-dest")
            if self.harness is None:
                yield Static("Metrics to publish per episode (optional, comma-separated keys):")
                yield Input(placeholder="e.g. score", id="export-metrics")
            with Horizontal(id="export-buttons"):
                yield Button("Export", variant="primary", id="export-go")
                yield Button("Open index.html (o)", id="export-open", disabled=True)
                yield Button("Close", id="export-close")
            yield Static("", id="export-status")

    def on_mount(self) -> None:
        self.query_one("#export-dest", Input).focus()

    def action_close(self) -> None:
        if not self.busy:
            self.dismiss(None)

    @on(Button.Pressed, "#export-close")
    def _close(self) -> None:
        self.action_close()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`o` is offered once there is a page to open (and never while typing a path)."""
        if action == "open_page":
            return self.index_html is not None and not isinstance(self.focused, Input)
        return True

    @on(Button.Pressed, "#export-open")
    def action_open_page(self) -> None:
        if self.index_html is None:
            return
        if open_in_browser(self.index_html):
            self.app.notify(str(self.index_html), title="Opened in the browser", markup=False)
        else:
            self.app.notify(
                f"No browser found here. Open {self.index_html} by hand.",
                severity="warning",
                markup=False,
            )

    @on(Button.Pressed, "#export-go")
    @on(Input.Submitted)
    def _submit(self) -> None:
        if self.busy:
            return
        dest = self.query_one("#export-dest", Input).value.strip()
        if not dest:
            self._show(_refusal_text("enter a destination directory.", []), "refused")
            return
        raw = "" if self.harness is not None else self.query_one("#export-metrics", Input).value
        metrics = tuple(k.strip() for k in raw.split(",") if k.strip())
        self.busy = True
        self.outcome = None
        self.query_one("#export-status", Static).update(Text("Exporting…", style="dim"))
        self._export(Path(dest).expanduser(), metrics)

    @work(thread=True, exclusive=True, group="export")
    def _export(self, dest: Path, metrics: tuple[str, ...]) -> None:
        from evalview.errors import InputError, Refused
        from evalview.report.export import AuditRefused, Exported, export_run

        done: Exported | HarnessExported
        try:
            done = export_run(self.address, dest, metrics=metrics, bootstrap=self.bootstrap)
        except AuditRefused as exc:
            details = [f"{f.code} {f.location}: {f.message}" for f in exc.findings]
            self.app.call_from_thread(self._show, _refusal_text(str(exc), details), "refused")
        except (Refused, InputError) as exc:
            self.app.call_from_thread(self._show, _refusal_text(str(exc), []), "refused")
        except OSError as exc:
            message = f"cannot write {dest} ({exc.strerror or exc}). Choose a writable place."
            self.app.call_from_thread(self._show, _refusal_text(message, []), "refused")
        except Exception as exc:  # a bug must end in a message, never a traceback
            message = f"the export failed ({type(exc).__name__}: {exc})."
            self.app.call_from_thread(self._show, _refusal_text(message, []), "refused")
        else:
            from evalview.report.destination import remember_export_dir

            remember_export_dir(dest)  # the next proposal goes where this one went
            index = next((p for p in done.files if p.name == "index.html"), None)
            summary = (
                export_summary(done) if isinstance(done, Exported) else harness_export_summary(done)
            )
            text = _success_text(summary)
            self.app.call_from_thread(self._shown_page, index)
            self.app.call_from_thread(self._show, text, "ok")

    def _shown_page(self, index: Path | None) -> None:
        self.index_html = index
        button = self.query_one("#export-open", Button)
        button.disabled = index is None
        if index is not None:
            button.focus()  # Enter (or o) opens the page; the path field no longer has focus
        self.refresh_bindings()

    def _show(self, text: Text, outcome: str) -> None:
        self.busy = False
        self.outcome = outcome
        status = self.query_one("#export-status", Static)
        status.set_classes(f"export-{outcome}")
        status.update(text)


def open_export(app: object) -> None:
    """Push the dialog for the app's opened run (nothing to export while loading)."""
    from textual.app import App

    assert isinstance(app, App)
    session = getattr(app, "session", None)
    harness = getattr(app, "harness", None)
    blocked = getattr(app, "export_blocked", None)
    if (session is None and harness is None) or blocked:
        why = blocked or "Nothing to export yet: the run is still loading."
        app.notify(why, severity="warning", markup=False)
        return
    if not isinstance(app.screen, ExportScreen):
        opened = session if session is not None else harness
        assert opened is not None
        app.push_screen(ExportScreen(opened.where, harness=harness))
