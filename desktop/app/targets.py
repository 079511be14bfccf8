"""Where an export may write: never onto a file the project itself uses.

One rule for the command line and the window: a report or a judgement file may not replace
the database, its -wal/-shm/-journal, anything else named after it (its judgement journal),
a backup or log in the data folder, another SQLite database, another database's judgement
journal, or a file the project imported from. The target is a regular file or does not exist
yet (a pipe, a device, a socket or a folder is refused before anything opens it), and its
folder must exist. An empty export never replaces a non-empty file unless forced. Errors name
the user's target, never a temporary file. No Qt here.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from db import journal
from desktop.app import paths
from desktop.readers import InputError

SQLITE_MAGIC = b"SQLite format 3\x00"
# Not regular files, by what stat says; a folder keeps its own message below.
_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
# Where a name stands for a device or a process's open file (/dev/stdout is a link into
# /proc): renaming an export onto one would replace the link itself.
_SYSTEM_FOLDERS = (Path("/dev"), Path("/proc"))


class RefusedTarget(InputError):
    """An export target that would overwrite something the project needs."""


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def _check_kind(target: Path) -> None:
    """Refuse a target that is not a regular file, by os.stat (following links) before anything
    opens it: opening a FIFO waits forever for a writer, and /dev/stdout is no file to replace."""
    if sys.platform != "win32":
        absolute = Path(os.path.abspath(target))
        for folder in _SYSTEM_FOLDERS:
            if _inside(target, folder) or absolute.is_relative_to(folder):
                raise RefusedTarget(
                    target, None, f"this is inside {folder}, not a file; name a regular file"
                )
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return  # no such file yet (or not reachable): the folder check below decides
    for test, kind in _KINDS:
        if test(mode):
            raise RefusedTarget(
                target, None, f"this is {kind}, not a regular file; name a regular file"
            )


def _journal_header(path: Path) -> dict | None:
    """The first line of a judgement journal (a header naming its database), else None. Reads
    at most a few kilobytes: the target may be any large file."""
    try:
        with open(path, "rb") as handle:
            first = handle.read(4096).split(b"\n", 1)[0]
        header = json.loads(first)
    except (OSError, ValueError):
        return None
    return header if isinstance(header, dict) and journal.HEADER_KEY in header else None


def _check_journal(target: Path) -> None:
    """Refuse any database's judgement journal: an existing file with a journal's header line,
    or a journal's name (DB.judgements.jsonl, DB.judgements.ID.jsonl) beside a SQLite DB."""
    header = _journal_header(target) if target.is_file() else None
    if header is not None:
        raise RefusedTarget(
            target,
            None,
            f"this is the judgement journal of the database {header.get('database', '?')!r}; "
            "an export never replaces a journal",
        )
    name = target.name
    stem, found, rest = name.partition(".judgements.")
    if found and rest.endswith("jsonl") and stem and _is_sqlite(target.with_name(stem)):
        raise RefusedTarget(
            target,
            None,
            f"this is the judgement journal of the database {target.with_name(stem)}; "
            "an export never replaces a journal",
        )


def refuse_emptying(target: str | Path, count: int, what: str, force: bool = False) -> None:
    """An export with nothing in it (count 0) never replaces a non-empty file unless forced:
    a mistyped --reviewer or an empty database must not empty the user's file."""
    if count or force:
        return
    try:
        size = os.stat(target).st_size
    except OSError:
        return
    if size:
        raise RefusedTarget(
            target,
            None,
            f"the export holds no {what} and would replace this non-empty file ({size} bytes); "
            "check the database and options, choose another file, or add --force",
        )


def check(target: str | Path, db_path: str | Path, sources: Iterable[str] = ()) -> Path:
    """Return target as a Path when an export may write it; else raise RefusedTarget.

    sources are the files the project imported from (the import log)."""
    target = Path(target)
    db = Path(db_path)
    _check_kind(target)
    resolved = target.resolve()
    db_resolved = db.resolve()
    if resolved == db_resolved or _same(target, db):
        raise RefusedTarget(target, None, "this is the project's database; choose another file")
    if resolved.parent == db_resolved.parent and (
        resolved.name.startswith(db_resolved.name + "-")
        or resolved.name.startswith(db_resolved.name + ".")
    ):
        raise RefusedTarget(
            target,
            None,
            f"this file belongs to the database {db.name} (its journal or SQLite's own files); "
            "choose another file",
        )
    data = paths.data_dir()
    for folder in (paths.backup_dir(), paths.log_dir(), paths.pending_dir()):
        if _inside(target, folder):
            raise RefusedTarget(
                target, None, f"this is inside the app's own folder {folder}; choose another place"
            )
    if _inside(target, data) and resolved.suffix.lower() == ".db":
        raise RefusedTarget(target, None, "this is a database in the app's data folder")
    if target.is_dir():
        raise RefusedTarget(target, None, "this is a folder; name a file inside it")
    if _is_sqlite(target):
        raise RefusedTarget(target, None, "this is a SQLite database; an export never replaces one")
    _check_journal(target)
    for source in sources:
        if source and (resolved == Path(source).resolve() or _same(target, Path(source))):
            raise RefusedTarget(
                target,
                None,
                "the project imported from this file; an export never replaces it",
            )
    parent = resolved.parent
    if not parent.is_dir():
        raise RefusedTarget(
            target, None, f"the folder {parent} does not exist; create it or choose another place"
        )
    return target
