"""The judgement table with more kinds allowed: SQLite cannot widen a CHECK in place, so a
migration that adds a judgement kind copies the table (same pks, so the journal still matches)
into one of the same columns, the kinds widened, with the indexes as migration 0011 left them
(the identity of design section 6: every field of a line)."""

from __future__ import annotations

KINDS_BEFORE = (
    "role",
    "alternative",
    "not_evidence",
    "answerable",
    "evidence",
    "drop",
    "note",
    "adjudication",
)
# Every kind the log takes, as the latest migration (0014) left its CHECK.
STORED_KINDS = (*KINDS_BEFORE, "machine", "dismissed")
COLUMNS = "pk, reviewer, at, question_id, kind, passage_id, value, settles, system, span, machine"


def widened(added: tuple[str, ...]) -> str:
    """SQL that copies the judgement log into a table whose kinds are KINDS_BEFORE and added."""
    kinds = ", ".join(f"'{kind}'" for kind in (*KINDS_BEFORE, *added))
    return f"""
        CREATE TABLE judgement_new (
            pk INTEGER PRIMARY KEY,
            reviewer TEXT NOT NULL,
            at TEXT NOT NULL,
            question_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ({kinds})),
            passage_id TEXT NOT NULL DEFAULT '',
            value TEXT NOT NULL,
            settles TEXT,
            system TEXT,
            span TEXT,
            machine INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO judgement_new ({COLUMNS}) SELECT {COLUMNS} FROM judgement;
        DROP TABLE judgement;
        ALTER TABLE judgement_new RENAME TO judgement;
        CREATE INDEX judgement_question ON judgement(question_id);
        CREATE UNIQUE INDEX judgement_identity ON judgement(reviewer, at, question_id, kind,
            passage_id, value, coalesce(settles, ''), coalesce(system, ''), coalesce(span, ''),
            machine);
        """
