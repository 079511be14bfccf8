"""Evidence as spans (design section 10): a span is (document, start, end) in code points of
the document's NFC text, half-open. This module holds the rules only, as pure code over plain
data: locating a passage's text in its document, the context U a ranked list of passage spans
gives at K or at a character budget, coverage, the span rule's measures and the projection of
an item's spans onto another chunking. No store, no Qt: the store, readers, metrics, window and
report wire it in.

Offsets are counted after NFC normalisation (the readers normalise every text on import), so
every text handed in here must already be NFC.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, order=True)
class Span:
    """Code points [start, end) of one document's text."""

    document: str
    start: int
    end: int

    def __post_init__(self):
        if not 0 <= self.start < self.end:
            raise ValueError(f"a span needs 0 <= start < end, not {self.start}..{self.end}")

    def __len__(self) -> int:
        return self.end - self.start


def locate(passage_text: str, document_text: str, start_hint: int = 0) -> tuple[int, int] | None:
    """Where a passage's text lies in its document, as (start, end) code points of the document,
    or None when it is not there. Exact first; then ignoring whitespace differences (a run of
    whitespace matches any run, and whitespace present on one side only is ignored), the span
    then running from the first to the last non-whitespace character matched.

    The first occurrence at or after start_hint wins, exact or not (chunkings cut in order: the
    caller passes where the previous passage began, so repeated text lands on the right copy);
    when there is none after the hint, the first occurrence anywhere."""
    if not passage_text or passage_text.isspace():
        return None
    for origin in (start_hint, 0) if start_hint else (0,):
        at = document_text.find(passage_text, origin)
        if at >= 0:
            return at, at + len(passage_text)
        found = _locate_ignoring_whitespace(passage_text, document_text, origin)
        if found:
            return found
    return None


def _locate_ignoring_whitespace(
    passage_text: str, document_text: str, origin: int
) -> tuple[int, int] | None:
    needle = "".join(passage_text.split())
    squeezed, positions = _without_whitespace(document_text)
    at = squeezed.find(needle, bisect_left(positions, origin))
    if at < 0:
        return None
    return positions[at], positions[at + len(needle) - 1] + 1


@lru_cache(maxsize=4)
def _without_whitespace(text: str) -> tuple[str, list[int]]:
    """The text with whitespace removed and, per kept character, its offset in the text. Kept
    for the last few documents: an import locates many passages in one document in a row."""
    positions = [i for i, char in enumerate(text) if not char.isspace()]
    return "".join([text[i] for i in positions]), positions
