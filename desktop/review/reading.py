"""What the passage reader shows for one passage, read on a worker (the reader never queries):
the passage, its neighbours in corpus order, and, when the passage has a span, the stretch of
its document around it (then the document is shown instead of the neighbours)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from desktop.review.document_view import DocumentWindow, document_window
from desktop.review.search import passage_context


@dataclass(frozen=True)
class Reading:
    passage_pk: int
    centre: int | None  # the document offset the text is laid out around, if moved
    passage: dict | None  # None: no such passage (any more)
    before: list = field(default_factory=list)
    after: list = field(default_factory=list)
    window: DocumentWindow | None = None
    # The evidence items it was read with (reading_items), whose spans its document marks: a
    # reading read ahead is shown only while the question's items are still these.
    items: list = field(default_factory=list)


def reading(
    project,
    passage_pk: int,
    items: Sequence[tuple[int, str | None, Iterable[int]]],
    centre: int | None = None,
) -> Reading:
    """items: (position, role, passage keys) of the question's evidence items, whose spans
    are marked in the document."""
    items = list(items)
    passage, before, after = passage_context(project, passage_pk, 1)
    if passage is None:
        return Reading(passage_pk, centre, None, items=items)
    # A passage in no document has no span to look up (most corpora: one read less).
    in_document = passage.get("document_pk") is not None
    window = document_window(project, passage_pk, items, centre) if in_document else None
    return Reading(passage_pk, centre, passage, before, after, window, items)


def reading_items(view) -> list[tuple[int, str | None, list[int]]]:
    """What of a question's view a passage is read with: its evidence items as (position,
    role, passage keys), which mark the gold spans in the passage's document."""
    if view is None:
        return []
    return [
        (i.index, i.role, [i.primary_pk, *(pk for pk, _ in i.alternatives)]) for i in view.items
    ]


def opening(project, view) -> Reading | None:
    """The passage a question opens on in the reader, read with its view: rank 1 of the first
    system shown (the window selects it at a switch). A point read (tens of microseconds at a
    million passages), where a worker's read cost the switch a round trip and a second paint
    of the reader. None when that system retrieved nothing."""
    rows = next(iter(view.rankings.values()), [])
    return reading(project, rows[0].passage_pk, reading_items(view)) if rows else None
