"""Ties at the cutoff (TREC runs, whose ranks come from scores): the lowest and highest value of
every measure over all orders of the tied passages, beside the trec_eval order."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby, permutations, product
from operator import itemgetter

from desktop.evaluation import metrics

# Beyond this many orders of the tied relevant passages of one list, only the orders that
# pack them by gain are tried, and the question is counted as inexact.
MAX_ORDERS = 40_320


@dataclass
class TieRange:
    """One system and measure: the mean in the stored (trec_eval) order and its lowest and
    highest value over every order of the tied passages; ``questions`` where they differ."""

    system: str
    metric: str
    value: float | None
    low: float | None
    high: float | None
    questions: int
    inexact: int = 0


def tie_extremes(
    items: Sequence[metrics.Item],
    ks: Sequence[int],
    ranked: Sequence[tuple[Hashable, float | None]],
) -> tuple[dict[str, float | None], dict[str, float | None], bool] | None:
    """(low, high, exact) of every measure at the K values ``ks`` for these evidence items,
    over every order of the passages that share a score in one stored ranked list of (passage,
    score); None when no order can change any of them. Most lists share no score at all
    (nothing to reorder): they are told apart before the items are prepared for scoring.
    Computed without trying every order: passages
    no evidence item owns are interchangeable, and for a given relative order of the evidence
    passages, packing them to the front of their tie groups gives every measure its highest
    value and packing them to the back its lowest (an earlier rank only raises the discount of
    the gain a passage credits, and never changes which item it credits). So only the orders
    of the evidence passages within each tie group that starts within the top K are tried."""
    scores = [score for _, score in ranked]
    if len(set(scores)) == len(scores):  # no two passages with the same score (or none)
        return None
    prep = metrics.Prepared(items, ks)
    owners = prep.owners
    groups, variable = _tie_groups(ranked, owners, prep.ks[-1])
    if not variable:
        return None
    relevant = {g: [p for p in groups[g] if p in owners] for g in variable}
    count = math.prod(math.factorial(len(r)) for r in relevant.values())
    exact = count <= MAX_ORDERS
    if exact:
        choices = [list(permutations(relevant[g])) for g in variable]
    else:
        gains = {p: max(prep.gain[i] for i in owners[p]) for r in relevant.values() for p in r}
        choices = [
            [
                tuple(sorted(relevant[g], key=gains.get, reverse=True)),
                tuple(sorted(relevant[g], key=gains.get)),
            ]
            for g in variable
        ]
    low, high = _extremes(prep, groups, variable, choices)
    if all(low[key] == high[key] for key in low):
        return None
    return low, high, exact


def _tie_groups(
    ranked: Sequence[tuple[Hashable, float | None]], owners, depth: int
) -> tuple[list[list[Hashable]], list[int]]:
    """The list's groups of passages sharing a score, up to the group that starts at depth, and
    the indexes of those whose order can change a measure (more than one passage, one owned)."""
    groups: list[list[Hashable]] = []
    variable: list[int] = []
    start = 0
    for score, group in groupby(ranked, key=itemgetter(1)):
        if start >= depth:
            break
        passages = [p for p, _ in group]
        start += len(passages)
        if score is None:  # no score: the order is the file's
            groups.extend([p] for p in passages)
            continue
        if len(passages) > 1 and any(p in owners for p in passages):
            variable.append(len(groups))
        groups.append(passages)
    return groups, variable


def _extremes(prep, groups, variable, choices) -> tuple[dict, dict]:
    """The lowest and highest value of every measure over the chosen orders of the owned
    passages of the variable groups, each packed to the front and to the back of its group."""
    owners = prep.owners
    others = {g: [p for p in groups[g] if p not in owners] for g in variable}
    low: dict[str, float | None] = {}
    high: dict[str, float | None] = {}
    for orders in product(*choices):
        chosen = dict(zip(variable, orders, strict=True))
        for front in (True, False):
            arranged: list[Hashable] = []
            for g, passages in enumerate(groups):
                if g in chosen:
                    rel, rest = list(chosen[g]), others[g]
                    arranged.extend(rel + rest if front else rest + rel)
                else:
                    arranged.extend(passages)
            for key, value in prep.score(arranged).items():
                if value is None:
                    low[key] = high[key] = None
                elif key not in low:
                    low[key] = high[key] = value
                elif value < low[key]:
                    low[key] = value
                elif value > high[key]:
                    high[key] = value
    return low, high


def tie_ranges(
    gold: dict[Hashable, Sequence[metrics.Item]],
    scored: Mapping[str, Mapping | Iterable[tuple[Hashable, list[tuple[Hashable, float | None]]]]],
    ks: Sequence[int],
    evaluation_means: dict[str, dict[str, float | None]],
    per_question: Mapping[str, Mapping[Hashable, Mapping[str, float | None]]],
) -> list[TieRange]:
    """Per TREC system and measure at every K: the mean in the stored order and the means of
    the per-question lowest and highest values over tie orders (each question's order is free
    on its own, so these are the extremes of the mean). ``scored`` holds per system its
    (passage, score) lists by question: a mapping, or (question, list) pairs in question
    order, read once (so that the store can stream them)."""
    n_evaluated = sum(1 for items in gold.values() if items)
    n_core = sum(1 for items in gold.values() if any(i.role == "core" for i in items))
    out = []
    for system, lists in scored.items():
        shift_low: dict[str, float] = {}
        shift_high: dict[str, float] = {}
        changed: dict[str, int] = {}
        inexact: dict[str, int] = {}
        for q, ranked in lists.items() if isinstance(lists, Mapping) else lists:
            items = gold.get(q)
            found = tie_extremes(items, ks, ranked) if items and ranked else None
            if found is None:
                continue
            low, high, exact = found
            stored = per_question[system][q]
            for key, lowest in low.items():
                if lowest is None or lowest == high[key]:
                    continue
                shift_low[key] = shift_low.get(key, 0.0) + lowest - stored[key]
                shift_high[key] = shift_high.get(key, 0.0) + high[key] - stored[key]
                changed[key] = changed.get(key, 0) + 1
                if not exact:
                    inexact[key] = inexact.get(key, 0) + 1
        for k in ks:
            for measure in metrics.MEASURES:
                key = metrics.label(measure, k)
                mean = evaluation_means[system].get(key)
                n = n_core if measure == "CoreRecall" else n_evaluated
                if mean is None or not n:
                    out.append(TieRange(system, key, None, None, None, 0))
                    continue
                out.append(
                    TieRange(
                        system,
                        key,
                        mean,
                        mean + shift_low.get(key, 0.0) / n,
                        mean + shift_high.get(key, 0.0) / n,
                        changed.get(key, 0),
                        inexact.get(key, 0),
                    )
                )
    return out
