"""The rules of corpus search: which index answers which term, and how the bigram index is fed.

A term of three characters or more is a phrase of the trigram index (passage_fts). FTS5's
trigram tokenizer cannot match shorter terms, and Python's sqlite3 cannot register a tokenizer,
so a second, contentless FTS5 table (passage_bigram) holds every pair of adjacent characters
of a passage as a token: the text is rewritten as its pairs joined by spaces, and the table's
tokenizer splits only on whitespace, so a pair that holds a space falls apart into the single
character beside it (the last character of a word, or the first). A two-character term is
then one exact token, a one-character term the prefix of one. Both indexes fold case with
FTS5's own folding (the same table for both), so short and long terms match alike.

SQLite's Unicode tables are older than Python's: they still count U+180E (Mongolian vowel
separator) as a space, so a short term holding it, or holding whitespace, is matched with LIKE.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import add

# Every character is a token character except whitespace as Python's str.split() sees it:
# the Z* categories (by default) and the control characters Python also splits on.
_SEPARATORS = "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85"
BIGRAM_TOKENIZE = (
    f"unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S* C*' separators '{_SEPARATORS}'"
)
# detail=none: a search needs only which passages hold a token. (columnsize=0 would save a
# few bytes a passage, but a contentless table without sizes cannot be scanned, and
# sqlite3's iterdump scans every table.)
BIGRAM_TABLE = (
    "CREATE VIRTUAL TABLE passage_bigram USING fts5(text, content='', detail=none, "
    f'tokenize="{BIGRAM_TOKENIZE}")'
)
# Document counts of the tokens in at least this many passages, kept beside the index: a
# two-character Korean word is often in most passages, and counting a million matches one by
# one takes longer than a search may. Rarer tokens are counted live (fast: they are rare).
COMMON_BIGRAM_DOCS = 1000
BIGRAM_COUNT_TABLE = (
    "CREATE TABLE passage_bigram_count (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID"
)
TRIGRAM_HASHSIZE = "INSERT INTO passage_fts (passage_fts, rank) VALUES ('hashsize', 16777216)"
RANGE = 50_000  # passages per pass of the index build
_NOT_IN_BIGRAMS = re.compile(r"[\s\u180e]")


def bigram_text(text: str) -> str:
    """Adjacent character pairs of text, space-separated (see the module docstring)."""
    return " ".join(map(add, text, text[1:] + " "))


PHASE = "building the search index"
_TRIGRAM_INSERT = (
    "INSERT INTO passage_fts (rowid, text) SELECT pk, text FROM passage WHERE pk BETWEEN ? AND ?"
)
_BIGRAM_INSERT = (
    "INSERT INTO passage_bigram (rowid, text) SELECT pk, bigram_text(text) FROM passage "
    "WHERE pk BETWEEN ? AND ?"
)


def index_passages(conn: sqlite3.Connection, first_pk: int, progress=None) -> None:
    """Add the passages from first_pk on to both search indexes (a trigger per row would cost
    more than one pass over the new rows). Caller holds the transaction."""
    _build(conn, first_pk, (_TRIGRAM_INSERT, _BIGRAM_INSERT), progress)


def index_bigrams(conn: sqlite3.Connection, first_pk: int, progress=None) -> None:
    """Add the passages from first_pk on to the bigram index only (the migration that
    introduced it). Caller holds the transaction."""
    _build(conn, first_pk, (_BIGRAM_INSERT,), progress)


def _build(conn: sqlite3.Connection, first_pk: int, inserts: Sequence[str], progress) -> None:
    """One pass over the rows per key range and index, so that a long build shows how far it
    is (progress(done, total, phase) between ranges, which is where a cancel can stop it);
    then the common tokens are recounted."""
    conn.create_function("bigram_text", 1, bigram_text, deterministic=True)
    last_pk = conn.execute("SELECT max(pk) FROM passage").fetchone()[0] or 0
    span = max(last_pk - first_pk + 1, 0)
    total = span * len(inserts)
    for step, insert in enumerate(inserts):
        for low in range(first_pk, last_pk + 1, RANGE):
            if progress is not None:
                progress(step * span + low - first_pk, total, PHASE)
            conn.execute(insert, (low, min(low + RANGE - 1, last_pk)))
    if progress is not None:
        progress(total, total, PHASE)
    count_common_bigrams(conn)


def count_common_bigrams(conn: sqlite3.Connection) -> None:
    """Recount passage_bigram_count from the whole index (a pass over it in C, a few seconds
    for a million passages): after every change to passage_bigram, in its transaction."""
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.passage_bigram_vocab "
        "USING fts5vocab(main, passage_bigram, 'row')"
    )
    conn.execute("DELETE FROM passage_bigram_count")
    conn.execute(
        "INSERT INTO passage_bigram_count (term, docs) "
        "SELECT term, doc FROM temp.passage_bigram_vocab WHERE doc >= ?",
        (COMMON_BIGRAM_DOCS,),
    )


def stored_token(term: str) -> str | None:
    """The token FTS5 stores for term, where Python surely folds alike: ASCII (FTS5 folds A-Z
    only) or a term without cased characters (Hangul, digits, punctuation); else None."""
    if term.isascii():
        return term.lower()
    return term if term.lower() == term == term.upper() else None


def phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


@dataclass
class TermPlan:
    """How each term of a search is answered: FTS5 match expressions (None when no term goes
    to that index) and the terms left to LIKE."""

    trigram: str | None = None
    bigram: str | None = None
    like: list[str] = field(default_factory=list)
    # the stored token when the whole search is one two-character term: its count may be kept
    counted: str | None = None
    # every term under three characters (bigram and LIKE ones): ranked by their counts
    short: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.trigram or self.bigram or self.like)


def plan(terms: Sequence[str]) -> TermPlan:
    """Empty when no term is given: a search for nothing finds nothing."""
    terms = list(dict.fromkeys(t for t in terms if t))
    one = terms[0] if len(terms) == 1 and len(terms[0]) == 2 else None
    long = [t for t in terms if len(t) >= 3]
    short = [t for t in terms if len(t) < 3 and not _NOT_IN_BIGRAMS.search(t)]
    like = [t for t in terms if len(t) < 3 and _NOT_IN_BIGRAMS.search(t)]
    return TermPlan(
        trigram=" AND ".join(map(phrase, long)) or None,
        # A one-character term is the first character of some token: a prefix query.
        bigram=" AND ".join(phrase(t) + ("*" if len(t) == 1 else "") for t in short) or None,
        like=like,
        counted=stored_token(one) if one and not like else None,
        short=[t for t in terms if len(t) < 3],
    )


def relevance_order(plan: TermPlan, source: tuple[str, list]) -> tuple[str, list]:
    """SQL giving (pk, rank) of the passages source selects, rank lowest best. With a term of
    three characters or more, FTS5's bm25 over the trigram index (which counts how often a
    term occurs and how long a passage is; shorter terms add nothing to it). With short terms
    only: the bigram index is contentless and detail=none, so its bm25 is 0 for every
    passage; the same BM25 (k1 1.2, b 0.75) is then counted from the found passages' texts,
    every term weighing alike, as all are required (occurrences counted with ASCII case
    folded, as SQLite's lower() folds)."""
    sql, params = source
    if plan.trigram:
        return (
            "SELECT rowid AS pk, rank FROM passage_fts WHERE passage_fts MATCH ? "
            f"AND rowid IN ({sql})",
            [plan.trigram, *params],
        )
    short = [t.lower() for t in plan.short]
    # occurrences of a term: how much shorter the text is without it, in terms
    tf = "((length(t) - length(replace(t, ?, ''))) / length(?))"
    score = " + ".join(f"{tf} * 2.2 / ({tf} + 1.2 * (0.25 + 0.75 * n / mean))" for _ in short)
    return (
        f"SELECT pk, -({score}) AS rank FROM (SELECT pk, lower(text) AS t, length(text) AS n, "
        f"avg(length(text)) OVER () AS mean FROM passage WHERE pk IN ({sql}))",
        [*(x for term in short for x in (term, term, term, term)), *params],
    )
