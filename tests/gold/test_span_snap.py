"""The snapping rule of a selected span (issue 19 item 2): never inside a surrogate pair or a
combining sequence, checked on random text of Hangul syllables and jamo, combining marks, ZWJ
emoji sequences and variation selectors."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from desktop.gold.span_snap import code_points, continues, snap, utf16_length

PIECES = [
    "가",
    "국",
    "a",
    " ",
    "\u1100\u1161\u11a8",  # 각 in conjoining jamo
    "e\u0301",  # é, a combining acute
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: ZWJ between astral emoji
    "\u2764\ufe0f",  # a heart with its emoji variation selector
    "\U0001f600",  # an astral character: two UTF-16 units
    "\u0915\u094d\u0937",  # Devanagari with a virama (Mn)
]
texts = st.lists(st.sampled_from(PIECES), min_size=1, max_size=12).map("".join)


def whole(text: str, at: int) -> bool:
    return at in (0, len(text)) or not (continues(text[at]) or text[at - 1] == "\u200d")


@given(texts, st.data())
def test_a_snapped_span_has_whole_characters_and_holds_the_selection(text, data):
    lo = data.draw(st.integers(0, len(text)))
    hi = data.draw(st.integers(lo, len(text)))
    start, end = snap(text, lo, hi)
    assert 0 <= start <= lo <= hi <= end <= len(text)
    assert whole(text, start) and whole(text, end)
    assert snap(text, start, end) == (start, end)  # snapping twice changes nothing
    # the least widening: no whole boundary lies between start and lo
    assert not any(whole(text, at) for at in range(start + 1, lo + 1) if at <= lo and at > start)


@given(texts, st.data())
def test_utf16_positions_never_split_a_surrogate_pair(text, data):
    units = utf16_length(text)
    at = data.draw(st.integers(0, units))
    back, forward = code_points(text, at, False), code_points(text, at, True)
    assert utf16_length(text[:back]) <= at <= utf16_length(text[:forward])
    assert forward - back in (0, 1)
    if forward - back == 1:  # inside a pair: the character there is astral
        assert ord(text[back]) > 0xFFFF


def test_a_selection_ending_inside_jamo_takes_the_whole_syllable():
    document = "x\u1100\u1161\u11a8y"  # x 각 y with 각 in jamo
    assert snap(document, 0, 2) == (0, 4)
    assert snap(document, 2, 3) == (1, 4)
