"""Formatting shared by every view (command-line text, screens): headless, imports nothing."""

from __future__ import annotations

__all__ = ["STAGES", "pct"]

#: The stages of opening a run, in order, as the loading bar names them (here, not in
#: evalview.session, so the app's loading screen draws without importing the reader).
STAGES = ("reading", "auditing", "scoring")


def pct(x: float | None, digits: int = 1) -> str:
    """A fraction as percent text; None as an em dash."""
    return "—" if x is None else f"{100 * x:.{digits}f} %"
