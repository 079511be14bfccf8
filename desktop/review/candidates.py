"""Candidate alternatives as the window shows them (issue 21): an evidence item's candidates
(desktop/gold/candidates.py, the one rule) with where each comes from, its score, the systems
that have it in the question's top K and the phrases it shares with the item; and which of the
question's unjudged pool are candidates of one of its items. Each is a few similarity searches
(up to about 100 ms each at a million passages), so the window builds them on a worker, never
on the GUI thread. A candidate the reviewer dismissed for an item (a `dismissed` line) is left
out for that reviewer only. No Qt."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from desktop.gold import candidates as rule
from desktop.gold.effective import line_order
from desktop.readers.judgements import DISMISSED

LIMIT = 10  # candidates listed per item
SEARCHED = 50  # similar passages asked for, so that dismissed and known ones leave LIMIT
TEXT_CHARS = 600  # of a candidate's text: the rows' excerpts and tooltips
ITEM_CHARS = 4000  # of the item's text, the phrases are looked for in
SHARED_CHARS = 4  # a shared phrase is a run of at least this many characters (two trigrams)


@dataclass(frozen=True)
class Candidate:
    passage_pk: int
    passage_id: str
    document: str | None
    title: str | None
    score: float  # the rule's similarity, 0..1
    text: str  # its start, whitespace runs as one space
    shared: tuple[tuple[int, int], ...]  # [start, end) of text's phrases the item holds too
    top_k: tuple[tuple[str, int], ...]  # (system, rank) of each system with it in the top K
    proposed: bool  # this reviewer already accepted it as the item's alternative (not in force)


@dataclass(frozen=True)
class ItemCandidates:
    """One item's candidates, best first, for one question, reviewer and K."""

    question_pk: int
    item_pk: int
    item_id: str
    k: int
    candidates: tuple[Candidate, ...]
    dismissed: int  # candidates this reviewer dismissed for the item: not listed


def flat(text: str) -> str:
    return " ".join((text or "").split())


def shared_spans(item_text: str, text: str) -> tuple[tuple[int, int], ...]:
    """The runs of text whose every character trigram the item's text holds too, at least
    SHARED_CHARS long: what the two passages say in the same words (both flattened)."""
    grams = {item_text[i : i + 3] for i in range(len(item_text) - 2)}
    runs: list[list[int]] = []
    for i in range(len(text) - 2):
        gram = text[i : i + 3]
        if gram not in grams or gram.isspace():
            continue
        if runs and runs[-1][1] > i:  # overlaps the run before: the same phrase goes on
            runs[-1][1] = i + 3
        else:
            runs.append([i, i + 3])
    return tuple((a, b) for a, b in runs if b - a >= SHARED_CHARS)


def dismissed_by(rows: Iterable[dict], reviewer: str) -> dict[str, set[str]]:
    """Item primary id -> the candidates the reviewer's latest `dismissed` lines dismiss for
    it (a null line withdraws a dismissal)."""
    latest: dict[tuple[str, str], object] = {}
    for row in sorted(rows, key=line_order):
        if row["kind"] == DISMISSED and row["reviewer"] == reviewer:
            latest[(row["question_id"], row["passage_id"])] = json.loads(row["value"])
    out: dict[str, set[str]] = {}
    for (_, passage_id), item in latest.items():
        if isinstance(item, str):
            out.setdefault(item, set()).add(passage_id)
    return out


def _proposed(rows: Iterable[dict], reviewer: str, item_id: str) -> set[str]:
    latest: dict[str, object] = {}
    for row in sorted(rows, key=line_order):
        if row["kind"] == "alternative" and row["reviewer"] == reviewer:
            latest[row["passage_id"]] = json.loads(row["value"])
    return {pid for pid, value in latest.items() if value == item_id}


def top_k_of(project, question_pk: int, systems: Sequence[dict], k: int) -> dict[int, list]:
    """Passage key -> [(system, rank)] of the systems with it in their top K, in the order of
    systems (dicts with pk and name)."""
    ranked = project.reads.ranked_pks(question_pk)
    out: dict[int, list] = {}
    for system in systems:
        for rank, passage_pk in enumerate(ranked.get(system["pk"], [])[:k], 1):
            out.setdefault(passage_pk, []).append((system["name"], rank))
    return out


def item_candidates(
    project,
    question: dict,
    item: tuple[int, str],
    known: Iterable[int],
    systems: Sequence[dict],
    k: int,
    reviewer: str,
    found: list[dict] | None = None,
) -> ItemCandidates:
    """The candidates of item (primary passage key, id) for this reviewer, best first: never
    one of `known` (the question's items' passages and this item's alternatives in force)
    nor one the reviewer dismissed for it. found: the rule's candidates of the item (up to
    SEARCHED), when the caller kept them from an earlier build."""
    item_pk, item_id = item
    rows = project.reads.judgements(question_id=question["id"], reviewer=reviewer)
    dismissed = dismissed_by(rows, reviewer).get(item_id, set())
    known = set(known)
    if found is None:
        found = rule.candidates(project.reads, item_pk, SEARCHED)
    kept = [r for r in found if r["id"] not in dismissed and r["pk"] not in known][:LIMIT]
    left_out = sum(1 for r in found if r["id"] in dismissed)
    texts = project.reads.passage_excerpts([r["pk"] for r in kept], TEXT_CHARS)
    own = flat(project.reads.passage_excerpts([item_pk], ITEM_CHARS).get(item_pk, ("", ""))[1])
    ranks = top_k_of(project, question["pk"], systems, k) if kept else {}
    proposed = _proposed(rows, reviewer, item_id)
    listed = []
    for r in kept:
        text = flat(texts.get(r["pk"], ("", ""))[1])
        listed.append(
            Candidate(
                r["pk"],
                r["id"],
                r["document"],
                r["title"],
                r["score"],
                text,
                shared_spans(own, text),
                tuple(ranks.get(r["pk"], ())),
                r["id"] in proposed,
            )
        )
    return ItemCandidates(question["pk"], item_pk, item_id, k, tuple(listed), left_out)


def pool_marks(
    project,
    question: dict,
    items: Sequence[tuple[int, str]],
    pool: Sequence[int],
    reviewer: str,
    scored: dict[int, dict[int, float | None]] | None = None,
) -> dict[int, list[tuple[str, float]]]:
    """Pool passage key -> [(item primary id, score)] of the items it is a candidate of (the
    rule's pairwise check), best first; pairs the reviewer dismissed are left out. scored:
    item key -> {passage key: its candidate score, None when not one}, the pairs checked by an
    earlier build, kept and filled here (a judgement leaves the pool a part of what it was:
    its marks come again without a search)."""
    if not pool or not items:
        return {}
    scored = {} if scored is None else scored
    rows = project.reads.judgements(question_id=question["id"], reviewer=reviewer)
    dismissed = dismissed_by(rows, reviewer)
    ids = project.reads.passage_ids_of(pool)
    marks: dict[int, list[tuple[str, float]]] = {}
    for item_pk, item_id in items:
        known = scored.setdefault(item_pk, {})
        new = [p for p in pool if p not in known]
        if new:
            found = rule.candidate_scores(project.reads, item_pk, new)
            known.update({p: found.get(p) for p in new})
        gone = dismissed.get(item_id, set())
        for passage_pk in pool:
            score = known[passage_pk]
            if score is not None and ids.get(passage_pk) not in gone:
                marks.setdefault(passage_pk, []).append((item_id, score))
    for these in marks.values():
        these.sort(key=lambda m: -m[1])
    return marks
