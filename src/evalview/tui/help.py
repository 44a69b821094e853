"""The `?` screen: every key, and how to reach a task or an episode from anywhere."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from evalview.tui.tabs import TABS

HELP = """\
# evalview keys

| key | does |
| --- | --- |
| `1`–`{n}` | {tabs} |
| `tab` / `shift+tab` | move focus |
| `↑ ↓ PgUp PgDn Home End` | move in a table |
| `Enter` | open: a task's episodes, an episode's full record, a finding's record or file |
| `Esc` | back from a record or file |
| `/` | search episodes (id, message, termination reason) |
| `x` | clear the episode filters |
| `s` | sort the Tasks table by the next column (click a header too) |
| `ctrl+p` | command palette: type a task or an episode id to jump there |
| `?` | this help |
| `q` | quit |

The header always shows the audit verdict and `successes / selected`, with attempted and
completed beside it: the headline counts every selected case, errors and unattempted included.

Numbers come from the same core as `evalview score --json`; the app computes nothing of its own.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark", "dismiss", "Close", id="help.close"),
    ]

    def compose(self) -> ComposeResult:
        tabs = ", ".join(f"{i} {t.title}" for i, t in enumerate(TABS, 1))
        with VerticalScroll(id="help-box"):
            yield Markdown(HELP.format(n=len(TABS), tabs=tabs))
