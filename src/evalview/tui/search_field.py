"""A pane's search box that a reviewer can always leave.

Digits and letters typed into a focused search box are text (a seed or a task name is searched
for), so a box that took the focus by mistake used to keep every key after it: only ctrl+q got
out. Escape now leaves it for its pane's table, the text and the filter it set kept.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Input


class SearchField(Input):
    """`Input` whose Escape hands the focus back to the nearest table (or to nothing)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Back to the list", show=False, id="search.leave"),
    ]

    def action_leave(self) -> None:
        for ancestor in self.ancestors:
            for table in ancestor.query("VirtualTable, DataTable"):
                if table.focusable and table.display:
                    self.screen.set_focus(table)
                    return
        self.screen.set_focus(None)
