"""The review status of a question (one rule for the window and the report) and the question
list's summary line."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from desktop.gold import effective as gold
from desktop.gold.effective import DISPUTED, Decision, EffectiveGold, line_order
from desktop.review.disputes import dispute_rank
from desktop.review.scores import Entry

UNTOUCHED, IN_PROGRESS, DONE = "untouched", "in_progress", "done"
STATUSES = (UNTOUCHED, IN_PROGRESS, DONE)
ROLE_KINDS = ("role", "evidence")  # lines that give an item its role: 1/2, or E/R adding it


@dataclass
class Summary:
    """One line of the question list."""

    pk: int
    id: str
    text: str
    answerable: bool  # in force
    items: int  # evidence items
    status: str  # UNTOUCHED, IN_PROGRESS or DONE for this reviewer
    disputed: int  # open disagreements (0 in blind mode: they are not shown)
    single: int = 0  # judgements in force that one reviewer alone made
    unjudged: int = -1  # passages of its pool not judged yet (-1: not counted yet)
    dispute_rank: tuple = (0, 0, 0)  # the disagreement queue's order (review/disputes.py)


def review_status(
    rows: Iterable[dict],
    items: Sequence[gold.GoldItem],
    reviewer: str | None = None,
    open_decisions: int = 0,
    missed: Collection[str] | None = None,
) -> str:
    """The one rule for a question's review status, used by the window (one reviewer's own
    progress: pass ``reviewer``) and by the report (the team's: ``reviewer=None`` and the
    question's open, that is pending or disputed, decisions).

    Untouched until a line is written on the question. Done once its answerability is set
    (Y or B, or adjudicated), every evidence item missed at K has a role given in a line (1 or
    2, added with E or R, or adjudicated: an imported role alone is not a review), every item
    has a role in force and nothing is left open; else in progress. ``missed``: the passage
    ids of the items some system misses at the K shown (missed_at); None where no K is shown
    (the report): every item."""
    # A machine's lines review nothing (design 6): only people's lines make a status.
    mine = [
        r
        for r in gold.as_counted(rows)
        if not r.get("machine") and (reviewer is None or r["reviewer"] == reviewer)
    ]
    if not mine:
        return UNTOUCHED
    answerable: object = None
    for r in sorted(mine, key=line_order):
        if r["kind"] == "answerable" or (
            r["kind"] == "adjudication" and r.get("settles") == "answerable"
        ):
            answerable = json.loads(r["value"])
    given = {
        r["passage_id"]
        for r in mine
        if r["kind"] in ROLE_KINDS
        or (r["kind"] == "adjudication" and r.get("settles") in ROLE_KINDS)
    }
    wanted = [item.primary_id for item in items] if missed is None else missed
    if answerable is None or open_decisions or any(item.role is None for item in items):
        return IN_PROGRESS
    return DONE if all(passage in given for passage in wanted) else IN_PROGRESS


def missed_at(items: Sequence[gold.GoldItem], entries: Iterable[Entry | None], k: int) -> list[str]:
    """The passage ids of the question's items that some system misses at K (its entry's
    first rank beyond K, or none), in item order; entries: each system's (None: no list)."""
    missed: set[int] = set()
    for entry in entries:
        if entry is not None:
            missed.update(i for i, r in enumerate(entry.first) if r is None or r > k)
    return [item.primary_id for i, item in enumerate(items) if i in missed]


def summarize(
    question: dict,
    built: EffectiveGold,
    rows: Sequence[dict],
    reviewer: str,
    blind: bool,
    decisions: Sequence[Decision] | None = None,
    missed: Collection[str] | None = None,
    differ: Collection[str] = (),
) -> Summary:
    """decisions: the question's own (all of built.decisions are searched when not given);
    missed: as review_status takes it; differ: the items systems differ on (disputes.differ_at)."""
    pk = question["pk"]
    items = built.items.get(pk, [])
    if decisions is None:
        decisions = [d for d in built.decisions if d.question_id == question["id"]]
    summary = Summary(
        pk,
        question["id"],
        question["text"],
        built.answerable.get(pk, bool(question["answerable"])),
        len(items),
        review_status(rows, items, reviewer, missed=missed),
        0 if blind else _disputed(question["id"], built, decisions),
        sum(1 for d in decisions if d.status == gold.SINGLE),
    )
    if summary.disputed:
        conflicts = [c for c in built.conflicts if c.question_id == question["id"]]
        summary.dispute_rank = dispute_rank(decisions, conflicts, items, differ)
    return summary


def _disputed(question_id: str, built: EffectiveGold, decisions: Sequence[Decision]) -> int:
    """Open disagreements: disputed decisions, and passages added by one reviewer that
    another judges not evidence."""
    conflicts = sum(1 for c in built.conflicts if c.question_id == question_id)
    return sum(1 for d in decisions if d.status == DISPUTED) + conflicts
