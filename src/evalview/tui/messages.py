"""Messages panes send to the app, so a pane never reaches into another pane."""

from __future__ import annotations

from textual.message import Message

from evalview.tui.episodes import EpisodeFilter


class ShowEpisodes(Message):
    """Switch to the Episodes tab, narrowed to `filter`."""

    def __init__(self, filter: EpisodeFilter) -> None:
        super().__init__()
        self.filter = filter
