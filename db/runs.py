"""The runs area of the store: systems and their ranked results, read for the metrics, the
pool, the report and the window."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from itertools import groupby
from operator import itemgetter

from db import undo
from db.rows import Area, chunks

# The pool holds the runs on the gold's chunking (the first): evidence names its passages, so a
# passage of another chunking never becomes judged; such a run is scored by coverage and its
# passages are judged by their span. Read once per system (the outer loop of the pool's joins).
POOLED = (
    "(SELECT p.chunking_pk FROM result f JOIN passage p ON p.pk = f.passage_pk "
    "WHERE f.system_pk = s.pk LIMIT 1) = 1"
)

# The ranks the partial index result_pool holds (migration 0015): the pool's usual depth.
POOL_INDEX_DEPTH = 10


class Runs(Area):
    """Systems and their ranked results."""

    def systems(self) -> list[dict]:
        return self._query("SELECT * FROM system ORDER BY pk")

    def replace_run(
        self,
        system: str,
        source_file: str,
        fmt: str,
        at: str,
        rows: Iterable[tuple[int, str, int, str, float | None]],
        chunking: str | None = None,
        unranked: bool = False,
    ) -> dict:
        """Rows (line, qid, rank, passage_id, score) with final ranks, on the chunking their
        ids are in (or the one named, db/documents.py). Replaces the system's run if the name
        exists. unranked: the order given is not a ranking (a graph retriever's context).
        Caller holds the transaction. Raises UnknownIds or RunChunking."""
        self._stage("run_rows", "line, qid, rank, pid, score", rows)
        self._check_ids("run_rows", "qid", ["pid"])
        chunking_pk = self.run_chunking(chunking)
        existing = self._scalar("SELECT pk FROM system WHERE name = ?", (system,))
        removed = {"results": 0, "questions": 0}
        kept = None
        if existing is not None:
            kept = undo.keep_run(self, existing, system, source_file)
            removed["results"], removed["questions"] = self.conn.execute(
                "SELECT count(*), count(DISTINCT question_pk) FROM result WHERE system_pk = ?",
                (existing,),
            ).fetchone()
            self.conn.execute("DELETE FROM result WHERE system_pk = ?", (existing,))
            # a graph run's contexts are the old run's (a graph import stores its own anew)
            self.conn.execute("DELETE FROM graph_context WHERE system_pk = ?", (existing,))
            self.conn.execute(
                "UPDATE system SET source_file = ?, format = ?, imported_at = ?, unranked = ? "
                "WHERE pk = ?",
                (source_file, fmt, at, int(unranked), existing),
            )
            system_pk = existing
        else:
            system_pk = self.conn.execute(
                "INSERT INTO system (name, source_file, format, imported_at, unranked) "
                "VALUES (?, ?, ?, ?, ?)",
                (system, source_file, fmt, at, int(unranked)),
            ).lastrowid
        self.conn.execute(
            "INSERT INTO result (system_pk, question_pk, rank, passage_pk, score) "
            "SELECT ?, q.pk, s.rank, p.pk, s.score FROM temp.run_rows s "
            "JOIN question q ON q.id = s.qid JOIN passage p ON p.id = s.pid AND p.chunking_pk = ?",
            (system_pk, chunking_pk),
        )
        info = {
            "system_pk": system_pk,
            "replaced": existing is not None,
            "undo": kept,
            "removed": removed,
            "results": self._scalar("SELECT count(*) FROM temp.run_rows"),
            "questions": self._scalar("SELECT count(DISTINCT qid) FROM temp.run_rows"),
        }
        self.conn.execute("DROP TABLE temp.run_rows")
        return info

    def result_rows(self, max_rank: int | None = None) -> Iterator[tuple[int, int, int]]:
        """(system_pk, question_pk, passage_pk) in rank order within each list."""
        if max_rank is None:
            return self.conn.execute(
                "SELECT system_pk, question_pk, passage_pk FROM result "
                "ORDER BY system_pk, question_pk, rank"
            )
        # Seek each (system, question) prefix of the primary key instead of scanning every
        # stored rank: the metrics need only the first K of lists up to 100 long.
        return self.conn.execute(
            "SELECT r.system_pk, r.question_pk, r.passage_pk FROM system s CROSS JOIN question q "
            "CROSS JOIN result r WHERE r.system_pk = s.pk AND r.question_pk = q.pk "
            "AND r.rank <= ? ORDER BY s.pk, q.pk, r.rank",
            (max_rank,),
        )

    def ranked_heads(self, max_rank: int) -> Iterator[tuple[int, int, list[int]]]:
        """(system key, question key, its first ``max_rank`` passage keys) for every list, in
        system, question order, streamed: one list at a time in memory."""
        rows = self.result_rows(max_rank)
        for (system_pk, question_pk), group in groupby(rows, key=itemgetter(0, 1)):
            yield system_pk, question_pk, [row[2] for row in group]

    def scored_heads(
        self, system_pk: int, depth: int, tied_only: bool = False
    ) -> Iterator[tuple[int, list[tuple[int, float | None]]]]:
        """(question key, [(passage key, score)]) of one system's lists up to rank ``depth``
        and on to the end of a tie group straddling it, in question order, streamed. With
        ``tied_only``, only the lists where two of the first depth + 1 results have the same
        score or one has none (the others have no tie group for an order to change)."""
        rows = self._scored_rows([system_pk], depth, tied_only)
        for question_pk, group in groupby(rows, key=itemgetter(1)):
            yield question_pk, [(row[3], row[4]) for row in group]

    def _scored_rows(self, system_pks: list[int], depth: int, tied_only: bool) -> Iterator[tuple]:
        """(system_pk, question_pk, rank, passage_pk, score) of these systems' results up to
        rank `depth`, and beyond it the rest of a tie group that straddles it (the ranks after
        `depth` with its score), in system, question, rank order. For lists ordered by score
        (TREC runs), where a tie group is a run of consecutive ranks."""
        marks = ",".join("?" * len(system_pks))
        # The lists read: every one of these systems' (each sought by its key prefix, as
        # result_rows does), or those of them whose first depth + 1 scores are not all
        # distinct (count(DISTINCT) leaves out a missing score), found in SQLite.
        lists = f"SELECT s.pk, q.pk FROM system s CROSS JOIN question q WHERE s.pk IN ({marks})"
        params: tuple = tuple(system_pks)
        if tied_only:
            lists = (
                "SELECT r.system_pk, r.question_pk FROM system s CROSS JOIN question q "
                f"CROSS JOIN result r WHERE s.pk IN ({marks}) AND r.system_pk = s.pk "
                "AND r.question_pk = q.pk AND r.rank <= ? + 1 GROUP BY 1, 2 "
                "HAVING count(DISTINCT r.score) < count(*)"
            )
            params = (*system_pks, depth)
        # Follow a tie group past `depth` one rank at a time rather than scan the rest of
        # every list.
        return self.conn.execute(
            f"WITH RECURSIVE lists(system_pk, question_pk) AS MATERIALIZED ({lists}), "
            "tail(system_pk, question_pk, rank, passage_pk, score) AS ("
            "SELECT d.system_pk, d.question_pk, d.rank, d.passage_pk, d.score FROM lists l "
            "CROSS JOIN result c CROSS JOIN result d WHERE c.system_pk = l.system_pk "
            "AND c.question_pk = l.question_pk AND c.rank = ? "
            "AND d.system_pk = l.system_pk AND d.question_pk = l.question_pk "
            "AND d.rank = ? + 1 AND d.score = c.score "
            "UNION ALL SELECT r.system_pk, r.question_pk, r.rank, r.passage_pk, r.score "
            "FROM tail t CROSS JOIN result r WHERE r.system_pk = t.system_pk "
            "AND r.question_pk = t.question_pk AND r.rank = t.rank + 1 AND r.score = t.score) "
            "SELECT r.system_pk, r.question_pk, r.rank, r.passage_pk, r.score FROM lists l "
            "CROSS JOIN result r WHERE r.system_pk = l.system_pk "
            "AND r.question_pk = l.question_pk AND r.rank <= ? "
            "UNION ALL SELECT * FROM tail ORDER BY 1, 2, 3",
            (*params, depth, depth, depth),
        )

    def short_lists(self, depth: int) -> list[tuple[int, int, int]]:
        """(system_pk, question_pk, length) of every stored list shorter than `depth` (ranks
        have no gaps, so the length is the last rank), each list's key prefix sought."""
        return self.conn.execute(
            "SELECT r.system_pk, r.question_pk, max(r.rank) FROM system s CROSS JOIN question q "
            "CROSS JOIN result r WHERE r.system_pk = s.pk AND r.question_pk = q.pk "
            "AND r.rank <= ? GROUP BY r.system_pk, r.question_pk HAVING max(r.rank) < ?",
            (depth, depth),
        ).fetchall()

    def top_scores(self) -> Iterator[tuple[int, int, float | None]]:
        """(system_pk, question_pk, score) of every stored list's first result, streamed system
        by system, each in question order (the join's own order: no sort)."""
        return self.conn.execute(
            "SELECT r.system_pk, r.question_pk, r.score FROM system s CROSS JOIN question q "
            "CROSS JOIN result r WHERE r.system_pk = s.pk AND r.question_pk = q.pk "
            "AND r.rank = 1 ORDER BY s.pk, q.pk"
        )

    def pool_candidates(
        self, depth: int, with_systems: bool = True, question_pk: int | None = None
    ) -> list[tuple[int, int, str, int, int, str | None]]:
        """Per (question, passage) in some system's top `depth`: (question_pk, passage_pk,
        passage id, how many systems, best rank, comma-separated system keys or None), in the
        pool's order (pool_in_order). With question_pk, that question's alone (the window,
        after a judgement on it)."""
        return self.pool_in_order(depth, with_systems, question_pk).fetchall()

    def pool_in_order(
        self, depth: int, with_systems: bool = False, question_pk: int | None = None
    ) -> sqlite3.Cursor:
        """pool_candidates' rows streamed, in the pool's order: by question, then most
        systems, best rank, passage id (and key: ids are unique, so that never decides).
        This ORDER BY is the one place the design's pool order is written
        (desktop/gold/pool.py only shuffles it for a reviewer). Each (system, question) prefix
        of the result key is sought, not scanned, and the counting is done in SQLite (issue
        13: no slower than the metrics)."""
        # Grouped by passage first, so that ids are sought in key order: at a million
        # passages, lookups in question order jump about the index (0.3 s more). Then put in
        # order by SQLite: one sort here costs less than half what a sort per question in
        # Python does.
        one = "AND q.pk = ? " if question_pk is not None else ""
        # Not in a CASE: an aggregate is accumulated even where its value is never used.
        systems = "group_concat(r.system_pk)" if with_systems else "NULL"
        if question_pk is None and depth <= POOL_INDEX_DEPTH:
            # The whole pool at the usual depth: result_pool holds those ranks already in
            # (passage, question) order, so grouping them needs no sort (0.3 s at a million).
            rows = (
                f"FROM result r INDEXED BY result_pool WHERE r.rank <= {POOL_INDEX_DEPTH} "
                f"AND r.system_pk IN (SELECT s.pk FROM system s WHERE {POOLED}) "
            )
        else:
            rows = (
                "FROM system s CROSS JOIN question q CROSS JOIN result r "
                f"WHERE {POOLED} AND r.system_pk = s.pk AND r.question_pk = q.pk {one}"
            )
        return self.conn.execute(
            "SELECT g.question_pk, g.passage_pk, p.id, g.systems, g.best, g.keys FROM "
            "(SELECT r.question_pk, r.passage_pk, count(*) AS systems, min(r.rank) AS best, "
            f"{systems} AS keys {rows}"
            "AND r.rank <= ? GROUP BY r.passage_pk, r.question_pk) g "
            "JOIN passage p INDEXED BY passage_key_id ON p.pk = g.passage_pk "
            "ORDER BY g.question_pk, g.systems DESC, g.best, p.id, g.passage_pk",
            (*([] if question_pk is None else [question_pk]), depth),
        )

    def pool_passages(self, depth: int) -> Iterator[tuple[int, int]]:
        """(question_pk, passage_pk) once per passage in some system's top `depth`, in
        question order, streamed: what counting the pool needs, without the passage ids."""
        return self.conn.execute(
            "SELECT r.question_pk, r.passage_pk FROM system s CROSS JOIN question q "
            f"CROSS JOIN result r WHERE {POOLED} AND r.system_pk = s.pk AND r.question_pk = q.pk "
            "AND r.rank <= ? GROUP BY r.question_pk, r.passage_pk",
            (depth,),
        )

    def questions_with_results(self) -> set[int]:
        """Keys of the questions some system ranked passages for."""
        return {
            pk
            for (pk,) in self.conn.execute(
                "SELECT q.pk FROM question q WHERE EXISTS "
                "(SELECT 1 FROM result r WHERE r.question_pk = q.pk)"
            )
        }

    def max_rank(self) -> int:
        """The deepest rank of any list. Each list's last rank is sought through its key, not
        every result scanned: rank leads no index (a third of the time at five million)."""
        return (
            self._scalar(
                "SELECT max((SELECT max(r.rank) FROM result r WHERE r.system_pk = s.pk "
                "AND r.question_pk = q.pk)) FROM system s CROSS JOIN question q"
            )
            or 0
        )

    def ranking(self, system_pk: int, question_pk: int, limit: int | None = None) -> list[dict]:
        """One system's ranked passages for one question, with their text and metadata."""
        return self._query(
            "SELECT r.rank, r.score, p.pk AS passage_pk, p.id AS passage_id, p.title, p.meta, "
            "p.text FROM result r JOIN passage p ON p.pk = r.passage_pk "
            "WHERE r.system_pk = ? AND r.question_pk = ? ORDER BY r.rank LIMIT ?",
            [system_pk, question_pk, -1 if limit is None else limit],
        )

    def ranked_pks(self, question_pk: int) -> dict[int, list[int]]:
        """Every system's full ranked list of passage keys for one question."""
        out: dict[int, list[int]] = {}
        for system_pk, passage_pk in self.conn.execute(
            "SELECT system_pk, passage_pk FROM result WHERE question_pk = ? "
            "ORDER BY system_pk, rank",
            (question_pk,),
        ):
            out.setdefault(system_pk, []).append(passage_pk)
        return out

    def ranked_lists(self) -> Iterator[tuple[int, int, list[int]]]:
        """(system_pk, question_pk, passage keys in rank order) for every stored list, in
        system, question order: one row per list rather than one per result, which halves the
        time of reading millions of results. The keys come as a JSON array, which json.loads
        parses in C (half the time of splitting and converting them in Python). The ranks come
        along to check the order group_concat happened to use (SQL does not promise one); a
        list is sorted by rank when they are not 1..n in order."""
        in_order: dict[int, str] = {}
        for system_pk, question_pk, pks, ranks in self.conn.execute(
            "SELECT system_pk, question_pk, '[' || group_concat(passage_pk) || ']', "
            "group_concat(rank) FROM result GROUP BY system_pk, question_pk "
            "ORDER BY system_pk, question_pk"
        ):
            passages = json.loads(pks)
            n = len(passages)
            expected = in_order.get(n)
            if expected is None:
                expected = in_order[n] = ",".join(map(str, range(1, n + 1)))
            if ranks != expected:
                order = map(int, ranks.split(","))
                passages = [p for _, p in sorted(zip(order, passages, strict=True))]
            yield system_pk, question_pk, passages

    def evidence_hits(
        self, pairs: Iterable[tuple[int, int]]
    ) -> Iterator[tuple[int, int, int, int]]:
        """(system_pk, question_pk, rank, passage_pk) of every stored result whose passage is
        one of the given (question_pk, passage_pk) pairs, ordered by system, question, rank.
        One scan of the results in SQLite (a second or so for five million) instead of
        every ranked list in Python: the window's metrics need only the ranks that hit."""
        conn = self.conn
        conn.execute("DROP TABLE IF EXISTS temp.window_gold")
        conn.execute(
            "CREATE TEMP TABLE window_gold (question_pk INTEGER, passage_pk INTEGER, "
            "PRIMARY KEY (question_pk, passage_pk)) WITHOUT ROWID"
        )
        for batch in chunks(pairs):
            conn.executemany("INSERT OR IGNORE INTO temp.window_gold VALUES (?, ?)", batch)
        # CROSS JOIN keeps the results as the outer loop: a scan in key order, probing the
        # small gold table, rather than a seek per gold passage through result_question.
        rows = conn.execute(
            "SELECT r.system_pk, r.question_pk, r.rank, r.passage_pk FROM result r "
            "CROSS JOIN temp.window_gold g WHERE g.question_pk = r.question_pk "
            "AND g.passage_pk = r.passage_pk ORDER BY r.system_pk, r.question_pk, r.rank"
        ).fetchall()
        conn.execute("DROP TABLE temp.window_gold")
        return iter(rows)

    def ranked_passages(self, system_pk: int, question_pk: int) -> list[int]:
        """One system's whole ranked list of passage keys for one question, in rank order.
        One row from SQLite rather than one per rank: the window asks on every question
        switch, and each fetched row hands Python's GIL to a busy worker and back."""
        row = self.conn.execute(
            "SELECT group_concat(rank || ' ' || passage_pk) FROM result "
            "WHERE system_pk = ? AND question_pk = ?",
            (system_pk, question_pk),
        ).fetchone()
        if not row or not row[0]:
            return []
        pairs = sorted(tuple(map(int, part.split())) for part in row[0].split(","))
        return [passage for _, passage in pairs]
