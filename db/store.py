"""The local store: one SQLite file per review project, and the only place SQL is written.

Every write runs inside ``Store.atomic()`` so that a refused file or a killed process leaves
the file as it was. The connection runs in WAL mode with foreign keys on and no implicit
transactions; ``atomic()`` takes the write lock first (BEGIN IMMEDIATE), waiting for another
program that holds it, so that no transaction ever fails half-way on a lock upgrade. Every
sqlite3 error a user can meet (busy, damaged file, full disk, read-only file or folder) leaves
the store as a ``StoreError`` naming the file, converted in one place (``_Cursor``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from db import journal, search, undo
from db.schema import SCHEMA_VERSION

if TYPE_CHECKING:
    from sqlite_utils import Database

BATCH = 20_000
SQLITE_MAGIC = b"SQLite format 3\x00"  # the first bytes of every SQLite database file
WAIT = 30.0  # seconds a write waits for another program's write lock (the command line)
WAIT_SLICE = 0.25  # seconds of one busy wait in C before Python runs again
log = logging.getLogger("recall_reviewer.store")


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


class _Cursor(sqlite3.Cursor):
    """Every statement of the store runs through here, so this is the one place where
    sqlite3 errors become StoreErrors (during a statement or while its rows are read)."""

    path: Path

    def _guard(self, method, *args):
        try:
            return method(*args)
        except sqlite3.Error as error:
            raise translate(self.path, error) from None

    def execute(self, sql, params=()):
        return self._guard(super().execute, sql, params)

    def executemany(self, sql, rows):
        return self._guard(super().executemany, sql, rows)

    def executescript(self, script):
        return self._guard(super().executescript, script)

    def fetchone(self):
        return self._guard(super().fetchone)

    def fetchmany(self, size=1):
        return self._guard(super().fetchmany, size)

    def fetchall(self):
        return self._guard(super().fetchall)

    def __iter__(self):
        # iter(callable, sentinel) steps the C iterator without Python code per row.
        try:
            yield from iter(super().__next__, None)
        except sqlite3.Error as error:
            raise translate(self.path, error) from None


class _Connection(sqlite3.Connection):
    """A connection whose statements run on _Cursor (sqlite-utils' included)."""

    path: Path

    def cursor(self, factory=None):
        cursor = super().cursor(factory or _Cursor)
        cursor.path = self.path
        return cursor

    def execute(self, sql, params=()):
        return self.cursor().execute(sql, params)

    def executemany(self, sql, rows):
        return self.cursor().executemany(sql, rows)

    def executescript(self, script):
        return self.cursor().executescript(script)


def connect(path: Path, uri: str | None = None) -> _Connection:
    """A connection with no implicit transactions (isolation_level None): a statement never
    opens a transaction behind the store's back, and a read never holds a stale snapshot."""
    try:
        conn = sqlite3.connect(
            uri or path,
            uri=uri is not None,
            factory=_Connection,
            isolation_level=None,
            check_same_thread=True,
        )
    except sqlite3.Error as error:
        raise translate(path, error) from None
    conn.path = path
    return conn


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


def _chunks(rows: Iterable[tuple], size: int = BATCH) -> Iterator[list[tuple]]:
    batch: list[tuple] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


# -- whole files, for backups (desktop/app/backup.py): read without migrating or creating -------


def _open_existing(path: str | Path) -> sqlite3.Connection | None:
    path = Path(path)
    if not path.is_file() or path.stat().st_size == 0:
        return None
    # mode=rw: never creates the file; a read-only connection could not open a WAL file
    # whose -wal/-shm are gone. Nothing here writes.
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)


def _file_stamp(path: Path) -> tuple:
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


class Store:
    def __init__(
        self,
        path: str | Path,
        readonly: bool = False,
        *,
        wait: float = WAIT,
        on_wait: Callable[[Path], None] | None = None,
    ):
        """wait: seconds a write waits for another program's write lock before StoreBusy;
        on_wait(path) is called once when a write starts waiting (the command line prints a
        line, the window shows it)."""
        self.path = Path(path)
        self.wait = wait
        self.on_wait = on_wait
        self._db: Database | None = None
        self._after_commit: list[Callable[[], None]] = []
        self.immutable = False
        self.commits = 0  # transactions committed through this Store (a cancel tells of them)
        try:
            if readonly:
                self._open_source()
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.conn = connect(self.path)
                self._check_and_migrate()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: not a usable SQLite database ({error})") from None

    @property
    def db(self) -> Database:
        """The sqlite-utils wrapper, made on first use: reading an up-to-date file needs only
        the plain connection, and importing sqlite-utils costs a tenth of a second."""
        if self._db is None:
            from sqlite_utils import Database

            self._db = Database(self.conn)
        return self._db

    def _query(self, sql: str, params: Sequence = ()) -> list[dict]:
        return list(self._stream(sql, params))

    def _stream(self, sql: str, params: Sequence = ()) -> Iterator[dict]:
        """_query's rows one at a time, for a pass that must not hold them all."""
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        for row in cursor:
            yield dict(zip(names, row, strict=True))

    # -- opening ---------------------------------------------------------------------------

    def _check_and_migrate(self) -> None:
        conn = self.conn
        # Reads in WAL mode wait only in rare moments (another connection recovering the
        # WAL index); writes wait in atomic(), where the timeout is set per transaction.
        conn.execute("PRAGMA busy_timeout = 10000")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: made by a newer Recall Reviewer (schema {version}, this program "
                f"knows {SCHEMA_VERSION}); open it with the newer version. Nothing was changed."
            )
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and "_sqlite_migrations" not in tables:
            raise StoreError(f"{self.path}: a SQLite file, but not a Recall Reviewer database")
        conn.execute("PRAGMA foreign_keys = ON")
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = wal")
        self.pending_migrations: list[str] = []
        if version < SCHEMA_VERSION:
            from db.schema import MIGRATIONS

            with self.atomic():  # migrations nest as savepoints inside the write lock
                self.pending_migrations = [m.name for m in MIGRATIONS.pending(self.db)]
                MIGRATIONS.apply(self.db)
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _open_source(self) -> None:
        """Open another database only to read it (the source of a merge), creating nothing
        beside it. SQLite's read-only mode still makes -wal and -shm files beside a WAL
        database and cannot remove them when it closes; immutable=1 makes none and takes no
        locks. That is safe only while no other program writes the file: with no -wal beside
        it no connection has it open (a WAL connection keeps its -wal while open), and
        changed_since_open() tells the reader to read again in the rare case one opened it
        meanwhile. With a -wal beside it the file is in use, so it is read the ordinary way
        (the -wal and -shm are already there, made by whoever has it open)."""
        path = self.path
        if not path.exists():
            raise StoreError(f"{path}: no such file; name the other database file")
        if path.is_dir():
            raise StoreError(f"{path}: this is a folder; name the other database file in it")
        if not path.is_file():
            raise StoreError(f"{path}: not a regular file; name the other database file")
        with open(path, "rb") as handle:
            if handle.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
                raise StoreError(f"{path}: not a SQLite database, so not a Recall Reviewer one")
        self._stamp = _file_stamp(path)
        self.immutable = not self._stamp[-1]
        flags = "mode=ro&immutable=1" if self.immutable else "mode=ro"
        self.conn = connect(path, f"{path.resolve().as_uri()}?{flags}")
        self._check_readonly()

    def changed_since_open(self) -> bool:
        """True when a database opened immutable changed or got a -wal since it was opened:
        what was read from it may be inconsistent, so read it again."""
        return self.immutable and _file_stamp(self.path) != self._stamp

    def _check_readonly(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        if "_sqlite_migrations" not in tables:
            raise StoreError(f"{self.path}: a SQLite file, but not a Recall Reviewer database")
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: made by a newer Recall Reviewer (schema {version}, this program "
                f"knows {SCHEMA_VERSION}); update this one to read it. Nothing was changed."
            )
        if version != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: schema {version}, this program reads "
                f"{SCHEMA_VERSION}; open it once with this version first"
            )

    def close(self) -> None:
        try:
            self.conn.close()
        except sqlite3.Error as error:  # everything was committed or rolled back before
            log.warning("closing %s: %s", self.path, error)

    @contextmanager
    def atomic(self):
        """One write transaction holding the write lock from its first statement; nested
        calls are savepoints (sqlite-utils' db.atomic()). Raises StoreBusy when
        another program keeps the lock for longer than self.wait seconds. Work queued with
        after_commit() runs once the outermost transaction has committed; its failures are
        logged, never raised, since the change itself is safely stored by then."""
        if self.conn.in_transaction:
            with self.db.atomic():  # sqlite-utils makes a nested block a savepoint
                yield self
            return
        self._begin_immediate()
        try:
            # The lock is taken first (BEGIN IMMEDIATE, waited for), then sqlite-utils'
            # atomic() runs the work as a savepoint inside it.
            with self.db.atomic():
                yield self
            self.conn.execute("COMMIT")
            self.commits += 1
        except BaseException:
            self._after_commit.clear()
            if self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK")
                except StoreError as error:  # the first error is the one to report
                    log.warning("rollback of %s failed: %s", self.path, error)
            raise
        done, self._after_commit = self._after_commit, []
        for work in done:
            try:
                work()
            except Exception:
                log.exception("after a commit to %s", self.path)

    def after_commit(self, work: Callable[[], None]) -> None:
        """Run work after the current transaction commits (now, outside a transaction)."""
        if self.conn.in_transaction:
            self._after_commit.append(work)
        else:
            work()

    def _begin_immediate(self) -> None:
        # SQLite's busy handler waits for a lock taken at BEGIN IMMEDIATE, unlike the upgrade
        # of a deferred transaction that has read, which fails at once. A short first try
        # lets us say that we are waiting before the long one.
        first = min(0.3, self.wait)
        try:
            self._begin_within(first)
        except StoreBusy:
            if self.wait <= first:
                raise
            if self.on_wait is not None:
                self.on_wait(self.path)
            log.info("waiting for the write lock of %s", self.path)
            started = time.monotonic()
            self._begin_within(self.wait - first)
            log.info("got the write lock of %s after %.1f s", self.path, time.monotonic() - started)

    def _begin_within(self, seconds: float) -> None:
        # In slices: SQLite's busy wait is C code where a Ctrl-C cannot stop it, so Python
        # gets a turn (and its signal handler a chance) every WAIT_SLICE seconds.
        deadline = time.monotonic() + seconds
        try:
            while True:
                left = max(0.0, deadline - time.monotonic())
                self.conn.execute(f"PRAGMA busy_timeout = {int(min(left, WAIT_SLICE) * 1000)}")
                try:
                    self.conn.execute("BEGIN IMMEDIATE")
                    return
                except StoreBusy:
                    if time.monotonic() >= deadline:
                        raise
        finally:
            self.conn.execute("PRAGMA busy_timeout = 10000")

    def data_version(self) -> int:
        """SQLite's PRAGMA data_version: changes when another connection commits to the
        file (not for this connection's own commits); one cheap call, no file read."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def integrity_check(self) -> str:
        return self.conn.execute("PRAGMA integrity_check").fetchone()[0]

    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    # -- counts ----------------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        one = self._scalar
        return {
            "passages": one("SELECT count(*) FROM passage"),
            "questions": one("SELECT count(*) FROM question"),
            "evidence_items": one("SELECT count(*) FROM evidence_item"),
            "alternatives": one("SELECT count(*) FROM alternative"),
            "gold_questions": one("SELECT count(*) FROM gold_question"),
            "results": one("SELECT count(*) FROM result"),
            "judgements": one("SELECT count(*) FROM judgement"),
        }

    def end_read(self) -> None:
        """Roll back a read transaction left open, if any (the connection runs in autocommit,
        so normally there is none): a long-lived connection must not keep reading the snapshot
        it started. Nothing that was meant to be kept is uncommitted here."""
        if self.conn.in_transaction:
            self.conn.rollback()

    def change_stamp(self) -> tuple:
        """Cheap to read and different after any import or judgement (the log and the import
        log only grow), for caches of what is derived from them."""
        return (
            self.conn.execute("SELECT max(pk), count(*) FROM judgement").fetchone()
            + self.conn.execute("SELECT max(pk) FROM import_log").fetchone()
        )

    def _scalar(self, sql: str, params: Sequence = ()):
        row = self.conn.execute(sql, params).fetchone()
        return row[0] if row else None

    # -- corpus ----------------------------------------------------------------------------

    def corpus(self) -> dict | None:
        rows = self._query("SELECT * FROM corpus WHERE id = 1")
        return rows[0] if rows else None

    def clear_corpus(self, source_file: str = "") -> dict[str, int]:
        """Remove passages and everything that points at them (gold and runs), keeping the
        gold and runs in a partial backup (db/undo.py) for the corpus import from
        source_file. Caller holds the transaction."""
        removed = {
            "passages": self._scalar("SELECT count(*) FROM passage"),
            "evidence_items": self._scalar("SELECT count(*) FROM evidence_item"),
            "systems": self._scalar("SELECT count(*) FROM system"),
            "undo": undo.keep_corpus_dependents(self, source_file),
        }
        for sql in (
            "DELETE FROM result",
            "DELETE FROM system",
            "DELETE FROM alternative",
            "DELETE FROM evidence_item",
            "DELETE FROM gold_question",
            "INSERT INTO passage_fts(passage_fts) VALUES ('delete-all')",
            "INSERT INTO passage_bigram(passage_bigram) VALUES ('delete-all')",
            "DELETE FROM passage_bigram_count",
            "DELETE FROM passage",
            "DELETE FROM corpus",
        ):
            self.conn.execute(sql)
        return removed

    def set_corpus(
        self,
        name: str,
        source_file: str,
        chunk_size: int | None,
        overlap: int | None,
        unit: str | None,
        at: str,
    ) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO corpus (id, name, source_file, chunk_size, overlap, unit, "
            "imported_at) VALUES (1, ?, ?, ?, ?, ?, ?)",
            (name, source_file, chunk_size, overlap, unit, at),
        )

    def insert_passages(
        self, rows: Iterable[tuple[int, str, str, str | None, str | None]], progress=None
    ) -> int:
        """Insert (line, id, text, title, meta_json) rows in batches and index their text.
        Caller holds the transaction. Raises DuplicateRow for an id already present.
        progress(done, total, phase) follows the search index, built last."""
        conn = self.conn
        first_pk = (self._scalar("SELECT max(pk) FROM passage") or 0) + 1
        n = 0
        for batch in _chunks(rows):
            try:
                # A savepoint per batch, so that a failed batch leaves no half of itself
                # behind and the offending row can be found by looking.
                with self.atomic():
                    conn.executemany(
                        "INSERT INTO passage (id, text, title, meta) VALUES (?, ?, ?, ?)",
                        [r[1:] for r in batch],
                    )
            except sqlite3.IntegrityError:
                raise self._first_duplicate(batch) from None
            n += len(batch)
        search.index_passages(conn, first_pk, progress)
        return n

    def _first_duplicate(self, batch: list[tuple]) -> DuplicateRow:
        # The offender is the first row whose id is repeated inside the batch or already stored.
        seen: set[str] = set()
        for line, pid, *_ in batch:
            if pid in seen:
                return DuplicateRow(line, pid)
            seen.add(pid)
        ids = [r[1] for r in batch]
        present = set()
        for part in _chunks(((i,) for i in ids), 500):
            marks = ",".join("?" * len(part))
            present.update(
                r[0]
                for r in self.conn.execute(
                    f"SELECT id FROM passage WHERE id IN ({marks})", [p[0] for p in part]
                )
            )
        for line, pid, *_ in batch:
            if pid in present:
                return DuplicateRow(line, pid)
        return DuplicateRow(batch[0][0], batch[0][1])

    def passage(self, passage_id: str) -> dict | None:
        rows = self._query("SELECT * FROM passage WHERE id = ?", [passage_id])
        return rows[0] if rows else None

    def passages_by_pk(self, pks: Sequence[int]) -> dict[int, dict]:
        out: dict[int, dict] = {}
        for part in _chunks(((p,) for p in pks), 500):
            marks = ",".join("?" * len(part))
            for row in self._query(
                f"SELECT * FROM passage WHERE pk IN ({marks})", [p[0] for p in part]
            ):
                out[row["pk"]] = row
        return out

    def passage_ids_of(self, pks: Iterable[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        for part in _chunks(((p,) for p in set(pks)), 500):
            marks = ",".join("?" * len(part))
            out.update(
                self.conn.execute(
                    f"SELECT pk, id FROM passage WHERE pk IN ({marks})", [p[0] for p in part]
                ).fetchall()
            )
        return out

    def same_passages(self, pairs: Sequence[tuple[str, str]]) -> int:
        """How many of the (id, text) pairs are a passage of the corpus, text and all."""
        n = 0
        for part in _chunks(iter(pairs), 500):
            values = ",".join(["(?, ?)"] * len(part))
            n += self.conn.execute(
                f"WITH v(id, text) AS (VALUES {values}) "
                "SELECT count(*) FROM v JOIN passage p ON p.id = v.id AND p.text = v.text",
                [x for pair in part for x in pair],
            ).fetchone()[0]
        return n

    def passage_pks(self, ids: Iterable[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for part in _chunks(((i,) for i in set(ids)), 500):
            marks = ",".join("?" * len(part))
            for pk, pid in self.conn.execute(
                f"SELECT pk, id FROM passage WHERE id IN ({marks})", [p[0] for p in part]
            ):
                out[pid] = pk
        return out

    def neighbours(self, pk: int, before: int = 2, after: int = 2) -> list[dict]:
        """Passages around one in corpus order (the order the corpus file gave)."""
        sql_before = "SELECT * FROM passage WHERE pk < ? ORDER BY pk DESC LIMIT ?"
        sql_after = "SELECT * FROM passage WHERE pk > ? ORDER BY pk LIMIT ?"
        earlier = self._query(sql_before, [pk, before])[::-1]
        later = self._query(sql_after, [pk, after])
        return earlier + later

    def search_passages(
        self, terms: Sequence[str], limit: int = 100, offset: int = 0
    ) -> list[dict]:
        """Passages containing every term (case folded as FTS5 folds it), in corpus order:
        the page of `limit` from `offset`. Terms of three characters or more are phrases of the
        trigram index, shorter ones tokens of the bigram index (db/search.py)."""
        source = self._search_source(search.plan(terms))
        if source is None:
            return []
        sql, params = source
        return self._query(
            f"SELECT * FROM passage WHERE pk IN ({sql} ORDER BY pk LIMIT ? OFFSET ?) ORDER BY pk",
            [*params, limit, offset],
        )

    def search_count(self, terms: Sequence[str]) -> int:
        """How many passages search_passages(terms) finds in all."""
        plan = search.plan(terms)
        source = self._search_source(plan)
        if source is None:
            return 0
        token = plan.counted
        if token is not None:
            kept = self._scalar("SELECT docs FROM passage_bigram_count WHERE term = ?", (token,))
            if kept is not None:
                return kept
        return self._scalar(f"SELECT count(*) FROM ({source[0]})", source[1])

    def search(self, terms: Sequence[str], limit: int, offset: int = 0) -> tuple[int, list[dict]]:
        """(total, one page) read from one snapshot, so the count fits the page."""
        began = not self.conn.in_transaction
        if began:
            self.conn.execute("BEGIN")
        try:
            return self.search_count(terms), self.search_passages(terms, limit, offset)
        finally:
            if began:
                self.conn.execute("COMMIT")

    def _search_source(self, plan: search.TermPlan) -> tuple[str, list] | None:
        """SQL selecting the keys (as pk) of passages holding every term, and its parameters;
        None for no term."""
        if plan.empty:
            return None
        params: list = []
        if plan.bigram:
            sql = "SELECT rowid AS pk FROM passage_bigram WHERE passage_bigram MATCH ?"
            params.append(plan.bigram)
            if plan.trigram:
                sql += " AND rowid IN (SELECT rowid FROM passage_fts WHERE passage_fts MATCH ?)"
                params.append(plan.trigram)
        elif plan.trigram:
            sql = "SELECT rowid AS pk FROM passage_fts WHERE passage_fts MATCH ?"
            params.append(plan.trigram)
        else:
            sql = None
        if plan.like:
            likes = " AND ".join("text LIKE ? ESCAPE '\\'" for _ in plan.like)
            within = f"pk IN ({sql}) AND " if sql else ""
            sql = f"SELECT pk FROM passage WHERE {within}{likes}"
            for term in plan.like:
                escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                params.append(f"%{escaped}%")
        return sql, params

    # -- questions -------------------------------------------------------------------------

    def upsert_questions(
        self, rows: Iterable[tuple[int, str, str, int, str | None]], source_file: str | None = None
    ) -> tuple[int, int, int | None]:
        """(line, id, text, answerable, meta_json) rows: new ids added, known ids updated.
        Returns (added, updated, backup): with source_file, the texts and flags the rows
        replace are kept first as a partial backup (db/undo.py), backup its key or None.
        Caller holds the transaction."""
        before = self._scalar("SELECT count(*) FROM question")
        self._stage("question_in", "line, id, text, answerable, meta", rows)
        kept = undo.keep_questions(self, source_file) if source_file else None
        # WHERE true: without it SQLite would read ON CONFLICT as the SELECT's join clause.
        self.conn.execute(
            "INSERT INTO question (id, text, answerable, meta) "
            "SELECT id, text, answerable, meta FROM temp.question_in WHERE true ORDER BY line "
            "ON CONFLICT(id) DO UPDATE SET text = excluded.text, "
            "answerable = excluded.answerable, meta = excluded.meta"
        )
        n = self._scalar("SELECT count(*) FROM temp.question_in")
        self.conn.execute("DROP TABLE temp.question_in")
        added = self._scalar("SELECT count(*) FROM question") - before
        return added, n - added, kept

    _QUESTIONS = "SELECT pk, id, text, answerable, meta FROM question ORDER BY pk"

    def questions(self) -> list[dict]:
        return self._query(self._QUESTIONS)

    def each_question(self) -> Iterator[dict]:
        """questions(), streamed."""
        return self._stream(self._QUESTIONS)

    @contextmanager
    def reading(self) -> Iterator[None]:
        """One read snapshot for everything read inside (a report's many queries), unless a
        transaction is open already. Writers go on meanwhile (WAL); they are not seen."""
        began = not self.conn.in_transaction
        if began:
            self.conn.execute("BEGIN")
            # A deferred transaction takes its snapshot at its first read, so read now.
            self.conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        try:
            yield
        finally:
            if began and self.conn.in_transaction:
                self.conn.execute("COMMIT")

    def question(self, question_id: str) -> dict | None:
        rows = self._query("SELECT * FROM question WHERE id = ?", [question_id])
        return rows[0] if rows else None

    # -- staging: resolve text ids to keys in SQL, so a million-passage corpus never has to be
    # held in a Python dict, and report unknown ids with their lines ------------------------

    def _stage(self, name: str, columns: str, rows: Iterable[tuple]) -> None:
        self.conn.execute(f"DROP TABLE IF EXISTS temp.{name}")
        self.conn.execute(f"CREATE TEMP TABLE {name} ({columns})")
        width = columns.count(",") + 1
        marks = ",".join("?" * width)
        for batch in _chunks(rows):
            self.conn.executemany(f"INSERT INTO temp.{name} VALUES ({marks})", batch)

    def _unknown(self, sql_rows: str, sql_count: str, what: str) -> None:
        first = [(line, ident) for line, ident in self.conn.execute(sql_rows + " LIMIT 5")]
        if first:
            raise UnknownIds(what, first, self._scalar(sql_count))

    def _check_ids(self, table: str, question_col: str | None, passage_cols: Sequence[str]) -> None:
        if question_col:
            self._unknown(
                f"SELECT min(s.line), s.{question_col} FROM temp.{table} s LEFT JOIN question q "
                f"ON q.id = s.{question_col} WHERE q.pk IS NULL GROUP BY s.{question_col} "
                "ORDER BY min(s.line)",
                f"SELECT count(DISTINCT s.{question_col}) FROM temp.{table} s LEFT JOIN question q "
                f"ON q.id = s.{question_col} WHERE q.pk IS NULL",
                "question",
            )
        for col in passage_cols:
            self._unknown(
                f"SELECT min(s.line), s.{col} FROM temp.{table} s LEFT JOIN passage p "
                f"ON p.id = s.{col} WHERE s.{col} IS NOT NULL AND p.pk IS NULL GROUP BY s.{col} "
                "ORDER BY min(s.line)",
                f"SELECT count(DISTINCT s.{col}) FROM temp.{table} s LEFT JOIN passage p "
                f"ON p.id = s.{col} WHERE s.{col} IS NOT NULL AND p.pk IS NULL",
                "passage",
            )

    # -- gold ------------------------------------------------------------------------------

    def replace_gold(
        self,
        source_file: str,
        questions: Iterable[tuple[int, str]],
        items: Iterable[tuple[int, str, str, str | None]],
        alternatives: Iterable[tuple[int, str, str, str]],
        not_evidence: Iterable[tuple[int, str, str]] = (),
    ) -> dict[str, int]:
        """Replace the gold of every question named: questions (line, qid); items
        (line, qid, passage_id, role); alternatives (line, qid, primary_id, passage_id);
        passages judged not evidence (line, qid, passage_id: qrels level 0).
        Caller holds the transaction. Raises UnknownIds. The counts returned include what
        was removed: the questions whose gold is replaced, their items and alternatives."""
        self._stage("gold_q", "line, qid", questions)
        self._stage("gold_item", "line, qid, pid, role", items)
        self._stage("gold_alt", "line, qid, primary_id, pid", alternatives)
        self._stage("gold_not", "line, qid, pid", not_evidence)
        self._check_ids("gold_q", "qid", [])
        self._check_ids("gold_item", "qid", ["pid"])
        self._check_ids("gold_alt", None, ["pid"])
        self._check_ids("gold_not", None, ["pid"])
        kept = undo.keep_gold(self, source_file)
        run = self.conn.execute
        replaced = (
            "SELECT g.question_pk FROM gold_question g JOIN question q ON q.pk = g.question_pk "
            "JOIN temp.gold_q s ON s.qid = q.id"
        )
        removed = {
            "questions": self._scalar(f"SELECT count(*) FROM ({replaced})"),
            "evidence_items": self._scalar(
                f"SELECT count(*) FROM evidence_item WHERE question_pk IN ({replaced})"
            ),
            "alternatives": self._scalar(
                "SELECT count(*) FROM alternative a JOIN evidence_item e ON e.pk = a.item_pk "
                f"WHERE e.question_pk IN ({replaced})"
            ),
        }
        run(
            "DELETE FROM evidence_item WHERE question_pk IN "
            "(SELECT q.pk FROM question q JOIN temp.gold_q s ON s.qid = q.id)"
        )
        run(
            "DELETE FROM judged_not_evidence WHERE question_pk IN "
            "(SELECT q.pk FROM question q JOIN temp.gold_q s ON s.qid = q.id)"
        )
        run(
            "INSERT OR IGNORE INTO judged_not_evidence (question_pk, passage_pk) "
            "SELECT q.pk, p.pk FROM temp.gold_not s JOIN question q ON q.id = s.qid "
            "JOIN passage p ON p.id = s.pid"
        )
        run(
            "INSERT OR REPLACE INTO gold_question (question_pk, source_file) "
            "SELECT q.pk, ? FROM question q JOIN temp.gold_q s ON s.qid = q.id",
            (source_file,),
        )
        run(
            "INSERT INTO evidence_item (question_pk, passage_pk, role) "
            "SELECT q.pk, p.pk, s.role FROM temp.gold_item s "
            "JOIN question q ON q.id = s.qid JOIN passage p ON p.id = s.pid ORDER BY s.line"
        )
        run(
            "INSERT OR IGNORE INTO alternative (item_pk, passage_pk) "
            "SELECT e.pk, p.pk FROM temp.gold_alt s JOIN question q ON q.id = s.qid "
            "JOIN passage pp ON pp.id = s.primary_id "
            "JOIN evidence_item e ON e.question_pk = q.pk AND e.passage_pk = pp.pk "
            "JOIN passage p ON p.id = s.pid"
        )
        counts = {
            "questions": self._scalar("SELECT count(*) FROM temp.gold_q"),
            "evidence_items": self._scalar("SELECT count(*) FROM temp.gold_item"),
            "alternatives": self._scalar("SELECT count(*) FROM temp.gold_alt"),
            "undo": kept,
            "removed": removed,
        }
        for name in ("gold_q", "gold_item", "gold_alt", "gold_not"):
            run(f"DROP TABLE temp.{name}")
        return counts

    def evidence_rows(self) -> list[tuple[int, int, int, str | None]]:
        """(question_pk, item_pk, primary passage_pk, role) for every evidence item."""
        return self.conn.execute(
            "SELECT question_pk, pk, passage_pk, role FROM evidence_item ORDER BY question_pk, pk"
        ).fetchall()

    def not_evidence_rows(self) -> list[tuple[int, int]]:
        """(question_pk, passage_pk) of every passage imported gold judges not evidence."""
        return self.conn.execute(
            "SELECT question_pk, passage_pk FROM judged_not_evidence"
        ).fetchall()

    def question_not_evidence(self, question_pk: int) -> list[tuple[int, int]]:
        """not_evidence_rows of one question (the window builds one question's gold)."""
        return self.conn.execute(
            "SELECT question_pk, passage_pk FROM judged_not_evidence WHERE question_pk = ?",
            (question_pk,),
        ).fetchall()

    def alternative_rows(self) -> list[tuple[int, int]]:
        return self.conn.execute("SELECT item_pk, passage_pk FROM alternative").fetchall()

    def gold_passage_ids(self) -> dict[int, str]:
        """Ids of every passage that imported gold names (primaries and alternatives)."""
        return dict(
            self.conn.execute(
                "SELECT pk, id FROM passage WHERE pk IN (SELECT passage_pk FROM evidence_item "
                "UNION SELECT passage_pk FROM alternative)"
            ).fetchall()
        )

    def evidence_primaries(self, question_id: str | None = None) -> dict[str, set[str]]:
        """Question id -> the primary passage ids of its imported evidence items (of every
        question with gold, or of the one named)."""
        out: dict[str, set[str]] = {}
        for qid, pid in self.conn.execute(
            "SELECT q.id, p.id FROM evidence_item e JOIN question q ON q.pk = e.question_pk "
            "JOIN passage p ON p.pk = e.passage_pk WHERE ? IS NULL OR q.id = ?",
            (question_id, question_id),
        ):
            out.setdefault(qid, set()).add(pid)
        return out

    def question_evidence(self, question_pk: int) -> list[dict]:
        """The imported evidence of one question with passage ids and alternatives."""
        items = self._query(
            "SELECT e.pk AS item_pk, e.role, p.pk AS passage_pk, p.id AS passage_id "
            "FROM evidence_item e JOIN passage p ON p.pk = e.passage_pk "
            "WHERE e.question_pk = ? ORDER BY e.pk",
            [question_pk],
        )
        alts: dict[int, list[tuple[int, str]]] = {}
        for item_pk, ppk, pid in self.conn.execute(
            "SELECT a.item_pk, p.pk, p.id FROM alternative a JOIN passage p ON p.pk = a.passage_pk "
            "JOIN evidence_item e ON e.pk = a.item_pk WHERE e.question_pk = ? ORDER BY p.pk",
            [question_pk],
        ):
            alts.setdefault(item_pk, []).append((ppk, pid))
        for item in items:
            item["alternatives"] = alts.get(item["item_pk"], [])
        return items

    # -- systems and runs ------------------------------------------------------------------

    def systems(self) -> list[dict]:
        return self._query("SELECT * FROM system ORDER BY pk")

    def replace_run(
        self,
        system: str,
        source_file: str,
        fmt: str,
        at: str,
        rows: Iterable[tuple[int, str, int, str, float | None]],
    ) -> dict:
        """Rows (line, qid, rank, passage_id, score) with final ranks. Replaces the system's
        run if the name exists. Caller holds the transaction. Raises UnknownIds."""
        self._stage("run_rows", "line, qid, rank, pid, score", rows)
        self._check_ids("run_rows", "qid", ["pid"])
        existing = self._scalar("SELECT pk FROM system WHERE name = ?", (system,))
        removed = {"results": 0, "questions": 0}
        kept = None
        if existing is not None:
            kept = undo.keep_run(self, existing, system, source_file)
            removed["results"], removed["questions"] = self.conn.execute(
                "SELECT count(*), count(DISTINCT question_pk) FROM result WHERE system_pk = ?",
                (existing,),
            ).fetchone()
            self.conn.execute("DELETE FROM result WHERE system_pk = ?", (existing,))
            self.conn.execute(
                "UPDATE system SET source_file = ?, format = ?, imported_at = ? WHERE pk = ?",
                (source_file, fmt, at, existing),
            )
            system_pk = existing
        else:
            system_pk = self.conn.execute(
                "INSERT INTO system (name, source_file, format, imported_at) VALUES (?, ?, ?, ?)",
                (system, source_file, fmt, at),
            ).lastrowid
        self.conn.execute(
            "INSERT INTO result (system_pk, question_pk, rank, passage_pk, score) "
            "SELECT ?, q.pk, s.rank, p.pk, s.score FROM temp.run_rows s "
            "JOIN question q ON q.id = s.qid JOIN passage p ON p.id = s.pid",
            (system_pk,),
        )
        info = {
            "system_pk": system_pk,
            "replaced": existing is not None,
            "undo": kept,
            "removed": removed,
            "results": self._scalar("SELECT count(*) FROM temp.run_rows"),
            "questions": self._scalar("SELECT count(DISTINCT qid) FROM temp.run_rows"),
        }
        self.conn.execute("DROP TABLE temp.run_rows")
        return info

    def result_rows(self, max_rank: int | None = None) -> Iterator[tuple[int, int, int]]:
        """(system_pk, question_pk, passage_pk) in rank order within each list."""
        if max_rank is None:
            return self.conn.execute(
                "SELECT system_pk, question_pk, passage_pk FROM result "
                "ORDER BY system_pk, question_pk, rank"
            )
        # Seek each (system, question) prefix of the primary key instead of scanning every
        # stored rank: the metrics need only the first K of lists up to 100 long.
        return self.conn.execute(
            "SELECT r.system_pk, r.question_pk, r.passage_pk FROM system s CROSS JOIN question q "
            "CROSS JOIN result r WHERE r.system_pk = s.pk AND r.question_pk = q.pk "
            "AND r.rank <= ? ORDER BY s.pk, q.pk, r.rank",
            (max_rank,),
        )

    def scored_heads(self, system_pks: Sequence[int], depth: int) -> Iterator[tuple]:
        """(system_pk, question_pk, rank, passage_pk, score) of these systems' results up to
        rank `depth`, and beyond it the rest of a tie group that straddles it (the ranks after
        `depth` with its score), in system, question, rank order. For lists ordered by score
        (TREC runs), where a tie group is a run of consecutive ranks."""
        marks = ",".join("?" * len(system_pks))
        # Seek each list by its key prefix, as result_rows does, and follow a tie group past
        # `depth` one rank at a time rather than scan the rest of every list.
        return self.conn.execute(
            "WITH RECURSIVE tail(system_pk, question_pk, rank, passage_pk, score) AS ("
            "SELECT d.system_pk, d.question_pk, d.rank, d.passage_pk, d.score FROM system s "
            "CROSS JOIN question q CROSS JOIN result c CROSS JOIN result d WHERE s.pk IN "
            f"({marks}) AND c.system_pk = s.pk AND c.question_pk = q.pk AND c.rank = ? "
            "AND d.system_pk = s.pk AND d.question_pk = q.pk AND d.rank = ? + 1 "
            "AND d.score = c.score "
            "UNION ALL SELECT r.system_pk, r.question_pk, r.rank, r.passage_pk, r.score "
            "FROM tail t CROSS JOIN result r WHERE r.system_pk = t.system_pk "
            "AND r.question_pk = t.question_pk AND r.rank = t.rank + 1 AND r.score = t.score) "
            "SELECT r.system_pk, r.question_pk, r.rank, r.passage_pk, r.score FROM system s "
            "CROSS JOIN question q CROSS JOIN result r WHERE s.pk IN "
            f"({marks}) AND r.system_pk = s.pk AND r.question_pk = q.pk AND r.rank <= ? "
            "UNION ALL SELECT * FROM tail ORDER BY 1, 2, 3",
            (*system_pks, depth, depth, *system_pks, depth),
        )

    def short_lists(self, depth: int) -> list[tuple[int, int, int]]:
        """(system_pk, question_pk, length) of every stored list shorter than `depth` (ranks
        have no gaps, so the length is the last rank), each list's key prefix sought."""
        return self.conn.execute(
            "SELECT r.system_pk, r.question_pk, max(r.rank) FROM system s CROSS JOIN question q "
            "CROSS JOIN result r WHERE r.system_pk = s.pk AND r.question_pk = q.pk "
            "AND r.rank <= ? GROUP BY r.system_pk, r.question_pk HAVING max(r.rank) < ?",
            (depth, depth),
        ).fetchall()

    def top_scores(self) -> Iterator[tuple[int, int, float | None]]:
        """(system_pk, question_pk, score) of every stored list's first result, streamed system
        by system, each in question order (the join's own order: no sort)."""
        return self.conn.execute(
            "SELECT r.system_pk, r.question_pk, r.score FROM system s CROSS JOIN question q "
            "CROSS JOIN result r WHERE r.system_pk = s.pk AND r.question_pk = q.pk "
            "AND r.rank = 1 ORDER BY s.pk, q.pk"
        )

    def pool_candidates(
        self, depth: int, with_systems: bool = True, question_pk: int | None = None
    ) -> list[tuple[int, int, str, int, int, str | None]]:
        """Per (question, passage) in some system's top `depth`: (question_pk, passage_pk,
        passage id, how many systems, best rank, comma-separated system keys or None), in
        passage order. Each (system, question) prefix of the result key is sought, not
        scanned, and the counting is done in SQLite (issue 13: no slower than the metrics).
        With question_pk, that question's alone (the window, after a judgement on it)."""
        # Grouped by passage first, so that the id is looked up once per group in key order:
        # at a million passages, lookups in question order jump about the index (0.3 s more).
        one = "AND q.pk = ? " if question_pk is not None else ""
        # Not in a CASE: an aggregate is accumulated even where its value is never used.
        systems = "group_concat(r.system_pk)" if with_systems else "NULL"
        return self.conn.execute(
            "SELECT r.question_pk, r.passage_pk, "
            "(SELECT p.id FROM passage p INDEXED BY passage_key_id WHERE p.pk = r.passage_pk), "
            f"count(*), min(r.rank), {systems} FROM system s "
            "CROSS JOIN question q CROSS JOIN result r WHERE r.system_pk = s.pk "
            f"AND r.question_pk = q.pk {one}AND r.rank <= ? "
            "GROUP BY r.passage_pk, r.question_pk",
            (*([] if question_pk is None else [question_pk]), depth),
        ).fetchall()

    def pool_passages(self, depth: int) -> Iterator[tuple[int, int]]:
        """(question_pk, passage_pk) once per passage in some system's top `depth`, in
        question order, streamed: what counting the pool needs, without the passage ids."""
        return self.conn.execute(
            "SELECT r.question_pk, r.passage_pk FROM system s CROSS JOIN question q "
            "CROSS JOIN result r WHERE r.system_pk = s.pk AND r.question_pk = q.pk "
            "AND r.rank <= ? GROUP BY r.question_pk, r.passage_pk",
            (depth,),
        )

    def gold_question_pks(self) -> set[int]:
        """Keys of the questions whose gold was imported (with or without evidence)."""
        return {pk for (pk,) in self.conn.execute("SELECT question_pk FROM gold_question")}

    def questions_with_results(self) -> set[int]:
        """Keys of the questions some system ranked passages for."""
        return {
            pk
            for (pk,) in self.conn.execute(
                "SELECT q.pk FROM question q WHERE EXISTS "
                "(SELECT 1 FROM result r WHERE r.question_pk = q.pk)"
            )
        }

    def max_rank(self) -> int:
        return self._scalar("SELECT max(rank) FROM result") or 0

    def ranking(self, system_pk: int, question_pk: int, limit: int | None = None) -> list[dict]:
        """One system's ranked passages for one question, with their text and metadata."""
        return self._query(
            "SELECT r.rank, r.score, p.pk AS passage_pk, p.id AS passage_id, p.title, p.meta, "
            "p.text FROM result r JOIN passage p ON p.pk = r.passage_pk "
            "WHERE r.system_pk = ? AND r.question_pk = ? ORDER BY r.rank LIMIT ?",
            [system_pk, question_pk, -1 if limit is None else limit],
        )

    def ranked_pks(self, question_pk: int) -> dict[int, list[int]]:
        """Every system's full ranked list of passage keys for one question."""
        out: dict[int, list[int]] = {}
        for system_pk, passage_pk in self.conn.execute(
            "SELECT system_pk, passage_pk FROM result WHERE question_pk = ? "
            "ORDER BY system_pk, rank",
            (question_pk,),
        ):
            out.setdefault(system_pk, []).append(passage_pk)
        return out

    # -- judgements ------------------------------------------------------------------------

    JUDGEMENT_COLUMNS = (
        "reviewer",
        "at",
        "question_id",
        "kind",
        "passage_id",
        "value",
        "settles",
        "system",
    )

    def add_judgements(self, rows: Iterable[tuple]) -> int:
        """Append judgement lines (columns as JUDGEMENT_COLUMNS); a line already in the log is
        skipped, so re-importing or re-merging adds nothing. Returns how many were added; they
        go to the journal once the transaction has committed."""
        with self.atomic():
            last = self._scalar("SELECT coalesce(max(pk), 0) FROM judgement")
            for batch in _chunks(rows):
                self.conn.executemany(
                    "INSERT OR IGNORE INTO judgement (reviewer, at, question_id, kind, "
                    "passage_id, value, settles, system) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    batch,
                )
            # new rows get keys above the old maximum (INTEGER PRIMARY KEY picks max + 1)
            added = self._query("SELECT * FROM judgement WHERE pk > ? ORDER BY pk", [last])
            if added:
                self.after_commit(lambda: self._journal_append(added))
        return len(added)

    # -- the judgement journal (db/journal.py) ---------------------------------------------

    @property
    def journal_path(self) -> Path:
        return journal.journal_path(self.path)

    def database_id(self) -> str:
        return self._scalar("SELECT value FROM store_meta WHERE key = 'database_id'")

    @property
    def journal_problem(self) -> str | None:
        """Why the journal's latest write failed (its judgements are only in the database
        until a write succeeds), or None."""
        return journal.problem(self.journal_path)

    def _journal_append(self, rows: list[dict]) -> None:
        """After a commit: the new lines to the journal, or, after an earlier write failed,
        every line it lacks. A failure is recorded (journal.failed), never raised: the
        judgements are safely committed by now."""
        path = self.journal_path
        try:
            if journal.problem(path) is not None:
                self._reconcile()
            else:
                journal.append(path, self.database_id(), map(journal.judgement_line, rows))
        except OSError as error:
            journal.failed(path, error)
            return
        journal.written(path)

    def reconcile_journal(self) -> int:
        """Append to the journal every logged judgement it lacks (after a kill between a
        commit and its journal write, a torn last line or a failed write); returns how many.
        Cheap when the journal's line count matches the log, as it does after every ordinary
        session. Raises OSError (recorded as the journal's problem)."""
        try:
            added = self._reconcile()
        except OSError as error:
            journal.failed(self.journal_path, error)
            raise
        journal.written(self.journal_path)
        return added

    def _reconcile(self) -> int:
        path = self.journal_path
        count = self._scalar("SELECT count(*) FROM judgement")
        if count == 0:
            return 0  # nothing to keep; a journal there may be a lost database's, for restore
        header = journal.header_of(path)
        if header is None or header.get("database_id") != self.database_id():
            have: set[tuple] = set()
        elif journal.line_count(path) == count:
            return 0
        else:
            try:
                have = {journal.identity(line) for line in journal.read(path)[1]}
            except journal.JournalError as error:
                log.warning("rewriting the journal: %s", error)
                journal.set_aside(path, header)
                have = set()
        missing = [
            row
            for row in self._query("SELECT * FROM judgement ORDER BY pk")
            if journal.identity(journal.judgement_line(row)) not in have
        ]
        journal.append(path, self.database_id(), map(journal.judgement_line, missing))
        return len(missing)

    def judgements(self, question_id: str | None = None, reviewer: str | None = None) -> list[dict]:
        where, params = [], []
        if question_id is not None:
            where.append("question_id = ?")
            params.append(question_id)
        if reviewer is not None:
            where.append("reviewer = ?")
            params.append(reviewer)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        return self._query(f"SELECT * FROM judgement {clause} ORDER BY at, pk", params)

    def orphan_judgements(self) -> Iterator[dict]:
        """Judgement lines about question ids the database no longer has, by question id
        and in log order, streamed."""
        return self._stream(
            "SELECT * FROM judgement WHERE question_id NOT IN (SELECT id FROM question) "
            "ORDER BY question_id, at, pk"
        )

    def reviewers(self) -> list[str]:
        return [
            r[0]
            for r in self.conn.execute("SELECT DISTINCT reviewer FROM judgement ORDER BY reviewer")
        ]

    # -- partial backups of what imports replaced (db/undo.py) -----------------------------

    def undo_entries(self) -> list[dict]:
        return undo.entries(self)

    def restore_undo(self, undo_pk: int) -> dict:
        """Put back what backup undo_pk kept, in one transaction. Raises StoreError."""
        with self.atomic():
            try:
                return undo.restore(self, undo_pk)
            except undo.RestoreRefused as refused:
                raise StoreError(f"{self.path}: {refused}; nothing was restored") from None

    # -- import log ------------------------------------------------------------------------

    def log_import(
        self,
        kind: str,
        source_file: str,
        at: str,
        rows: int,
        warnings: int,
        detail: str | None = None,
    ) -> None:
        self.conn.execute(
            "INSERT INTO import_log (kind, source_file, at, rows, warnings, detail) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (kind, source_file, at, rows, warnings, detail),
        )

    def import_log(self) -> list[dict]:
        return self._query("SELECT * FROM import_log ORDER BY pk")

    # -- merge -----------------------------------------------------------------------------

    def fingerprint(self) -> dict[str, str]:
        """Digests of corpus ids, question ids and imported gold, to refuse merging databases
        that do not describe the same evaluation."""

        def digest(sql: str) -> str:
            row = self.conn.execute(
                f"SELECT count(*), coalesce(sum(length(x)), 0), "
                f"coalesce(group_concat(x, char(31)), '') FROM ({sql})"
            ).fetchone()
            return f"{row[0]}:{hashlib.sha256(row[2].encode()).hexdigest()[:16]}"

        return {
            "corpus": digest("SELECT id AS x FROM passage ORDER BY id"),
            "questions": digest("SELECT id AS x FROM question ORDER BY id"),
            "gold": digest(
                "SELECT q.id || char(30) || p.id || char(30) || coalesce(e.role, '') AS x "
                "FROM evidence_item e JOIN question q ON q.pk = e.question_pk "
                "JOIN passage p ON p.pk = e.passage_pk ORDER BY x"
            ),
        }

    # -- report queries --------------------------------------------------------------------

    def passage_excerpts(self, pks: Iterable[int], length: int) -> dict[int, tuple[str, str]]:
        """(title, first `length` characters of the text) per passage key, without reading
        whole texts into Python. SQLite's string functions stop at a NUL character, so a text
        holding one before `length` comes whole (the caller cuts it)."""
        out: dict[int, tuple[str, str]] = {}
        for part in _chunks(((p,) for p in set(pks)), 500):
            marks = ",".join("?" * len(part))
            for pk, title, text in self.conn.execute(
                "SELECT pk, title, CASE WHEN length(text) <= ? THEN text "
                f"ELSE substr(text, 1, ?) END FROM passage WHERE pk IN ({marks})",
                [length, length, *(p[0] for p in part)],
            ):
                out[pk] = (title, text)
        return out

    def ranked_lists(self) -> Iterator[tuple[int, int, list[int]]]:
        """(system_pk, question_pk, passage keys in rank order) for every stored list, in
        system, question order: one row per list rather than one per result, which halves the
        time of reading millions of results. The ranks come along to check the order
        group_concat happened to use (SQL does not promise one); a list is sorted by rank when
        they are not 1..n in order."""
        in_order: dict[int, str] = {}
        for system_pk, question_pk, pks, ranks in self.conn.execute(
            "SELECT system_pk, question_pk, group_concat(passage_pk), group_concat(rank) "
            "FROM result GROUP BY system_pk, question_pk ORDER BY system_pk, question_pk"
        ):
            passages = list(map(int, pks.split(",")))
            n = len(passages)
            expected = in_order.get(n)
            if expected is None:
                expected = in_order[n] = ",".join(map(str, range(1, n + 1)))
            if ranks != expected:
                order = map(int, ranks.split(","))
                passages = [p for _, p in sorted(zip(order, passages, strict=True))]
            yield system_pk, question_pk, passages

    # -- window queries --------------------------------------------------------------------

    def evidence_hits(
        self, pairs: Iterable[tuple[int, int]]
    ) -> Iterator[tuple[int, int, int, int]]:
        """(system_pk, question_pk, rank, passage_pk) of every stored result whose passage is
        one of the given (question_pk, passage_pk) pairs, ordered by system, question, rank.
        One scan of the results in SQLite (a second or so for five million) instead of
        every ranked list in Python: the window's metrics need only the ranks that hit."""
        conn = self.conn
        conn.execute("DROP TABLE IF EXISTS temp.window_gold")
        conn.execute(
            "CREATE TEMP TABLE window_gold (question_pk INTEGER, passage_pk INTEGER, "
            "PRIMARY KEY (question_pk, passage_pk)) WITHOUT ROWID"
        )
        for batch in _chunks(pairs):
            conn.executemany("INSERT OR IGNORE INTO temp.window_gold VALUES (?, ?)", batch)
        # CROSS JOIN keeps the results as the outer loop: a scan in key order, probing the
        # small gold table, rather than a seek per gold passage through result_question.
        rows = conn.execute(
            "SELECT r.system_pk, r.question_pk, r.rank, r.passage_pk FROM result r "
            "CROSS JOIN temp.window_gold g WHERE g.question_pk = r.question_pk "
            "AND g.passage_pk = r.passage_pk ORDER BY r.system_pk, r.question_pk, r.rank"
        ).fetchall()
        conn.execute("DROP TABLE temp.window_gold")
        return iter(rows)

    def ranked_passages(self, system_pk: int, question_pk: int) -> list[int]:
        """One system's whole ranked list of passage keys for one question, in rank order.
        One row from SQLite rather than one per rank: the window asks on every question
        switch, and each fetched row hands Python's GIL to a busy worker and back."""
        row = self.conn.execute(
            "SELECT group_concat(rank || ' ' || passage_pk) FROM result "
            "WHERE system_pk = ? AND question_pk = ?",
            (system_pk, question_pk),
        ).fetchone()
        if not row or not row[0]:
            return []
        pairs = sorted(tuple(map(int, part.split())) for part in row[0].split(","))
        return [passage for _, passage in pairs]
