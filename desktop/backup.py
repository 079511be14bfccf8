"""Automatic backups of a project database, taken before every migration, import and merge.

A backup is a consistent copy made with SQLite's online backup API (db.store.backup_file), so it
is safe while the window holds the database open. Copies go to paths.backup_dir(), named

    <database stem>.<8 hex digits of its full path>.<UTC time>.<reason>.db

so that two databases called review.db in different folders keep separate histories, and the
names sort oldest first. The newest KEEP copies of each database are kept, older ones removed.
Nothing is copied for a missing, empty or new database (there is nothing to lose yet).

A failed backup (a full disk, a read-only data folder) is logged and the change goes on: the
import or merge itself is still one transaction, so a refused file never damages the database.
No Qt here.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from datetime import datetime, timezone
from pathlib import Path

from db import SCHEMA_VERSION, StoreError
from db.store import backup_file, file_has_rows, file_schema_version
from desktop import paths

KEEP = 10
log = logging.getLogger("recall_reviewer.backup")


def _prefix(db_path: Path) -> str:
    full = os.path.normcase(str(db_path.resolve()))
    digest = hashlib.sha256(full.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    stem = re.sub(r"[^\w.-]+", "_", db_path.stem) or "db"
    return f"{stem}.{digest}"


def backups(db_path: str | Path, folder: Path | None = None) -> list[Path]:
    """The backups kept for the database at db_path, oldest first."""
    folder = folder or paths.backup_dir()
    if not folder.is_dir():
        return []
    prefix = _prefix(Path(db_path)) + "."
    return sorted(p for p in folder.glob(f"{prefix}*.db") if p.name.startswith(prefix))


def before(db_path: str | Path, reason: str, keep: int = KEEP, progress=None) -> Path | None:
    """Back up the database at db_path before a change named reason ("import-corpus",
    "merge", "migration-1-to-2", ...). Returns the copy, or None when there was nothing to
    keep (no file, a new or empty database) or the copy failed (logged). progress(done, total)
    follows the copy of a big file; a cancel raised from it stops the copy and propagates, with
    no half-written backup left behind."""
    db_path = Path(db_path)
    if not file_has_rows(db_path):
        return None
    folder = paths.backup_dir()
    reason = re.sub(r"[^\w-]+", "-", reason).strip("-") or "change"
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    target = folder / f"{_prefix(db_path)}.{stamp}.{reason}.db"
    part = target.with_name(target.name + ".part")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        n = 1
        while target.exists():  # two backups in the same microsecond
            target = folder / f"{_prefix(db_path)}.{stamp}-{n}.{reason}.db"
            n += 1
        part.unlink(missing_ok=True)
        backup_file(db_path, part, progress)
        os.replace(part, target)
    except (OSError, StoreError) as error:
        log.warning("no backup of %s before %s: %s", db_path, reason, error)
        try:
            part.unlink(missing_ok=True)
        except OSError:
            pass
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
    """Remove all but the newest `keep` backups of the database; returns those removed."""
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
