"""The unjudged pool as the window shows it (issue 13): one question's, from the gold that
question's view was built from (so blind mode judges by the reviewer's own lines), and every
question's count for the question list, from the full pass's gold."""

from __future__ import annotations

from collections.abc import Sequence

from desktop.gold import EffectiveGold
from desktop.pool import DEFAULT_DEPTH, PoolEntry
from desktop.review.seen import question_gold


def question_pool(
    project, question: dict, built: EffectiveGold, depth: int, blind: bool
) -> list[PoolEntry]:
    """One question's unjudged passages in the design's order; blind mode leaves the systems
    unnamed. One indexed read of that question's top D: cheap enough for every keypress."""
    found = project.pool(depth, blind=blind, questions=[question["id"]], effective=built)
    return found[0][1] if found else []


def pool_of(
    project,
    question: dict,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    depth: int = DEFAULT_DEPTH,
) -> list[PoolEntry]:
    """question_pool of a question not on screen (the pool queue across questions)."""
    built, _, _ = question_gold(project, question, reviewer, blind, reviewers)
    return question_pool(project, question, built, depth, blind)


def unjudged_counts(project, built: EffectiveGold, depth: int = DEFAULT_DEPTH) -> dict[int, int]:
    """Question key -> how many passages of its pool are unjudged, for every question."""
    by_id = {q["id"]: q["pk"] for q in project.questions()}
    return {
        by_id[qid]: len(entries)
        for qid, entries in project.pool(depth, blind=True, effective=built)
    }
