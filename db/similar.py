"""Similar passages (issue 21): the passages of a passage's chunking that share most of its
distinctive character pairs, read from the bigram index search already keeps (db/search.py),
so no index is added and an import costs what it did.

A passage's distinctive terms are its adjacent-character pairs (tokens of passage_bigram)
that the fewest passages hold: those under COMMON_BIGRAM_DOCS, counted from the index's own
vocabulary (a count that stops at a few hundred rows), at most MAX_TERMS of them. A pair only
the passage itself holds finds nothing and is left out. Each candidate scores the inverse
document frequency of the terms it shares over that of all the terms: 1.0 shares every one,
so a near copy scores close to 1 and an unrelated passage near 0. Measured against TF-IDF
cosine over every character pair on real Korean text (tests/bench/bench_similar.py --quality),
the near copy ranks first with both; this one reads at most MAX_TERMS short posting lists.
"""

from __future__ import annotations

import math
from operator import add

from db.rows import Area, chunks
from db.search import COMMON_BIGRAM_DOCS, phrase, stored_token

MAX_TERMS = 64
FEW_TERMS = 8  # below this many rare pairs, the least common of the counted ones fill in
_VOCAB = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.passage_bigram_vocab "
    "USING fts5vocab(main, passage_bigram, 'row')"
)


def pair_tokens(text: str) -> set[str]:
    """The passage_bigram tokens of text that are whole pairs (no whitespace), folded as
    FTS5 folds them; pairs whose folding Python cannot be sure of are left out."""
    pairs = (p for p in map(add, text, text[1:]) if not any(c.isspace() for c in p))
    return {t for t in map(stored_token, pairs) if t is not None}


class Similar(Area):
    """Similar passages of a passage, best first."""

    def similar_passages(self, pk: int, limit: int) -> list[dict]:
        """Up to `limit` passages of pk's chunking most like it, best first, as rows of pk,
        id, title, document (its id or None) and score (0..1); never pk itself, nor a
        passage overlapping or touching it in its document, nor (without documents) the
        passage just before or after it."""
        text = self._scalar("SELECT text FROM passage WHERE pk = ?", (pk,))
        weights = self._term_weights(pair_tokens(text or ""))
        total = sum(weights.values())
        if not total:
            return []
        scores: dict[int, float] = {}
        for term, weight in weights.items():
            for (rowid,) in self.conn.execute(
                "SELECT rowid FROM passage_bigram WHERE passage_bigram MATCH ?", (phrase(term),)
            ):
                scores[rowid] = scores.get(rowid, 0.0) + weight
        ranked = sorted(scores.items(), key=lambda s: (-s[1], s[0]))
        out: list[dict] = []
        excluded = self._excluded(pk)
        for part in chunks(((p, s / total) for p, s in ranked if p not in excluded), 200):
            rows = self._similar_rows(pk, [p for p, _ in part])
            for p, score in part:
                if p in rows:
                    out.append({**rows[p], "score": round(score, 3)})
                    if len(out) == limit:
                        return out
        return out

    def _term_weights(self, terms: set[str]) -> dict[str, float]:
        """Inverse document frequency of the passage's distinctive terms (module docstring)."""
        passages = self._scalar("SELECT count(*) FROM passage") or 1
        common: dict[str, int] = {}
        for part in chunks(((t,) for t in terms), 500):
            marks = ",".join("?" * len(part))
            common.update(
                self.conn.execute(
                    f"SELECT term, docs FROM passage_bigram_count WHERE term IN ({marks})",
                    [t[0] for t in part],
                ).fetchall()
            )
        self.conn.execute(_VOCAB)
        rare: dict[str, int] = {}
        for term in terms - common.keys():
            docs = self._scalar("SELECT doc FROM temp.passage_bigram_vocab WHERE term = ?", (term,))
            if docs and docs > 1 and docs < COMMON_BIGRAM_DOCS:
                rare[term] = docs
        chosen = sorted(rare.items(), key=lambda t: (t[1], t[0]))[:MAX_TERMS]
        if len(chosen) < FEW_TERMS:
            chosen += sorted(common.items(), key=lambda t: (t[1], t[0]))[: FEW_TERMS - len(chosen)]
        return {t: math.log(passages / d) for t, d in chosen if d < passages}

    def _excluded(self, pk: int) -> set[int]:
        """pk, the passages of its chunking overlapping or touching it in its document, and
        without a document the passages just before and after it in corpus order."""
        chunking, document, start, end = self.conn.execute(
            'SELECT chunking_pk, document_pk, start, "end" FROM passage WHERE pk = ?', (pk,)
        ).fetchone()
        if document is not None and start is not None:
            near = self.conn.execute(
                "SELECT pk FROM passage WHERE document_pk = ? AND chunking_pk = ? AND start <= ? "
                'AND "end" >= ?',
                (document, chunking, end, start),
            ).fetchall()
        else:
            near = self.conn.execute(
                "SELECT max(pk) FROM passage WHERE chunking_pk = ? AND pk < ? UNION ALL "
                "SELECT min(pk) FROM passage WHERE chunking_pk = ? AND pk > ?",
                (chunking, pk, chunking, pk),
            ).fetchall()
        return {pk} | {r[0] for r in near if r[0] is not None}

    def _similar_rows(self, pk: int, pks: list[int]) -> dict[int, dict]:
        """pk, id, title and document id of those of pks in pk's chunking."""
        marks = ",".join("?" * len(pks))
        rows = self._query(
            "SELECT p.pk, p.id, p.title, d.id AS document FROM passage p "
            "LEFT JOIN document d ON d.pk = p.document_pk WHERE p.pk IN "
            f"({marks}) AND p.chunking_pk = (SELECT chunking_pk FROM passage WHERE pk = ?)",
            [*pks, pk],
        )
        return {r["pk"]: r for r in rows}
