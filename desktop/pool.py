"""The unjudged pool (issue 13 point 2): per question, every passage in some system's top D
that is not judged, J(q) being the passages of effective items, those judged not evidence,
those of dropped items and those imported qrels give level 0 (gold.EffectiveGold.judged).

Ordered as TREC pools are worked through: by how many systems have the passage in their top
D (most first), then its best rank, then passage id. A reviewer may take a shuffled order
instead, fixed by their name, against position bias; blind mode hides which systems
retrieved a passage.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from itertools import groupby
from operator import itemgetter

DEFAULT_DEPTH = 10


class PoolEntry(tuple):
    """(passage_pk, passage_id, systems, best_rank, retrieved_by): a tuple, since the pool
    of thousands of questions is built from store rows without a Python call per field."""

    __slots__ = ()
    passage_pk = property(itemgetter(0))
    passage_id = property(itemgetter(1))
    systems = property(itemgetter(2), doc="how many systems have it in their top D")
    best_rank = property(itemgetter(3))

    @property
    def retrieved_by(self) -> tuple[str, ...]:
        """The systems' names, empty in blind mode."""
        return self[4] or ()

    def as_json(self) -> dict:
        return {"passage_id": self[1], "systems": self[2], "best_rank": self[3]}


def reviewer_seed(reviewer: str) -> int:
    """A seed fixed by the reviewer's name (not Python's salted hash), the same every run."""
    return int.from_bytes(hashlib.sha256(reviewer.encode("utf-8")).digest()[:8], "big")


def collect(
    candidates: Iterable[tuple[int, int, str, int, int, str | None]],
    judged: Callable[[int], set[int]],
    system_names: dict[int, str] | None = None,
) -> dict[int, list[PoolEntry]]:
    """candidates: (question_pk, passage_pk, passage_id, systems, best rank, system keys
    comma-separated or None) per passage in some system's top D, in question order (the
    store counts); judged(question_pk) gives J(q). The unjudged passages per question,
    unordered; without system_names the systems are not named."""
    out: dict[int, list[PoolEntry]] = {}
    for question_pk, group in groupby(candidates, key=itemgetter(0)):
        known = judged(question_pk)
        if system_names is None:
            entries = [PoolEntry(row[1:]) for row in group if row[1] not in known]
        else:
            entries = [
                PoolEntry(
                    (*row[1:5], tuple(sorted(system_names[int(k)] for k in row[5].split(","))))
                )
                for row in group
                if row[1] not in known
            ]
        if entries:
            out[question_pk] = entries
    return out


def unjudged_counts(
    passages: Iterable[tuple[int, int]], judged: Callable[[int], set[int]]
) -> dict[int, int]:
    """collect's entries counted, without building them: passages are (question_pk,
    passage_pk) once per passage in some system's top D, in question order."""
    out: dict[int, int] = {}
    for question_pk, group in groupby(passages, key=itemgetter(0)):
        known = judged(question_pk)
        count = sum(1 for row in group if row[1] not in known)
        if count:
            out[question_pk] = count
    return out


def ordered(entries: list[PoolEntry], shuffle_for: str | None = None, question: str = ""):
    """The design's order; with shuffle_for (a reviewer's name) a shuffle fixed by that name
    and the question, so that a reviewer meets each question's pool the same way each time."""
    entries = sorted(entries, key=lambda e: (-e[2], e[3], e[1]))
    if shuffle_for is not None:
        random.Random(reviewer_seed(f"{shuffle_for}\n{question}")).shuffle(entries)
    return entries


def as_json(depth: int, pool: list[tuple[str, list[PoolEntry]]]) -> dict:
    return {
        "depth": depth,
        "unjudged": sum(len(entries) for _, entries in pool),
        "questions": [
            {"question": qid, "unjudged": [e.as_json() for e in entries]} for qid, entries in pool
        ],
    }
