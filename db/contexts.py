"""A graph retriever's context besides its sources (design section 11): per system and question,
the names of the entities, relationships and community reports GraphRAG or LightRAG put in
it, so that the reviewer sees why it chose what it chose (migration 0012). Written with the run
(desktop/project_graph.py); replaced, backed up and restored with it (db/runs.py, db/undo.py)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from db.rows import Area

PARTS = ("entities", "relationships", "reports")


class Contexts(Area):
    def set_contexts(self, system_pk: int, rows: Iterable[tuple[str, dict]]) -> int:
        """(question id, {"entities": [...], "relationships": [...], "reports": [...]}) of
        every question of the system's run, in place of those it had; returns how many were
        stored. Caller holds the transaction."""
        self.conn.execute("DELETE FROM graph_context WHERE system_pk = ?", (system_pk,))
        stored = 0
        for question_id, parts in rows:
            if not any(parts.get(part) for part in PARTS):
                continue  # nothing but sources: nothing to list
            stored += self.conn.execute(
                "INSERT INTO graph_context (system_pk, question_pk, context) "
                "SELECT ?, pk, ? FROM question WHERE id = ?",
                (system_pk, json.dumps(parts, ensure_ascii=False), question_id),
            ).rowcount
        return stored

    def graph_contexts(self, question_pk: int) -> dict[str, dict]:
        """System name -> its context's entities, relationships and report titles for one
        question, for the systems whose run came from a graph retriever's contexts."""
        return {
            system: json.loads(context)
            for system, context in self.conn.execute(
                "SELECT s.name, g.context FROM graph_context g JOIN system s "
                "ON s.pk = g.system_pk WHERE g.question_pk = ?",
                (question_pk,),
            )
        }
