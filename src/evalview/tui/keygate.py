"""Keys that arrive while the screen is not ready for them wait here, in order, not lost.

Textual hands each key to whatever has the focus when the app takes it from its queue. A key
that asks for something not there yet (a tab whose pane is still being mounted, on a 10,000-episode
run under load, for a second or more) used to leave the keys typed after it with the old focus:
`3/seed` switched the tab, then `/` and the search went nowhere. The screen holds the gate while
it gets ready; the app replays the held keys in order when it opens.
"""

from __future__ import annotations

from textual import events
from textual.actions import SkipAction
from textual.widget import Widget


class KeyGate:
    """A counted hold on key dispatch, and the keys that came in while it was held."""

    def __init__(self) -> None:
        self._holds = 0
        self._held: list[events.Key] = []

    @property
    def closed(self) -> bool:
        """True while keys must wait: someone holds the gate, or held keys are not replayed yet."""
        return self._holds > 0 or bool(self._held)

    @property
    def held(self) -> bool:
        """True while some key waits to be replayed."""
        return bool(self._held)

    def hold(self) -> None:
        self._holds += 1

    def release(self) -> None:
        self._holds = max(0, self._holds - 1)

    def take(self, key: events.Key) -> bool:
        """Keep `key` for later if the gate is closed (then the caller must not dispatch it)."""
        if not self.closed:
            return False
        self._held.append(key)
        return True

    def next_key(self) -> events.Key | None:
        """The oldest held key, once nobody holds the gate (None: wait, or nothing held)."""
        if self._holds or not self._held:
            return None
        return self._held.pop(0)


def focus_search(field: Widget) -> None:
    """Move the focus to a search field at once, for a priority `/` binding: the field has the
    focus before the app forwards the next key (a plain binding ran only after `/` bubbled back
    up from the table, and the keys typed right after it were lost). `Widget.focus()` would
    wait behind the keys already queued, so `set_focus`. When the field already has the focus,
    SkipAction lets the `/` through as text: Textual drops a focused Input's printable keys from
    its ancestors' bindings, but not `/` ("slash" has no character there)."""
    screen = field.screen
    if screen.focused is field:
        raise SkipAction()
    screen.set_focus(field)
