"""Candidate alternatives (issue 21): the passages of an evidence item's chunking that say
the same thing elsewhere, which a reviewer should look at before trusting a miss. One rule,
used by the window's list, the pool's marks and the report's list alike: a passage is a
candidate of an item when its similarity to the item (db/similar.py, 0..1) is at least
THRESHOLD. No Qt here.

THRESHOLD was set on tests/bench/bench_similar.py --quality --pairs 140 (2026-12-04): 289
passages of real Korean text (the sample's constitution and the seed document), 70 given a
near copy and 70 a paraphrase. The known near copies scored 0.637..0.989 (all 70 at 0.6 or
more), the known paraphrases 0.369..0.943 (65 of 70 at 0.6 or more; the five below had lost a
third of their words and been reordered). Against them, for each of the 144 original
passages its best match that is not a known copy (another article of the constitution on a
related matter, not an alternative): median 0.335, 95th percentile 0.565, the highest three
0.614, 0.641 and 0.651. At 0.6: every near copy, 93% of the paraphrases, and 3 of 144
passages listed with a false candidate; at 0.65 the false ones fall to 1 but a near copy and
six paraphrases are lost, and a missed alternative costs a wrong score where a false one
costs the reviewer a glance.
"""

from __future__ import annotations

from collections.abc import Iterable

THRESHOLD = 0.6


def is_candidate(score: float | None) -> bool:
    """Whether a similarity score (db/similar.py; None for a passage that can never be one,
    e.g. the item itself or another chunking's) makes a candidate."""
    return score is not None and score >= THRESHOLD


def candidates(reads, item_pk: int, limit: int = 10) -> list[dict]:
    """Up to `limit` candidates of the item passage item_pk, best first, as the store's
    similar rows (pk, id, title, document, score): its similar passages scoring at least
    THRESHOLD. reads is the store (project.reads)."""
    return [r for r in reads.similar_passages(item_pk, limit) if is_candidate(r["score"])]


def candidate_scores(reads, item_pk: int, passage_pks: Iterable[int]) -> dict[int, float]:
    """The scores of those of passage_pks that are candidates of the item passage item_pk
    (the same scores `candidates` lists), whether or not they are among its best; the others
    are absent. The store skips the cosine of the passages whose share of the item's rare
    pairs alone keeps them below THRESHOLD."""
    return reads.pair_scores(item_pk, passage_pks, at_least=THRESHOLD)


def is_candidate_of(reads, item_pk: int, passage_pk: int) -> bool:
    """Whether passage_pk is a candidate of the item passage item_pk."""
    return passage_pk in candidate_scores(reads, item_pk, [passage_pk])
