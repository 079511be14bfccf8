"""What keeps a project's work safe, and the one cleanup that runs when a project opens.

- The judgement log, the one thing that cannot be re-imported, is journaled continuously
  beside the database (db/journal.py; `restore judgements` rebuilds the log from it).
- Before an import replaces gold or a run, the store keeps exactly what it replaces, in the
  same transaction (db/undo.py; `restore --list`, `restore last-import`).
- Full copies of the file are made only before a migration, here: a consistent copy made with
  SQLite's online backup API (db.files.backup_file), named

      <database stem>.<8 hex digits of its full path>.<UTC time>.<reason>.db

  in paths.backup_dir(), so that two databases called review.db in different folders keep
  separate histories and the names sort oldest first. The newest KEEP copies of each database
  are kept. Nothing is copied for a missing, empty or new database.

A copy is written as NAME.part and renamed when complete; the writer holds an advisory lock on
the .part while it copies, so clean_leftovers() removes only the .part files of killed copies.
A failed copy (a full disk, a read-only data folder) is logged and the migration goes on.
No Qt here.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
from datetime import datetime, timezone
from pathlib import Path

from db import SCHEMA_VERSION, StoreError
from db.files import backup_file, file_has_rows, file_schema_version
from desktop.app import paths

KEEP = 10
log = logging.getLogger("recall_reviewer.backup")

try:
    import fcntl
except ImportError:  # Windows: an open .part cannot be removed, which is protection enough
    fcntl = None


def _prefix(db_path: Path) -> str:
    full = os.path.normcase(str(db_path.resolve()))
    digest = hashlib.sha256(full.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    stem = re.sub(r"[^\w.-]+", "_", db_path.stem) or "db"
    return f"{stem}.{digest}"


def backups(db_path: str | Path, folder: Path | None = None) -> list[Path]:
    """The full copies kept for the database at db_path, oldest first."""
    folder = folder or paths.backup_dir()
    if not folder.is_dir():
        return []
    prefix = _prefix(Path(db_path)) + "."
    return sorted(p for p in folder.glob(f"{prefix}*.db") if p.name.startswith(prefix))


@contextlib.contextmanager
def _held(part: Path):
    """Create part and hold an exclusive advisory lock on it while the copy is written."""
    handle = open(part, "wb")
    try:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        handle.close()


def before(db_path: str | Path, reason: str, keep: int = KEEP, progress=None) -> Path | None:
    """Copy the whole database at db_path before a change named reason ("migration-1-to-2").
    Returns the copy, or None when there was nothing to keep (no file, a new or empty
    database) or the copy failed (logged). progress(done, total, "backing up") follows the
    copy; a cancel raised from it stops the copy and propagates, leaving no .part behind."""
    db_path = Path(db_path)
    if not file_has_rows(db_path):
        return None
    folder = paths.backup_dir()
    reason = re.sub(r"[^\w-]+", "-", reason).strip("-") or "change"
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    target = folder / f"{_prefix(db_path)}.{stamp}.{reason}.db"
    part = target.with_name(target.name + ".part")
    follow = None if progress is None else (lambda done, total: progress(done, total, "backing up"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        n = 1
        while target.exists():  # two backups in the same microsecond
            target = folder / f"{_prefix(db_path)}.{stamp}-{n}.{reason}.db"
            part = target.with_name(target.name + ".part")
            n += 1
        with _held(part):
            backup_file(db_path, part, follow)
            os.replace(part, target)
    except (OSError, StoreError) as error:
        log.warning("no backup of %s before %s: %s", db_path, reason, error)
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
        return None
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    log.info("backed up %s before %s to %s", db_path, reason, target)
    prune(db_path, keep, folder)
    return target


def before_migration(db_path: str | Path, keep: int = KEEP) -> Path | None:
    """Back up the database at db_path when opening it will migrate it to a newer schema."""
    version = file_schema_version(db_path)
    if version is None or version >= SCHEMA_VERSION:
        return None
    return before(db_path, f"migration-{version}-to-{SCHEMA_VERSION}", keep)


def prune(db_path: str | Path, keep: int = KEEP, folder: Path | None = None) -> list[Path]:
    """Remove all but the newest `keep` copies of the database; returns those removed."""
    kept = backups(db_path, folder)
    old = kept[: max(0, len(kept) - keep)]
    removed = []
    for path in old:
        try:
            path.unlink()
            removed.append(path)
        except OSError as error:
            log.warning("could not remove old backup %s: %s", path, error)
    return removed


def _abandoned(part: Path) -> bool:
    """True when no living process is writing part (its writer's lock is gone)."""
    if fcntl is None:
        return True  # unlink fails on Windows while the writer has it open
    try:
        with open(part, "rb") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
    except OSError:
        return False


def clean_leftovers(store) -> list[Path]:
    """When a project opens: remove the .part files of killed copies in the backups folder
    and bring the judgement journal up to date with the log (after a kill between a commit
    and its journal write). Cheap: one glob and a count of the journal's lines. Problems are
    logged, never raised: opening the project matters more. Returns the files removed."""
    removed = []
    folder = paths.backup_dir()
    for part in folder.glob("*.part") if folder.is_dir() else ():
        try:
            if _abandoned(part):
                part.unlink()
                removed.append(part)
                log.info("removed %s, left by a killed backup", part)
        except OSError as error:
            log.warning("could not remove %s: %s", part, error)
    try:
        added = store.reconcile_journal()
        if added:
            log.info("added %d judgements missing from %s", added, store.journal_path)
    except OSError:
        pass  # recorded as the journal's problem, which the command line and the window show
    except StoreError as error:
        log.warning("the judgement journal %s is not up to date: %s", store.journal_path, error)
    return removed
