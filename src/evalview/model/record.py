"""Reading fields out of a parsed record (a manifest, an episode): one way for every layer.

The loader, the comparison and the scorer all look up nested manifest keys; a missing level or a
level that is not an object reads as None, never as an exception, so a malformed record becomes a
finding rather than a traceback.
"""

from __future__ import annotations

from typing import Any

__all__ = ["get_path"]


def get_path(doc: Any, *keys: str) -> Any:
    """`doc[k1][k2]...`, or None where a level is missing or not an object."""
    for key in keys:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(key)
    return doc
