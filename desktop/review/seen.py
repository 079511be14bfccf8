"""Which judgement lines a reviewer sees, and the effective gold built from them: over every
question, or for one question from its own rows alone (the keypress path)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from desktop.gold import effective as gold
from desktop.gold.effective import EffectiveGold


def visible(rows: Iterable[dict], reviewer: str, blind: bool) -> list[dict]:
    """Blind mode hides every other reviewer's lines, adjudications included, so that a
    second opinion is formed independently."""
    if blind:
        return [r for r in rows if r["reviewer"] == reviewer]
    return list(rows)


def reviewer_marks(reviewers: Iterable[str]) -> list[dict]:
    # gold.build learns who is in the database from the lines it is given; one empty note per
    # reviewer tells it without reading every question's log when only one question is built.
    return [
        {
            "pk": 0,
            "reviewer": name,
            "at": "1970-01-01T00:00:00+00:00",
            "question_id": "",
            "kind": "note",
            "passage_id": "",
            "value": "null",
            "settles": None,
            "system": None,
        }
        for name in reviewers
    ]


def build_gold(project, reviewer: str, blind: bool) -> EffectiveGold:
    """The effective gold over every question as this reviewer sees it (all reviewers' lines,
    or in blind mode the reviewer's own lines as if no one else had judged)."""
    if not blind:
        return project.effective_gold()
    return project.gold_from(visible(project.reads.judgements(), reviewer, blind))


class QuestionRows(NamedTuple):
    """What one question's effective gold is built from, as the store holds it: its imported
    evidence (with passage ids and alternatives), its judgement lines in the log's order
    (without the reviewer-mark lines), the alternatives given as spans, the passages imported
    gold judges not evidence and the items given as spans (db/gold.py's rows)."""

    evidence: list[dict]
    lines: list[dict]
    span_alternatives: list[tuple]
    not_evidence: list[tuple[int, int]]
    span_items: list[tuple]


def question_rows(project, question: dict) -> QuestionRows:
    """One question's rows, read from the store a statement each (the window's path)."""
    pk, reads = question["pk"], project.reads
    return QuestionRows(
        reads.question_evidence(pk),
        reads.judgements(question_id=question["id"]),
        reads.span_alternative_rows(pk),
        reads.question_not_evidence(pk),
        reads.span_item_rows(pk),
    )


def each_question_rows(project) -> Iterator[tuple[dict, QuestionRows]]:
    """(question, its question_rows) for every question in question order, from a few
    statements over all questions instead of five per question (the report's pass): the same
    rows in the same order, so that question_gold builds each question as the window does."""
    reads = project.reads
    evidence = _InOrder(reads.each_question_evidence())
    lines = _InOrder(reads.each_question_judgements())
    not_evidence = _InOrder((row[0], row) for row in sorted(reads.not_evidence_rows()))
    span_items = _InOrder((row[0], row) for row in reads.span_item_rows())
    spans_elsewhere = reads.span_alternative_count() > 0  # their order is the query's own
    for question in reads.each_question():
        pk = question["pk"]
        found = evidence.take(pk)
        yield (
            question,
            QuestionRows(
                found[0] if found else [],
                lines.take(pk),
                reads.span_alternative_rows(pk) if spans_elsewhere else [],
                not_evidence.take(pk),
                span_items.take(pk),
            ),
        )


class _InOrder:
    """A stream of (question_pk, value) in question order, taken a question at a time as
    the questions go by in the same order."""

    def __init__(self, rows: Iterable[tuple[int, object]]):
        self.rows = iter(rows)
        self.pending = next(self.rows, None)

    def take(self, question_pk: int) -> list:
        """The values of this question (those of questions before it are passed over)."""
        out = []
        while self.pending is not None and self.pending[0] <= question_pk:
            if self.pending[0] == question_pk:
                out.append(self.pending[1])
            self.pending = next(self.rows, None)
        return out


def question_gold(
    project,
    question: dict,
    reviewer: str,
    blind: bool,
    reviewers: Sequence[str],
    marks: list[dict] | None = None,
    read: QuestionRows | None = None,
) -> tuple[EffectiveGold, list[dict], list[dict]]:
    """The effective gold of one question, exactly as build_gold would give it, from that
    question's rows alone: (gold, its imported evidence, the visible judgement lines, with the
    reviewer-mark lines that decide who is a machine on every question: marks, when the
    caller read them already, else project.reads.mark_lines()). ``read``: the question's
    rows when the caller read them already (each_question_rows), else question_rows."""
    evidence, lines, span_alternatives, not_evidence, span_items = (
        question_rows(project, question) if read is None else read
    )
    lines = lines + (project.reads.mark_lines() if marks is None else marks)
    rows = visible(sorted(lines, key=gold.line_order), reviewer, blind)  # the log's order
    passage_ids = {e["passage_pk"]: e["passage_id"] for e in evidence}
    for e in evidence:
        passage_ids.update(dict(e["alternatives"]))
    passage_ids.update(project.reads.passage_ids_of(r[2] for r in span_alternatives if r[2]))
    named = gold.named_passages(rows) - set(passage_ids.values())
    passage_pks = project.reads.passage_pks(named) if named else {}
    passage_ids.update({pk: pid for pid, pk in passage_pks.items()})
    passage_pks.update({pid: pk for pk, pid in passage_ids.items()})
    everyone = [reviewer] if blind else list(reviewers)
    built = gold.build(
        [question],
        [(question["pk"], e["item_pk"], e["passage_pk"], e["role"]) for e in evidence],
        [(e["item_pk"], pk) for e in evidence for pk, _ in e["alternatives"]],
        passage_ids,
        passage_pks,
        rows + reviewer_marks(everyone),
        not_evidence,
        span_items,
        span_alternatives,
    )
    return built, evidence, rows


def reviewers(project) -> list[str]:
    """Everyone with a line in the log: with more than one, lone changes wait (design 6)."""
    return project.reviewers()
