"""A keyboard-and-mouse table that renders only the rows on screen.

Textual's DataTable measures every cell of every row when rows are added (about a second for
10,000 episodes, on the UI thread). This widget asks its row source for the visible rows only, so
a frame costs the same for 100 rows as for 10,000 and re-filtering is just a new row count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from evalview.tui.safe import clean, clean_text

Cell = str | Text
RowSource = Callable[[int], Sequence[Cell]]


@dataclass(frozen=True, slots=True)
class Column:
    """A fixed-width column; `width=0` takes the remaining space (the last such column)."""

    label: str
    width: int = 0
    justify: str = "left"
    #: "end": a long value loses its end (…); "middle": it keeps its head and its tail;
    #: "path": each folder is squeezed first, then the file name, and a `[read]` suffix is kept
    #: whole, so the parts where names differ stay (`p…er-b/ft-seed-1`, `…json [eval_results_400]`)
    cut: str = "end"


def middle_cut(value: str, width: int) -> str:
    """`value` in `width` cells with its middle replaced by `…`: a third of the room for the
    head, the rest for the tail (what tells two similar names apart is usually at the end)."""
    if cell_len(value) <= width:
        return value
    if width <= 1:
        return "…"[:width]
    room = width - 1
    head_room = room // 3
    head, used = "", 0
    for ch in value:
        if used + cell_len(ch) > head_room:
            break
        head, used = head + ch, used + cell_len(ch)
    tail, used = "", 0
    for ch in reversed(value):
        if used + cell_len(ch) > room - cell_len(head):
            break
        tail, used = ch + tail, used + cell_len(ch)
    return f"{head}…{tail}"


#: A component is never squeezed below this many cells (`p…r-b`): enough to tell two apart.
_MIN_PART = 5


def path_cut(value: str, width: int) -> str:
    """`value` (a relative path, maybe with a ` [read]` suffix) in `width` cells, losing what
    tells rows apart last: folders are squeezed from their middle, left to right; then the
    outer folders go (`…/`), the one holding the file stays; then the file name gives way. The
    suffix is kept whole. Falls back to `middle_cut` when even that does not fit."""
    if cell_len(value) <= width:
        return value
    base, sep, read = value.partition(" [")
    suffix = f"{sep}{read}" if sep else ""
    parts = base.split("/")

    def over() -> int:
        return cell_len("/".join(parts) + suffix) - width

    for i in range(len(parts) - 1):
        if over() <= 0:
            break
        target = max(_MIN_PART, cell_len(parts[i]) - over())
        if target < cell_len(parts[i]):
            parts[i] = middle_cut(parts[i], target)
    while over() > 0:
        folders = parts[1:-1] if parts[0] == "…" else parts[:-1]
        if len(folders) <= 1:
            break
        parts = ["…", *folders[1:], parts[-1]]
    # The file's name gives way, while it keeps half the room (a suffix then gives way too).
    floor = max(3, width // 2) if suffix and width >= 16 else 3
    if over() > 0 and cell_len(parts[-1]) - over() >= floor:
        parts[-1] = middle_cut(parts[-1], cell_len(parts[-1]) - over())
    if over() <= 0:
        return "/".join(parts) + suffix
    if suffix and width >= 16 and cell_len(base) > width // 2:
        # The suffix does not leave the file a name: half the room each, the file's name cut
        # in its middle (its tail, where `-v1.json` and `-v2.json` differ, kept) and the
        # suffix likewise (`[eval…ts_400]`).
        inner = read.removesuffix("]")
        room = width - width // 2 - 3  # ` [`, `]`
        outer, _, name = base.rpartition("/")
        head = ("…/" if outer else "") + middle_cut(name, width // 2 - (2 if outer else 0))
        return f"{head} [{middle_cut(inner, room)}]"
    return middle_cut(value, width)



def _no_rows(_: int) -> Sequence[Cell]:
    return ()


class VirtualTable(ScrollView, can_focus=True):
    """Rows come from a callback; the header line stays put while the body scrolls."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "vtable--header",
        "vtable--cursor",
        "vtable--odd",
    }

    DEFAULT_CSS = """
    VirtualTable { height: 1fr; }
    VirtualTable > .vtable--header { text-style: bold; background: $panel; }
    VirtualTable > .vtable--cursor { background: $accent 30%; }
    VirtualTable:focus > .vtable--cursor { background: $accent; color: $text; text-style: bold; }
    VirtualTable > .vtable--odd { background: $surface; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(-1)", "Up", show=False, id="table.up"),
        Binding("down,j", "cursor(1)", "Down", show=False, id="table.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="table.page-up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="table.page-down"),
        Binding("home", "jump(0)", "First", show=False, id="table.first"),
        Binding("end", "jump(-1)", "Last", show=False, id="table.last"),
        Binding("left,h", "scroll_left", "Left", show=False, id="table.left"),
        Binding("right,l", "scroll_right", "Right", show=False, id="table.right"),
        Binding("enter", "select", "Open", id="table.open"),
    ]

    cursor_row: reactive[int] = reactive(0)

    class Highlighted(Message):
        """The cursor moved to `index` (a position in the current row order)."""

        def __init__(self, table: VirtualTable, index: int) -> None:
            super().__init__()
            self.table = table
            self.index = index

        @property
        def control(self) -> VirtualTable:
            return self.table

    class Selected(Highlighted):
        """Enter (or a click on the highlighted row) on `index`."""

    class HeaderClicked(Message):
        """A click on the header of column `column` (its position in `columns`)."""

        def __init__(self, table: VirtualTable, column: int) -> None:
            super().__init__()
            self.table = table
            self.column = column

        @property
        def control(self) -> VirtualTable:
            return self.table

    def __init__(
        self,
        columns: Sequence[Column],
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        lead: int | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns = list(columns)
        #: The last column the first view must show whole: when the columns do not all fit,
        #: the flexible column takes the room the columns up to `lead` leave, so a narrow
        #: terminal shows them without scrolling and only the later ones scroll sideways.
        self.lead = lead
        self.row_count = 0
        self._source: RowSource = _no_rows
        #: The column the rows are sorted by (its header shows ▲ or ▼), or None.
        self.sorted_by: tuple[int, bool] | None = None

    def set_rows(self, count: int, source: RowSource, *, keep_cursor: bool = False) -> None:
        """Replace the rows: nothing is rendered until it scrolls into view.

        `keep_cursor` leaves the cursor and the scroll where they are (rows filling in while
        the user reads); otherwise both go back to the first row.
        """
        self.row_count = count
        self._source = source
        self.virtual_size = Size(self._line_width(), count + 1)
        self.cursor_row = min(self.cursor_row, max(count - 1, 0))
        if keep_cursor:
            self.refresh()
            return
        self.scroll_to(y=0, animate=False)
        self.cursor_row = 0
        self.refresh()
        if count:
            self.post_message(self.Highlighted(self, 0))

    def _total_width(self) -> int:
        """Width of the fixed columns (and their gaps)."""
        return sum(c.width + 1 for c in self.columns if c.width)

    # -- rendering ---------------------------------------------------------------------------

    #: Narrowest a flexible column gets before the table scrolls sideways instead.
    MIN_FLEX = 16

    def _flex_width(self) -> int:
        """Width of each flexible column when the columns do not all fit the view: what the
        columns up to `lead` leave of it (at least MIN_FLEX), else MIN_FLEX."""
        view = self.scrollable_content_region.width or self.size.width
        flexible = sum(1 for c in self.columns if c.width == 0)
        if self.lead is None or not flexible:
            return self.MIN_FLEX
        if (view - self._total_width() - flexible) // flexible >= self.MIN_FLEX:
            return self.MIN_FLEX  # every column fits: the flexible ones share what is left
        first = sum(c.width + 1 for c in self.columns[: self.lead + 1] if c.width)
        return max(self.MIN_FLEX, (view - first - flexible) // flexible)

    def _line_width(self) -> int:
        """The full width of a line: the view, or more when the fixed columns need it."""
        view = self.scrollable_content_region.width or self.size.width
        flexible = sum(1 for c in self.columns if c.width == 0)
        return max(view, self._total_width() + flexible * self._flex_width())

    def _widths(self) -> list[int]:
        width = self._line_width()
        widths = [c.width for c in self.columns]
        flexible = [i for i, w in enumerate(widths) if w == 0]
        fixed = sum(w + 1 for w in widths if w)
        if flexible:
            spare = max(width - fixed - len(flexible), 8 * len(flexible))
            for i in flexible:
                widths[i] = spare // len(flexible)
        return widths

    def show_sorted(self, column: int | None, reverse: bool = False) -> None:
        """Mark `column`'s header as the sort order (None: the rows' own order)."""
        self.sorted_by = None if column is None else (column, reverse)
        self.refresh()

    def _line(
        self, cells: Sequence[Cell], widths: list[int], style: Style, *, header: bool = False
    ) -> list[Segment]:
        segments: list[Segment] = []
        for i, (col, width, cell) in enumerate(zip(self.columns, widths, cells, strict=False)):
            # Text.render drops a Text's base style; appending turns it into a span it keeps.
            text = Text(no_wrap=True)
            if isinstance(cell, Text):  # run data: no control character reaches the terminal
                text.append_text(clean_text(cell))
            else:
                text.append(clean(cell))
            if col.cut != "end" and text.cell_len > width:
                short = path_cut if col.cut == "path" else middle_cut
                text = Text(short(text.plain, width), style=text.style, no_wrap=True)
            text.truncate(width, overflow="ellipsis", pad=False)
            pad = width - text.cell_len
            if col.justify == "right":
                text = Text(" " * pad) + text
            else:
                text.append(" " * pad)
            text.append(" ")
            if header:  # a click on a header cell names its column
                text.stylize(Style(meta={"column": i}))
            segments.extend(text.render(self.app.console))
        return list(Segment.apply_style(segments, style))

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        full = self._line_width()
        widths = self._widths()
        base = self.rich_style
        left = int(self.scroll_offset.x)
        if y == 0:
            style = base + self.get_component_rich_style("vtable--header")
            cells = [Text(c.label) for c in self.columns]
            if self.sorted_by is not None and self.sorted_by[0] < len(cells):
                column, reverse = self.sorted_by
                cells[column] = Text(f"{self.columns[column].label} {'▼' if reverse else '▲'}")
            line = self._line(cells, widths, style, header=True)
            strip = Strip(line).adjust_cell_length(full, style)
            return strip.crop(left, left + width).adjust_cell_length(width, style)
        row = int(self.scroll_offset.y) + y - 1
        if row >= self.row_count:
            return Strip.blank(width, base)
        style = base
        if row % 2:
            style = style + self.get_component_rich_style("vtable--odd")
        if row == self.cursor_row:
            style = style + self.get_component_rich_style("vtable--cursor")
        style = style + Style(meta={"row": row})
        strip = Strip(self._line(self._source(row), widths, style)).adjust_cell_length(full, style)
        return strip.crop(left, left + width).adjust_cell_length(width, style)

    # -- cursor ------------------------------------------------------------------------------

    def _page(self) -> int:
        return max(self.scrollable_content_region.height - 2, 1)

    def watch_cursor_row(self, old: int, new: int) -> None:
        if self.row_count == 0:
            return
        top = int(self.scroll_offset.y)
        visible = max(self.scrollable_content_region.height - 1, 1)
        if new < top:
            self.scroll_to(y=new, animate=False)
        elif new >= top + visible:
            self.scroll_to(y=new - visible + 1, animate=False)
        self.refresh()
        if old != new:
            self.post_message(self.Highlighted(self, new))

    def move_to(self, index: int) -> None:
        if self.row_count:
            self.cursor_row = max(0, min(index, self.row_count - 1))

    def action_cursor(self, delta: int) -> None:
        self.move_to(self.cursor_row + delta)

    def action_page(self, direction: int) -> None:
        self.move_to(self.cursor_row + direction * self._page())

    def action_jump(self, where: int) -> None:
        self.move_to(self.row_count - 1 if where < 0 else where)

    def action_select(self) -> None:
        if self.row_count:
            self.post_message(self.Selected(self, self.cursor_row))

    def on_click(self, event: events.Click) -> None:
        column = event.style.meta.get("column") if event.style else None
        if column is not None:
            self.post_message(self.HeaderClicked(self, int(column)))
            return
        row = event.style.meta.get("row") if event.style else None
        if row is None:
            return
        if row == self.cursor_row or event.chain > 1:
            self.cursor_row = row
            self.post_message(self.Selected(self, row))
        else:
            self.cursor_row = row

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.refresh()

    def watch_scroll_x(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_x(old_value, new_value)
        self.refresh()
