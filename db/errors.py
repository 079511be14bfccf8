"""The errors of the store: what a user can meet (StoreError, StoreBusy), converted from
sqlite3's in one place (translate, used by db/store.py's cursor), and the rows an import
names that the store refuses (UnknownIds, DuplicateRow)."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from db import journal


class StoreError(Exception):
    """The file cannot be used as a Recall Reviewer database; the message says why."""


class StoreBusy(StoreError):
    """Another program holds the write lock and did not release it in time."""


def busy_message(path) -> str:
    return (
        f"{path}: another program (a second window, a command, a sync tool) is writing to "
        "this database; try again when it is done"
    )


# What a user can do about each SQLite failure; the key is the start of sqlite_errorname.
_PROBLEMS = (
    ("SQLITE_CORRUPT", "the database file is damaged ({error})"),
    ("SQLITE_NOTADB", "not a Recall Reviewer database, or a damaged one ({error})"),
    ("SQLITE_FULL", "the disk is full; free some space and try again"),
    (
        "SQLITE_READONLY",
        "the database file or its folder is read-only; "
        "make it writable or copy the database to a folder you can write to",
    ),
    (
        "SQLITE_CANTOPEN",
        "cannot open the database file (a missing or read-only folder, or no "
        "permission to write there); check the path and its permissions",
    ),
    ("SQLITE_PERM", "permission denied; check the permissions of the file and its folder"),
    ("SQLITE_AUTH", "permission denied; check the permissions of the file and its folder"),
    ("SQLITE_IOERR", "could not read or write the file ({error}); check the disk"),
)


FULL_BELOW = 1 << 20  # bytes free in the database's folder under which an I/O error is "full"


def disk_full(path) -> bool:
    """Whether the file system holding path has (almost) no room left for this user."""
    try:
        found = os.statvfs(Path(path).absolute().parent)
    except (OSError, AttributeError):  # no statvfs on Windows
        return False
    return found.f_bavail * found.f_frsize < FULL_BELOW


def _damaged_hint(path) -> str:
    kept = journal.journal_path(path)
    return (
        f"; put back a copy of the file, or rebuild the judgements in a new database from "
        f"their journal (recall-reviewer --db NEW.db init, then --db NEW.db restore judgements "
        f"{kept} --force)"
    )


def translate(path, error: sqlite3.Error) -> Exception:
    """The StoreError a user should see for a sqlite3 error, or the error itself when it is
    a mistake in this program (bad SQL, a constraint the store checks for on purpose)."""
    if isinstance(error, StoreError) or not isinstance(error, sqlite3.DatabaseError):
        return error
    if isinstance(error, sqlite3.IntegrityError | sqlite3.ProgrammingError):
        return error
    name = getattr(error, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return StoreBusy(busy_message(path))
    if name.startswith("SQLITE_IOERR") and disk_full(path):
        name = "SQLITE_FULL"  # SQLite says "disk I/O error" when the -shm or -wal cannot grow
    for prefix, text in _PROBLEMS:
        if name.startswith(prefix):
            message = f"{path}: {text.format(error=error)}"
            if prefix in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
                message += _damaged_hint(path)
            return StoreError(message)
    if type(error) is sqlite3.DatabaseError:  # no code: "file is not a database" on old builds
        return StoreError(f"{path}: not a usable SQLite database ({error}){_damaged_hint(path)}")
    return error


@dataclass
class UnknownIds(Exception):
    """Rows naming ids the store lacks: the first few as (line, id), and how many in all."""

    what: str  # "passage" or "question"
    first: list[tuple[int, str]]
    count: int


@dataclass
class DuplicateRow(Exception):
    """A row the store already holds (a repeated passage id in a corpus file, say)."""

    line: int
    key: str
