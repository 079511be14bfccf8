"""Similar passages (issue 21): the passages of a passage's chunking most like it, found in
the bigram index search already keeps (db/search.py), so no index is added and an import
costs what it did.

First the candidates: a passage's distinctive terms are its adjacent-character pairs (tokens
of passage_bigram) that the fewest passages hold, those under COMMON_BIGRAM_DOCS (counted from
the index's own vocabulary, a doclist of a few hundred rows at most), at most MAX_TERMS of
them; a pair only the passage itself holds finds nothing and is left out. A candidate's share
is the inverse document frequency of the terms it holds over that of all the terms. Then the
best RERANKED by share are scored again, as the geometric mean of that share and the cosine of
their whole texts' character pairs and triples, so that a passage holding the rare pairs
inside three times the text, or a list of the same common words, falls behind a copy. Scores
run 0..1: a copy is near 1, an unrelated passage near 0.

Chosen by measuring on real Korean text (tests/bench/bench_similar.py --quality): the share
alone put a known paraphrase second or lower in 2 of 40 cases; with the cosine, 1 of 40 (at
rank 2) and none of 140, as TF-IDF cosine over every pair and triple does by brute force,
which a million passages would need a new index of vectors for.
"""

from __future__ import annotations

import heapq
import math
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from operator import add

from db.rows import Area, chunks
from db.search import COMMON_BIGRAM_DOCS, phrase, stored_token

MAX_TERMS = 64
RERANKED = 200  # the best by shared pairs, ranked again with their whole texts
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


def _surely_folded(text: str) -> str | None:
    """text as FTS5 folds it (A-Z to a-z), or None when it holds a cased letter outside
    ASCII, whose folding Python cannot be sure of. The index holds a term (pair_tokens: two
    characters, no whitespace) for the passage exactly when the folded text holds it."""
    raw = text.encode("utf-8", "surrogatepass")  # bytes fold ASCII only
    low = text.lower()
    if low != raw.lower().decode("utf-8", "surrogatepass"):
        return None
    if text.upper() != raw.upper().decode("utf-8", "surrogatepass"):
        return None
    return low


def _grams(text: str) -> Counter:
    """How often each pair and triple of characters occurs, whitespace runs as one space."""
    flat = " ".join(text.split())
    found = Counter(map(add, flat, flat[1:]))
    found.update(a + b + c for a, b, c in zip(flat, flat[1:], flat[2:], strict=False))
    return found


def _score(share: float, cosine: float) -> float:
    """A passage's similarity to another from the share of that one's distinctive pairs it
    holds and the cosine of their pairs and triples (module docstring): the one formula
    similar_passages and pair_scores both give."""
    return round(math.sqrt(share * cosine), 3)


def _cosine(a: Counter, text: str) -> float:
    """The cosine of a and text's pairs and triples: 1.0 for the same counts."""
    b = _grams(text)
    dot = sum(n * b[g] for g, n in a.items() if g in b)
    norm = math.sqrt(sum(n * n for n in a.values()) * sum(n * n for n in b.values()))
    return dot / norm if norm else 0.0


def _best_first(shares: Callable[[], Iterable[tuple[int, float]]]) -> Iterator[tuple[int, float]]:
    """(passage, share) of shares() by share, best first, ties by key: the best few hundred
    taken without sorting the rest, then four times as many each time more are asked for. A
    passage of a corpus whose every passage shares its common pairs (hundreds of thousands)
    usually needs only the first block, and a whole sort held about 60 MB at a million
    passages."""
    taken, n = 0, 2 * RERANKED
    while True:
        best = heapq.nsmallest(n, shares(), key=lambda item: (-item[1], item[0]))
        yield from best[taken:]
        if len(best) < n:
            return
        taken, n = n, 4 * n


class Similar(Area):
    """Similar passages of a passage, best first."""

    def similar_passages(self, pk: int, limit: int) -> list[dict]:
        """Up to `limit` passages of pk's chunking most like it, best first, as rows of pk,
        id, title, document (its id or None) and score (0..1); never pk itself, nor a
        passage overlapping or touching it in its document, nor (without documents) the
        passage just before or after it."""
        text = self._scalar("SELECT text FROM passage WHERE pk = ?", (pk,))
        weights = self._term_weights(pair_tokens(text or ""))
        if not sum(weights.values()):
            return []
        shares = self._every_share(weights, self._excluded(pk))
        out: list[dict] = []
        shape = _grams(text)
        for part in chunks(_best_first(shares), RERANKED):
            rows = self._similar_rows(pk, [p for p, _ in part])
            found = [
                {**rows[p], "score": _score(share, _cosine(shape, rows[p]["text"]))}
                for p, share in part
                if p in rows
            ]
            out += sorted(found, key=lambda r: (-r["score"], r["pk"]))
            if len(out) >= limit:
                break
        return [{k: v for k, v in r.items() if k != "text"} for r in out[:limit]]

    def pair_scores(
        self, pk: int, others: Iterable[int], at_least: float = 0.0
    ) -> dict[int, float]:
        """The score similar_passages gives each of others as pk's similar passage (the same
        formula on the same terms, so the same number), for any passages at all rather than
        the best; a passage similar_passages would never list (pk itself, its neighbours in
        its document or the corpus, another chunking's, an unknown key) is absent, and one
        holding none of pk's distinctive pairs scores 0.0. With at_least, a passage scoring
        less is absent too, and its cosine is not computed when its share alone keeps it
        below (the cosine is at most 1, so the score at most the share's square root)."""
        wanted = sorted(set(others) - self._excluded(pk))
        if not wanted:
            return {}
        text = self._scalar("SELECT text FROM passage WHERE pk = ?", (pk,))
        weights = self._term_weights(pair_tokens(text or ""))
        shape = None
        out: dict[int, float] = {}
        for part in chunks(((p,) for p in wanted), RERANKED):
            rows = self._similar_rows(pk, [p for (p,) in part])
            shares = self._held_shares(weights, rows)
            for p, row in rows.items():
                share = shares.get(p, 0.0)
                if _score(share, 1.0) < at_least:
                    continue
                shape = shape or _grams(text)
                score = _score(share, _cosine(shape, row["text"]))
                if score >= at_least:
                    out[p] = score
        return out

    def _held_shares(self, weights: dict[str, float], rows: dict[int, dict]) -> dict[int, float]:
        """_shares of the passages of rows, from their texts where Python folds every pair
        as FTS5 does (the index then holds exactly those tokens: no search of it, whose
        doclists a common pair makes long), else from the index."""
        total = sum(weights.values())
        if not total:
            return {}
        out: dict[int, float] = {}
        unsure = []
        for p, row in rows.items():
            folded = _surely_folded(row["text"])
            if folded is None:
                unsure.append(p)
                continue
            # summed in the weights' order, as _shares sums them: the same float
            held = sum(w for t, w in weights.items() if t in folded)
            if held:
                out[p] = held / total
        if unsure:
            out.update(self._shares(weights, unsure))
        return out

    def _shares(self, weights: dict[str, float], only: list[int] | None = None) -> dict[int, float]:
        """Each passage's share of the weights of the terms it holds (of those in `only`
        when given, of every passage holding one otherwise)."""
        total = sum(weights.values())
        scores: dict[int, float] = {}
        for term, weight in weights.items():
            for rowid in self._holders(term, only):
                scores[rowid] = scores.get(rowid, 0.0) + weight
        return {p: s / total for p, s in scores.items()}

    def _holders(self, term: str, only: list[int] | None = None) -> Iterator[int]:
        """The passages (rowids) holding a term, of those in `only` when given."""
        within, params = "", []
        if only is not None:
            within = f" AND rowid IN ({','.join('?' * len(only))})"
            params = only
        for (rowid,) in self.conn.execute(
            "SELECT rowid FROM passage_bigram WHERE passage_bigram MATCH ?" + within,
            (phrase(term), *params),
        ):
            yield rowid

    def _every_share(
        self, weights: dict[str, float], excluded: set[int]
    ) -> Callable[[], Iterator[tuple[int, float]]]:
        """_shares of every passage holding a term, but those excluded, as an iterator made
        afresh on each call. Summed in an array indexed by key (8 bytes a passage: a dict of
        the half million passages a common pair finds held about 45 MB), or in _shares' dict
        where keys are sparse. The same floats: each passage's weights added in the
        weights' order from 0.0, then divided by the total (every weight is above 0)."""
        top = self._scalar("SELECT max(pk) FROM passage") or 0
        if top > 2 * (self._scalar("SELECT count(*) FROM passage") or 0) + 1024:
            shares = self._shares(weights)
            return lambda: ((p, s) for p, s in shares.items() if p not in excluded)
        total = sum(weights.values())
        sums = array("d", bytes(8 * (top + 1)))
        for term, weight in weights.items():
            for rowid in self._holders(term):
                if rowid <= top:  # the index is emptied with the passages: never above
                    sums[rowid] += weight
        for p in excluded:
            if p <= top:
                sums[p] = 0.0
        return lambda: ((p, s / total) for p, s in enumerate(sums) if s)

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
            "SELECT p.pk, p.id, p.title, d.id AS document, p.text FROM passage p "
            "LEFT JOIN document d ON d.pk = p.document_pk WHERE p.pk IN "
            f"({marks}) AND p.chunking_pk = (SELECT chunking_pk FROM passage WHERE pk = ?)",
            [*pks, pk],
        )
        return {r["pk"]: r for r in rows}
