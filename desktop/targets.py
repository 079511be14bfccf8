"""Where an export may write: never onto a file the project itself uses.

One rule for the command line and the window: a report or a judgement file may not replace
the database, its -wal/-shm/-journal, anything else named after it (its judgement journal),
a backup or log in the data folder, another SQLite database, or a file the project imported
from. The target's folder must exist. Errors name the user's target, never a temporary file.
No Qt here.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from desktop import paths
from desktop.formats import InputError

SQLITE_MAGIC = b"SQLite format 3\x00"


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


def check(target: str | Path, db_path: str | Path, sources: Iterable[str] = ()) -> Path:
    """Return target as a Path when an export may write it; else raise RefusedTarget.

    sources are the files the project imported from (the import log)."""
    target = Path(target)
    db = Path(db_path)
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
