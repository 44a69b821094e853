"""Export from inside the app: a destination prompt, then a clear success or refusal.

The dialog calls the same `export_run` as `evalview export` (re-reading the run from disk, so the
input-change check means what it says), in a worker thread so the frame never blocks. The outcome
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

from evalview.report.export_summary import export_summary
from evalview.tui.safe import clean

if TYPE_CHECKING:
    from evalview.report.export import Exported



def default_destination(source: Path) -> Path:
    """A new sibling of the run (or of an exported result's folder): never inside the run."""
    base = source if source.is_dir() else source.parent
    stem = f"{base.name}-export"
    candidate = base.parent / stem
    n = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = base.parent / f"{stem}-{n}"
        n += 1
    return candidate


def _success_text(done: Exported) -> Text:
    summary = export_summary(done)
    text = Text("✓ Exported ", style="bold green")
    text.append(clean(summary.destination), style="bold")
    text.append(f"\n  {clean(summary.headline)}")
    for path in summary.files:
        text.append(f"\n  {clean(path)}")
    for warning in summary.warnings:
        text.append(f"\n! {clean(warning)}", style="yellow")
    return text


def _refusal_text(message: str, details: list[str]) -> Text:
    text = Text("✗ Refused: ", style="bold red")
    text.append(clean(message))  # refusals quote run data (finding messages, paths)
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
    ]

    def __init__(self, source: Path, *, bootstrap: int | None = None) -> None:
        super().__init__(id="export")
        self.source = source
        self.bootstrap = bootstrap
        self.busy = False
        #: "ok" or "refused" once an export finished (tests and the status style read it).
        self.outcome: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog"):
            yield Static(Text(f"Export {clean(self.source)}", style="bold"))
            yield Static(
                "Writes result.json and a standalone index.html into a new directory outside "
                "the run. Messages, metadata, paths and unselected metrics are not published."
            )
            yield Static("Destination (a new directory):")
            yield Input(str(default_destination(self.source)), id="export-dest")
            yield Static("Metrics to publish per episode (optional, comma-separated keys):")
            yield Input(placeholder="e.g. score", id="export-metrics")
            with Horizontal(id="export-buttons"):
                yield Button("Export", variant="primary", id="export-go")
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

    @on(Button.Pressed, "#export-go")
    @on(Input.Submitted)
    def _submit(self) -> None:
        if self.busy:
            return
        dest = self.query_one("#export-dest", Input).value.strip()
        if not dest:
            self._show(_refusal_text("enter a destination directory.", []), "refused")
            return
        raw = self.query_one("#export-metrics", Input).value
        metrics = tuple(k.strip() for k in raw.split(",") if k.strip())
        self.busy = True
        self.outcome = None
        self.query_one("#export-status", Static).update(Text("Exporting…", style="dim"))
        self._export(Path(dest).expanduser(), metrics)

    @work(thread=True, exclusive=True, group="export")
    def _export(self, dest: Path, metrics: tuple[str, ...]) -> None:
        from evalview.errors import InputError, Refused
        from evalview.report.export import AuditRefused, export_run

        try:
            done = export_run(self.source, dest, metrics=metrics, bootstrap=self.bootstrap)
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
            self.app.call_from_thread(self._show, _success_text(done), "ok")

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
    blocked = getattr(app, "export_blocked", None)
    if session is None or blocked:
        why = blocked or "Nothing to export yet: the run is still loading."
        app.notify(why, severity="warning", markup=False)
        return
    if not isinstance(app.screen, ExportScreen):
        app.push_screen(ExportScreen(Path(session.path)))
