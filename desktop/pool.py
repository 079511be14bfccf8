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
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter

DEFAULT_DEPTH = 10


@dataclass(slots=True)
class PoolEntry:
    passage_pk: int
    passage_id: str
    systems: int = 0  # how many systems have it in their top D
    best_rank: int = 0
    retrieved_by: list[str] = field(default_factory=list)  # empty in blind mode

    def as_json(self) -> dict:
        return {"passage_id": self.passage_id, "systems": self.systems, "best_rank": self.best_rank}


def reviewer_seed(reviewer: str) -> int:
    """A seed fixed by the reviewer's name (not Python's salted hash), the same every run."""
    return int.from_bytes(hashlib.sha256(reviewer.encode("utf-8")).digest()[:8], "big")


def collect(
    candidates: Iterable[tuple[int, int, str, int, int, str]],
    judged: Callable[[int], set[int]],
    system_names: dict[int, str],
    blind: bool = False,
) -> dict[int, list[PoolEntry]]:
    """candidates: (question_pk, passage_pk, passage_id, systems, best rank, system keys
    comma-separated) per passage in some system's top D, in question order (the store
    counts); judged(question_pk) gives J(q). The unjudged passages per question, unordered."""
    out: dict[int, list[PoolEntry]] = {}
    for question_pk, group in groupby(candidates, key=itemgetter(0)):
        known = judged(question_pk)
        entries = [
            PoolEntry(
                passage_pk,
                passage_id,
                systems,
                best,
                [] if blind else [system_names[int(k)] for k in by.split(",")],
            )
            for _, passage_pk, passage_id, systems, best, by in group
            if passage_pk not in known
        ]
        if entries:
            out[question_pk] = entries
    return out


def ordered(entries: list[PoolEntry], shuffle_for: str | None = None, question: str = ""):
    """The design's order; with shuffle_for (a reviewer's name) a shuffle fixed by that name
    and the question, so that a reviewer meets each question's pool the same way each time."""
    entries = sorted(entries, key=lambda e: (-e.systems, e.best_rank, e.passage_id))
    if shuffle_for is not None:
        random.Random(reviewer_seed(f"{shuffle_for}\n{question}")).shuffle(entries)
    for entry in entries:
        entry.retrieved_by.sort()
    return entries


def as_json(depth: int, pool: list[tuple[str, list[PoolEntry]]]) -> dict:
    return {
        "depth": depth,
        "unjudged": sum(len(entries) for _, entries in pool),
        "questions": [
            {"question": qid, "unjudged": [e.as_json() for e in entries]} for qid, entries in pool
        ],
    }
