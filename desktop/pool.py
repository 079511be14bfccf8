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

DEFAULT_DEPTH = 10


@dataclass
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
    top: Iterable[tuple[int, int, int, int]],
    judged: Callable[[int], set[int]],
    system_names: dict[int, str],
    blind: bool = False,
) -> dict[int, list[PoolEntry]]:
    """top: (system_pk, question_pk, rank, passage_pk) of the top D ranks; judged(question_pk)
    gives J(q). The unjudged passages per question, unordered, passage ids not yet set."""
    found: dict[tuple[int, int], list] = {}  # (question, passage) -> [systems, best, by]
    judged_of: dict[int, set[int]] = {}
    for system_pk, question_pk, rank, passage_pk in top:
        known = judged_of.get(question_pk)
        if known is None:
            known = judged_of[question_pk] = judged(question_pk)
        if passage_pk in known:
            continue
        seen = found.get((question_pk, passage_pk))
        if seen is None:
            found[(question_pk, passage_pk)] = [1, rank, [system_pk]]
        else:
            seen[0] += 1
            seen[2].append(system_pk)
            if rank < seen[1]:
                seen[1] = rank
    out: dict[int, list[PoolEntry]] = {}
    for (question_pk, passage_pk), (systems, best, by) in found.items():
        names = [] if blind else [system_names[s] for s in by]
        out.setdefault(question_pk, []).append(PoolEntry(passage_pk, "", systems, best, names))
    return out


def name(pool: dict[int, list[PoolEntry]], passage_ids: dict[int, str]) -> None:
    """Set every entry's passage id."""
    for entries in pool.values():
        for entry in entries:
            entry.passage_id = passage_ids[entry.passage_pk]


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
