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
from collections.abc import Callable, Iterable, Iterator
from itertools import groupby
from json.encoder import encode_basestring
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


def reviewer_seed(reviewer: str) -> int:
    """A seed fixed by the reviewer's name (not Python's salted hash), the same every run."""
    return int.from_bytes(hashlib.sha256(reviewer.encode("utf-8")).digest()[:8], "big")


def collect(
    candidates: Iterable[tuple[int, int, str, int, int, str | None]],
    judged: Callable[[int], set[int]],
    system_names: dict[int, str] | None = None,
) -> dict[int, list[PoolEntry]]:
    """candidates: (question_pk, passage_pk, passage_id, systems, best rank, system keys
    comma-separated or None) per passage in some system's top D, in the pool's order (the
    store counts and orders); judged(question_pk) gives J(q). The unjudged passages per
    question, in that order; without system_names the systems are not named."""
    out: dict[int, list[PoolEntry]] = {}
    known: dict[int, set[int]] = {}
    for row in candidates:
        question_pk = row[0]
        seen = known.get(question_pk)
        if seen is None:
            seen = known[question_pk] = judged(question_pk)
        if row[1] in seen:
            continue
        if system_names is None:
            entry = PoolEntry(row[1:])
        else:
            names = tuple(sorted(system_names[int(k)] for k in row[5].split(",")))
            entry = PoolEntry((*row[1:5], names))
        entries = out.get(question_pk)
        if entries is None:
            out[question_pk] = [entry]
        else:
            entries.append(entry)
    return out


def unjudged_counts(
    passages: Iterable[tuple[int, int]], judged: Callable[[int], set[int]]
) -> dict[int, int]:
    """collect's entries counted, without building them: passages are (question_pk,
    passage_pk) once per passage in some system's top D, in question order."""
    out: dict[int, int] = {}
    for question_pk, group in groupby(passages, key=itemgetter(0)):
        count = unjudged_in((row[1] for row in group), judged(question_pk))
        if count:
            out[question_pk] = count
    return out


def unjudged_in(passages: Iterable[int], judged: set[int]) -> int:
    """How many of one question's top-D passages (each once) are not judged."""
    return sum(1 for passage in passages if passage not in judged)


def listed(unjudged: int, has_evidence: bool, ranked: bool) -> bool:
    """Whether the pool lists a question: it has a pool, evidence or a ranked list."""
    return bool(unjudged) or has_evidence or ranked


def ordered(entries: list[PoolEntry], shuffle_for: str | None = None, question: str = ""):
    """Entries in the design's order as the store gives them (Runs.pool_in_order writes that
    order, once); with shuffle_for (a reviewer's name) a shuffle fixed by that name and the
    question, so that a reviewer meets each question's pool the same way each time."""
    entries = list(entries)
    if shuffle_for is not None:
        shuffle(entries, shuffle_for, question)
    return entries


def shuffle(entries: list, reviewer: str, question: str) -> None:
    """A reviewer's order of one question's pool, in place: the permutation depends only on
    the reviewer, the question and how many entries there are, whatever they are."""
    random.Random(reviewer_seed(f"{reviewer}\n{question}")).shuffle(entries)


def unjudged(pool: list[tuple[str, list[PoolEntry]]]) -> int:
    return sum(len(entries) for _, entries in pool)


_ENTRY = '{"passage_id": %s, "systems": %d, "best_rank": %d}'
_QUESTION = '{"question": %s, "unjudged": [%s]}'


def entry_texts(
    rows: Iterable[tuple[int, int, str, int, int]],
    judged: Callable[[int], set[int]],
    shuffle_for: str | None = None,
    question_ids: dict[int, str] | None = None,
) -> dict[int, tuple[int, str]]:
    """`pool --json`'s entries straight from the store's rows: rows are (question_pk,
    passage_pk, passage_id, systems, best_rank) in the pool's order (Runs.pool_in_order);
    judged(question_pk) gives J(q). Per question with unjudged passages: (how many, their
    JSON objects joined), shuffled for a reviewer as `ordered` does (question_ids names the
    questions then). No PoolEntry, dict or sort per passage: at 5,000 questions those were
    two thirds of the command."""
    out: dict[int, tuple[int, str]] = {}
    for question_pk, group in groupby(rows, key=itemgetter(0)):
        seen = judged(question_pk)
        texts = [
            _ENTRY % (encode_basestring(row[2]), row[3], row[4])
            for row in group
            if row[1] not in seen
        ]
        if texts:
            if shuffle_for is not None:
                shuffle(texts, shuffle_for, question_ids[question_pk])
            out[question_pk] = (len(texts), ", ".join(texts))
    return out


def json_parts(depth: int, listed: list[tuple[str, tuple[int, str] | None]]) -> Iterator[str]:
    """The `pool --json` object as text, in pieces to write one after another: `{"depth": D,
    "unjudged": N, "questions": [{"question": ..., "unjudged": [{"passage_id": ...,
    "systems": ..., "best_rank": ...}]}]}`; listed: (question id, entry_texts' value or None
    for no unjudged passage) per listed question. Written with json's own string escaping
    (what json.dumps(..., ensure_ascii=False) gives, byte for byte), never a whole copy."""
    total = sum(found[0] for _, found in listed if found)
    yield f'{{"depth": {int(depth)}, "unjudged": {total}, "questions": ['
    for n, (qid, found) in enumerate(listed):
        yield (", " if n else "") + _QUESTION % (encode_basestring(qid), found[1] if found else "")
    yield "]}"
