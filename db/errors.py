"""SQLite's own errors turned into the store's: whoever uses a project (the command line, the
window, the report) catches ``StoreError`` and shows its message, which names the file, what is
wrong and what to do. sqlite3 stays inside ``db/``."""

from __future__ import annotations

import functools
import inspect
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

from db.store import StoreError

# (part of SQLite's message, what it means for the reviewer and what to do), first match wins
_ADVICE = (
    ("locked", "another program is writing to this database; try again when it is done"),
    ("busy", "another program is writing to this database; try again when it is done"),
    ("full", "the disk is full; free some space and try again"),
    ("readonly", "the file or its folder cannot be written; check its permissions"),
    (
        "unable to open",
        "the file or its folder cannot be opened; check that it exists and its permissions",
    ),
    ("not a database", "the file is damaged; restore a backup (recall-reviewer backups)"),
    ("malformed", "the file is damaged; restore a backup (recall-reviewer backups)"),
)


def store_error(path: str | Path, error: sqlite3.Error) -> StoreError:
    text = str(error)
    advice = next((a for key, a in _ADVICE if key in text.lower()), "nothing was changed")
    return StoreError(f"{path}: {text}; {advice}")


def _generator(path: str | Path, items: Iterator) -> Iterator:
    try:
        yield from items
    except sqlite3.Error as error:
        raise store_error(path, error) from None


def raises_store_errors(cls: type) -> type:
    """Wrap every public method of ``cls`` and its bases (instances have ``.path``) so that
    an sqlite3 error, raised at once or while a returned generator is read, leaves it as
    StoreError."""

    def wrap(method: Callable) -> Callable:
        @functools.wraps(method)
        def guarded(self, *args, **kwargs):
            try:
                result = method(self, *args, **kwargs)
            except sqlite3.Error as error:
                raise store_error(self.path, error) from None
            return _generator(self.path, result) if inspect.isgenerator(result) else result

        return guarded

    for name in dir(cls):
        member = inspect.getattr_static(cls, name)  # static and class methods are left alone
        if not name.startswith("_") and inspect.isfunction(member):
            setattr(cls, name, wrap(member))
    return cls
