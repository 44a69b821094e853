"""The one exception that leaves the loader: the input cannot be read as a run at all (exit 2)."""

from evalview.errors import InputError

__all__ = ["InputError"]
