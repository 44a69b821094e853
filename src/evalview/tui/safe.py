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

from evalview.textsafe import clean as clean


def clean_block(value: object) -> str:
    """`clean` for a multi-line block (JSON, a file excerpt): newlines and tabs stay layout."""
    return "\n".join(clean(line).replace("\u2409", "\t") for line in str(value).split("\n"))


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
    cleaned = clean(text.plain)
    if cleaned == text.plain:
        return text
    out = text.copy()
    out.plain = cleaned
    return out
