"""What every area of the store (db/passages.py, questions, gold, runs, judgements) reads and
stages with: Area, the base of the areas that db/store.py's Store composes, and chunks.
An area runs its SQL on ``self.conn``, the Store's connection, whose cursor turns sqlite3
errors into StoreErrors."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from db.errors import UnknownIds

if TYPE_CHECKING:
    import sqlite3

BATCH = 20_000


def chunks(rows: Iterable[tuple], size: int = BATCH) -> Iterator[list[tuple]]:
    batch: list[tuple] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


class Area:
    """A part of the Store: its methods read and write through self.conn (set by Store).
    Staging resolves text ids to keys in SQL, so a million-passage corpus never has to be held
    in a Python dict, and unknown ids are reported with their lines."""

    conn: sqlite3.Connection

    def _query(self, sql: str, params: Sequence = ()) -> list[dict]:
        return list(self._stream(sql, params))

    def _stream(self, sql: str, params: Sequence = ()) -> Iterator[dict]:
        """_query's rows one at a time, for a pass that must not hold them all."""
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        for row in cursor:
            yield dict(zip(names, row, strict=True))

    def _scalar(self, sql: str, params: Sequence = ()):
        row = self.conn.execute(sql, params).fetchone()
        return row[0] if row else None

    def _stage(self, name: str, columns: str, rows: Iterable[tuple]) -> None:
        self.conn.execute(f"DROP TABLE IF EXISTS temp.{name}")
        self.conn.execute(f"CREATE TEMP TABLE {name} ({columns})")
        width = columns.count(",") + 1
        marks = ",".join("?" * width)
        for batch in chunks(rows):
            self.conn.executemany(f"INSERT INTO temp.{name} VALUES ({marks})", batch)

    def _unknown(self, sql_rows: str, sql_count: str, what: str) -> None:
        first = [(line, ident) for line, ident in self.conn.execute(sql_rows + " LIMIT 5")]
        if first:
            raise UnknownIds(what, first, self._scalar(sql_count))

    def _check_ids(
        self,
        table: str,
        question_col: str | None,
        passage_cols: Sequence[str],
        chunking_pk: int | None = None,
    ) -> None:
        """Refuse ids the store lacks; with chunking_pk, passages of other chunkings too."""
        within = f" AND p.chunking_pk = {int(chunking_pk)}" if chunking_pk is not None else ""
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
                f"ON p.id = s.{col}{within} WHERE s.{col} IS NOT NULL AND p.pk IS NULL "
                f"GROUP BY s.{col} "
                "ORDER BY min(s.line)",
                f"SELECT count(DISTINCT s.{col}) FROM temp.{table} s LEFT JOIN passage p "
                f"ON p.id = s.{col}{within} WHERE s.{col} IS NOT NULL AND p.pk IS NULL",
                "passage",
            )
