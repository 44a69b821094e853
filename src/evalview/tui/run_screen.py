"""The main screen of an opened run: the header, one tab per registered pane, the footer."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane, Tabs

from evalview.session import Session
from evalview.tui.episodes import EpisodeFilter, EpisodesPane
from evalview.tui.header import RunHeader
from evalview.tui.messages import ShowEpisodes
from evalview.tui.overview import OverviewPane
from evalview.tui.tabs import tab_labels, tabs_for


class RunScreen(Screen[None]):
    """Routes the panes' requests (show episodes, open a record) so panes stay independent."""

    #: Priority, like the episodes' `/`: a tab key typed just before `/` or a search must move
    #: the focus before the app forwards the next key (a focused Input still gets digits).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(str(i), f"tab({i})", f"tab {i}", show=False, id=f"run.tab{i}", priority=True)
        for i in range(1, 10)
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(id="run")
        self.session = session
        #: The tabs this read has (a closed run has no Samples tab).
        self.tabs = tabs_for(session)
        self.initial = "findings" if session.reading_failed else self.tabs[0].id
        #: Tab id -> set once its pane is mounted. Only the first tab is composed with the
        #: screen; the others mount right after the first frame (about 0.45 s saved on 10,000
        #: episodes), or at once when something asks for them.
        self._ready: dict[str, asyncio.Event] = {}

    def compose(self) -> ComposeResult:
        yield RunHeader(self.session)
        if self.session.reading_failed:
            yield Static(
                "✗ Parts of this run could not be read; the Findings tab lists what and where. "
                "Numbers below cover only what was read.",
                id="reading-banner",
            )
        labels = tab_labels(self.tabs, self.app.size.width)
        with TabbedContent(initial=self.initial, id="tabs"):
            for label, tab in zip(labels, self.tabs, strict=True):
                with TabPane(label, id=tab.id):
                    if tab.id == self.initial:
                        yield tab.make(self.session, f"{tab.id}-pane")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        tabbed = self.query_one("#tabs", TabbedContent)
        for label, tab in zip(tab_labels(self.tabs, event.size.width), self.tabs, strict=True):
            tabbed.get_tab(tab.id).label = label

    def on_mount(self) -> None:
        ready = asyncio.Event()
        ready.set()
        self._ready[self.initial] = ready
        # Painted before the audit: the other tabs are mounted once it is in (`audit_updated`;
        # one by one on demand before), so the UI thread does not take the GIL from the audit.
        if not self.session.findings_pending:
            self.call_after_refresh(self._mount_rest)

    async def _mount_rest(self) -> None:
        for tab in self.tabs:
            await self.ensure_pane(tab.id)

    async def ensure_pane(self, tab_id: str) -> None:
        """Mount the tab's pane if it is not there yet (at most once, whoever asks first)."""
        if tab_id in self._ready:
            await self._ready[tab_id].wait()
            return
        ready = self._ready[tab_id] = asyncio.Event()
        if not self.is_attached or self not in self.app.screen_stack:
            # Replaced (a --watch re-read) before the rest of its tabs were mounted.
            ready.set()
            return
        tab = next(t for t in self.tabs if t.id == tab_id)
        await self.query_one(f"TabPane#{tab_id}", TabPane).mount(
            tab.make(self.session, f"{tab_id}-pane")
        )
        ready.set()

    @property
    def all_mounted(self) -> bool:
        return len(self._ready) == len(self.tabs) and all(e.is_set() for e in self._ready.values())

    def action_tab(self, number: int) -> None:
        if 1 <= number <= len(self.tabs):
            self.show_tab(self.tabs[number - 1].id)

    def show_tab(self, tab_id: str) -> None:
        if all(t.id != tab_id for t in self.tabs):
            return  # a tab this read has not (Samples, restored after a re-read of another)
        self.query_one(TabbedContent).active = tab_id
        ready = self._ready.get(tab_id)
        if ready is not None and ready.is_set():
            self._focus_in(tab_id)  # at once, so a key pressed next lands in the table
            return
        # The pane is still to be mounted: keys typed meanwhile (`/` and a search) wait for it.
        hold = getattr(self.app, "hold_keys", None)
        if hold is not None:
            hold()
        self.call_later(self._focus_when_ready, tab_id, held=hold is not None)

    async def _focus_when_ready(self, tab_id: str, *, held: bool) -> None:
        try:
            await self.ensure_pane(tab_id)
            if self.query_one(TabbedContent).active == tab_id:
                self._focus_in(tab_id)
        finally:
            if held:
                self.app.release_keys()  # type: ignore[attr-defined]

    def _focus_in(self, tab_id: str, *, keep: bool = True) -> None:
        """Focus the first table of a tab, so arrows and Enter work at once.

        `set_focus`, not `focus()`: the latter waits behind keys already queued, which then go
        to the widget that had the focus before. A focus already inside the tab (the search
        field, reached by keys typed meanwhile) stays there unless `keep` is False. Only while
        that tab is still the active one: a late call (after Enter moved on to Episodes) must not
        pull the reviewer back, since focusing into a hidden pane re-activates its tab.
        """
        if self.query_one(TabbedContent).active != tab_id:
            return
        focused = self.focused
        pane_id = f"{tab_id}-pane"
        if keep and focused is not None and any(n.id == pane_id for n in focused.ancestors):
            return
        for child in self.query(f"#{tab_id}-pane").results():
            for table in child.query("VirtualTable, DataTable"):
                if table.focusable:
                    self.set_focus(table)
                    return
        # A tab with no table (Overview): the focus must not stay in the pane just hidden, or
        # Textual moves it on to that pane's search field, which re-activates its tab and takes
        # every later key as text (pressing 2 then 1 trapped the reviewer in Tasks' search).
        # The tab bar takes it, as when the app opens.
        hidden = [n for n in (focused.ancestors if focused else []) if isinstance(n, TabPane)]
        if hidden and hidden[0].id != pane_id:
            self.set_focus(self.query_one(TabbedContent).query_one(Tabs))

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id:
            self.call_after_refresh(self._focus_in, event.pane.id)

    def audit_updated(self) -> None:
        """The audit landed (the screen was painted before it): the verdict, the Overview's
        cards and the Findings tab. A pane mounted later reads the session as it is then."""
        from evalview.tui.findings_view import FindingsPane

        for header in self.query(RunHeader):
            header.audit_updated()
        for pane in self.query(OverviewPane):
            pane.audit_updated()
        for findings in self.query(FindingsPane):
            findings.audit_updated()
        self.call_after_refresh(self._mount_rest)

    def scores_updated(self) -> None:
        """The full scorecard arrived (the bootstrap finished): redraw what shows it."""
        for pane in self.query(OverviewPane):
            pane.scores_updated()

    def psr_updated(self) -> None:
        """The deferred partial-credit report arrived: fill the tab if it is mounted."""
        from evalview.tui.partial_credit import PartialCreditPane

        for pane in self.query(PartialCreditPane):
            pane.psr_updated()

    @property
    def episodes(self) -> EpisodesPane:
        return self.query_one(EpisodesPane)

    @on(ShowEpisodes)
    def _show_episodes(self, message: ShowEpisodes) -> None:
        message.stop()
        self.show_episodes(message.filter)

    def show_episodes(self, f: EpisodeFilter) -> None:
        self.run_worker(self._show_episodes_when_ready(f), group="show-tab", exclusive=True)

    async def _show_episodes_when_ready(self, f: EpisodeFilter) -> None:
        await self.ensure_pane("episodes")
        self.episodes.set_filter(f)
        self.query_one(TabbedContent).active = "episodes"
        self._focus_in("episodes", keep=False)  # at once: the next key goes to the list
        self.call_after_refresh(self._focus_in, "episodes", keep=False)

    @on(EpisodesPane.OpenRecord)
    def _open_record(self, message: EpisodesPane.OpenRecord) -> None:
        message.stop()
        self.open_record(message.row)

    def open_record(self, row: int) -> None:
        from evalview.tui.record import RecordScreen  # Pygments: not before the first screen

        self.app.push_screen(RecordScreen(self.session, row))
