"""A passage shown inside its document (design section 10, issue 19 item 5): the stretch of the
document's text around the passage, where the question's gold spans fall in it and which part
of the passage covers each. Offsets are code points of the document's NFC text, as stored.
Qt-free: the reader lays it out."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# A document this long or shorter is laid out whole (measured offscreen: 15 ms for 40,000
# characters, 47 ms for 100,000); a longer one as a window of the text around the passage, moved on
# by the reader's "earlier"/"later" links.
WHOLE_CHARS = 40_000
WINDOW_CHARS = 16_000


@dataclass(frozen=True)
class GoldSpan:
    """One span of one evidence item in this document: item position (0-based), its role."""

    item: int
    role: str | None
    start: int
    end: int


@dataclass
class DocumentWindow:
    document_id: str
    document_length: int
    offset: int  # where text starts in the document
    text: str
    passage: tuple[int, int]  # the passage's span, in document offsets
    gold: list[GoldSpan] = field(default_factory=list)  # spans touching the window
    covered: list[GoldSpan] = field(default_factory=list)  # gold ∩ passage

    @property
    def end(self) -> int:
        return self.offset + len(self.text)

    def segments(self) -> list[tuple[int, int, bool, list[GoldSpan], bool]]:
        """The window cut where anything changes: (start, end, in the passage, gold spans
        there, covered there), in document offsets, in order."""
        cuts = {self.offset, self.end, *self.passage}
        for span in self.gold:
            cuts.update((span.start, span.end))
        points = sorted(c for c in cuts if self.offset <= c <= self.end)
        out = []
        for start, end in zip(points, points[1:], strict=False):
            inside = self.passage[0] <= start and end <= self.passage[1]
            gold = [s for s in self.gold if s.start <= start and end <= s.end]
            out.append((start, end, inside, gold, inside and bool(gold)))
        return out


def window_bounds(length: int, start: int, end: int, centre: int | None = None):
    """(from, to) of the text to lay out: the whole document when short, else WINDOW_CHARS
    around centre (the passage by default), never cutting the passage when it fits."""
    if length <= WHOLE_CHARS:
        return 0, length
    centre = (start + end) // 2 if centre is None else centre
    low = max(0, min(centre - WINDOW_CHARS // 2, length - WINDOW_CHARS))
    return low, min(length, low + WINDOW_CHARS)


def document_window(
    project,
    passage_pk: int,
    items: Sequence[tuple[int, str | None, Iterable[int]]],
    centre: int | None = None,
) -> DocumentWindow | None:
    """The passage in its document, or None when it has no span. items: (position, role,
    passage keys) of the question's evidence items; their spans in this document are marked."""
    found = project.reads.passage_spans([passage_pk]).get(passage_pk)
    if found is None:
        return None
    document_id, start, end = found
    stored = project.reads.document_text(document_id)
    if stored is None:
        return None
    text = stored[1]
    low, high = window_bounds(len(text), start, end, centre)
    item_pks = {pk: (index, role) for index, role, pks in items for pk in pks}
    spans = project.reads.passage_spans(item_pks) if item_pks else {}
    gold = sorted(
        {
            GoldSpan(*item_pks[pk], s, e)
            for pk, (doc, s, e) in spans.items()
            if doc == document_id and s < high and e > low
        },
        key=lambda g: (g.start, g.item),
    )
    clipped = [GoldSpan(g.item, g.role, max(g.start, low), min(g.end, high)) for g in gold]
    covered = [
        GoldSpan(g.item, g.role, max(g.start, start), min(g.end, end))
        for g in gold
        if g.start < end and g.end > start
    ]
    return DocumentWindow(
        document_id, len(text), low, text[low:high], (start, end), clipped, covered
    )
