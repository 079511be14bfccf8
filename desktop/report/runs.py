"""The pass over the runs: every system's Per question and Misses rows, one ranked list at a
time as the store streams them, and what the other sheets need from them (means, the
Recall@1..N curve, misses per K and role, and the per-question values and found-item masks
that the bootstrap and desktop.compare read)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING

from desktop.evaluation import metrics, scored
from desktop.gold import effective as gold
from desktop.report.cells import EXCERPT, excerpt, h
from desktop.report.gold_pass import ROLE_WORDS, Record
from desktop.report.sheet import Sheet
from desktop.report.summary import across_dashes

if TYPE_CHECKING:
    from desktop.report.workbook import Report

POOL_DEPTH = 10  # the pool's depth for the unjudged count on Per question
# Questions whose items and Prepared the pass keeps for every system, the first ones met;
# those past it are made again for each row (about 4 KB each with their judged passages: 18 MB
# more peak RSS at 5,000 questions), so that what the pass holds stays bounded.
KEPT_QUESTIONS = 10_000


@dataclass
class Ran:
    """What the pass over the runs gives the other sheets, per system in system order: the
    means and Recall@1..depth curve (metrics.Means), misses per K and role, questions missing
    from the run, and the per-question values and found-item masks that the bootstrap and
    compare read (scored.Scores)."""

    scores: scored.Scores
    means: list[dict[str, float | None]] = field(default_factory=list)
    curves: list[list[float]] = field(default_factory=list)
    miss_counts: list[list[Counter]] = field(default_factory=list)
    missing_from_run: list[int] = field(default_factory=list)


def per_question_head(labels) -> list[str]:
    return [
        h("system", "시스템"),
        h("question", "질문"),
        h("question text", "질문 내용"),
        h("answerable", "답변 가능"),
        h("evidence items", "근거 수"),
        h("core items", "핵심 근거 수"),
        h("review status", "검수 상태"),
        h("in run", "결과 있음"),
        *labels,
        h(f"unjudged@{POOL_DEPTH}", f"미판정@{POOL_DEPTH}"),
    ]


def misses_head(ks, spans: bool = False) -> list[str]:
    """The Misses header; with spans, where each missed item's evidence lies in its document
    and how much of it a run on another chunking covered."""
    span_columns = [h("evidence span", "근거 구간"), h("coverage reached", "도달 범위")]
    return [
        h("system", "시스템"),
        h("question", "질문"),
        *(h(f"missed@{k}", f"상위 {k} 누락") for k in ks),
        h("passage", "문단"),
        h("role", "역할"),
        "역할\nrole",
        h("role set by", "역할 지정"),
        h("found at rank", "찾은 순위"),
        h("found via", "찾은 문단"),
        h("alternatives", "대체 근거"),
        h("title", "제목"),
        h("passage text", "본문 발췌"),
        h("reviewer notes", "검수 메모"),
        *(span_columns if spans else ()),
    ]


def write_runs(report: Report, per_q: Sheet, misses: Sheet, scores: scored.Scores) -> Ran:
    """Every system's Per question and Misses rows, one ranked list at a time, and what
    the other sheets need from them (the per-question values and masks go to ``scores``)."""
    per_q.header(per_question_head(report.labels))
    misses.header(misses_head(report.ks, report.spans is not None))
    ran = Ran(scores)
    # Every evidence item's excerpt and the lines it wraps to in the Misses sheet, made once
    # for all systems rather than once per system and question (a few MB at 5,000 questions).
    column = 10 + len(report.ks)  # Misses' passage text
    report.excerpts = {}
    read = report.project.reads.passage_excerpts(report.gold.primaries, EXCERPT + 1)
    for pk, (title, text) in read.items():
        shown = excerpt(text)
        report.excerpts[pk] = (title, shown, misses.text_lines(shown, column))
    # One ranked list at a time, as the store streams them, for every system and
    # question in the order of the rows below; the questions' records likewise.
    lists = scored.each_list(
        report.systems, report.gold, report.project.reads.ranked_lists(), key=attrgetter("pk")
    )
    done = 0
    kept: dict = {}  # question -> its items and Prepared, for every system (KEPT_QUESTIONS)
    for system in report.systems:
        done = _system(report, system["name"], lists, per_q, misses, ran, done, kept)
    report.tick(report.rows_total)
    per_q.autofilter(1, 9 + len(report.labels))
    misses.autofilter(1, 12 + len(report.ks) + 2 * (report.spans is not None))
    return ran


def _prepared(question: Record, ks, kept: dict) -> tuple[list, int, metrics.Prepared]:
    """The question's evidence items, core count and metrics.Prepared (None without items):
    made once for every system for the first KEPT_QUESTIONS questions ``kept`` holds, and
    for each row past them."""
    made = kept.get(question.pk)
    if made is None:
        items = question.gold_items()
        n_core = sum(1 for i in items if i.role == "core")
        prep = None
        if items:
            prep = metrics.Prepared(question.metric_items(), ks, set(question.judged))
        made = (items, n_core, prep)
        if len(kept) < KEPT_QUESTIONS:
            kept[question.pk] = made
    return made


def _system(
    report: Report, name: str, lists, per_q: Sheet, misses: Sheet, ran: Ran, done: int, kept
):
    """One system's rows; returns the rows done so far. ``kept``: questions' items and
    Prepared made for an earlier system (_prepared)."""
    ks, labels = report.ks, report.labels
    per_q_styles = [None] * 8 + ["num"] * len(labels) + [None]
    tally = metrics.Means(ks, report.depth, metrics.ALL_MEASURES)
    missed = [Counter() for _ in ks]
    absent = 0
    ran.scores.system(name)
    for _ in range(report.gold.questions):
        _, question, ranked = next(lists)
        items, n_core, prep = _prepared(question, ks, kept)
        row = [
            name,
            question.id,
            question.text,
            question.answerable,
            len(items),
            n_core,
            question.status,
            bool(ranked),
        ]
        if not items:
            per_q.append(row + [None] * len(labels) + [question.unjudged], per_q_styles)
        else:
            absent += not ranked
            these = prep.score(ranked)
            first, via = prep.first_ranks(enumerate(ranked, 1))
            covered = None
            if report.spans is not None:
                these, first, covered = _by_spans(report, name, question, ranked, these, first)
            values = [these[label] for label in labels]
            per_q.append(
                row + across_dashes(report, name, values) + [question.unjudged], per_q_styles
            )
            tally.add(values, first)
            ran.scores.add(name, question.pk, these, first)
            _misses(report, misses, name, question, items, (first, via, covered), missed)
            if report.candidates is not None:
                report.candidates.add(name, question, first, ranked)
        done += 1
        if done % 500 == 0:
            report.tick(done)
    ran.means.append(tally.means())
    ran.scores.finish(name, ran.means[-1])
    ran.curves.append(tally.curve())
    ran.miss_counts.append(missed)
    ran.missing_from_run.append(absent)
    return done


def _by_spans(report: Report, name: str, question: Record, ranked, these, first):
    """A run with spans: the question's values as the command line has them (the span rule
    for a run on another chunking) and, on another chunking, each item's first rank by
    coverage and a function giving an item's coverage at K (None on the gold's own)."""
    spans = report.spans
    if report.systems_by_name[name].get("unranked"):
        spans.note_length(name, ranked)
    by_spans = spans.values(name, question.pk)
    if by_spans is None:
        return these, first, None
    these = by_spans
    if name not in spans.across:
        return these, _given_as_spans(spans, question, ranked, first), None
    prep = spans.question(question.pk, question.metric_items())
    if prep is None:
        return these, [None] * len(first), None
    ranked_spans = spans.ranked_spans(ranked)
    first = spans.first_ranks(prep, ranked_spans)
    return these, first, lambda index, k: prep.coverages(ranked_spans, k)[index]


def _given_as_spans(spans, question: Record, ranked, first: list) -> list:
    """On the gold's own chunking the id rule finds passage items; an item given as a span
    has no passage and is found by coverage on every run (design section 10): its first rank
    is the span rule's."""
    items = question.metric_items()
    given = [i for i, item in enumerate(items) if item.given_as_span]
    prep = spans.question(question.pk, items) if given else None
    if prep is None:
        return first
    by_coverage = spans.first_ranks(prep, spans.ranked_spans(ranked))
    return [by_coverage[i] if i in given else rank for i, rank in enumerate(first)]


def _misses(report: Report, sheet: Sheet, name, question: Record, items, found, missed) -> None:
    """The Misses rows of one system and question: an item missed at the smallest K, with
    at which K it is still beyond; ``missed`` counts them per K and role. ``found``: each
    item's first rank, the passage found there, and its coverage at K (a run on another
    chunking) or None."""
    first, via, covered = found
    ks, n_ks = report.ks, len(report.ks)
    left = [i for i, rank in enumerate(first) if not rank or rank > ks[0]]
    if not left:
        return
    passages = report.excerpts
    # Excerpts and notes wrap inside their own columns instead of spilling over the next.
    styles = [None] * (10 + n_ks) + ["wrap", "wrap"] + ["wrap", None] * (report.spans is not None)
    for index in left:
        item, rank = items[index], first[index]
        at = [not rank or rank > k for k in ks]
        for k_index, missed_here in enumerate(at):
            if missed_here:
                missed[k_index][item.role] += 1
        # cut to EXCERPT already, with the lines it wraps to
        title, text, shown = passages.get(item.primary_pk, (None, "", 1))
        role_en, role_ko = ROLE_WORDS[item.role]
        values = [
            name,
            question.id,
            *at,
            item.primary_id,
            role_en,
            role_ko,
            question.items[index][4],  # who set the role
            rank or None,
            _passage_id(item, via[index]) if rank else None,
            ", ".join(sorted(item.alternatives.values())),
            title,
            text,
            _notes_for(question.notes, item, name),
        ]
        if report.spans is not None:
            values += _span_cells(report, item, index, covered)
        sheet.append(values, styles, max(shown, sheet.text_lines(values[11 + n_ks], 11 + n_ks)))


def _span_cells(report: Report, item: gold.GoldItem, index: int, covered) -> list:
    """Where the item's evidence lies, and the coverage a run on another chunking reached at
    each K ('0.42 at 5')."""
    where = report.spans.span_words(item.as_item()) or None
    if covered is None:
        return [where, None]
    return [where, ", ".join(f"{covered(index, k):.2f} at {k}" for k in report.ks)]


def _passage_id(item: gold.GoldItem, passage_pk) -> str:
    if passage_pk == item.primary_pk:
        return item.primary_id
    return item.alternatives.get(passage_pk, str(passage_pk))


def _notes_for(notes, item: gold.GoldItem, system: str) -> str | None:
    """The notes about an item's question that concern this item (or no passage) and this
    system (or no system)."""
    if not notes:  # most questions: nothing to pick from
        return None
    passages = {"", item.primary_id, *item.alternatives.values()}
    picked = [
        f"{reviewer}: {text}"
        for reviewer, pid, sys, text in notes
        if pid in passages and (not sys or sys == system)
    ]
    return " | ".join(picked) if picked else None
