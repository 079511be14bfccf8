"""The disagreement queue's order (issue 22): a question whose open disagreements split more
reviewers, and would move the metrics more, comes first. A disputed item moves the comparison
when the systems differ on it at the K shown (one finds it, another misses it), and moves the
core measures when it is, or may become, a core item."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence

from desktop.gold.effective import DISPUTED, Decision, GoldItem
from desktop.review.scores import Entry


def differ_at(items: Sequence[GoldItem], entries: Iterable[Entry | None], k: int) -> list[str]:
    """The passage ids of the items one system finds at K and another does not."""
    found: dict[int, set[bool]] = {}
    for entry in entries:
        if entry is not None:
            for i, r in enumerate(entry.first):
                found.setdefault(i, set()).add(r is not None and r <= k)
    return [item.primary_id for i, item in enumerate(items) if len(found.get(i, ())) == 2]


def _splitting(votes: dict) -> int:
    """How many reviewers disagree with the most common value (1 in a one-to-one split)."""
    if len(votes) < 2:
        return 0
    counts = Counter(repr(v) for v in votes.values())
    return len(votes) - max(counts.values())


def dispute_rank(
    decisions: Sequence[Decision],
    conflicts: Sequence[Decision],
    items: Sequence[GoldItem],
    differ: Collection[str] = (),
) -> tuple[int, int, int]:
    """(most reviewers split on one disagreement, how much the disagreements move the
    metrics, how many there are): larger first. The move counts 3 for a core item the systems
    differ on, 2 for another item they differ on, 1 for a core item they agree on."""
    core = {item.primary_id for item in items if item.role == "core"}
    split = moves = count = 0
    for d in [*(d for d in decisions if d.status == DISPUTED), *conflicts]:
        count += 1
        split = max(split, _splitting(d.votes))
        is_core = d.passage_id in core or "core" in d.votes.values()
        moving = d.passage_id in differ
        moves = max(moves, 3 if is_core and moving else 2 if moving else int(is_core))
    return split, moves, count
