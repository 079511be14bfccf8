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
TRIGRAM_HASHSIZE = "INSERT INTO passage_fts (passage_fts, rank) VALUES ('hashsize', 16777216)"
_NOT_IN_BIGRAMS = re.compile(r"[\s\u180e]")


def bigram_text(text: str) -> str:
    """Adjacent character pairs of text, space-separated (see the module docstring)."""
    return " ".join(map(add, text, text[1:] + " "))


def register(conn: sqlite3.Connection) -> None:
    """Make bigram_text() callable from SQL on this connection (the index is fed in SQL)."""
    conn.create_function("bigram_text", 1, bigram_text, deterministic=True)


def index_bigrams(conn: sqlite3.Connection, first_pk: int, last_pk: int | None = None) -> None:
    """Add passages first_pk..last_pk (all from first_pk when last_pk is None) to the bigram
    index. One pass over the rows, as for the trigram index. Caller holds the transaction."""
    register(conn)
    conn.execute(
        "INSERT INTO passage_bigram (rowid, text) SELECT pk, bigram_text(text) FROM passage "
        "WHERE pk >= ? AND pk <= ?",
        (first_pk, 2**63 - 1 if last_pk is None else last_pk),
    )


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


@dataclass
class TermPlan:
    """How each term of a search is answered: FTS5 match expressions (None when no term goes
    to that index) and the terms left to LIKE."""

    trigram: str | None = None
    bigram: str | None = None
    like: list[str] = field(default_factory=list)


def plan(terms: Sequence[str]) -> TermPlan:
    long = [t for t in terms if len(t) >= 3]
    short = [t for t in terms if len(t) < 3 and not _NOT_IN_BIGRAMS.search(t)]
    like = [t for t in terms if len(t) < 3 and _NOT_IN_BIGRAMS.search(t)]
    return TermPlan(
        trigram=" AND ".join(map(_phrase, long)) or None,
        # A one-character term is the first character of some token: a prefix query.
        bigram=" AND ".join(_phrase(t) + ("*" if len(t) == 1 else "") for t in short) or None,
        like=like,
    )
