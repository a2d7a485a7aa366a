"""The errors and warnings the package raises."""

from __future__ import annotations

from typing import Optional


class TraceError(Exception):
    """A trace file that cannot be read.

    ``path`` is the file, ``line`` and ``column`` the place in it (1-based; ``None`` when the
    importer knows no place), ``message`` what is wrong. ``str(error)`` reads as the command
    line's error: ``FILE[:LINE:COL]: message``.
    """

    # Positional: the native module raises it as TraceError(message, path, line, column)
    # (python/native/module.cc), with 0 for an unknown place.
    def __init__(self, message: str, path: str, line: int = 0, column: int = 0) -> None:
        self.message = message
        self.path = path
        self.line: Optional[int] = line or None
        self.column: Optional[int] = column or None
        where = path if self.line is None else f"{path}:{self.line}:{self.column}"
        super().__init__(f"{where}: {message}")


class TraceWarning(UserWarning):
    """Something an importer recovered from (a cut-off file, skipped events): the numbers stand,
    with the caveat the message gives. Raised through Python's ``warnings`` module."""
