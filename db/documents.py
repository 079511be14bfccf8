"""The documents area of the store (design section 10): the source texts that chunkings cut,
the chunkings themselves (the first, pk 1, is the corpus the gold and judgements name passages
of), and what an import of documents replaced (kept as a partial backup, db/undo.py)."""

from __future__ import annotations

from collections.abc import Iterable

from db import undo
from db.rows import Area, chunks

FIRST_CHUNKING = 1  # today's corpus: `import corpus` without --chunking replaces it


class DocumentInUse(Exception):
    """A documents import would change the text of a document that passages have spans in."""

    def __init__(self, line: int, key: str):
        super().__init__(line, key)
        self.line, self.key = line, key


class RunChunking(Exception):
    """The chunking of a run cannot be told: why, and the first line that shows it."""

    def __init__(self, line: int, message: str):
        super().__init__(line, message)
        self.line, self.message = line, message


class Documents(Area):
    """Documents, chunkings and the spans of passages."""

    def add_documents(
        self, rows: Iterable[tuple[int, str, str, str | None, str | None]], source_file: str
    ) -> tuple[int, int, int]:
        """(line, id, text, title, meta_json) rows: new ids added, known ids replaced, what was
        there before kept as a backup so that `restore` undoes the import. Returns (added,
        replaced, backup key). Raises DocumentInUse for a changed text that passages have
        spans in (their offsets would point at other characters). Caller holds the
        transaction."""
        self._stage("document_in", "line, id, text, title, meta", rows)
        in_use = self.conn.execute(
            "SELECT s.line, s.id FROM temp.document_in s JOIN document d ON d.id = s.id "
            "WHERE d.text IS NOT s.text AND (EXISTS (SELECT 1 FROM passage p "
            f"WHERE p.document_pk = d.pk) OR {undo.SPANS_IN_DOCUMENT}) ORDER BY s.line LIMIT 1"
        ).fetchone()
        if in_use:
            raise DocumentInUse(*in_use)
        total = self._scalar("SELECT count(*) FROM temp.document_in")
        replaced = self._scalar(
            "SELECT count(*) FROM temp.document_in s JOIN document d ON d.id = s.id"
        )
        undo_pk = undo.keep_documents(self, source_file, total - replaced, replaced)
        self.conn.execute(
            "INSERT INTO document (id, text, title, meta) "
            "SELECT id, text, title, meta FROM temp.document_in WHERE true ORDER BY line "
            "ON CONFLICT(id) DO UPDATE SET text = excluded.text, title = excluded.title, "
            "meta = excluded.meta"
        )
        self.conn.execute("DROP TABLE temp.document_in")
        return total - replaced, replaced, undo_pk

    def document_count(self) -> int:
        return self._scalar("SELECT count(*) FROM document")

    def document_text(self, document_id: str) -> tuple[int, str] | None:
        """(key, text) of a document, or None when the store lacks it."""
        return self.conn.execute(
            "SELECT pk, text FROM document WHERE id = ?", (document_id,)
        ).fetchone()

    def chunkings(self) -> list[dict]:
        """Every chunking, first to last, with its count of passages."""
        return self._query(
            "SELECT c.pk, c.name, c.source_file, c.chunk_size, c.overlap, c.unit, c.tool, "
            "c.imported_at, (SELECT count(*) FROM passage p WHERE p.chunking_pk = c.pk) "
            "AS passages FROM chunking c ORDER BY c.pk"
        )

    def chunking_named(self, name: str) -> dict | None:
        rows = self._query("SELECT * FROM chunking WHERE name = ?", [name])
        return rows[0] if rows else None

    def add_chunking(self, name: str, source_file: str, tool: str | None, at: str) -> int:
        """A new chunking's key: the first one takes FIRST_CHUNKING, the corpus's key."""
        pk = FIRST_CHUNKING if not self._scalar("SELECT count(*) FROM chunking") else None
        return self.conn.execute(
            "INSERT INTO chunking (pk, name, source_file, tool, imported_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (pk, name, source_file, tool, at),
        ).lastrowid

    def set_chunking_shape(
        self, chunking_pk: int, chunk_size: int | None, overlap: int | None, unit: str | None
    ) -> None:
        self.conn.execute(
            "UPDATE chunking SET chunk_size = ?, overlap = ?, unit = ? WHERE pk = ?",
            (chunk_size, overlap, unit, chunking_pk),
        )
        if chunking_pk == FIRST_CHUNKING:  # the corpus record says the same
            self.conn.execute(
                "UPDATE corpus SET chunk_size = ?, overlap = ?, unit = ? WHERE id = 1",
                (chunk_size, overlap, unit),
            )

    def span_lengths(self, chunking_pk: int) -> list[int]:
        """The lengths of the chunking's passage spans, shortest first."""
        return [
            r[0]
            for r in self.conn.execute(
                'SELECT "end" - start FROM passage WHERE chunking_pk = ? '
                "AND document_pk IS NOT NULL ORDER BY 1",
                (chunking_pk,),
            )
        ]

    def span_overlaps(self, chunking_pk: int) -> list[int]:
        """How many characters each spanned passage shares with the one before it in its
        document (by start), for the passages that share any; shortest first."""
        return [
            r[0]
            for r in self.conn.execute(
                'SELECT shared FROM (SELECT lag("end") OVER (PARTITION BY document_pk '
                'ORDER BY start, "end") - start AS shared FROM passage '
                "WHERE chunking_pk = ? AND document_pk IS NOT NULL) WHERE shared > 0 ORDER BY 1",
                (chunking_pk,),
            )
        ]

    def run_chunking(self, chosen: str | None) -> int:
        """The chunking whose passages the run staged in temp.run_rows (line, qid, rank, pid,
        score) names: the only one holding all its ids, or the one chosen by name among
        those. Raises RunChunking."""
        if chosen is None and self._scalar("SELECT count(*) FROM chunking") <= 1:
            return FIRST_CHUNKING
        ids = self._scalar("SELECT count(DISTINCT pid) FROM temp.run_rows")
        holding = self._query(
            "SELECT c.pk, c.name FROM chunking c WHERE (SELECT count(DISTINCT s.pid) "
            "FROM temp.run_rows s JOIN passage p ON p.id = s.pid AND p.chunking_pk = c.pk) = ? "
            "ORDER BY c.pk",
            [ids],
        )
        first = self._scalar("SELECT min(line) FROM temp.run_rows")
        if chosen is not None:
            named = [h["pk"] for h in holding if h["name"] == chosen]
            if named:
                return named[0]
            return self._chosen_lacks(chosen)
        if len(holding) == 1:
            return holding[0]["pk"]
        if holding:
            names = ", ".join(repr(h["name"]) for h in holding)
            raise RunChunking(
                first,
                f"the run's passage ids are in {len(holding)} chunkings ({names}); "
                "say which with --chunking NAME",
            )
        return self._split_run()

    def _chosen_lacks(self, chosen: str) -> int:
        pk = self._scalar("SELECT pk FROM chunking WHERE name = ?", (chosen,))
        if pk is None:
            names = ", ".join(repr(c["name"]) for c in self.chunkings()) or "none"
            raise RunChunking(0, f"there is no chunking {chosen!r} (there are: {names})")
        line, pid = self.conn.execute(
            "SELECT s.line, s.pid FROM temp.run_rows s WHERE NOT EXISTS (SELECT 1 FROM "
            "passage p WHERE p.id = s.pid AND p.chunking_pk = ?) ORDER BY s.line LIMIT 1",
            (pk,),
        ).fetchone()
        raise RunChunking(line, f"passage {pid!r} is not a passage of chunking {chosen!r}")

    def _split_run(self) -> int:
        """No chunking holds every id of the run (each id is in some, as checked before):
        the first line naming a passage outside the first chunking of the first line's."""
        line, pid = self.conn.execute(
            "SELECT line, pid FROM temp.run_rows ORDER BY line LIMIT 1"
        ).fetchone()
        chunking = self._scalar("SELECT min(chunking_pk) FROM passage WHERE id = ?", (pid,))
        other = self.conn.execute(
            "SELECT s.line, s.pid FROM temp.run_rows s WHERE NOT EXISTS (SELECT 1 FROM "
            "passage p WHERE p.id = s.pid AND p.chunking_pk = ?) ORDER BY s.line LIMIT 1",
            (chunking,),
        ).fetchone()
        raise RunChunking(
            other[0],
            f"passage {other[1]!r} is of another chunking than line {line}'s {pid!r}: the ids "
            "of one run span two chunkings, and a run names the passages of one",
        )

    def all_documents(self) -> list[tuple[int, str, str | None, str]]:
        """(key, id, title, text) of every document, in key order: what a graph retriever's
        chunking is matched against (desktop/readers/graph.py)."""
        return self.conn.execute("SELECT pk, id, title, text FROM document ORDER BY pk").fetchall()

    def chunking_passages(self, chunking_pk: int) -> list[tuple[str, str, str | None]]:
        """(id, text, meta) of a chunking's passages, in key order."""
        return self.conn.execute(
            "SELECT id, text, meta FROM passage WHERE chunking_pk = ? ORDER BY pk", (chunking_pk,)
        ).fetchall()

    def system_chunkings(self) -> dict[int, int]:
        """System key -> the chunking its run names passages of (a run names one, as
        run_chunking decides on import): read from one result of each system."""
        return {
            row[0]: row[1]
            for row in self.conn.execute(
                "SELECT s.pk, (SELECT p.chunking_pk FROM result r JOIN passage p "
                "ON p.pk = r.passage_pk WHERE r.system_pk = s.pk LIMIT 1) FROM system s"
            )
            if row[1] is not None
        }

    def passage_chunking(self, passage_pk: int) -> int | None:
        """The chunking a passage belongs to (None: no such passage)."""
        return self._scalar("SELECT chunking_pk FROM passage WHERE pk = ?", (passage_pk,))

    def passage_spans(self, passage_pks: Iterable[int]) -> dict[int, tuple[str, int, int]]:
        """Passage key -> (document id, start, end) for those of these passages that have a
        span; read in batches of keys."""
        out: dict[int, tuple[str, int, int]] = {}
        for batch in chunks(((pk,) for pk in set(passage_pks)), 900):
            marks = ",".join("?" * len(batch))
            out.update(
                (pk, (document, start, end))
                for pk, document, start, end in self.conn.execute(
                    f'SELECT p.pk, d.id, p.start, p."end" FROM passage p JOIN document d '
                    f"ON d.pk = p.document_pk WHERE p.pk IN ({marks})",
                    [row[0] for row in batch],
                )
            )
        return out

    def chunking_spans(self, chunking_pk: int) -> dict[str, list[tuple[str, int, int]]]:
        """Document id -> (passage id, start, end) of the chunking's passages that have a
        span, in the document's order: where an item's spans are projected to (export gold)."""
        out: dict[str, list[tuple[str, int, int]]] = {}
        for pid, document, start, end in self.conn.execute(
            'SELECT p.id, d.id, p.start, p."end" FROM passage p JOIN document d '
            "ON d.pk = p.document_pk WHERE p.chunking_pk = ? ORDER BY d.pk, p.start, p.pk",
            (chunking_pk,),
        ):
            out.setdefault(document, []).append((pid, start, end))
        return out
