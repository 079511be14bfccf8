"""Everything the window shows about all questions, from one full pass for a worker, and
one question brought up to date after a judgement."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter

from desktop.evaluation.metrics import Prepared
from desktop.gold.effective import Decision, EffectiveGold, as_counted
from desktop.gold.pool import DEFAULT_DEPTH
from desktop.review.disputes import differ_at
from desktop.review.scores import WINDOW_KS, Entry, Scoreboard, entries_for, score_entry
from desktop.review.seen import build_gold, question_gold, visible
from desktop.review.spanned import DEFAULT_CHOICE, SpanChoice, SpanScoring
from desktop.review.spanned import full_pass as span_pass
from desktop.review.spanned import one_question as span_question
from desktop.review.status import Summary, missed_at, summarize
from desktop.review.unjudged import question_pool
from desktop.review.views import QuestionView, built_view, with_excerpts

Tick = Callable[[int, int], None]

# Entries (or questions) between two progress calls, where the window's worker gives way to a
# question switch: a slice is about a millisecond at the reference size, so a switch that
# starts during the pass waits for no more than that.
SLICE = 25


@dataclass
class Overview:
    """The result of a full pass: everything the window shows about all questions."""

    ks: list[int]
    board: Scoreboard
    summaries: dict[int, Summary]
    agreement: dict
    reviewers: list[str]
    evaluated: int
    without_evidence: int
    span: SpanScoring | None = None  # the span rule, when some run has spans


def overview(
    project,
    reviewer: str,
    blind: bool,
    ks: Sequence[int] = WINDOW_KS,
    progress: Tick | None = None,
    with_agreement: bool = True,
    k: int | None = None,
    choice: SpanChoice | None = DEFAULT_CHOICE,
) -> Overview:
    """Scores, curves, summaries and agreement over every question, for a worker; ranked lists
    read only where they hit evidence (SQLite's scan: memory stays flat). Without
    ``with_agreement`` the agreement is left empty (ask ``agreement`` when it is shown). ``k``:
    the K shown, whose misses the review status asks a role of (the smallest K by default).
    ``choice``: budgets and θ of the span rule for runs with spans (None: ids only)."""
    ks = sorted(set(ks))
    k = k or ks[0]
    tick = progress or (lambda _done, _total: None)
    built = build_gold(project, reviewer, blind)
    tick(0, 0)  # a total of 0 shows nothing: a place to give way between the reads
    questions = project.questions()
    systems = project.systems()
    names = {s["pk"]: s["name"] for s in systems}
    items = built.metric_items()
    span, runs = span_pass(project, items, ks, choice)
    extra = span.extra if span else ()
    board = Scoreboard([s["name"] for s in systems], ks, project.reads.max_rank() or max(ks), extra)
    tick(0, 0)
    prepared = {q: Prepared(these, ks, built.judged(q)) for q, these in items.items() if these}
    # J(q) holds every evidence passage, so its ranks give the measures and P@K, Judged@K.
    pairs = sorted({(q, p) for q, prep in prepared.items() for p in prep.judged})
    # Lists cut at the largest K: only the shorter ones need their length (Judged@K's
    # denominator); a missing list scores 0 as a list of holes does.
    short = {(s, q): n for s, q, n in project.reads.short_lists(max(ks))}
    total = len(systems) * len(prepared) + len(questions)
    tick(0, total)
    hits = project.reads.evidence_hits(pairs)
    tick(0, total)
    rescore = span.rescorer(items, runs, board.depth) if span else None
    done = _score_every_system(board, names, prepared, short, hits, rescore, progress, total)
    rows = visible(project.reads.judgements(), reviewer, blind)
    summaries = _summaries(questions, built, board, rows, reviewer, blind, k, progress, done, total)
    shown = agreement_of(project, rows, blind or not with_agreement, built)
    if progress:
        progress(total, total)
    return Overview(
        ks,
        board,
        summaries,
        shown,
        project.reviewers(),
        len(prepared),
        len(questions) - len(prepared),
        span,
    )


def _score_every_system(board, names, prepared, short, hits, rescore, progress, total) -> int:
    """Every system's entry on every question into the board, from the ranks where its lists
    hit evidence (rescore: the span rule for runs with spans); returns the entries made."""
    grouped = groupby(hits, key=itemgetter(0, 1))
    found: dict[int, list[tuple[int, int]]] = {}
    current = next(grouped, None)
    done = 0
    for system_pk, system in names.items():
        found.clear()
        while current is not None and current[0][0] == system_pk:
            found[current[0][1]] = [(r[2], r[3]) for r in current[1]]
            current = next(grouped, None)
        for q, prep in prepared.items():
            length = short.get((system_pk, q), prep.ks[-1])
            entry = score_entry(prep, found.get(q, ()), length)
            board.set(system, q, rescore(system, q, entry) if rescore else entry)
            done += 1
            if progress and done % SLICE == 0:
                progress(done, total)  # also where the worker gives way to the GUI
    return done


def _summaries(questions, built, board, rows, reviewer, blind, k, progress, done, total):
    """Every question's list line (the full pass's second half: done of total so far)."""
    by_question: dict[str, list[dict]] = {}
    for r in as_counted(rows):  # who is a machine, before the mark lines are left behind
        by_question.setdefault(r["question_id"], []).append(r)
    decided: dict[str, list[Decision]] = {}
    for d in built.decisions:
        decided.setdefault(d.question_id, []).append(d)
    summaries = {}
    for question in questions:
        qid, pk = question["id"], question["pk"]
        items_of = built.items.get(pk, [])
        entries = (board.entries[s].get(pk) for s in board.systems)
        entries = list(entries)
        missed = missed_at(items_of, entries, k) if items_of else []
        differ = differ_at(items_of, entries, k) if items_of else []
        rows_of = by_question.get(qid, [])
        summaries[pk] = summarize(
            question, built, rows_of, reviewer, blind, decided.get(qid, []), missed, differ
        )
        done += 1
        if progress and done % SLICE == 0:
            progress(done, total)
    return summaries


def refresh_question(
    project,
    question: dict,
    reviewer: str,
    blind: bool,
    ks: Sequence[int],
    reviewers: Sequence[str],
    pool_depth: int = DEFAULT_DEPTH,
    k: int | None = None,
    choice: SpanChoice | None = DEFAULT_CHOICE,
) -> tuple[Summary, dict[str, Entry | None]]:
    """After a judgement on one question: its summary (with its unjudged count) and every
    system's entry again; k and choice as overview takes them."""
    seen = question_gold(project, question, reviewer, blind, reviewers)
    return _refreshed(project, question, seen, reviewer, blind, ks, pool_depth, k, choice=choice)


def _refreshed(
    project,
    question: dict,
    seen: tuple[EffectiveGold, list[dict], list[dict]],
    reviewer: str,
    blind: bool,
    ks: Sequence[int],
    pool_depth: int = DEFAULT_DEPTH,
    k: int | None = None,
    pool: list | None = None,
    systems: Sequence[dict] = (),
    choice: SpanChoice | None = DEFAULT_CHOICE,
) -> tuple[Summary, dict[str, Entry | None]]:
    """pool: the question's unjudged pool when already built; systems: every system (read
    when not given); choice: the span rule's (overview's)."""
    built, _, rows = seen
    items = built.metric_items().get(question["pk"], [])
    names = {s["pk"]: s["name"] for s in systems or project.systems()}
    entries: dict[str, Entry | None] = dict.fromkeys(names.values())
    if items:
        ranked = project.reads.ranked_pks(question["pk"])
        lists = {name: ranked.get(pk, []) for pk, name in names.items()}
        entries = entries_for(items, sorted(set(ks)), lists, built.judged(question["pk"]))
        entries = span_question(project, question["pk"], items, lists, ks, choice, entries)
    k = k or min(ks)
    missed = missed_at(built.items.get(question["pk"], []), entries.values(), k)
    differ = differ_at(built.items.get(question["pk"], []), entries.values(), k)
    summary = summarize(question, built, rows, reviewer, blind, missed=missed, differ=differ)
    if pool is None:
        pool = question_pool(project, question, seen, pool_depth, blind, reviewer)
    summary.unjudged = len(pool)
    return summary, entries


@dataclass
class Judged:
    """One question after a judgement: what the window shows of it, its question-list line
    and every system's scoreboard entry (None: no evidence left), and the agreement when it
    was asked for."""

    view: QuestionView
    summary: Summary
    entries: dict[str, Entry | None]
    agreement: dict | None = None


def judged_question(
    project,
    question: dict,
    systems: Sequence[dict],
    k: int,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    ks: Sequence[int] = WINDOW_KS,
    pool_depth: int = DEFAULT_DEPTH,
    every_system: Sequence[dict] = (),
    choice: SpanChoice | None = DEFAULT_CHOICE,
    marks: list[dict] | None = None,
) -> Judged:
    """question_view and refresh_question in one, from one build of the question's gold and
    one read of its log: the keypress path, on a worker. ``systems`` are the ones shown; the
    entries cover every system (``every_system``, read when not given); ``marks``: the
    reviewer-mark lines the window holds (read when not given)."""
    seen, view = built_view(project, question, systems, k, reviewer, blind, reviewers, marks)
    view.pool = question_pool(project, question, seen, pool_depth, blind, reviewer)
    with_excerpts(project, view)
    summary, entries = _refreshed(
        project, question, seen, reviewer, blind, ks, pool_depth, k, view.pool, every_system, choice
    )
    return Judged(view, summary, entries)


def agreement_of(project, rows: Sequence[dict], blind: bool, built=None) -> dict:
    # Blind mode shows no one else's lines, so there is nothing to agree with.
    if blind:
        return {"pairs": [], "disagreements": 0}
    return project.agreement_of(list(rows), built or project.effective_gold())


def agreement(project, reviewer: str, blind: bool) -> dict:
    """Agreement per reviewer pair and kind as the reviewer may see it: one read of the whole
    log, for when the agreement tab is shown (not after every key)."""
    return agreement_of(project, visible(project.reads.judgements(), reviewer, blind), blind)
