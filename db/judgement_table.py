"""The judgement log's table as migration 0011 left it (columns, indexes), copied to widen its
kinds: SQLite cannot widen a CHECK in place, so a new kind of line copies the table (same pks,
so the journal still matches). Kept apart from db/schema.py, which is at its size limit."""

from __future__ import annotations

# Every kind of line the log takes (desktop/readers/judgements.py KINDS): 'machine' is the
# reviewer mark of issue 22 (its own migration widens the CHECK too), 'dismissed' a candidate
# alternative a reviewer dismissed (issue 21); whichever migration runs last admits both.
KINDS = (
    "role",
    "alternative",
    "not_evidence",
    "answerable",
    "evidence",
    "drop",
    "note",
    "adjudication",
    "machine",
    "dismissed",
)


def widen_kinds(kinds: tuple[str, ...] = KINDS) -> str:
    """SQL that copies the log into a table whose CHECK admits kinds, then restores its
    indexes (the question's lines; a line's identity, as 0011 made it)."""
    allowed = ", ".join(f"'{k}'" for k in kinds)
    return f"""
        CREATE TABLE judgement_new (
            pk INTEGER PRIMARY KEY,
            reviewer TEXT NOT NULL,
            at TEXT NOT NULL,
            question_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ({allowed})),
            passage_id TEXT NOT NULL DEFAULT '',
            value TEXT NOT NULL,
            settles TEXT,
            system TEXT,
            span TEXT,
            machine INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO judgement_new SELECT pk, reviewer, at, question_id, kind, passage_id,
            value, settles, system, span, machine FROM judgement;
        DROP TABLE judgement;
        ALTER TABLE judgement_new RENAME TO judgement;
        CREATE INDEX judgement_question ON judgement(question_id);
        CREATE UNIQUE INDEX judgement_identity ON judgement(reviewer, at, question_id, kind,
            passage_id, value, coalesce(settles, ''), coalesce(system, ''), coalesce(span, ''),
            machine);
        """
