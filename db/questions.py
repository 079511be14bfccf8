"""The questions area of the store."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from db import undo
from db.rows import Area


class Questions(Area):
    """The questions, as imported (their texts are kept by db/undo.py when replaced)."""

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

    def question(self, question_id: str) -> dict | None:
        rows = self._query("SELECT * FROM question WHERE id = ?", [question_id])
        return rows[0] if rows else None
