"""A selection of text made a span of whole characters (design section 10), Qt-free: the
window's reader shows a passage inside its document's own text and gives UTF-16 positions
(QTextCursor counts UTF-16 code units), which are turned into code points and widened until
neither end falls inside a surrogate pair or a combining sequence."""

from __future__ import annotations

import unicodedata

ZWJ = "\u200d"


def continues(char: str) -> bool:
    """A character that belongs to the one before it: a combining mark, a zero-width joiner,
    a variation selector, or a Hangul conjoining vowel or final consonant (a syllable spelled
    in jamo)."""
    code = ord(char)
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or char == ZWJ
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
        or 0x1160 <= code <= 0x11FF  # conjoining jamo: medial vowels, final consonants
        or 0xD7B0 <= code <= 0xD7FF  # Hangul Jamo Extended-B: the same, rarer
    )


def _inside(text: str, at: int) -> bool:
    """Whether a cut at code point `at` would split a combining sequence."""
    if at <= 0 or at >= len(text):
        return False
    return continues(text[at]) or text[at - 1] == ZWJ


def snap(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) widened to whole characters of text: a start inside a combining sequence
    moves back to its base, an end inside one forward past its last mark."""
    start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
    while _inside(text, start):
        start -= 1
    while _inside(text, end):
        end += 1
    return start, end


def code_points(text: str, utf16: int, forward: bool) -> int:
    """The code point offset of a UTF-16 offset into text; one that falls between the two
    halves of a surrogate pair moves to the pair's end when forward, else to its start."""
    units = 0
    for index, char in enumerate(text):
        width = 2 if ord(char) > 0xFFFF else 1
        if units + width > utf16:
            return index + 1 if forward and units < utf16 else index
        units += width
    return len(text)


def utf16_length(text: str) -> int:
    return sum(2 if ord(char) > 0xFFFF else 1 for char in text)
