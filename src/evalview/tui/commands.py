"""Command palette entries: jump to a tab, a task's episodes, or one episode's record by id."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from evalview.tui.safe import clean
from evalview.tui.tabs import tabs_for

if TYPE_CHECKING:
    from evalview.session import Session

#: At most this many episode ids are offered for one query (10,000 ids would bury the rest).
MAX_EPISODE_HITS = 40


def highlight(matcher: Matcher, text: str) -> Content:
    """`text` literally, matched characters styled: `Matcher.highlight` would read task names
    and episode ids as markup (`[/]` raises, `[@click=...]` binds an action)."""
    content = Content(clean(text))
    score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    if not score:
        return content
    for offset in offsets:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


class Jumps(Protocol):
    """What the palette needs of the app (the app registers this provider, so the provider does
    not import the app: no import cycle)."""

    session: Session | None

    def show_tab(self, tab_id: str) -> None: ...
    def show_task(self, task: str) -> None: ...
    def show_episode(self, row: int) -> None: ...


class JumpProvider(Provider):
    """Tabs, tasks and episode ids of the opened run."""

    @property
    def _app(self) -> Jumps:
        return cast("Jumps", self.app)

    async def discover(self) -> Hits:
        app = self._app
        for tab in tabs_for(app.session):
            yield DiscoveryHit(f"Go to {tab.title}", partial(app.show_tab, tab.id))
        if app.session is None:
            return
        for task in app.session.run.tasks:
            yield DiscoveryHit(
                Content(f"Task {clean(task)}"),
                partial(app.show_task, task),
                help="list this task's episodes",
            )

    async def search(self, query: str) -> Hits:
        app = self._app
        matcher = self.matcher(query)
        for tab in tabs_for(app.session):
            text = f"Go to {tab.title}"
            if (score := matcher.match(text)) > 0:
                yield Hit(score, highlight(matcher, text), partial(app.show_tab, tab.id), text)
        session = app.session
        if session is None:
            return
        for task in session.run.tasks:
            text = f"Task {task}"
            if (score := matcher.match(text)) > 0:
                yield Hit(
                    score, highlight(matcher, text), partial(app.show_task, task), text,
                    help="list this task's episodes",
                )
        needle = query.strip().lower()
        if len(needle) < 2:
            return
        ids = session.run.episodes.ids
        offered = 0
        for row, eid in enumerate(ids):
            if needle not in str(eid).lower():
                continue
            text = f"Episode {eid}"
            yield Hit(
                max(matcher.match(text), 0.5),
                highlight(matcher, text),
                partial(app.show_episode, row),
                text,
                help="open the full record",
            )
            offered += 1
            if offered >= MAX_EPISODE_HITS:
                break


PALETTE_TEXT = "Export result.json and index.html…"


def _open_export(app: object) -> None:
    # Imported on use: the dialog pulls in the report renderer (pydantic, Jinja2), which the
    # first screen must not wait for.
    from evalview.tui.export_screen import open_export

    open_export(app)


class ExportProvider(Provider):
    """The palette entry for the export dialog."""

    async def discover(self) -> Hits:
        yield DiscoveryHit(PALETTE_TEXT, partial(_open_export, self.app), help="publish this run")

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        if (score := matcher.match(PALETTE_TEXT)) > 0:
            yield Hit(
                score, matcher.highlight(PALETTE_TEXT), partial(_open_export, self.app),
                PALETTE_TEXT, help="publish this run",
            )
