"""The app's own words for what the core says in command-line terms.

The core's refusals are written for `evalview score` and `export` ("pass --allow-errors",
"choose a new --output-dir"); inside the app the same choice is a key or a field, so the text
names that instead. The mapping is literal phrase for phrase, so a message the table does not
know reaches the screen unchanged rather than reworded wrongly.
"""

from __future__ import annotations

#: The key that scores a refused read with its errors as non-successes (`EvalViewApp`).
ALLOW_ERRORS_KEY = "a"

_PHRASES = (
    (
        "or pass --allow-errors to score them as non-successes",
        f"or press {ALLOW_ERRORS_KEY} to score them as non-successes",
    ),
    (
        "or pass --allow-errors to score it anyway",
        f"or press {ALLOW_ERRORS_KEY} to score it anyway",
    ),
    ("(--allow-errors)", "(scored in the app with errors as non-successes)"),
    ("Choose a new --output-dir", "Choose another destination"),
    ("Choose an --output-dir outside it", "Choose a destination outside it"),
)


def app_words(text: str) -> str:
    """`text` with each command-line instruction replaced by what to do in the app."""
    for cli, app in _PHRASES:
        text = text.replace(cli, app)
    return text
