"""Corpus search as the window and the command line both show it: every word typed required,
the exact number of passages found, and one page of them in corpus order (the order the
corpus files gave) or by relevance (FTS5's bm25), each with a one-line excerpt around the
first word found; and the passages most like one (db/similar.py). No Qt here."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop.readers import nfc

LIMIT_MAX = 1000
ORDERS = ("corpus", "relevance")
EXCERPT_CHARS = 160
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Found:
    pk: int
    passage_id: str
    title: str | None
    excerpt: str


@dataclass(frozen=True)
class SearchPage:
    query: str
    total: int  # every passage that holds all the words, not only this page
    passages: list[Found]

    def as_json(self) -> dict:
        return {
            "query": self.query,
            "total": self.total,
            "passages": [{"passage_id": p.passage_id, "excerpt": p.excerpt} for p in self.passages],
        }


def words(text: str) -> list[str]:
    """The words of a search, each required; repeats once. In NFC, as the corpus is stored:
    a word typed or pasted decomposed (NFD) would find nothing."""
    return list(dict.fromkeys(nfc(text).split()))


def check_page(limit: int, offset: int) -> str | None:
    """What is wrong with a page request, or None."""
    if not 1 <= limit <= LIMIT_MAX:
        return f"--limit must be between 1 and {LIMIT_MAX}, not {limit}"
    if offset < 0:
        return f"--offset must be 0 or more, not {offset}"
    return None


def excerpt(text: str, terms: Sequence[str], width: int = EXCERPT_CHARS) -> str:
    """About `width` characters of text on one line, starting a little before the first
    term found (case folded), with … where it was cut."""
    flat = _SPACES.sub(" ", text).strip()
    start = 0
    if terms:
        pattern = re.compile("|".join(re.escape(t) for t in terms), re.IGNORECASE)
        found = pattern.search(flat)
        if found:
            start = max(0, found.start() - width // 4)
    piece = flat[start : start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")


def chunking_named(store, name: str) -> int:
    """The key of the chunking of that name (in NFC, as names are stored); ValueError naming
    the chunkings there are for an unknown one."""
    named = store.chunking_named(nfc(name))
    if named is None:
        names = ", ".join(repr(c["name"]) for c in store.chunkings()) or "none"
        raise ValueError(f"there is no chunking {name!r} (there are: {names})")
    return named["pk"]


def search(
    store,
    text: str,
    limit: int = 20,
    offset: int = 0,
    order: str = "corpus",
    chunking: str | None = None,
) -> SearchPage:
    """One page of the passages holding every word of text, with the exact total, in corpus
    order or by relevance (ORDERS), of the chunking named or (None) of every chunking. Raises
    ValueError for a page outside 1..LIMIT_MAX from an offset below 0, or an unknown chunking."""
    problem = check_page(limit, offset)
    if problem:
        raise ValueError(problem)
    chunking_pk = None if chunking is None else chunking_named(store, chunking)
    terms = words(text)
    total, rows = store.search(
        terms, limit, offset, relevance=order == "relevance", chunking_pk=chunking_pk
    )
    return SearchPage(
        text,
        total,
        [Found(r["pk"], r["id"], r["title"], excerpt(r["text"], terms)) for r in rows],
    )


@dataclass(frozen=True)
class Alike:
    passage_id: str
    score: float  # 0..1: the share of the passage's distinctive pairs it holds (db/similar.py)
    document: str | None
    title: str | None


@dataclass(frozen=True)
class SimilarPassages:
    passage_id: str
    similar: list[Alike]

    def as_json(self) -> dict:
        return {
            "passage_id": self.passage_id,
            "similar": [
                {
                    "passage_id": a.passage_id,
                    "score": a.score,
                    "document": a.document,
                    "title": a.title,
                }
                for a in self.similar
            ],
        }


def similar(
    store, passage_id: str, limit: int = 10, chunking: str | None = None
) -> SimilarPassages | None:
    """The passages most like passage_id, best first (db/similar.py), or None when there is
    no such passage: the first chunking's (the one judgements name), or the named chunking's
    when ids repeat across chunkings. Raises ValueError for a limit outside 1..LIMIT_MAX or
    an unknown chunking."""
    problem = check_page(limit, 0)
    if problem:
        raise ValueError(problem)
    if chunking is None:
        found = store.passage(nfc(passage_id))
    else:
        found = store.passage_in(nfc(passage_id), chunking_named(store, chunking))
    if found is None:
        return None
    rows = store.similar_passages(found["pk"], limit)
    return SimilarPassages(
        found["id"],
        [Alike(r["id"], r["score"], r["document"], r["title"]) for r in rows],
    )
