"""What leaves the loader: the input cannot be read as a run at all (exit 2), or it reads but
holds no read (`NotARead`, exit 2 for one path, skipped in a folder)."""

from evalview.errors import InputError

__all__ = ["InputError", "NotARead"]


class NotARead(InputError):
    """The input is readable but no read: no format evalview reads, or one that holds no
    episode read (PSR checkpoint inputs). A single path exits 2 with this message; a folder
    lists such a file as skipped instead of unreadable, with `short` as the reason."""

    def __init__(self, message: str, short: str = "JSON of no format evalview reads") -> None:
        super().__init__(message)
        self.short = short

