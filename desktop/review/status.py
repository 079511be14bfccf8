"""The review status of a question (one rule for the window and the report) and the question
list's summary line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from desktop import gold
from desktop.gold import DISPUTED, Decision, EffectiveGold, instant

UNTOUCHED, IN_PROGRESS, DONE = "untouched", "in_progress", "done"
STATUSES = (UNTOUCHED, IN_PROGRESS, DONE)


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


def review_status(
    rows: Iterable[dict],
    items: Sequence[gold.GoldItem],
    reviewer: str | None = None,
    open_decisions: int = 0,
) -> str:
    """The one rule for a question's review status, used by the window (one reviewer's own
    progress: pass ``reviewer``) and by the report (the team's: ``reviewer=None`` and the
    question's open, that is pending or disputed, decisions).

    Untouched until a line is written on the question; done once its answerability is settled
    (Y or B), every evidence item has a role in force and nothing is left open; else in
    progress."""
    mine = [r for r in rows if reviewer is None or r["reviewer"] == reviewer]
    if not mine:
        return UNTOUCHED
    answerable: object = None
    for r in sorted(mine, key=lambda r: (instant(r["at"]), r.get("pk") or 0)):
        if r["kind"] == "answerable" or (
            r["kind"] == "adjudication" and r.get("settles") == "answerable"
        ):
            answerable = json.loads(r["value"])
    if answerable is None or open_decisions or any(item.role is None for item in items):
        return IN_PROGRESS
    return DONE


def summarize(
    question: dict,
    built: EffectiveGold,
    rows: Sequence[dict],
    reviewer: str,
    blind: bool,
    decisions: Sequence[Decision] | None = None,
) -> Summary:
    """decisions: the question's own (all of built.decisions are searched when not given)."""
    pk = question["pk"]
    items = built.items.get(pk, [])
    if decisions is None:
        decisions = [d for d in built.decisions if d.question_id == question["id"]]
    return Summary(
        pk,
        question["id"],
        question["text"],
        built.answerable.get(pk, bool(question["answerable"])),
        len(items),
        review_status(rows, items, reviewer),
        0 if blind else _disputed(question["id"], built, decisions),
        sum(1 for d in decisions if d.status == gold.SINGLE),
    )


def _disputed(question_id: str, built: EffectiveGold, decisions: Sequence[Decision]) -> int:
    """Open disagreements: disputed decisions, and passages added by one reviewer that
    another judges not evidence."""
    conflicts = sum(1 for c in built.conflicts if c.question_id == question_id)
    return sum(1 for d in decisions if d.status == DISPUTED) + conflicts
