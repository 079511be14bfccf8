"""Recall@K, CoreRecall@K, Hit@K, MRR@K and nDCG@K exactly as design section 3 defines them,
and P@K and Judged@K (issue 13) where the judged passages J(q) are known.

Pure functions over plain data: an evidence item is a role and a set of passage keys (its
primary and its alternatives); a ranked list is a sequence of passage keys with repeats already
dropped. Keys can be anything hashable (the store hands over integer passage keys).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

GAIN = {"core": 2, "supporting": 1, None: 1}
MEASURES = ("Recall", "CoreRecall", "Hit", "MRR", "nDCG")
# P@K = |TopK ∩ evidence passages| / K (trec_eval's P_K) and Judged@K = |TopK ∩ J(q)| / |TopK|
# (ir_measures' Judged@k). They need the whole ranked list and J(q), so they are scored only
# where both are given (the command line and the report), not from a list of hits.
POOL_MEASURES = ("P", "Judged")
ALL_MEASURES = MEASURES + POOL_MEASURES
JUDGED_ENOUGH = 0.8  # under this Judged@K a system's numbers may still move
MIN_K, MAX_K = 1, 1000


@dataclass(frozen=True)
class Item:
    """One evidence item: its primary passage, role (None: not assigned) and all passages that
    count as finding it (primary plus alternatives)."""

    primary: Hashable
    role: str | None
    passages: frozenset
    # Spans given directly (design section 10): an item given as a span (its primary is
    # then not one of its passages) and alternatives given as spans; the span rule only.
    spans: tuple = ()

    @property
    def gain(self) -> int:
        return GAIN[self.role]

    @property
    def given_as_span(self) -> bool:
        """An item given as a span (design section 10) has no passage of its own: found by
        coverage on every run, the gold's own chunking included."""
        return self.primary not in self.passages


def label(measure: str, k: int) -> str:
    return f"{measure}@{k}"


@lru_cache(maxsize=64)
def _labels(ks: tuple[int, ...], measures: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(label(m, k) for k in ks for m in measures)


def labels(ks: Sequence[int], measures: Sequence[str] = MEASURES) -> list[str]:
    """Every measure at every K, K by K, in the order scores and means are kept."""
    return list(_labels(tuple(ks), tuple(measures)))


def passage_owners(items: Sequence[Item]) -> dict[Hashable, list[int]]:
    """The passage-to-item index: for each passage, the evidence items (by position) it finds."""
    owners: dict[Hashable, list[int]] = {}
    for index, item in enumerate(items):
        for passage in item.passages:
            owners.setdefault(passage, []).append(index)
    return owners


def first_ranks(
    owners: Mapping[Hashable, Sequence[int]],
    n_items: int,
    ranked: Iterable[tuple[int, Hashable]],
) -> tuple[list[int | None], list]:
    """Per evidence item the first rank where any of its passages appears (None: never) and the
    passage found there. ``ranked`` is (rank, passage) in rank order: a whole list
    (``enumerate(passages, 1)``) or only the ranks that hit some item."""
    first: list[int | None] = [None] * n_items
    via: list = [None] * n_items
    left = n_items
    for rank, passage in ranked:
        hit = owners.get(passage)
        if hit:
            for index in hit:
                if first[index] is None:
                    first[index] = rank
                    via[index] = passage
                    left -= 1
            if not left:
                break
    return first, via


def found_mask(first: Sequence[int | None], k: int) -> int:
    """The items found within the top k, as bits (item i: 1 << i), from each item's first rank
    (None: never found). The one rule of "found at K" for masks, counts and "only it finds"."""
    mask = 0
    for index, rank in enumerate(first):
        if rank is not None and rank <= k:
            mask |= 1 << index
    return mask


def unsettled(
    means: Mapping[str, Mapping[str, float | None]], ks: Sequence[int]
) -> list[tuple[str, int, float]]:
    """(system, K, Judged@K) wherever a system's mean Judged@K is under JUDGED_ENOUGH: too
    little of what it retrieved is judged, so its numbers may still move as the pool is."""
    return [
        (system, k, these.get(label("Judged", k)))
        for system, these in means.items()
        for k in ks
        # None: not defined for this run (one on another chunking than the gold's)
        if these.get(label("Judged", k)) is not None and these[label("Judged", k)] < JUDGED_ENOUGH
    ]


def unsettled_by_system(shown: Sequence[tuple[str, int, float]]) -> dict[str, list[str]]:
    """unsettled()'s rows grouped by system, in their order: system -> ["Judged@5 0.26", …]
    (the one wording of the command line's note, the window's and the report's)."""
    grouped: dict[str, list[str]] = {}
    for system, k, value in shown:
        grouped.setdefault(system, []).append(f"Judged@{k} {value:.2f}")
    return grouped


def core_note(evaluated: int, core_evaluated: int) -> str | None:
    """One line saying why CoreRecall is '-' when no evaluated question has a core evidence
    item, or None. metrics prints it, --json carries it as core_note and the report's Summary
    shows it in place of its CoreRecall line: one sentence, one place."""
    if not evaluated or core_evaluated:
        return None
    return (
        f"CoreRecall is '-': none of the {evaluated} evaluated questions has a core "
        "evidence item (qrels level 1 means supporting); mark core items in review, or "
        "import the gold again with --levels 1=core if level 1 means core there"
    )


def parse_ks(text: str | Iterable[int]) -> list[int]:
    if isinstance(text, str):
        parts = [p for p in text.replace(" ", "").split(",") if p]
        try:
            values = [int(p) for p in parts]
        except ValueError:
            raise ValueError(f"K must be whole numbers separated by commas, not {text!r}") from None
    else:
        values = list(text)
    if not values:
        raise ValueError("name at least one K, for example 5,10")
    wrong = [k for k in values if not MIN_K <= k <= MAX_K]
    if wrong:
        # A bound, not a taste: the metrics keep a value per rank up to the largest K.
        raise ValueError(f"every K must be from {MIN_K} to {MAX_K}, not {wrong[0]}")
    return sorted(set(values))


class Prepared:
    """What scoring one question needs that does not depend on the ranked list: computed once
    per question and reused for every system."""

    __slots__ = (
        "items",
        "ks",
        "owners",
        "n_items",
        "n_core",
        "gain",
        "is_core",
        "idcg",
        "judged",
    )

    def __init__(self, items: Sequence[Item], ks: Sequence[int], judged=None):
        """judged: J(q), the passages judged for this question; given, P@K and Judged@K are
        scored too (the ranked list must then be whole, not a list of hits)."""
        self.items = items
        self.judged = judged
        self.ks = sorted(ks)
        self.owners = passage_owners(items)
        self.n_items = len(items)
        self.gain = [item.gain for item in items]
        self.is_core = [item.role == "core" for item in items]
        self.n_core = sum(self.is_core)
        ideal = sorted(self.gain, reverse=True)
        running, self.idcg = 0.0, {}
        for i in range(1, self.ks[-1] + 1):
            if i <= len(ideal):
                running += ideal[i - 1] / math.log2(i + 1)
            self.idcg[i] = running

    def first_ranks(self, ranked: Iterable[tuple[int, Hashable]]) -> tuple[list, list]:
        return first_ranks(self.owners, self.n_items, ranked)

    def score(self, ranked: Sequence[Hashable]) -> dict[str, float | None]:
        owners, gain, is_core = self.owners, self.gain, self.is_core
        found = [False] * self.n_items
        credited = [False] * self.n_items
        n_found = n_core_found = first_hit = n_relevant = n_judged = 0
        judged = self.judged
        dcg = 0.0
        out: dict[str, float | None] = {}
        ks = self.ks
        k_index = 0
        for rank in range(1, ks[-1] + 1):
            hit_items = owners.get(ranked[rank - 1]) if rank <= len(ranked) else None
            if judged is not None and rank <= len(ranked):
                n_relevant += bool(hit_items)
                n_judged += ranked[rank - 1] in judged
            if hit_items:
                if not first_hit:
                    first_hit = rank
                best = -1
                for index in hit_items:
                    if not found[index]:
                        found[index] = True
                        n_found += 1
                        n_core_found += is_core[index]
                    if not credited[index] and (best < 0 or gain[index] > gain[best]):
                        best = index
                if best >= 0:
                    credited[best] = True
                    dcg += gain[best] / math.log2(rank + 1)
            while k_index < len(ks) and rank == ks[k_index]:
                # the labels made once per K (ALL_MEASURES' order), not formatted per question
                recall, core, hit, mrr, ndcg, p, judged_at = _labels((rank,), ALL_MEASURES)
                out[recall] = n_found / self.n_items
                out[core] = n_core_found / self.n_core if self.n_core else None
                out[hit] = 1.0 if n_found else 0.0
                out[mrr] = 1.0 / first_hit if first_hit else 0.0
                out[ndcg] = dcg / self.idcg[rank]
                if judged is not None:
                    top = min(rank, len(ranked))
                    out[p] = n_relevant / rank
                    out[judged_at] = n_judged / top if top else 0.0
                k_index += 1
        return out


def score_question(
    items: Sequence[Item], ranked: Sequence[Hashable], ks: Sequence[int]
) -> dict[str, float | None]:
    """Every measure at every K for one question. CoreRecall is None when the question has no
    core item (it is then left out of that mean). ``items`` must not be empty."""
    return Prepared(items, ks).score(ranked)


@dataclass
class ItemMatch:
    """Where a ranked list finds one evidence item: first rank of any of its passages (None:
    never), whether that was the primary, and the passage found there."""

    item: Item
    rank: int | None
    via: Hashable | None
    through_alternative: bool


def match(
    items: Sequence[Item], ranked: Sequence[Hashable]
) -> tuple[list[ItemMatch], list[list[int]]]:
    """For the window: per item where it is first found, and per rank the items it hits."""
    owners = passage_owners(items)
    first, via = first_ranks(owners, len(items), enumerate(ranked, 1))
    matches = [
        ItemMatch(item, rank, passage, rank is not None and passage != item.primary)
        for item, rank, passage in zip(items, first, via, strict=True)
    ]
    return matches, [owners.get(passage, []) for passage in ranked]


class Means:
    """The one place means are taken: running sums over questions of every measure at every K
    and of the Recall@1..depth curve. CoreRecall@K is None for a question without a core
    item and averages over the questions that have one; every other measure averages over
    every question added. A question can be removed again, so that the window moves the
    means when one question changes without a pass over all of them."""

    __slots__ = ("ks", "labels", "depth", "questions", "_sums", "_counts", "_steps")

    def __init__(
        self, ks: Sequence[int] = (), depth: int = 0, measures=MEASURES, extra: Sequence[str] = ()
    ):
        """extra: labels averaged after the measures at K (the span rule's, spans.labels)."""
        self.ks = sorted(ks)
        self.labels = labels(self.ks, measures) + list(extra)
        self.depth = depth
        self.questions = 0
        self._sums = array("d", [0.0] * len(self.labels))
        self._counts = array("l", [0] * len(self.labels))
        # The curve as increments at the rank where each item is first found (1/|G| each);
        # Recall@d is their running sum, over the questions.
        self._steps = array("d", [0.0] * depth)

    def add(
        self, values: Sequence[float | None], first: Sequence[int | None] = (), sign: int = 1
    ) -> None:
        """One question: its ``values`` in ``labels`` order and the first rank of each of its
        items (for the curve); ``sign=-1`` takes it out again."""
        self.questions += sign
        sums, counts = self._sums, self._counts
        for i, value in enumerate(values):
            if value is not None:
                sums[i] += sign * value
                counts[i] += sign
        if first and self.depth:
            share = sign / len(first)
            steps, depth = self._steps, self.depth
            for rank in first:
                if rank is not None and rank <= depth:
                    steps[rank - 1] += share

    def remove(self, values: Sequence[float | None], first: Sequence[int | None] = ()) -> None:
        self.add(values, first, -1)

    def count(self, label_: str) -> int:
        """Questions averaged into this label's mean."""
        return self._counts[self.labels.index(label_)]

    def means(self) -> dict[str, float | None]:
        sums, counts = self._sums, self._counts
        return {
            name: (sums[i] / counts[i] if counts[i] else None) for i, name in enumerate(self.labels)
        }

    def curve(self) -> list[float]:
        n = self.questions
        running, out = 0.0, []
        for step in self._steps:
            running += step
            out.append(running / n if n else 0.0)
        return out


@dataclass
class SystemScores:
    system: str
    evaluated: int
    means: dict[str, float]
    core_evaluated: int
    per_question: dict[Hashable, dict[str, float | None]] = field(default_factory=dict)


def evaluate(
    gold: Mapping[Hashable, Sequence[Item]],
    runs: Mapping[str, Mapping[Hashable, Sequence[Hashable]]],
    ks: Sequence[int],
    judged: Mapping[Hashable, set] | None = None,
) -> list[SystemScores]:
    """Mean of every measure over the questions with at least one evidence item; a question
    missing from a run scores 0 there (trec_eval -c). CoreRecall averages over questions with a
    core item only. With judged (question -> J(q)) P@K and Judged@K are scored too."""
    ks = sorted(ks)
    measures = MEASURES if judged is None else ALL_MEASURES
    prepared = {
        q: Prepared(items, ks, None if judged is None else judged.get(q, frozenset()))
        for q, items in gold.items()
        if items
    }
    names = labels(ks, measures)
    out = []
    empty: tuple = ()
    for system, lists in runs.items():
        means = Means(ks, measures=measures)
        per_q: dict[Hashable, dict[str, float | None]] = {}
        for q, prep in prepared.items():
            scores = prep.score(lists.get(q, empty))
            per_q[q] = scores
            means.add([scores[name] for name in names])
        core_n = means.count(label("CoreRecall", ks[0])) if ks else 0
        out.append(SystemScores(system, len(prepared), means.means(), core_n, per_q))
    return out


def recall_curves(
    gold: Mapping[Hashable, Sequence[Item]],
    runs: Mapping[str, Mapping[Hashable, Sequence[Hashable]]],
    depth: int,
) -> dict[str, list[float]]:
    """Mean Recall@1..depth per system over the questions with at least one evidence item."""
    owners = {q: passage_owners(items) for q, items in gold.items() if items}
    out = {}
    for system, lists in runs.items():
        means = Means(depth=depth)
        for q, index in owners.items():
            ranked = lists.get(q, ())
            first, _ = first_ranks(index, len(gold[q]), enumerate(ranked[:depth], 1))
            means.add((), first)
        out[system] = means.curve()
    return out
