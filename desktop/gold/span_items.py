"""Evidence given as spans (design section 10) as the gold and the judgement log name it: an
item's span key, 'd1:10-200' (document id, start, end), wherever an item must be named in a
string (an alternative line's value, a decision's key, the window), and the rows a gold import
stages for the store (db/gold.py)."""

from __future__ import annotations

from collections.abc import Iterable

from desktop.evaluation.spans import Span


class SpanKey(str):
    """An item or judgement target given as a span, named 'd1:10-200'. A str, so that the
    effective gold keys it beside passage ids (sorted, hashed, written as JSON) unchanged;
    its type tells the two apart where it matters."""

    __slots__ = ()

    @property
    def span(self) -> Span:
        return parse_key(self)


def span_key(document: str, start: int, end: int) -> SpanKey:
    return SpanKey(f"{document}:{start}-{end}")


def parse_key(key: str) -> Span:
    """The span a key names; ValueError when it is not DOCUMENT:START-END. The document id may
    hold ':' and '-' itself: the offsets are read from the right."""
    document, colon, offsets = key.rpartition(":")
    start, dash, end = offsets.partition("-")
    if not (document and colon and dash and start.isdigit() and end.isdigit()):
        raise ValueError(f"{key!r} is not a span key DOCUMENT:START-END (as d1:10-200)")
    return Span(document, int(start), int(end))


def staged(records: Iterable) -> tuple[list[tuple], list[tuple]]:
    """A gold file's records (desktop.readers.GoldRecord) as the store stages them: items given
    as spans (line, question, document, start, end, role), and every alternative of such an
    item or given as a span (line, question, item: its primary passage id or span key, passage
    id or None, document, start, end or Nones)."""
    items: list[tuple] = []
    alternatives: list[tuple] = []
    for record in records:
        for e in record.evidence:
            owner = e.passage_id
            if e.span is not None:
                items.append((e.line, record.question_id, *e.span, e.role))
                owner = span_key(*e.span)
                alternatives += [
                    (e.line, record.question_id, owner, pid, None, None, None)
                    for pid in e.alternatives
                ]
            alternatives += [
                (e.line, record.question_id, owner, None, *span) for span in e.alternative_spans
            ]
    return items, alternatives
