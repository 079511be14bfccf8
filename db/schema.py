"""Schema versions of the store, applied forward with sqlite-utils migrations.

Every version is a function registered on ``MIGRATIONS``; the store's version is the number of
migrations applied, also written to ``PRAGMA user_version`` so that an older program can see,
before it writes anything, that a file was made by a newer one.
"""

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from db import search

MIGRATIONS = Migrations("recall_reviewer")


@MIGRATIONS(name="0001_initial")
def _initial(db: Database) -> None:
    db.executescript(
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
        """
    )


@MIGRATIONS(name="0002_passage_bigram")
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


SCHEMA_VERSION = len(MIGRATIONS._migrations)
