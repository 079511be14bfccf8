"""Copies of the judgement table: SQLite cannot widen a CHECK or drop a UNIQUE in place, so a
migration that adds a judgement kind (or changes the log's unique key) copies the table into
one of the same columns and pks, so the journal still matches. One definition of the copied
table serves every such migration (0004, 0007, 0013, 0014), each naming its kinds."""

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
# The columns of migration 0001 and those 0010 (span) and 0011 (machine) added.
FIRST_COLUMNS = (
    "pk",
    "reviewer",
    "at",
    "question_id",
    "kind",
    "passage_id",
    "value",
    "settles",
    "system",
)
LATER_COLUMNS = ("span TEXT", "machine INTEGER NOT NULL DEFAULT 0")
# The identity of design section 6 (every field of a line), as migration 0011 left it.
IDENTITY_INDEX = """
        CREATE UNIQUE INDEX judgement_identity ON judgement(reviewer, at, question_id, kind,
            passage_id, value, coalesce(settles, ''), coalesce(system, ''), coalesce(span, ''),
            machine);
        """


def copied(unique: str = "", kinds: tuple[str, ...] = KINDS_BEFORE, later: tuple = ()) -> str:
    """SQL that copies the judgement log into a new table of the same pks whose CHECK allows
    `kinds`, with the columns `later` (definitions) after the first ones and `unique` as its
    last constraint; the question index is made again, the identity index is the caller's."""
    columns = ", ".join((*FIRST_COLUMNS, *(column.split()[0] for column in later)))
    allowed = ", ".join(f"'{kind}'" for kind in kinds)
    last = "".join(f",\n            {part}" for part in (*later, unique) if part)
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
            system TEXT{last}
        );
        INSERT INTO judgement_new ({columns}) SELECT {columns} FROM judgement;
        DROP TABLE judgement;
        ALTER TABLE judgement_new RENAME TO judgement;
        CREATE INDEX judgement_question ON judgement(question_id);
        """


def widened(added: tuple[str, ...]) -> str:
    """SQL that copies the judgement log, every column and index as migration 0011 left them,
    into a table whose kinds are KINDS_BEFORE and added."""
    return copied(kinds=(*KINDS_BEFORE, *added), later=LATER_COLUMNS) + IDENTITY_INDEX
