"""The unjudged pool as the window shows it (issue 13): one question's, from the gold that
question's view was built from (so blind mode judges by the reviewer's own lines), and every
question's count for the question list, from the full pass's gold.

A reviewer's queue also leaves out what that reviewer has judged but is not in force yet
(with several reviewers a lone judgement waits for a second one): they have done their part,
and it stays in the other reviewers' queues until they do theirs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from desktop.gold import pool as pool_module
from desktop.gold.effective import EffectiveGold, latest_values
from desktop.gold.pool import DEFAULT_DEPTH, PoolEntry
from desktop.review.seen import build_gold, question_gold, visible

# The kinds that judge a passage of the pool: an item, not evidence, an alternative.
JUDGING_KINDS = ("evidence", "not_evidence", "alternative")


def judged_by(rows: Iterable[dict], reviewer: str) -> dict[str, set[str]]:
    """Question id -> passage ids the reviewer's own latest lines judge."""
    votes, _, _ = latest_values(r for r in rows if r["reviewer"] == reviewer)
    out: dict[str, set[str]] = {}
    for (question_id, kind, passage_id), values in votes.items():
        if kind in JUDGING_KINDS and values.get(reviewer) not in (None, False):
            out.setdefault(question_id, set()).add(passage_id)
    return out


def _left(entries: list[PoolEntry], mine: set[str]) -> list[PoolEntry]:
    return [e for e in entries if e.passage_id not in mine] if mine else entries


def left_unjudged(
    entries: list[PoolEntry], rows: Iterable[dict], reviewer: str, question_id: str
) -> list[PoolEntry]:
    """A question's pool without the passages the reviewer's own latest lines judge."""
    return _left(entries, judged_by(rows, reviewer).get(question_id, set()))


def question_pool(
    project,
    question: dict,
    seen: tuple[EffectiveGold, list[dict], list[dict]],
    depth: int,
    blind: bool,
    reviewer: str,
    names: dict[int, str] | None = None,
) -> list[PoolEntry]:
    """One question's unjudged passages in the design's order, from question_gold's result
    (the gold and the visible lines); blind mode leaves the systems unnamed. One indexed read
    of that question's top D: cheap enough for every keypress. names: system key -> name,
    when the caller has them (the window: a switch reads neither the systems nor the
    question again, as Project.pool would)."""
    if depth < 1:
        raise ValueError(f"the pool depth must be at least 1, not {depth}")
    built, _, rows = seen
    if not blind and names is None:
        names = {s["pk"]: s["name"] for s in project.reads.systems()}
    candidates = project.reads.pool_candidates(depth, not blind, question_pk=question["pk"])
    found = pool_module.collect(candidates, built.judged, None if blind else names)
    entries = pool_module.ordered(found.get(question["pk"], []), None, question["id"])
    return left_unjudged(entries, rows, reviewer, question["id"])


def pool_of(
    project,
    question: dict,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    depth: int = DEFAULT_DEPTH,
    marks: list[dict] | None = None,
) -> list[PoolEntry]:
    """question_pool of a question not on screen (marks: the reviewer-mark lines, when the
    caller holds them, as for question_gold)."""
    seen = question_gold(project, question, reviewer, blind, reviewers, marks)
    return question_pool(project, question, seen, depth, blind, reviewer)


def unjudged_counts(
    project,
    built: EffectiveGold,
    rows: Iterable[dict],
    reviewer: str,
    depth: int = DEFAULT_DEPTH,
) -> dict[int, int]:
    """Question key -> how many passages of its pool are left for the reviewer, for every
    question; rows: the judgement lines the reviewer sees. Counted from the pool's passage
    keys as SQLite streams them: a million-passage database's pool is never held whole."""
    by_id = {q["id"]: q["pk"] for q in project.questions()}
    mine = judged_by(rows, reviewer)
    named = set().union(*mine.values()) if mine else set()
    keys = project.reads.passage_pks(named) if named else {}
    mine_pks = {
        by_id[qid]: {keys[p] for p in pids if p in keys}
        for qid, pids in mine.items()
        if qid in by_id
    }
    counts = dict.fromkeys(by_id.values(), 0)
    counts.update(
        pool_module.unjudged_counts(
            project.reads.pool_passages(depth),
            lambda q: built.judged(q) | mine_pks.get(q, set()),
        )
    )
    return counts


def pool_counts(project, reviewer: str, blind: bool, depth: int = DEFAULT_DEPTH) -> dict[int, int]:
    """unjudged_counts as the reviewer sees the gold: a pass of its own after the metrics'
    full pass (it costs about as much), so that the scores are not kept waiting for it."""
    built = build_gold(project, reviewer, blind)
    rows = visible(project.reads.judgements(), reviewer, blind)
    return unjudged_counts(project, built, rows, reviewer, depth)
