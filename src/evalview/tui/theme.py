"""The evalview theme: colours near the 16 ANSI ones, so a 16-colour terminal keeps the meaning.

Textual maps true colour down to the terminal's palette; choosing hues close to ANSI red, yellow,
green, cyan and blue means errors stay red and warnings yellow after that mapping, and every
severity also carries a mark (✗ ⚠ ✓) for terminals with no colour at all.
"""

from __future__ import annotations

from textual.theme import Theme

EVALVIEW_THEME = Theme(
    name="evalview",
    primary="#3b8eea",
    secondary="#29b8db",
    accent="#2472c8",
    warning="#e5e510",
    error="#f14c4c",
    success="#23d18b",
    foreground="#e5e5e5",
    background="#0c0c0c",
    surface="#1a1a1a",
    panel="#262626",
    dark=True,
)
