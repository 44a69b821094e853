"""The tab registry: the app shows one tab per entry, in order.

An extension (partial credit, compare, export) adds a `Tab` here instead of editing the app: the
factory gets the opened `Session` and returns the pane widget. Keys 1–9 follow the order. A tab
with `when` shows only for reads it holds for (the Samples tab: Inspect logs with epochs, metadata
or other scorers), after the tabs every read has, so a closed run's tabs and keys stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.widget import Widget

if TYPE_CHECKING:
    from evalview.session import Session


@dataclass(frozen=True, slots=True)
class Tab:
    """One tab: a stable id (also the pane's widget id), its title, and how to build it."""

    id: str
    title: str
    make: Callable[[Session, str], Widget]
    #: shown only for the reads this holds for (None: every read)
    when: Callable[[Session], bool] | None = None
    #: the title when every tab's full title does not fit the terminal's width
    short: str | None = None

    def shows(self, session: Session | None) -> bool:
        return self.when is None or (session is not None and self.when(session))


def _overview(session: Session, id: str) -> Widget:
    from evalview.tui.overview import OverviewPane

    return OverviewPane(session, id=id)


def _tasks(session: Session, id: str) -> Widget:
    from evalview.tui.tasks import TasksPane

    return TasksPane(session, id=id)


def _episodes(session: Session, id: str) -> Widget:
    from evalview.tui.episodes import EpisodesPane

    return EpisodesPane(session, id=id)


def _errors(session: Session, id: str) -> Widget:
    from evalview.tui.errors_view import ErrorsPane

    return ErrorsPane(session, id=id)


def _findings(session: Session, id: str) -> Widget:
    from evalview.tui.findings_view import FindingsPane

    return FindingsPane(session, id=id)


def _partial_credit(session: Session, id: str) -> Widget:
    from evalview.tui.partial_credit import PartialCreditPane

    return PartialCreditPane(session, id=id)


def _samples(session: Session, id: str) -> Widget:
    from evalview.tui.samples_view import SamplesPane

    return SamplesPane(session, id=id)


def _has_samples(session: Session) -> bool:
    """Samples repeated over epochs, sample metadata to group by, or other scorers."""
    run = session.run
    return bool(run.repeats or run.groupings or run.scorers)


TABS: list[Tab] = [
    Tab("overview", "Overview", _overview),
    Tab("tasks", "Tasks", _tasks),
    Tab("episodes", "Episodes", _episodes),
    Tab("errors", "Errors", _errors),
    Tab("findings", "Findings", _findings),
    Tab("partial-credit", "Partial credit", _partial_credit, short="Partial"),
    Tab("samples", "Samples", _samples, when=_has_samples),
]


def tab_labels(tabs: list[Tab], width: int) -> list[str]:
    """`1 Overview` ...: full titles when the bar fits `width` (a tab pads its label by one cell
    each side), else the short ones, so no tab is scrolled out of an 80-column bar."""
    full = [f"{i} {t.title}" for i, t in enumerate(tabs, 1)]
    if sum(len(label) + 2 for label in full) <= width:
        return full
    return [f"{i} {t.short or t.title}" for i, t in enumerate(tabs, 1)]


def tabs_for(session: Session | None) -> list[Tab]:
    """The tabs of one read, in order (number keys follow this list)."""
    return [t for t in TABS if t.shows(session)]
