"""Recall@K, CoreRecall@K, Hit@K, MRR@K and nDCG@K exactly as design section 3 defines them.

Pure functions over plain data: an evidence item is a role and a set of passage keys (its
primary and its alternatives); a ranked list is a sequence of passage keys with repeats already
dropped. Keys can be anything hashable (the store hands over integer passage keys).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

GAIN = {"core": 2, "supporting": 1, None: 1}
MEASURES = ("Recall", "CoreRecall", "Hit", "MRR", "nDCG")
MIN_K, MAX_K = 1, 1000


@dataclass(frozen=True)
class Item:
    """One evidence item: its primary passage, role (None: not assigned) and all passages that
    count as finding it (primary plus alternatives)."""

    primary: Hashable
    role: str | None
    passages: frozenset

    @property
    def gain(self) -> int:
        return GAIN[self.role]


def label(measure: str, k: int) -> str:
    return f"{measure}@{k}"


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

    __slots__ = ("items", "ks", "owners", "n_items", "n_core", "gain", "is_core", "idcg")

    def __init__(self, items: Sequence[Item], ks: Sequence[int]):
        self.items = items
        self.ks = sorted(ks)
        self.owners: dict[Hashable, list[int]] = {}
        for index, item in enumerate(items):
            for passage in item.passages:
                self.owners.setdefault(passage, []).append(index)
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

    def score(self, ranked: Sequence[Hashable]) -> dict[str, float | None]:
        owners, gain, is_core = self.owners, self.gain, self.is_core
        found = [False] * self.n_items
        credited = [False] * self.n_items
        n_found = n_core_found = first_hit = 0
        dcg = 0.0
        out: dict[str, float | None] = {}
        ks = self.ks
        k_index = 0
        for rank in range(1, ks[-1] + 1):
            hit_items = owners.get(ranked[rank - 1]) if rank <= len(ranked) else None
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
                out[f"Recall@{rank}"] = n_found / self.n_items
                out[f"CoreRecall@{rank}"] = n_core_found / self.n_core if self.n_core else None
                out[f"Hit@{rank}"] = 1.0 if n_found else 0.0
                out[f"MRR@{rank}"] = 1.0 / first_hit if first_hit else 0.0
                out[f"nDCG@{rank}"] = dcg / self.idcg[rank]
                k_index += 1
        return out


def score_question(
    items: Sequence[Item], ranked: Sequence[Hashable], ks: Sequence[int]
) -> dict[str, float | None]:
    """Every measure at every K for one question. CoreRecall is None when the question has no
    core item (it is then left out of that mean). ``items`` must not be empty."""
    return Prepared(items, ks).score(ranked)


def recall_curve(items: Sequence[Item], ranked: Sequence[Hashable], depth: int) -> list[float]:
    """Recall@1..depth for one question."""
    owners: dict[Hashable, list[int]] = {}
    for index, item in enumerate(items):
        for passage in item.passages:
            owners.setdefault(passage, []).append(index)
    found: set[int] = set()
    curve = []
    for rank in range(1, depth + 1):
        if rank <= len(ranked):
            found.update(owners.get(ranked[rank - 1], ()))
        curve.append(len(found) / len(items))
    return curve


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
    owners: dict[Hashable, list[int]] = {}
    for index, item in enumerate(items):
        for passage in item.passages:
            owners.setdefault(passage, []).append(index)
    matches = [ItemMatch(item, None, None, False) for item in items]
    per_rank: list[list[int]] = []
    for rank, passage in enumerate(ranked, 1):
        hit = owners.get(passage, [])
        per_rank.append(hit)
        for index in hit:
            if matches[index].rank is None:
                matches[index].rank = rank
                matches[index].via = passage
                matches[index].through_alternative = passage != items[index].primary
    return matches, per_rank


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
) -> list[SystemScores]:
    """Mean of every measure over the questions with at least one evidence item; a question
    missing from a run scores 0 there (trec_eval -c). CoreRecall averages over questions with a
    core item only."""
    ks = sorted(ks)
    prepared = {q: Prepared(items, ks) for q, items in gold.items() if items}
    labels = [label(m, k) for k in ks for m in MEASURES]
    n = len(prepared)
    out = []
    empty: tuple = ()
    for system, lists in runs.items():
        totals = dict.fromkeys(labels, 0.0)
        core_n = 0
        per_q: dict[Hashable, dict[str, float | None]] = {}
        for q, prep in prepared.items():
            scores = prep.score(lists.get(q, empty))
            per_q[q] = scores
            if prep.n_core:
                core_n += 1
            for key, value in scores.items():
                if value is not None:
                    totals[key] += value
        means: dict[str, float | None] = {}
        for key in labels:
            if key.startswith("CoreRecall@"):
                means[key] = totals[key] / core_n if core_n else None
            else:
                means[key] = totals[key] / n if n else None
        out.append(SystemScores(system, n, means, core_n, per_q))
    return out
