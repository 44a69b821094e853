"""The one exception that leaves the loader: the input cannot be read as a run at all (exit 2)."""


class InputError(Exception):
    """The path is missing, not a run, or unreadable as a whole. The message says what to do."""
