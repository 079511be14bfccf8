"""The imported gold area of the store (the reviewers' judgements are in db/judgements.py; the
effective gold that combines both is built in desktop/gold.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from itertools import groupby
from operator import itemgetter

from db import undo
from db.rows import Area


class BadSpan(Exception):
    """A span the store cannot place: its document is missing, or it runs past the end."""

    def __init__(self, line: int, message: str):
        super().__init__(line, message)
        self.line, self.message = line, message


# A staged span's document (d) and whether it lies inside it: the checks of _check_spans.
_SPAN_PROBLEM = (
    'SELECT s.line, s.doc, s.start, s."end", length(d.text) FROM temp.{table} s '
    "LEFT JOIN document d ON d.id = s.doc WHERE s.doc IS NOT NULL "
    'AND (d.pk IS NULL OR s."end" > length(d.text)) ORDER BY s.line LIMIT 1'
)


class Gold(Area):
    """Imported gold: evidence items, alternatives, passages judged not evidence."""

    def replace_gold(
        self,
        source_file: str,
        questions: Iterable[tuple[int, str]],
        items: Iterable[tuple[int, str, str, str | None]],
        alternatives: Iterable[tuple[int, str, str, str]],
        not_evidence: Iterable[tuple[int, str, str]] = (),
        span_items: Iterable[tuple[int, str, str, int, int, str | None]] = (),
        span_alternatives: Iterable[tuple] = (),
    ) -> dict[str, int]:
        """Replace the gold of every question named: questions (line, qid); items
        (line, qid, passage_id, role); alternatives (line, qid, primary_id, passage_id);
        passages judged not evidence (line, qid, passage_id: qrels level 0); items given as
        spans (line, qid, document_id, start, end, role); alternatives of an item given as
        a span or given as spans (line, qid, item: its primary passage id, or its span key
        'd1:10-200', then a passage id or None, then document_id, start, end or Nones).
        Caller holds the transaction. Raises UnknownIds and BadSpan. The counts returned
        include what was removed: the questions whose gold is replaced, their items and
        alternatives."""
        self._stage("gold_q", "line, qid", questions)
        self._stage("gold_item", "line, qid, pid, role", items)
        self._stage("gold_alt", "line, qid, primary_id, pid", alternatives)
        self._stage("gold_not", "line, qid, pid", not_evidence)
        self._stage("gold_span", 'line, qid, doc, start, "end", role', span_items)
        self._stage("gold_span_alt", 'line, qid, item, pid, doc, start, "end"', span_alternatives)
        self._check_ids("gold_q", "qid", [])
        self._check_ids("gold_item", "qid", ["pid"], 1)
        self._check_ids("gold_alt", None, ["pid"], 1)
        self._check_ids("gold_not", None, ["pid"], 1)
        self._check_ids("gold_span_alt", None, ["pid"], 1)
        self._check_spans()
        kept = undo.keep_gold(self, source_file)
        removed = self._gold_replaced()
        self._put_gold(source_file)
        self._put_span_gold()
        counts = {
            "questions": self._scalar("SELECT count(*) FROM temp.gold_q"),
            "evidence_items": self._scalar(
                "SELECT (SELECT count(*) FROM temp.gold_item) "
                "+ (SELECT count(*) FROM temp.gold_span)"
            ),
            "alternatives": self._scalar(
                "SELECT (SELECT count(*) FROM temp.gold_alt) "
                "+ (SELECT count(*) FROM temp.gold_span_alt)"
            ),
            "undo": kept,
            "removed": removed,
        }
        for name in ("gold_q", "gold_item", "gold_alt", "gold_not", "gold_span", "gold_span_alt"):
            self.conn.execute(f"DROP TABLE temp.{name}")
        return counts

    def _check_spans(self) -> None:
        """Refuses a staged span on a database without documents, of a document the store
        lacks, or running past its document's end (offsets are code points: SQLite's
        length() of a text counts them)."""
        first = self._scalar(
            "SELECT min(line) FROM (SELECT line FROM temp.gold_span UNION ALL "
            "SELECT line FROM temp.gold_span_alt WHERE doc IS NOT NULL)"
        )
        if first is None:
            return
        if not self._scalar("SELECT count(*) FROM document"):
            raise BadSpan(
                first,
                "evidence given as a span needs the documents its offsets count in, and this "
                "database has none: import documents FILE first",
            )
        for table in ("gold_span", "gold_span_alt"):
            row = self.conn.execute(_SPAN_PROBLEM.format(table=table)).fetchone()
            if row is None:
                continue
            line, doc, start, end, length = row
            if length is None:
                raise BadSpan(line, f"unknown document id {doc!r}: import its documents first")
            raise BadSpan(
                line,
                f"span {doc}:{start}-{end} runs past the end of document {doc!r} "
                f"({length} characters)",
            )

    def _put_span_gold(self) -> None:
        """The staged span items, then the staged alternatives of span items and span
        alternatives of passage items (the old ones went with their items)."""
        run = self.conn.execute
        run(
            "DELETE FROM span_item WHERE question_pk IN "
            "(SELECT q.pk FROM question q JOIN temp.gold_q s ON s.qid = q.id)"
        )
        run(
            'INSERT INTO span_item (question_pk, document_pk, start, "end", role) '
            'SELECT q.pk, d.pk, s.start, s."end", s.role FROM temp.gold_span s '
            "JOIN question q ON q.id = s.qid JOIN document d ON d.id = s.doc ORDER BY s.line"
        )
        run(
            'INSERT INTO span_alternative (span_item_pk, passage_pk, document_pk, start, "end") '
            'SELECT i.pk, p.pk, d.pk, s.start, s."end" FROM temp.gold_span_alt s '
            "JOIN question q ON q.id = s.qid JOIN span_item i ON i.question_pk = q.pk "
            "JOIN document idoc ON idoc.pk = i.document_pk "
            "AND s.item = idoc.id || ':' || i.start || '-' || i.\"end\" "
            "LEFT JOIN passage p ON p.id = s.pid AND p.chunking_pk = 1 "
            "LEFT JOIN document d ON d.id = s.doc"
        )
        run(
            'INSERT INTO span_alternative (item_pk, document_pk, start, "end") '
            'SELECT e.pk, d.pk, s.start, s."end" FROM temp.gold_span_alt s '
            "JOIN question q ON q.id = s.qid JOIN passage pp ON pp.id = s.item "
            "AND pp.chunking_pk = 1 JOIN evidence_item e ON e.question_pk = q.pk "
            "AND e.passage_pk = pp.pk JOIN document d ON d.id = s.doc"
        )

    def _gold_replaced(self) -> dict[str, int]:
        """How much gold the staged questions (temp.gold_q) have before it is replaced."""
        replaced = (
            "SELECT g.question_pk FROM gold_question g JOIN question q ON q.pk = g.question_pk "
            "JOIN temp.gold_q s ON s.qid = q.id"
        )
        return {
            "questions": self._scalar(f"SELECT count(*) FROM ({replaced})"),
            "evidence_items": self._scalar(
                f"SELECT count(*) FROM evidence_item WHERE question_pk IN ({replaced})"
            )
            + self._scalar(f"SELECT count(*) FROM span_item WHERE question_pk IN ({replaced})"),
            "alternatives": self._scalar(
                "SELECT count(*) FROM alternative a JOIN evidence_item e ON e.pk = a.item_pk "
                f"WHERE e.question_pk IN ({replaced})"
            )
            + self._scalar(
                "SELECT count(*) FROM span_alternative a LEFT JOIN evidence_item e "
                "ON e.pk = a.item_pk LEFT JOIN span_item i ON i.pk = a.span_item_pk "
                f"WHERE coalesce(e.question_pk, i.question_pk) IN ({replaced})"
            ),
        }

    def _put_gold(self, source_file: str) -> None:
        """Replace the gold of the staged questions with the staged items, alternatives and
        passages judged not evidence."""
        run = self.conn.execute
        run(
            "DELETE FROM evidence_item WHERE question_pk IN "
            "(SELECT q.pk FROM question q JOIN temp.gold_q s ON s.qid = q.id)"
        )
        run(
            "DELETE FROM judged_not_evidence WHERE question_pk IN "
            "(SELECT q.pk FROM question q JOIN temp.gold_q s ON s.qid = q.id)"
        )
        run(
            "INSERT OR IGNORE INTO judged_not_evidence (question_pk, passage_pk) "
            "SELECT q.pk, p.pk FROM temp.gold_not s JOIN question q ON q.id = s.qid "
            "JOIN passage p ON p.id = s.pid AND p.chunking_pk = 1"
        )
        run(
            "INSERT OR REPLACE INTO gold_question (question_pk, source_file) "
            "SELECT q.pk, ? FROM question q JOIN temp.gold_q s ON s.qid = q.id",
            (source_file,),
        )
        run(
            "INSERT INTO evidence_item (question_pk, passage_pk, role) "
            "SELECT q.pk, p.pk, s.role FROM temp.gold_item s "
            "JOIN question q ON q.id = s.qid JOIN passage p ON p.id = s.pid AND p.chunking_pk = 1 "
            "ORDER BY s.line"
        )
        run(
            "INSERT OR IGNORE INTO alternative (item_pk, passage_pk) "
            "SELECT e.pk, p.pk FROM temp.gold_alt s JOIN question q ON q.id = s.qid "
            "JOIN passage pp ON pp.id = s.primary_id AND pp.chunking_pk = 1 "
            "JOIN evidence_item e ON e.question_pk = q.pk AND e.passage_pk = pp.pk "
            "JOIN passage p ON p.id = s.pid AND p.chunking_pk = 1"
        )

    def evidence_rows(self) -> list[tuple[int, int, int, str | None]]:
        """(question_pk, item_pk, primary passage_pk, role) for every evidence item."""
        return self.conn.execute(
            "SELECT question_pk, pk, passage_pk, role FROM evidence_item ORDER BY question_pk, pk"
        ).fetchall()

    def not_evidence_rows(self) -> list[tuple[int, int]]:
        """(question_pk, passage_pk) of every passage imported gold judges not evidence."""
        return self.conn.execute(
            "SELECT question_pk, passage_pk FROM judged_not_evidence"
        ).fetchall()

    def question_not_evidence(self, question_pk: int) -> list[tuple[int, int]]:
        """not_evidence_rows of one question (the window builds one question's gold)."""
        return self.conn.execute(
            "SELECT question_pk, passage_pk FROM judged_not_evidence WHERE question_pk = ?",
            (question_pk,),
        ).fetchall()

    def span_item_rows(
        self, question_pk: int | None = None
    ) -> list[tuple[int, int, str, int, int, str | None]]:
        """(question_pk, span item pk, document id, start, end, role) of every item given as
        a span (or of one question's, through its index), in the order imported."""
        where, params = ("WHERE i.question_pk = ? ", (question_pk,)) if question_pk else ("", ())
        return self.conn.execute(
            'SELECT i.question_pk, i.pk, d.id, i.start, i."end", i.role FROM span_item i '
            f"JOIN document d ON d.pk = i.document_pk {where}ORDER BY i.question_pk, i.pk",
            params,
        ).fetchall()

    def span_alternative_rows(self, question_pk: int | None = None) -> list[tuple]:
        """(evidence item pk or None, span item pk or None, passage_pk or None, document id
        or None, start, end): the alternatives of span items and the span alternatives (of
        every question, or of one, read from its items by their indexes)."""
        columns = 'a.item_pk, a.span_item_pk, a.passage_pk, d.id, a.start, a."end"'
        document = "LEFT JOIN document d ON d.pk = a.document_pk"
        if question_pk is None:
            return self.conn.execute(
                f"SELECT {columns} FROM span_alternative a {document}"
            ).fetchall()
        return self.conn.execute(
            f"SELECT {columns} FROM span_item i JOIN span_alternative a "
            f"ON a.span_item_pk = i.pk {document} WHERE i.question_pk = ? UNION ALL "
            f"SELECT {columns} FROM evidence_item e JOIN span_alternative a "
            f"ON a.item_pk = e.pk {document} WHERE e.question_pk = ?",
            (question_pk, question_pk),
        ).fetchall()

    def alternative_rows(self) -> list[tuple[int, int]]:
        return self.conn.execute("SELECT item_pk, passage_pk FROM alternative").fetchall()

    def gold_passage_ids(self) -> dict[int, str]:
        """Ids of every passage that imported gold names (primaries and alternatives)."""
        return dict(
            self.conn.execute(
                "SELECT pk, id FROM passage WHERE pk IN (SELECT passage_pk FROM evidence_item "
                "UNION SELECT passage_pk FROM alternative "
                "UNION SELECT passage_pk FROM span_alternative WHERE passage_pk IS NOT NULL)"
            ).fetchall()
        )

    def evidence_primaries(self, question_id: str | None = None) -> dict[str, set[str]]:
        """Question id -> the primaries of its imported evidence items: passage ids, and the
        span keys ('d1:10-200') of the items given as spans (of every question with gold, or
        of the one named). One statement: the window asks before every judgement."""
        out: dict[str, set[str]] = {}
        for qid, pid in self.conn.execute(
            "SELECT q.id, p.id FROM evidence_item e JOIN question q ON q.pk = e.question_pk "
            "JOIN passage p ON p.pk = e.passage_pk WHERE ?1 IS NULL OR q.id = ?1 UNION ALL "
            "SELECT q.id, d.id || ':' || i.start || '-' || i.\"end\" FROM span_item i "
            "JOIN question q ON q.pk = i.question_pk JOIN document d ON d.pk = i.document_pk "
            "WHERE ?1 IS NULL OR q.id = ?1",
            (question_id,),
        ):
            out.setdefault(qid, set()).add(pid)
        return out

    def question_evidence(self, question_pk: int) -> list[dict]:
        """The imported evidence of one question with passage ids and alternatives."""
        items = self._query(
            "SELECT e.pk AS item_pk, e.role, p.pk AS passage_pk, p.id AS passage_id "
            "FROM evidence_item e JOIN passage p ON p.pk = e.passage_pk "
            "WHERE e.question_pk = ? ORDER BY e.pk",
            [question_pk],
        )
        alts: dict[int, list[tuple[int, str]]] = {}
        for item_pk, ppk, pid in self.conn.execute(
            "SELECT a.item_pk, p.pk, p.id FROM alternative a JOIN passage p ON p.pk = a.passage_pk "
            "JOIN evidence_item e ON e.pk = a.item_pk WHERE e.question_pk = ? ORDER BY p.pk",
            [question_pk],
        ):
            alts.setdefault(item_pk, []).append((ppk, pid))
        for item in items:
            item["alternatives"] = alts.get(item["item_pk"], [])
        return items

    def each_question_evidence(self) -> Iterator[tuple[int, list[dict]]]:
        """(question_pk, question_evidence of that question) for every question with imported
        evidence, in question order, streamed: two statements for the report's whole pass
        instead of two per question, the items and alternatives in question_evidence's order.
        The alternatives are read whole first (a few per item: small beside the items)."""
        alts: dict[int, list[tuple[int, str]]] = {}
        for item_pk, ppk, pid in self.conn.execute(
            "SELECT a.item_pk, p.pk, p.id FROM alternative a JOIN passage p ON p.pk = a.passage_pk "
            "ORDER BY a.item_pk, p.pk"
        ):
            alts.setdefault(item_pk, []).append((ppk, pid))
        items = self.conn.execute(
            "SELECT e.question_pk, e.pk, e.role, p.pk, p.id FROM evidence_item e "
            "JOIN passage p ON p.pk = e.passage_pk ORDER BY e.question_pk, e.pk"
        )
        for question_pk, rows in groupby(items, key=itemgetter(0)):
            yield (
                question_pk,
                [
                    {
                        "item_pk": item_pk,
                        "role": role,
                        "passage_pk": passage_pk,
                        "passage_id": passage_id,
                        "alternatives": alts.get(item_pk, []),
                    }
                    for _, item_pk, role, passage_pk, passage_id in rows
                ],
            )

    def span_alternative_count(self) -> int:
        return self._scalar("SELECT count(*) FROM span_alternative") or 0

    def gold_question_pks(self) -> set[int]:
        """Keys of the questions whose gold was imported (with or without evidence)."""
        return {pk for (pk,) in self.conn.execute("SELECT question_pk FROM gold_question")}

    def fingerprint(self) -> dict[str, str]:
        """Digests of corpus ids, question ids and imported gold, to refuse merging databases
        that do not describe the same evaluation."""

        def digest(sql: str) -> str:
            row = self.conn.execute(
                f"SELECT count(*), coalesce(sum(length(x)), 0), "
                f"coalesce(group_concat(x, char(31)), '') FROM ({sql})"
            ).fetchone()
            return f"{row[0]}:{hashlib.sha256(row[2].encode()).hexdigest()[:16]}"

        return {
            "corpus": digest("SELECT id AS x FROM passage ORDER BY id"),
            "questions": digest("SELECT id AS x FROM question ORDER BY id"),
            "gold": digest(
                "SELECT q.id || char(30) || p.id || char(30) || coalesce(e.role, '') AS x "
                "FROM evidence_item e JOIN question q ON q.pk = e.question_pk "
                "JOIN passage p ON p.pk = e.passage_pk UNION ALL "
                "SELECT q.id || char(30) || d.id || ':' || i.start || '-' || i.\"end\" "
                "|| char(30) || coalesce(i.role, '') FROM span_item i "
                "JOIN question q ON q.pk = i.question_pk JOIN document d ON d.pk = i.document_pk "
                "ORDER BY x"
            ),
        }
