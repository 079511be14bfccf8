"""Words of a question worth highlighting in passages (Korean particles trimmed), and the
words of a corpus search."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from desktop.readers import nfc

_PARTICLES = sorted(
    (
        "은 는 이 가 을 를 의 에 에서 에게 께 으로 로 과 와 도 만 까지 부터 보다 처럼 이나 나 "
        "이고 하고 이면 이란 란 인가 인가요 인지 나요 까요 가요 요 은요 는요 이요 입니까 습니까 "
        "합니까 한가요 할까요 하나요 되나요 있나요 없나요 되는 하는 하려면 되려면 려면 으면 면"
    ).split(),
    key=len,
    reverse=True,
)
_WORD = re.compile(r"\w+", re.UNICODE)


def question_terms(text: str) -> list[str]:
    """Words of a question worth highlighting in passages, longest first (in NFC, as the
    passages are stored: decomposed Hangul would match nothing)."""
    terms: set[str] = set()
    for word in _WORD.findall(nfc(text)):
        stem = word
        for ending in _PARTICLES:
            if stem.endswith(ending) and len(stem) - len(ending) >= 2:
                stem = stem[: -len(ending)]
                break
        for candidate in (word, stem):
            if len(candidate) >= 2 and not candidate.isdigit():
                terms.add(candidate)
    return sorted(terms, key=lambda t: (-len(t), t))


def highlight_spans(text: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """Non-overlapping (start, end) spans of the terms in text, in order."""
    if not terms or not text:
        return []
    return [m.span() for m in terms_pattern(tuple(terms)).finditer(text)]


@lru_cache(maxsize=32)
def terms_pattern(terms: tuple[str, ...]) -> re.Pattern:
    """One question's terms as one pattern, built once: a switch marks them in every ranked
    row and the reader, and the pattern is the same for all of them."""
    return re.compile("|".join(re.escape(t) for t in terms), re.IGNORECASE)


def search_terms(text: str) -> list[str]:
    """The words of a search or filter, in NFC as the stored text is."""
    return [t for t in nfc(text).split() if t]
