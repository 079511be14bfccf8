"""Whole database files, for backups (desktop/backup.py) and for opening another database
only to read it: read without migrating or creating anything."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.errors import StoreError

SQLITE_MAGIC = b"SQLite format 3\x00"  # the first bytes of every SQLite database file


def _open_existing(path: str | Path) -> sqlite3.Connection | None:
    path = Path(path)
    if not path.is_file() or path.stat().st_size == 0:
        return None
    # mode=rw: never creates the file; a read-only connection could not open a WAL file
    # whose -wal/-shm are gone. Nothing here writes.
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)


def file_stamp(path: Path) -> tuple:
    """What changes when another program writes a database file: its identity, size and time,
    and whether a -wal is beside it (beside the file a symbolic link points to, as SQLite
    puts it)."""
    path = path.resolve()
    st = path.stat()
    wal = path.with_name(path.name + "-wal")
    return st.st_ino, st.st_size, st.st_mtime_ns, wal.exists()


def file_schema_version(path: str | Path) -> int | None:
    """PRAGMA user_version of the database file at path; None for no file, an empty file or
    one that is not SQLite. Opening it this way never migrates or creates anything."""
    try:
        conn = _open_existing(path)
        if conn is None:
            return None
        try:
            return conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return None


def file_has_rows(path: str | Path) -> bool:
    """True when some table of the database file at path holds a row (besides the migration
    bookkeeping), so a backup of it would keep something; False for no file, an empty or new
    database, or a file that is not SQLite."""
    try:
        conn = _open_existing(path)
        if conn is None:
            return False
        try:
            rows = conn.execute(
                "SELECT name, sql LIKE 'CREATE VIRTUAL TABLE%' FROM sqlite_master "
                "WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                "AND name NOT IN ('_sqlite_migrations', 'store_meta')"
            ).fetchall()
            virtual = [name for name, is_virtual in rows if is_virtual]
            # FTS keeps a config row in its shadow tables (passage_fts_config) from the start
            tables = [
                name
                for name, is_virtual in rows
                if not is_virtual and not any(name.startswith(f"{v}_") for v in virtual)
            ]
            return any(
                conn.execute(f'SELECT EXISTS (SELECT 1 FROM "{t}")').fetchone()[0] for t in tables
            )
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return False


def backup_file(source: str | Path, target: str | Path, progress=None) -> None:
    """Copy the database at source to target with SQLite's online backup API: a consistent
    snapshot even while another connection holds the file or writes to it. The copy is one
    self-contained file (rollback journal, no -wal beside it). Raises StoreError.

    progress(pages copied, pages in all) is called every few thousand pages; an exception
    from it (a cancel) stops the copy and propagates."""
    try:
        src = _open_existing(source)
        if src is None:
            raise StoreError(f"{source}: no database to back up")
        try:
            dst = sqlite3.connect(target)
            try:
                if progress is None:
                    src.backup(dst)
                else:
                    src.backup(
                        dst,
                        pages=4096,
                        progress=lambda _status, remaining, total: progress(
                            total - remaining, total
                        ),
                    )
                dst.execute("PRAGMA journal_mode = DELETE")
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{source}: backup to {target} failed ({error})") from None
