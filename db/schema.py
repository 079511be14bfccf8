"""Schema versions of the store, applied forward with sqlite-utils migrations.

Every version is a function registered on ``MIGRATIONS``; the store's version is the number of
migrations applied, also written to ``PRAGMA user_version`` so that an older program can see,
before it writes anything, that a file was made by a newer one.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from db import judgement_kinds, search

if TYPE_CHECKING:
    from sqlite_utils import Database


class _Migrations:
    """sqlite-utils Migrations, made only when a file needs migrating: importing sqlite-utils
    (and the numpy it pulls in) costs a third of a second, which every command would pay."""

    def __init__(self, name: str):
        self.name = name
        self.steps: list[tuple[str, object]] = []
        self._real = None

    def __call__(self, *, name: str):
        def register(function):
            self.steps.append((name, function))
            return function

        return register

    def _migrations(self):
        if self._real is None:
            from sqlite_utils.migrations import Migrations

            self._real = Migrations(self.name)
            for name, function in self.steps:
                self._real(name=name)(function)
        return self._real

    def pending(self, db: Database) -> list:
        return self._migrations().pending(db)

    def apply(self, db: Database) -> None:
        self._migrations().apply(db)


MIGRATIONS = _Migrations("recall_reviewer")


def _script(db: Database, script: str) -> None:
    """Run the statements of script one by one: executescript() would first commit the
    transaction the migration runs in, so a killed migration could leave half a schema."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""
    if statement.strip():
        raise ValueError(f"incomplete statement in a migration: {statement[:60]!r}")


@MIGRATIONS(name="0001_initial")
def _initial(db: Database) -> None:
    _script(
        db,
        """
        CREATE TABLE corpus (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            name TEXT NOT NULL,
            source_file TEXT,
            chunk_size INTEGER,
            overlap INTEGER,
            unit TEXT,
            imported_at TEXT NOT NULL
        );
        -- pk is the rowid: results and evidence point at it, so a million passages cost
        -- integer joins, and passage_fts can use it as its content rowid.
        CREATE TABLE passage (
            pk INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            text TEXT NOT NULL,
            title TEXT,
            meta TEXT
        );
        CREATE VIRTUAL TABLE passage_fts USING fts5(
            text, content='passage', content_rowid='pk', tokenize='trigram'
        );
        CREATE TABLE question (
            pk INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            text TEXT NOT NULL,
            answerable INTEGER NOT NULL DEFAULT 1,
            meta TEXT
        );
        CREATE TABLE evidence_item (
            pk INTEGER PRIMARY KEY,
            question_pk INTEGER NOT NULL REFERENCES question(pk) ON DELETE CASCADE,
            passage_pk INTEGER NOT NULL REFERENCES passage(pk),
            role TEXT CHECK (role IN ('core', 'supporting')),
            UNIQUE (question_pk, passage_pk)
        );
        CREATE TABLE alternative (
            item_pk INTEGER NOT NULL REFERENCES evidence_item(pk) ON DELETE CASCADE,
            passage_pk INTEGER NOT NULL REFERENCES passage(pk),
            PRIMARY KEY (item_pk, passage_pk)
        ) WITHOUT ROWID;
        CREATE INDEX alternative_passage ON alternative(passage_pk);
        -- Questions whose gold was imported, even with no evidence (abstain questions).
        CREATE TABLE gold_question (
            question_pk INTEGER PRIMARY KEY REFERENCES question(pk) ON DELETE CASCADE,
            source_file TEXT
        );
        CREATE TABLE system (
            pk INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            source_file TEXT,
            format TEXT,
            imported_at TEXT NOT NULL
        );
        -- rank is the position in the list the metrics use (repeats dropped, TREC files
        -- re-ordered as trec_eval orders them), 1-based and without gaps.
        CREATE TABLE result (
            system_pk INTEGER NOT NULL REFERENCES system(pk) ON DELETE CASCADE,
            question_pk INTEGER NOT NULL REFERENCES question(pk) ON DELETE CASCADE,
            rank INTEGER NOT NULL,
            passage_pk INTEGER NOT NULL REFERENCES passage(pk),
            score REAL,
            PRIMARY KEY (system_pk, question_pk, rank)
        ) WITHOUT ROWID;
        CREATE INDEX result_question ON result(question_pk, system_pk);
        -- The append-only judgement log (design section 6). passage_id is '' when a kind has
        -- none, so that the identity below treats it as a value (NULLs are never equal).
        CREATE TABLE judgement (
            pk INTEGER PRIMARY KEY,
            reviewer TEXT NOT NULL,
            at TEXT NOT NULL,
            question_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN
                ('role', 'alternative', 'not_evidence', 'answerable', 'note', 'adjudication')),
            passage_id TEXT NOT NULL DEFAULT '',
            value TEXT NOT NULL,
            settles TEXT,
            system TEXT,
            UNIQUE (reviewer, at, question_id, kind, passage_id, value)
        );
        CREATE INDEX judgement_question ON judgement(question_id);
        CREATE TABLE import_log (
            pk INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            source_file TEXT NOT NULL,
            at TEXT NOT NULL,
            rows INTEGER NOT NULL,
            warnings INTEGER NOT NULL DEFAULT 0,
            detail TEXT
        );
        """,
    )


@MIGRATIONS(name="0002_database_id_and_undo")
def _database_id_and_undo(db: Database) -> None:
    _script(
        db,
        """
        -- database_id names this database in its judgement journal's first line, so that a
        -- journal is never mixed up with another database put in its place.
        CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO store_meta (key, value) VALUES ('database_id', lower(hex(randomblob(16))));
        -- What an import replaced (a question's gold, a system's run), written in the same
        -- transaction as the import, so that it exists exactly when the import committed
        -- (even under SIGKILL). Text ids, so that a corpus replacement can be undone once
        -- the old corpus is back. corpus_stamp says which corpus the rows belong to.
        CREATE TABLE undo (
            pk INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('gold', 'run', 'corpus')),
            source_file TEXT NOT NULL,
            summary TEXT NOT NULL,
            corpus_stamp TEXT NOT NULL,
            rows INTEGER NOT NULL
        );
        -- One row per question: its gold before (items as JSON [[passage, role, [alts]]]),
        -- or gold_source NULL when the import gave the question its first gold.
        CREATE TABLE undo_gold (
            undo_pk INTEGER NOT NULL REFERENCES undo(pk) ON DELETE CASCADE,
            question_id TEXT NOT NULL,
            gold_source TEXT,
            items TEXT NOT NULL,
            PRIMARY KEY (undo_pk, question_id)
        ) WITHOUT ROWID;
        CREATE TABLE undo_system (
            undo_pk INTEGER NOT NULL REFERENCES undo(pk) ON DELETE CASCADE,
            name TEXT NOT NULL,
            source_file TEXT,
            format TEXT,
            imported_at TEXT NOT NULL,
            PRIMARY KEY (undo_pk, name)
        ) WITHOUT ROWID;
        CREATE TABLE undo_result (
            undo_pk INTEGER NOT NULL REFERENCES undo(pk) ON DELETE CASCADE,
            system TEXT NOT NULL,
            question_id TEXT NOT NULL,
            rank INTEGER NOT NULL,
            passage_id TEXT NOT NULL,
            score REAL,
            PRIMARY KEY (undo_pk, system, question_id, rank)
        ) WITHOUT ROWID;
        """,
    )


@MIGRATIONS(name="0003_passage_bigram")
def _passage_bigram(db: Database) -> None:
    """The index that answers one- and two-character terms (db/search.py), built for the
    passages already stored: in key ranges, inside the migration's one transaction."""
    db.execute(search.BIGRAM_TABLE)
    db.execute(search.BIGRAM_COUNT_TABLE)
    # FTS5 flushes an index to disk each time its pending terms pass 1 MB, and merges the
    # pieces later; 16 MB pieces make the trigram build a third cheaper, which pays for part
    # of the second index at import (and costs at most 16 MB while importing).
    db.execute(search.TRIGRAM_HASHSIZE)
    search.index_bigrams(db.conn, 1)


@MIGRATIONS(name="0004_judged_not_evidence")
def _judged_not_evidence(db: Database) -> None:
    _script(
        db,
        """
        -- Passages imported gold judges not evidence (qrels level 0, gold JSONL's
        -- not_evidence): judged, so the unjudged pool leaves them out; replaced with the
        -- question's gold.
        CREATE TABLE judged_not_evidence (
            question_pk INTEGER NOT NULL REFERENCES question(pk) ON DELETE CASCADE,
            passage_pk INTEGER NOT NULL REFERENCES passage(pk),
            PRIMARY KEY (question_pk, passage_pk)
        ) WITHOUT ROWID;
        -- The log takes two more kinds, evidence and drop: SQLite cannot widen a CHECK in
        -- place, so the table is copied (same columns, same pks, so the journal still
        -- matches).
        """
        + judgement_kinds.copied("UNIQUE (reviewer, at, question_id, kind, passage_id, value)"),
    )


@MIGRATIONS(name="0005_undo_not_evidence_and_passage_key_id")
def _undo_not_evidence(db: Database) -> None:
    _script(
        db,
        """
        -- A gold import replaces a question's judged-not-evidence passages with its items, so
        -- its backup keeps them too (passage ids as a JSON array).
        ALTER TABLE undo_gold ADD COLUMN not_evidence TEXT NOT NULL DEFAULT '[]';
        -- The pool names each unjudged passage by id: read from this narrow index, hundreds
        -- of thousands of lookups do not page through the passages' text.
        CREATE INDEX passage_key_id ON passage(pk, id);
        """,
    )


@MIGRATIONS(name="0006_undo_questions")
def _undo_questions(db: Database) -> None:
    _script(
        db,
        """
        -- A question import that replaces question texts keeps them, as gold and run imports
        -- keep what they replace. The undo table takes the kind 'questions': SQLite cannot
        -- widen a CHECK in place, so the table is copied (same pks). Foreign keys are on and
        -- cannot be turned off inside the migration's transaction, so dropping the old table
        -- deletes the rows of the three tables that point at it: they are kept aside first.
        CREATE TABLE undo_new (
            pk INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('gold', 'run', 'corpus', 'questions')),
            source_file TEXT NOT NULL,
            summary TEXT NOT NULL,
            corpus_stamp TEXT NOT NULL,
            rows INTEGER NOT NULL
        );
        INSERT INTO undo_new SELECT pk, at, kind, source_file, summary, corpus_stamp, rows
            FROM undo;
        CREATE TEMP TABLE aside_gold AS SELECT * FROM undo_gold;
        CREATE TEMP TABLE aside_system AS SELECT * FROM undo_system;
        CREATE TEMP TABLE aside_result AS SELECT * FROM undo_result;
        DROP TABLE undo;
        ALTER TABLE undo_new RENAME TO undo;
        INSERT INTO undo_gold (undo_pk, question_id, gold_source, items, not_evidence)
            SELECT undo_pk, question_id, gold_source, items, not_evidence FROM temp.aside_gold;
        INSERT INTO undo_system SELECT * FROM temp.aside_system;
        INSERT INTO undo_result SELECT * FROM temp.aside_result;
        DROP TABLE temp.aside_gold;
        DROP TABLE temp.aside_system;
        DROP TABLE temp.aside_result;
        -- One row per question whose text, answerable or metadata the import changed.
        CREATE TABLE undo_question (
            undo_pk INTEGER NOT NULL REFERENCES undo(pk) ON DELETE CASCADE,
            id TEXT NOT NULL,
            text TEXT NOT NULL,
            answerable INTEGER NOT NULL,
            meta TEXT,
            PRIMARY KEY (undo_pk, id)
        ) WITHOUT ROWID;
        """,
    )


@MIGRATIONS(name="0007_judgement_identity")
def _judgement_identity(db: Database) -> None:
    _script(
        db,
        """
        -- A judgement's identity is every field of its line (db/journal.py identity()): the
        -- unique key of 0001 left out settles and system, so two lines differing only there
        -- became one. The table is copied without that key (SQLite cannot drop a table's
        -- UNIQUE in place; same pks, so the journal still matches) and the identity is a
        -- unique index on every field but pk; settles and system are NULL when absent and
        -- NULLs are never equal, hence coalesce. Lines an earlier import or merge already
        -- dropped as duplicates were never stored, so nothing here can bring them back.
        """
        + judgement_kinds.copied()
        + """
        CREATE UNIQUE INDEX judgement_identity ON judgement(reviewer, at, question_id, kind,
            passage_id, value, coalesce(settles, ''), coalesce(system, ''));
        """,
    )


@MIGRATIONS(name="0008_documents_and_chunkings")
def _documents_and_chunkings(db: Database) -> None:
    """Documents, chunkings and passage spans (design section 10). Passage ids become unique
    within a chunking, which needs the passage table copied (SQLite cannot drop a UNIQUE in
    place): same pks, so results, gold and both search indexes still point at the right rows.
    Foreign keys cannot be turned off inside the migration's transaction, so their check is
    deferred: dropping the old table counts every row pointing at it as a violation, and each
    passage inserted again into the new table of the same name takes its count back (found
    through the temporary indexes, so that each is a lookup, not a scan of every result)."""
    db.execute("PRAGMA defer_foreign_keys = ON")
    _script(
        db,
        """
        CREATE TABLE document (
            pk INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            text TEXT NOT NULL,
            title TEXT,
            meta TEXT
        );
        -- The first chunking (pk 1) is today's corpus: the one the gold and judgements name
        -- passages of, replaced by `import corpus --replace` as the corpus always was.
        CREATE TABLE chunking (
            pk INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            source_file TEXT,
            chunk_size INTEGER,
            overlap INTEGER,
            unit TEXT,
            tool TEXT,
            imported_at TEXT NOT NULL
        );
        INSERT INTO chunking (pk, name, source_file, chunk_size, overlap, unit, imported_at)
            SELECT 1, name, source_file, chunk_size, overlap, unit, imported_at FROM corpus;
        INSERT INTO chunking (pk, name, imported_at)
            SELECT 1, 'corpus', datetime('now') WHERE NOT EXISTS (SELECT 1 FROM chunking)
            AND EXISTS (SELECT 1 FROM passage);
        -- (id, chunking_pk): an id alone still finds its passages through the index.
        -- "end" is quoted: END is an SQL keyword.
        CREATE TABLE passage_new (
            pk INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            text TEXT NOT NULL,
            title TEXT,
            meta TEXT,
            -- No foreign key: the first chunking's row is written after its passages (as the
            -- corpus row always was), and the store writes both in one transaction.
            chunking_pk INTEGER NOT NULL DEFAULT 1,
            document_pk INTEGER REFERENCES document(pk),
            start INTEGER,
            "end" INTEGER,
            UNIQUE (id, chunking_pk)
        );
        CREATE TEMP TABLE passage_old AS SELECT pk, id, text, title, meta FROM passage;
        CREATE INDEX result_passage_0008 ON result(passage_pk);
        CREATE INDEX evidence_passage_0008 ON evidence_item(passage_pk);
        CREATE INDEX not_evidence_passage_0008 ON judged_not_evidence(passage_pk);
        DROP TABLE passage;
        ALTER TABLE passage_new RENAME TO passage;
        INSERT INTO passage (pk, id, text, title, meta)
            SELECT pk, id, text, title, meta FROM temp.passage_old ORDER BY pk;
        DROP TABLE temp.passage_old;
        DROP INDEX result_passage_0008;
        DROP INDEX evidence_passage_0008;
        DROP INDEX not_evidence_passage_0008;
        CREATE INDEX passage_key_id ON passage(pk, id);
        CREATE INDEX passage_document ON passage(document_pk);
        -- A chunking's passages, in key order: counted for info, and the first chunking's
        -- last key is the corpus stamp (db/undo.py), found without a scan of the others.
        CREATE INDEX passage_chunking ON passage(chunking_pk);
        -- A documents import's backup (db/documents.py): the undo table takes the kind
        -- 'documents', copied as 0006 copied it (same pks, dependents kept aside).
        CREATE TABLE undo_new (
            pk INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN
                ('gold', 'run', 'corpus', 'questions', 'documents')),
            source_file TEXT NOT NULL,
            summary TEXT NOT NULL,
            corpus_stamp TEXT NOT NULL,
            rows INTEGER NOT NULL
        );
        INSERT INTO undo_new SELECT pk, at, kind, source_file, summary, corpus_stamp, rows
            FROM undo;
        CREATE TEMP TABLE aside_gold AS SELECT * FROM undo_gold;
        CREATE TEMP TABLE aside_system AS SELECT * FROM undo_system;
        CREATE TEMP TABLE aside_result AS SELECT * FROM undo_result;
        CREATE TEMP TABLE aside_question AS SELECT * FROM undo_question;
        DROP TABLE undo;
        ALTER TABLE undo_new RENAME TO undo;
        INSERT INTO undo_gold (undo_pk, question_id, gold_source, items, not_evidence)
            SELECT undo_pk, question_id, gold_source, items, not_evidence FROM temp.aside_gold;
        INSERT INTO undo_system SELECT * FROM temp.aside_system;
        INSERT INTO undo_result SELECT * FROM temp.aside_result;
        INSERT INTO undo_question SELECT * FROM temp.aside_question;
        DROP TABLE temp.aside_gold;
        DROP TABLE temp.aside_system;
        DROP TABLE temp.aside_result;
        DROP TABLE temp.aside_question;
        -- The chunking of each result a run's backup keeps (NULL: the first): its passage ids
        -- name passages of that chunking only.
        ALTER TABLE undo_result ADD COLUMN chunking TEXT;
        -- One row per document a documents import added (text NULL: remove it on restore) or
        -- replaced (its text, title and metadata before).
        CREATE TABLE undo_document (
            undo_pk INTEGER NOT NULL REFERENCES undo(pk) ON DELETE CASCADE,
            id TEXT NOT NULL,
            text TEXT,
            title TEXT,
            meta TEXT,
            PRIMARY KEY (undo_pk, id)
        ) WITHOUT ROWID;
        """,
    )


@MIGRATIONS(name="0009_unranked_runs")
def _unranked_runs(db: Database) -> None:
    """A run whose order is not a ranking (design section 11): a graph retriever's context
    (GraphRAG orders its sources by entity, LightRAG interleaves three lists). Its rank
    measures and shorter cut-offs are still computed in the given order, but marked, and
    `compare` leaves it out of its tests."""
    _script(
        db,
        """
        ALTER TABLE system ADD COLUMN unranked INTEGER NOT NULL DEFAULT 0;
        -- a run's backup keeps the flag, so `restore last-import` puts back an unranked run
        ALTER TABLE undo_system ADD COLUMN unranked INTEGER NOT NULL DEFAULT 0;
        """,
    )


@MIGRATIONS(name="0010_evidence_as_spans")
def _evidence_as_spans(db: Database) -> None:
    """Evidence given as spans (design section 10): an item with no passage behind it, and
    alternatives given as spans, of a passage item or of a span item (whose alternatives may
    also be passages). Judgement lines may name a span instead of a passage: `span` holds its
    key, 'd1:10-200', and is part of a line's identity."""
    _script(
        db,
        """
        CREATE TABLE span_item (
            pk INTEGER PRIMARY KEY,
            question_pk INTEGER NOT NULL REFERENCES question(pk) ON DELETE CASCADE,
            document_pk INTEGER NOT NULL REFERENCES document(pk),
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            role TEXT CHECK (role IN ('core', 'supporting')),
            UNIQUE (question_pk, document_pk, start, "end")
        );
        -- Exactly one item (a passage item or a span item) and exactly one target (a passage,
        -- only for a span item, or a span).
        CREATE TABLE span_alternative (
            item_pk INTEGER REFERENCES evidence_item(pk) ON DELETE CASCADE,
            span_item_pk INTEGER REFERENCES span_item(pk) ON DELETE CASCADE,
            passage_pk INTEGER REFERENCES passage(pk),
            document_pk INTEGER REFERENCES document(pk),
            start INTEGER,
            "end" INTEGER,
            CHECK ((item_pk IS NULL) <> (span_item_pk IS NULL)),
            CHECK ((passage_pk IS NULL) <> (document_pk IS NULL))
        );
        CREATE INDEX span_alternative_item ON span_alternative(item_pk);
        CREATE INDEX span_alternative_span_item ON span_alternative(span_item_pk);
        CREATE INDEX span_item_document ON span_item(document_pk);
        -- A gold import's backup keeps a question's span items and span alternatives too
        -- (db/undo.py's _SPANS).
        ALTER TABLE undo_gold ADD COLUMN spans TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE judgement ADD COLUMN span TEXT;
        DROP INDEX judgement_identity;
        CREATE UNIQUE INDEX judgement_identity ON judgement(reviewer, at, question_id, kind,
            passage_id, value, coalesce(settles, ''), coalesce(system, ''), coalesce(span, ''));
        """,
    )


@MIGRATIONS(name="0011_machine_reviewers")
def _machine_reviewers(db: Database) -> None:
    """A machine's judgement lines (an LLM used as a judge, design section 6): kept, merged
    and compared with the people's, never counted in the effective gold. The mark is a field
    of the line, so the journal, export and merge carry it, and part of its identity."""
    _script(
        db,
        """
        ALTER TABLE judgement ADD COLUMN machine INTEGER NOT NULL DEFAULT 0;
        DROP INDEX judgement_identity;
        CREATE UNIQUE INDEX judgement_identity ON judgement(reviewer, at, question_id, kind,
            passage_id, value, coalesce(settles, ''), coalesce(system, ''), coalesce(span, ''),
            machine);
        """,
    )


@MIGRATIONS(name="0012_graph_contexts")
def _graph_contexts(db: Database) -> None:
    """What a graph retriever's context held besides its sources (design section 11): per
    system and question the names of its entities, relationships and community reports, as
    JSON, for the window to list beside the reader. A run's backup keeps them."""
    _script(
        db,
        """
        CREATE TABLE graph_context (
            system_pk INTEGER NOT NULL REFERENCES system(pk) ON DELETE CASCADE,
            question_pk INTEGER NOT NULL REFERENCES question(pk) ON DELETE CASCADE,
            context TEXT NOT NULL,
            PRIMARY KEY (question_pk, system_pk)  -- the window reads one question's
        ) WITHOUT ROWID;
        CREATE INDEX graph_context_system ON graph_context(system_pk);
        CREATE TABLE undo_graph_context (
            undo_pk INTEGER NOT NULL REFERENCES undo(pk) ON DELETE CASCADE,
            system TEXT NOT NULL,
            question_id TEXT NOT NULL,
            context TEXT NOT NULL,
            PRIMARY KEY (undo_pk, system, question_id)
        ) WITHOUT ROWID;
        """,
    )


@MIGRATIONS(name="0013_reviewer_marks")
def _reviewer_marks(db: Database) -> None:
    """A reviewer-mark line (kind 'machine', issue 22): reviewer X is a machine from now on
    (value true) or a person again (false; null withdraws the mark), about no question
    (question_id ''). The kinds' CHECK is widened (db/judgement_kinds.py)."""
    _script(db, judgement_kinds.widened(("machine",)))


@MIGRATIONS(name="0014_dismissed_candidates")
def _dismissed_candidates(db: Database) -> None:
    """A dismissed line (kind 'dismissed', issue 21): a candidate alternative a reviewer
    dismissed for an item. The kinds' CHECK is widened again (db/judgement_kinds.py)."""
    _script(db, judgement_kinds.widened(("machine", "dismissed")))


@MIGRATIONS(name="0015_pool_index")
def _pool_index(db: Database) -> None:
    """The results a pool at depth 10 or less reads, in (passage, question) order: the pool
    groups them by passage without sorting half a million rows (issue 23 item 8;
    db/runs.py POOL_INDEX_DEPTH). Partial, so it holds a tenth of lists 100 long."""
    _script(
        db,
        """
        CREATE INDEX result_pool ON result(passage_pk, question_pk, rank, system_pk)
            WHERE rank <= 10;
        """,
    )


SCHEMA_VERSION = len(MIGRATIONS.steps)
