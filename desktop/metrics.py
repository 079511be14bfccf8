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
    if not values or any(k < 1 for k in values):
        raise ValueError("every K must be 1 or more")
    return sorted(set(values))


def score_question(
    items: Sequence[Item], ranked: Sequence[Hashable], ks: Sequence[int]
) -> dict[str, float | None]:
    """Every measure at every K for one question. CoreRecall is None when the question has no
    core item (it is then left out of that mean). ``items`` must not be empty."""
    ks = sorted(ks)
    depth = ks[-1]
    owners: dict[Hashable, list[int]] = {}
    for index, item in enumerate(items):
        for passage in item.passages:
            owners.setdefault(passage, []).append(index)
    n_items = len(items)
    n_core = sum(1 for item in items if item.role == "core")
    gains = sorted((item.gain for item in items), reverse=True)

    found = [False] * n_items
    credited = [False] * n_items
    n_found = n_core_found = 0
    first_hit = 0
    dcg = 0.0
    out: dict[str, float | None] = {}
    want = iter(ks)
    next_k = next(want)
    idcg_running = 0.0
    idcg_at: dict[int, float] = {}
    for i in range(1, depth + 1):
        if i <= len(gains):
            idcg_running += gains[i - 1] / math.log2(i + 1)
        idcg_at[i] = idcg_running
    for rank in range(1, depth + 1):
        if rank <= len(ranked):
            hit_items = owners.get(ranked[rank - 1])
            if hit_items:
                if not first_hit:
                    first_hit = rank
                best = -1
                for index in hit_items:
                    if not found[index]:
                        found[index] = True
                        n_found += 1
                        if items[index].role == "core":
                            n_core_found += 1
                    if not credited[index] and (best < 0 or items[index].gain > items[best].gain):
                        best = index
                if best >= 0:
                    credited[best] = True
                    dcg += items[best].gain / math.log2(rank + 1)
        while rank == next_k:
            out[f"Recall@{rank}"] = n_found / n_items
            out[f"CoreRecall@{rank}"] = n_core_found / n_core if n_core else None
            out[f"Hit@{rank}"] = 1.0 if n_found else 0.0
            out[f"MRR@{rank}"] = 1.0 / first_hit if first_hit else 0.0
            out[f"nDCG@{rank}"] = dcg / idcg_at[rank]
            next_k = next(want, None)
    return out


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
    evaluated = {q: items for q, items in gold.items() if items}
    labels = [label(m, k) for k in ks for m in MEASURES]
    out = []
    empty: tuple = ()
    for system, lists in runs.items():
        totals = dict.fromkeys(labels, 0.0)
        core_n = 0
        per_q: dict[Hashable, dict[str, float | None]] = {}
        for q, items in evaluated.items():
            scores = score_question(items, lists.get(q, empty), ks)
            per_q[q] = scores
            has_core = scores[f"CoreRecall@{ks[0]}"] is not None
            core_n += has_core
            for key, value in scores.items():
                if value is not None:
                    totals[key] += value
        n = len(evaluated)
        means = {}
        for key in labels:
            if key.startswith("CoreRecall@"):
                means[key] = totals[key] / core_n if core_n else None
            else:
                means[key] = totals[key] / n if n else None
        out.append(SystemScores(system, n, means, core_n, per_q))
    return out
