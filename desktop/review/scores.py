"""Every system's scores at the window's K values, kept current question by question."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from desktop.evaluation import compare
from desktop.evaluation.metrics import (
    ALL_MEASURES,
    Item,
    Means,
    Prepared,
    found_mask,
    labels,
    unsettled,
)

WINDOW_KS = (5, 10)  # the seed reports Recall@5 and Recall@10 side by side


def labels_for(ks: Sequence[int]) -> list[str]:
    """The window scores every measure, P@K and Judged@K included (J(q) is always known)."""
    return labels(ks, ALL_MEASURES)


@dataclass(slots=True)  # 50,000 of them at the reference size: no __dict__ each
class Entry:
    """One system on one question: where each evidence item is first found (None: never, in
    the whole stored list) and every measure at the board's K values (None: not defined)."""

    first: tuple[int | None, ...]
    values: tuple[float | None, ...]


def score_entry(prepared: Prepared, hits: Sequence[tuple[int, int]], length: int) -> Entry:
    """hits: (rank, passage_pk) of the ranked passages that belong to some evidence item or
    are judged (in J(q)), in rank order; length: how long the whole list is. Every other rank
    is a passage neither owned nor judged, so a list of holes of that length with the hits in
    place scores exactly as the full list does. ``prepared`` must carry J(q)."""
    depth = prepared.ks[-1]
    sparse: list[int | None] = [None] * min(depth, length)
    for rank, passage in hits:
        if rank > depth:
            break
        sparse[rank - 1] = passage
    first, _ = prepared.first_ranks(hits)
    scores = prepared.score(sparse)
    values = tuple(_shared(scores[label]) for label in labels_for(prepared.ks))
    return Entry(_shared_tuple(tuple(first), _FIRSTS), _shared_tuple(values, _VALUES))


# One float object per distinct value across the board's entries: most values are a few small
# fractions (0, 1, 1/2, 2/10 ...), and ten systems of 5,000 questions hold 700,000 of them.
_SHARED: dict[float, float] = {}
_SHARED_MAX = 1 << 16  # beyond this (nDCG's many values) a value keeps its own object


# The same for whole tuples: most entries' first ranks and values recur across questions and
# systems (all found at rank 1, none found...), and a board of 50,000 entries held 12 MB.
# Ranks and values apart: (1, 2) == (1.0, 2.0), and a rank must stay an int.
_FIRSTS: dict[tuple, tuple] = {}
_VALUES: dict[tuple, tuple] = {}


def _shared_tuple(values: tuple, kept: dict[tuple, tuple]) -> tuple:
    found = kept.get(values)
    if found is not None:
        return found
    if len(kept) < _SHARED_MAX:
        kept[values] = values
    return values


def _shared(value: float | None) -> float | None:
    if value is None:
        return None
    found = _SHARED.get(value)
    if found is not None:
        return found
    if len(_SHARED) < _SHARED_MAX:
        _SHARED[value] = value
    return value


class Scoreboard:
    """Every system's per-question scores at the window's K values, held as running sums
    (metrics.Means), so that a judgement on one question moves the means and the Recall@K
    curve without a pass over every question. Questions without evidence have no entry (they
    are reported apart)."""

    def __init__(
        self, systems: Sequence[str], ks: Sequence[int], depth: int, extra: Sequence[str] = ()
    ):
        """extra: the span rule's labels after the id rule's (review.spanned), when some run
        has spans; every entry's values then cover them."""
        self.systems = list(systems)
        self.ks = sorted(ks)
        self.labels = labels_for(self.ks) + list(extra)
        self.depth = max(1, depth)
        self.entries: dict[str, dict[int, Entry]] = {s: {} for s in self.systems}
        self._means = {s: Means(self.ks, self.depth, ALL_MEASURES, extra) for s in self.systems}

    def set(self, system: str, question_pk: int, entry: Entry | None) -> None:
        entries, means = self.entries[system], self._means[system]
        old = entries.pop(question_pk, None)
        if old is not None:
            means.remove(old.values, old.first)
        if entry is not None:
            entries[question_pk] = entry
            means.add(entry.values, entry.first)

    def evaluated(self, system: str | None = None) -> int:
        system = system or (self.systems[0] if self.systems else None)
        return len(self.entries.get(system, {})) if system else 0

    def means(self, system: str) -> dict[str, float | None]:
        return self._means[system].means()

    def curve(self, system: str) -> list[float]:
        return self._means[system].curve()

    def unsettled(self) -> list[tuple[str, int, float]]:
        """(system, K, Judged@K) where too little of the top K is judged (metrics.unsettled)."""
        shown = [s for s in self.systems if self.entries[s]]
        return unsettled({s: self.means(s) for s in shown}, self.ks)

    def found(self, system: str, question_pk: int, k: int) -> tuple[int, int] | None:
        """(items found in the top k, items) for the question list; None without evidence."""
        entry = self.entries.get(system, {}).get(question_pk)
        if entry is None:
            return None
        return found_mask(entry.first, k).bit_count(), len(entry.first)

    def only_found(self, question_pk: int, k: int) -> dict[str, set[int]]:
        """Per system, the evidence items (by index) of the question that it alone finds in
        its top k among all systems: the rule of evaluation.compare, from the board's ranks."""
        entries = [self.entries[s].get(question_pk) for s in self.systems]
        masks = [found_mask(e.first, k) if e else 0 for e in entries]
        return {
            system: {i for i in range(alone.bit_length()) if alone >> i & 1}
            for system, alone in zip(self.systems, compare.alone_masks(masks), strict=True)
            if alone
        }


def entries_for(
    items: Sequence[Item],
    ks: Sequence[int],
    ranked: dict[str, Sequence[int]],
    judged: Collection[int],
) -> dict[str, Entry]:
    """Every system's entry for one question from its whole ranked lists and J(q)."""
    prepared = Prepared(items, ks, judged)
    out = {}
    for system, passages in ranked.items():
        hits = [
            (rank, p) for rank, p in enumerate(passages, 1) if p in prepared.owners or p in judged
        ]
        out[system] = score_entry(prepared, hits, len(passages))
    return out
