"""The corpus area of the store: the passages, in corpus order, and finding them (the search
indexes are built and planned in db/search.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from db import search, undo
from db.errors import DuplicateRow
from db.rows import Area, chunks


class Passages(Area):
    """The corpus: its passages, their neighbours, search (db/search.py) and excerpts."""

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
            "DELETE FROM span_alternative",
            "DELETE FROM evidence_item",
            "DELETE FROM span_item",
            "DELETE FROM gold_question",
            "INSERT INTO passage_fts(passage_fts) VALUES ('delete-all')",
            "INSERT INTO passage_bigram(passage_bigram) VALUES ('delete-all')",
            "DELETE FROM passage_bigram_count",
            "DELETE FROM passage",
            "DELETE FROM corpus",
            "DELETE FROM chunking",  # every chunking goes with the corpus, as its passages do
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
        # The corpus is the first chunking (db/documents.py), named and shaped alike.
        self.conn.execute(
            "INSERT INTO chunking (pk, name, source_file, chunk_size, overlap, unit, imported_at) "
            "VALUES (1, ?, ?, ?, ?, ?, ?) ON CONFLICT (pk) DO UPDATE SET name = excluded.name, "
            "source_file = excluded.source_file, chunk_size = excluded.chunk_size, "
            "overlap = excluded.overlap, unit = excluded.unit, imported_at = excluded.imported_at",
            (name, source_file, chunk_size, overlap, unit, at),
        )

    def insert_passages(self, rows: Iterable[tuple], progress=None, chunking_pk: int = 1) -> int:
        """Insert (line, id, text, title, meta_json) rows, or (..., document_pk, start, end)
        with a span, into a chunking in batches and index their text. Caller holds the
        transaction. Raises DuplicateRow for an id already present in the chunking.
        progress(done, total, phase) follows the search index, built last."""
        conn = self.conn
        first_pk = (self._scalar("SELECT max(pk) FROM passage") or 0) + 1
        n = 0
        for batch in chunks(rows):
            try:
                # A savepoint per batch, so that a failed batch leaves no half of itself
                # behind and the offending row can be found by looking.
                with self.atomic():
                    conn.executemany(
                        "INSERT INTO passage (id, text, title, meta, chunking_pk, document_pk, "
                        'start, "end") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
                        [(*r[1:5], chunking_pk, *(r[5:8] or (None, None, None))) for r in batch],
                    )
            except sqlite3.IntegrityError:
                raise self._first_duplicate(batch, chunking_pk) from None
            n += len(batch)
        search.index_passages(conn, first_pk, progress)
        return n

    def _first_duplicate(self, batch: list[tuple], chunking_pk: int) -> DuplicateRow:
        # The offender is the first row whose id is repeated inside the batch or already stored.
        seen: set[str] = set()
        for line, pid, *_ in batch:
            if pid in seen:
                return DuplicateRow(line, pid)
            seen.add(pid)
        ids = [r[1] for r in batch]
        present = set()
        for part in chunks(((i,) for i in ids), 500):
            marks = ",".join("?" * len(part))
            present.update(
                r[0]
                for r in self.conn.execute(
                    f"SELECT id FROM passage WHERE chunking_pk = ? AND id IN ({marks})",
                    [chunking_pk, *(p[0] for p in part)],
                )
            )
        for line, pid, *_ in batch:
            if pid in present:
                return DuplicateRow(line, pid)
        return DuplicateRow(batch[0][0], batch[0][1])

    def passage(self, passage_id: str) -> dict | None:
        """The passage of the first chunking (the one judgements name) with this id."""
        rows = self._query("SELECT * FROM passage WHERE id = ? AND chunking_pk = 1", [passage_id])
        return rows[0] if rows else None

    def passage_in(self, passage_id: str, chunking_pk: int) -> dict | None:
        """The passage of that chunking with this id (ids repeat across chunkings)."""
        rows = self._query(
            "SELECT * FROM passage WHERE id = ? AND chunking_pk = ?", [passage_id, chunking_pk]
        )
        return rows[0] if rows else None

    def passages_by_pk(self, pks: Sequence[int]) -> dict[int, dict]:
        out: dict[int, dict] = {}
        for part in chunks(((p,) for p in pks), 500):
            marks = ",".join("?" * len(part))
            for row in self._query(
                f"SELECT * FROM passage WHERE pk IN ({marks})", [p[0] for p in part]
            ):
                out[row["pk"]] = row
        return out

    def passage_ids_of(self, pks: Iterable[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        for part in chunks(((p,) for p in set(pks)), 500):
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
        for part in chunks(iter(pairs), 500):
            values = ",".join(["(?, ?)"] * len(part))
            n += self.conn.execute(
                f"WITH v(id, text) AS (VALUES {values}) "
                "SELECT count(*) FROM v JOIN passage p ON p.id = v.id AND p.text = v.text",
                [x for pair in part for x in pair],
            ).fetchone()[0]
        return n

    def passage_pks(self, ids: Iterable[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for part in chunks(((i,) for i in set(ids)), 500):
            marks = ",".join("?" * len(part))
            for pk, pid in self.conn.execute(
                f"SELECT pk, id FROM passage WHERE chunking_pk = 1 AND id IN ({marks})",
                [p[0] for p in part],
            ):
                out[pid] = pk
        return out

    def neighbours(self, pk: int, before: int = 2, after: int = 2) -> list[dict]:
        """Passages around one in corpus order (the order the corpus file gave), of its
        chunking."""
        same = "chunking_pk = (SELECT chunking_pk FROM passage WHERE pk = ?)"
        sql_before = f"SELECT * FROM passage WHERE pk < ? AND {same} ORDER BY pk DESC LIMIT ?"
        sql_after = f"SELECT * FROM passage WHERE pk > ? AND {same} ORDER BY pk LIMIT ?"
        earlier = self._query(sql_before, [pk, pk, before])[::-1]
        later = self._query(sql_after, [pk, pk, after])
        return earlier + later

    def search_passages(
        self,
        terms: Sequence[str],
        limit: int = 100,
        offset: int = 0,
        relevance: bool = False,
        chunking_pk: int | None = None,
    ) -> list[dict]:
        """Passages containing every term (case folded as FTS5 folds it), in corpus order
        or by relevance (search.relevance_order, ties in corpus order): the page of `limit`
        from `offset`, of one chunking or (None) of all. Terms of three characters or more are
        phrases of the trigram index, shorter ones tokens of the bigram index (db/search.py)."""
        plan = search.plan(terms)
        source = self._search_source(plan, chunking_pk)
        if source is None:
            return []
        sql, params = source
        if relevance:
            rank_sql, rank_params = search.relevance_order(plan, source)
            return self._query(
                f"SELECT p.* FROM ({rank_sql}) r JOIN passage p ON p.pk = r.pk "
                "ORDER BY r.rank, p.pk LIMIT ? OFFSET ?",
                [*rank_params, limit, offset],
            )
        return self._query(
            f"SELECT * FROM passage WHERE pk IN ({sql} ORDER BY pk LIMIT ? OFFSET ?) ORDER BY pk",
            [*params, limit, offset],
        )

    def search_count(self, terms: Sequence[str], chunking_pk: int | None = None) -> int:
        """How many passages search_passages(terms, chunking_pk=...) finds in all."""
        plan = search.plan(terms)
        source = self._search_source(plan, chunking_pk)
        if source is None:
            return 0
        token = plan.counted
        if token is not None and chunking_pk is None:  # the kept count is of all chunkings
            kept = self._scalar("SELECT docs FROM passage_bigram_count WHERE term = ?", (token,))
            if kept is not None:
                return kept
        return self._scalar(f"SELECT count(*) FROM ({source[0]})", source[1])

    def search(
        self,
        terms: Sequence[str],
        limit: int,
        offset: int = 0,
        relevance: bool = False,
        chunking_pk: int | None = None,
    ) -> tuple[int, list[dict]]:
        """(total, one page) read from one snapshot, so the count fits the page."""
        began = not self.conn.in_transaction
        if began:
            self.conn.execute("BEGIN")
        try:
            return (
                self.search_count(terms, chunking_pk),
                self.search_passages(terms, limit, offset, relevance, chunking_pk),
            )
        finally:
            if began:
                self.conn.execute("COMMIT")

    def _search_source(
        self, plan: search.TermPlan, chunking_pk: int | None = None
    ) -> tuple[str, list] | None:
        """SQL selecting the keys (as pk) of passages holding every term, of one chunking or
        (None) of all, and its parameters; None for no term."""
        found = self._term_source(plan)
        if found is None or chunking_pk is None:
            return found
        sql, params = found
        return f"SELECT pk FROM passage WHERE chunking_pk = ? AND pk IN ({sql})", [
            chunking_pk,
            *params,
        ]

    def _term_source(self, plan: search.TermPlan) -> tuple[str, list] | None:
        """_search_source over every chunking."""
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

    def passage_excerpts(self, pks: Iterable[int], length: int) -> dict[int, tuple[str, str]]:
        """(title, first `length` characters of the text) per passage key, without reading
        whole texts into Python. SQLite's string functions stop at a NUL character, so a text
        holding one before `length` comes whole (the caller cuts it)."""
        out: dict[int, tuple[str, str]] = {}
        for part in chunks(((p,) for p in set(pks)), 500):
            marks = ",".join("?" * len(part))
            for pk, title, text in self.conn.execute(
                "SELECT pk, title, CASE WHEN length(text) <= ? THEN text "
                f"ELSE substr(text, 1, ?) END FROM passage WHERE pk IN ({marks})",
                [length, length, *(p[0] for p in part)],
            ):
                out[pk] = (title, text)
        return out
