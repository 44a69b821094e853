"""Where run data meets the screen: neutralise terminal control and Textual markup.

Every string read from a run (ids, task and policy names, error types, reasons, messages,
metric keys, finding messages that quote them) passes through here before it is shown. Two
hazards: control characters (an ANSI escape, a carriage return, a right-to-left override) would
reach the terminal as is and repaint or reorder it; and a `[` in markup would be read as a tag
(`[/]` raises MarkupError, `[@click=app.quit]` binds an action). `clean` swaps each control
character for one visible stand-in (so Rich spans stay aligned), `esc` additionally escapes
brackets for Textual markup, and `plain` gives a `Text` that is never parsed.
"""

from __future__ import annotations

from rich.text import Text

from evalview.textsafe import clean as _clean

#: The longest value shown in a table cell, a header, a label or a message. A 10 MB task name
#: would otherwise be measured, cleaned and wrapped on every key press (seconds each, a minute on
#: Enter); the record view (`clean_block`) still shows the whole record.
MAX_SHOWN = 1000


def cut(value: object, limit: int = MAX_SHOWN) -> str:
    """`str(value)`, cut to `limit` characters with a note of its full length when longer."""
    text = str(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters; the record view shows it all)"


def clean(value: object) -> str:
    """`value` cut for display (`cut`) with every control or invisible character made visible."""
    return _clean(cut(value))


def clean_block(value: object) -> str:
    """`clean` for a multi-line block (JSON, a file excerpt): newlines and tabs stay layout, and
    nothing is cut (the record view is where a long value is shown whole)."""
    return "\n".join(_clean(line).replace("\u2409", "\t") for line in str(value).split("\n"))


def esc(value: object) -> str:
    """`clean(value)` escaped for Textual markup: every `[` is shown, never read as a tag.

    Textual's markup takes only the backslash right before a `[` as an escape, so a value's own
    `\\[` becomes `\\\\[` (shown as `\\[`). A trailing backslash would escape the markup after it,
    so it is followed by a zero-width space.
    """
    text = clean(value).replace("[", "\\[")
    return text + "\u200b" if text.endswith("\\") else text


def plain(value: object, style: str = "") -> Text:
    """A `Text` showing `value` literally (no markup is parsed), control characters cleaned."""
    return Text(clean(value), style=style)


def clean_text(text: Text) -> Text:
    """`text` with its characters cleaned and its styles kept (the swap is one for one)."""
    cleaned = _clean(text.plain)
    if cleaned == text.plain:
        return text
    out = text.copy()
    out.plain = cleaned
    return out
