"""What a question's view shows of runs on another chunking (design section 10): where each
evidence item is first found by coverage >= θ (not by ids, which no passage of another chunking
shares with the gold), how much of each item the top K covers, and per ranked row which items
that passage covers and how much ("핵심 1: 82%"). The span rule's own functions
(evaluation.spans), so the view says what the metrics count."""

from __future__ import annotations

from collections.abc import Sequence

from db.documents import FIRST_CHUNKING
from desktop.evaluation import span_scores, spans


def span_context(project, items, rankings_pks: dict[str, list[int]], systems: Sequence[dict]):
    """(the question's items for the span rule, every passage's span, the systems shown whose
    runs have spans and are scored by them, as (name, on the gold's own chunking)), or None
    when nothing is to be shown by spans: no documents, no such system, or an item without a
    span."""
    if not items or not project.reads.document_count():
        return None
    on = project.reads.system_chunkings()
    # A run on the gold's own chunking is scored by spans only for items given as spans.
    given = any(item.given_as_span for item in items)
    shown = [(s["name"], on.get(s["pk"], FIRST_CHUNKING) == FIRST_CHUNKING) for s in systems]
    shown = [(name, own) for name, own in shown if given or not own]
    if not shown:
        return None
    pks = {p for item in items for p in item.passages}
    pks.update(p for name, _ in shown for p in rankings_pks.get(name, ()))
    known = {pk: spans.Span(*where) for pk, where in project.reads.passage_spans(pks).items()}
    these = span_items(items, known)
    if these is None:
        return None
    return (
        these,
        known,
        [(n, own) for n, own in shown if all(p in known for p in rankings_pks.get(n, ()))],
    )


def span_items(items, known):
    return span_scores.span_items(items, known)


def first_found(
    these, known, ranked: Sequence[int], theta: float = spans.THETA
) -> list[tuple[int | None, int | None]]:
    """Per item: (the rank where the list's context first covers θ of it, the passage there),
    over the whole list; (None, None) when it never does."""
    question = spans.SpanQuestion(these, theta)
    pairs = [(p, known[p]) for p in ranked]
    ranks = question.first_found(pairs, len(pairs))
    return [(rank, ranked[rank - 1] if rank else None) for rank in ranks]


def coverage_at(these, known, ranked: Sequence[int], k: int) -> list[float]:
    """cov(e) of each item by the top k of the list."""
    question = spans.SpanQuestion(these)
    return question.coverages([known[p] for p in ranked], k)


def row_coverage(these, span: spans.Span | None) -> list[tuple[int, float]]:
    """(item index, cov) for each item this one passage covers part of."""
    return spans.passage_coverage(span, these) if span is not None else []
