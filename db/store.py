"""The local store: one SQLite file per review project. SQL is written only in db/: here the
connection and its transactions, in one module per area what is stored (see Store).

Every write runs inside ``Store.atomic()`` so that a refused file or a killed process leaves
the file as it was. The connection runs in WAL mode with foreign keys on and no implicit
transactions; ``atomic()`` takes the write lock first (BEGIN IMMEDIATE), waiting for another
program that holds it, so that no transaction ever fails half-way on a lock upgrade. Every
sqlite3 error a user can meet (busy, damaged file, full disk, read-only file or folder) leaves
the store as a ``StoreError`` naming the file, converted in one place (``_Cursor``).
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from db import undo
from db.contexts import Contexts
from db.documents import Documents
from db.errors import StoreBusy, StoreError, translate
from db.files import SQLITE_MAGIC, file_stamp
from db.gold import Gold
from db.judgements import JudgementLog
from db.passages import Passages
from db.questions import Questions
from db.runs import Runs
from db.schema import SCHEMA_VERSION
from db.similar import Similar

if TYPE_CHECKING:
    from sqlite_utils import Database

WAIT = 30.0  # seconds a write waits for another program's write lock (the command line)
WAIT_SLICE = 0.25  # seconds of one busy wait in C before Python runs again
log = logging.getLogger("recall_reviewer.store")


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


class Store(Passages, Questions, Gold, Runs, JudgementLog, Documents, Similar, Contexts):
    """One database file: the connection, its transactions (atomic()), opening, migrating and
    closing. What is stored is read and written through the areas it is made of, one module
    each: db/passages.py, db/questions.py, db/gold.py, db/runs.py, db/judgements.py,
    db/documents.py, and the
    partial backups of db/undo.py."""

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
        self._savepoints = itertools.count(1)
        self.commits = 0  # transactions committed through this Store (a cancel tells of them)
        self._database_id: str | None = None
        try:
            if readonly:
                self._open_source()
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.conn = connect(self.path)
                self._check_and_migrate()
                self.database_id()  # read now: the journal names it after every judgement
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
        self._stamp = file_stamp(path)
        self.immutable = not self._stamp[-1]
        flags = "mode=ro&immutable=1" if self.immutable else "mode=ro"
        self.conn = connect(path, f"{path.resolve().as_uri()}?{flags}")
        self._check_readonly()

    def changed_since_open(self) -> bool:
        """True when a database opened immutable changed or got a -wal since it was opened:
        what was read from it may be inconsistent, so read it again."""
        return self.immutable and file_stamp(self.path) != self._stamp

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
        calls are savepoints. Raises StoreBusy when
        another program keeps the lock for longer than self.wait seconds. Work queued with
        after_commit() runs once the outermost transaction has committed; its failures are
        logged, never raised, since the change itself is safely stored by then."""
        if self.conn.in_transaction:
            with self._savepoint():
                yield self
            return
        self._begin_immediate()
        try:
            # The lock is taken first (BEGIN IMMEDIATE, waited for); the work runs in it as is
            # (a failure rolls the whole transaction back; nested blocks are savepoints).
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

    @contextmanager
    def _savepoint(self):
        """A savepoint, as sqlite-utils' db.atomic() makes inside a transaction, written here
        so that a write needs no sqlite-utils object: importing it (and numpy and pandas with
        it, where installed) cost the window's first judgement up to a second (issue 23)."""
        name = f"store_{next(self._savepoints)}"
        self.conn.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            # An error that ended the whole transaction took the savepoint with it.
            if self.conn.in_transaction:
                self.conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                self.conn.execute(f"RELEASE SAVEPOINT {name}")
            raise
        self.conn.execute(f"RELEASE SAVEPOINT {name}")

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

    def trace(self, callback: Callable[[str], None] | None) -> None:
        """Call callback with each SQL statement this connection runs, in the thread running
        it (None: stop). For tests that count what a keypress costs."""
        self.conn.set_trace_callback(callback)

    def data_version(self) -> int:
        """SQLite's PRAGMA data_version: changes when another connection commits to the
        file (not for this connection's own commits); one cheap call, no file read."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def write_mark(self) -> tuple[int, int]:
        """Changes whenever the database may have changed: the rows this connection wrote
        (sqlite3's total_changes) and data_version (commits by any other connection). What
        was read while it stayed the same is still what a read now would give."""
        return self.conn.total_changes, self.data_version()

    def integrity_check(self) -> str:
        return self.conn.execute("PRAGMA integrity_check").fetchone()[0]

    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def counts(self) -> dict[str, int]:
        one = self._scalar
        return {
            "passages": one("SELECT count(*) FROM passage"),
            "questions": one("SELECT count(*) FROM question"),
            # items and alternatives given as spans count with the others (design 10)
            "evidence_items": one(
                "SELECT (SELECT count(*) FROM evidence_item) + (SELECT count(*) FROM span_item)"
            ),
            "alternatives": one(
                "SELECT (SELECT count(*) FROM alternative) "
                "+ (SELECT count(*) FROM span_alternative)"
            ),
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

    def undo_entries(self) -> list[dict]:
        return undo.entries(self)

    def restore_undo(self, undo_pk: int) -> dict:
        """Put back what backup undo_pk kept, in one transaction. Raises StoreError."""
        with self.atomic():
            try:
                return undo.restore(self, undo_pk)
            except undo.RestoreRefused as refused:
                raise StoreError(f"{self.path}: {refused}; nothing was restored") from None

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
