"""Importing this package registers every check, family by family."""

from evalview.audit.checks import (  # noqa: F401
    closure,
    episodes,
    manifest,
    publication,
    summary,
)
