"""Copying out of the app: an episode id, a finding, a record's JSON.

Textual's `App.copy_to_clipboard` sends the text to the terminal (OSC 52), which puts it on the
system clipboard where the terminal allows it (most do; tmux needs `set-clipboard on`). The
notification says what was copied, since the terminal gives no sign of its own.
"""

from __future__ import annotations

from textual.app import App

#: Characters of the copied text shown in the notification.
PREVIEW = 60


def copy_to_clipboard(app: App[object], text: str, what: str) -> None:
    """Copy `text` and say so: `Copied the episode id: pick-cube/seed1003`."""
    app.copy_to_clipboard(text)
    first = text.splitlines()[0] if text else ""
    preview = first if len(first) <= PREVIEW and "\n" not in text else first[: PREVIEW - 1] + "…"
    lines = text.count("\n") + 1
    size = f" ({lines:,} lines)" if lines > 1 else ""
    app.notify(f"{preview}{size}", title=f"Copied the {what}", markup=False)
