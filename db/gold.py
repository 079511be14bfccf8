"""The imported gold area of the store (the reviewers' judgements are in db/judgements.py; the
effective gold that combines both is built in desktop/gold.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from db import undo
from db.rows import Area


class Gold(Area):
    """Imported gold: evidence items, alternatives, passages judged not evidence."""

    def replace_gold(
        self,
        source_file: str,
        questions: Iterable[tuple[int, str]],
        items: Iterable[tuple[int, str, str, str | None]],
        alternatives: Iterable[tuple[int, str, str, str]],
        not_evidence: Iterable[tuple[int, str, str]] = (),
    ) -> dict[str, int]:
        """Replace the gold of every question named: questions (line, qid); items
        (line, qid, passage_id, role); alternatives (line, qid, primary_id, passage_id);
        passages judged not evidence (line, qid, passage_id: qrels level 0).
        Caller holds the transaction. Raises UnknownIds. The counts returned include what
        was removed: the questions whose gold is replaced, their items and alternatives."""
        self._stage("gold_q", "line, qid", questions)
        self._stage("gold_item", "line, qid, pid, role", items)
        self._stage("gold_alt", "line, qid, primary_id, pid", alternatives)
        self._stage("gold_not", "line, qid, pid", not_evidence)
        self._check_ids("gold_q", "qid", [])
        self._check_ids("gold_item", "qid", ["pid"], 1)
        self._check_ids("gold_alt", None, ["pid"], 1)
        self._check_ids("gold_not", None, ["pid"], 1)
        kept = undo.keep_gold(self, source_file)
        removed = self._gold_replaced()
        self._put_gold(source_file)
        counts = {
            "questions": self._scalar("SELECT count(*) FROM temp.gold_q"),
            "evidence_items": self._scalar("SELECT count(*) FROM temp.gold_item"),
            "alternatives": self._scalar("SELECT count(*) FROM temp.gold_alt"),
            "undo": kept,
            "removed": removed,
        }
        for name in ("gold_q", "gold_item", "gold_alt", "gold_not"):
            self.conn.execute(f"DROP TABLE temp.{name}")
        return counts

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
            ),
            "alternatives": self._scalar(
                "SELECT count(*) FROM alternative a JOIN evidence_item e ON e.pk = a.item_pk "
                f"WHERE e.question_pk IN ({replaced})"
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

    def alternative_rows(self) -> list[tuple[int, int]]:
        return self.conn.execute("SELECT item_pk, passage_pk FROM alternative").fetchall()

    def gold_passage_ids(self) -> dict[int, str]:
        """Ids of every passage that imported gold names (primaries and alternatives)."""
        return dict(
            self.conn.execute(
                "SELECT pk, id FROM passage WHERE pk IN (SELECT passage_pk FROM evidence_item "
                "UNION SELECT passage_pk FROM alternative)"
            ).fetchall()
        )

    def evidence_primaries(self, question_id: str | None = None) -> dict[str, set[str]]:
        """Question id -> the primary passage ids of its imported evidence items (of every
        question with gold, or of the one named)."""
        out: dict[str, set[str]] = {}
        for qid, pid in self.conn.execute(
            "SELECT q.id, p.id FROM evidence_item e JOIN question q ON q.pk = e.question_pk "
            "JOIN passage p ON p.pk = e.passage_pk WHERE ? IS NULL OR q.id = ?",
            (question_id, question_id),
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
                "JOIN passage p ON p.pk = e.passage_pk ORDER BY x"
            ),
        }
