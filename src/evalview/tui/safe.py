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

import re

from rich.text import Text

#: C0 controls show as their Unicode control pictures (␛ for ESC, ␊ for a newline); DEL as ␡.
_PICTURES = {c: 0x2400 + c for c in range(0x20)} | {0x7F: 0x2421}
#: C1 controls, bidirectional overrides/isolates/marks, separators and other invisible format
#: characters that reorder or hide text: one replacement character each.
_HIDDEN = [
    *range(0x80, 0xA0),
    0x061C,
    *range(0x200B, 0x2010),
    0x2028,
    0x2029,
    *range(0x202A, 0x202F),
    *range(0x2060, 0x2070),
    0xFEFF,
]
_TABLE = _PICTURES | dict.fromkeys(_HIDDEN, 0xFFFD)
_UNSAFE = re.compile("[" + "".join(re.escape(chr(c)) for c in _TABLE) + "]")


def clean(value: object) -> str:
    """`str(value)` with every control or invisible format character made visible, one
    character for one (so offsets into the string stay valid)."""
    text = str(value)
    return text.translate(_TABLE) if _UNSAFE.search(text) else text


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
