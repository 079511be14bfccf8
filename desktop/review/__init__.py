"""What the reviewer window asks of a project, without Qt, by concern: which lines a reviewer
sees (seen), review status (status), scores kept current question by question (scores), the
full pass and the keypress path (overview), one question as shown (views), undo history read
back from the log (history), Korean search and highlight terms (terms), corpus search and a
passage's neighbours (search). The window's workers call the same functions on their own
Project; every store access goes through Project.

Words as in design section 2: passage, question, evidence item, role, alternative, system,
run, judgement, reviewer.
"""

from desktop.readers import sniff_encoding
from desktop.review.document_view import (
    DocumentWindow,
    GoldSpan,
    document_window,
)
from desktop.review.history import Key, Step, UndoHistory, history, next_at
from desktop.review.overview import (
    Judged,
    Overview,
    Tick,
    agreement,
    judged_question,
    overview,
    refresh_question,
)
from desktop.review.reading import Reading, opening, reading, reading_items
from desktop.review.scores import WINDOW_KS, Entry, Scoreboard, labels_for, score_entry
from desktop.review.search import has_corpus, passage_context, source_label
from desktop.review.seen import (
    QuestionRows,
    build_gold,
    each_question_rows,
    question_gold,
    reviewer_marks,
    reviewers,
    visible,
)
from desktop.review.spanned import (
    ACROSS,
    DEFAULT_BUDGET,
    DEFAULT_CHOICE,
    DEFAULT_THETA,
    UNRANKED,
    SpanChoice,
    SpanScoring,
)
from desktop.review.status import (
    DONE,
    IN_PROGRESS,
    STATUSES,
    UNTOUCHED,
    Summary,
    missed_at,
    review_status,
    summarize,
)
from desktop.review.terms import highlight_spans, question_terms, search_terms
from desktop.review.unjudged import pool_counts, pool_of, question_pool, unjudged_counts
from desktop.review.views import (
    Dispute,
    Found,
    ItemState,
    Note,
    QuestionView,
    RankedRow,
    at_key,
    pool_excerpts,
    question_view,
    unread_pool,
    view_of,
)

__all__ = [
    "DocumentWindow",
    "GoldSpan",
    "document_window",
    "ACROSS",
    "UNRANKED",
    "DEFAULT_BUDGET",
    "DEFAULT_CHOICE",
    "DEFAULT_THETA",
    "DONE",
    "IN_PROGRESS",
    "STATUSES",
    "UNTOUCHED",
    "WINDOW_KS",
    "Dispute",
    "Entry",
    "Found",
    "ItemState",
    "Judged",
    "Key",
    "Note",
    "Overview",
    "QuestionView",
    "RankedRow",
    "Scoreboard",
    "SpanChoice",
    "SpanScoring",
    "Step",
    "Summary",
    "Tick",
    "UndoHistory",
    "agreement",
    "build_gold",
    "has_corpus",
    "highlight_spans",
    "history",
    "judged_question",
    "labels_for",
    "next_at",
    "overview",
    "pool_counts",
    "pool_of",
    "passage_context",
    "reading",
    "reading_items",
    "opening",
    "Reading",
    "question_gold",
    "QuestionRows",
    "each_question_rows",
    "question_pool",
    "question_terms",
    "question_view",
    "at_key",
    "missed_at",
    "refresh_question",
    "pool_excerpts",
    "review_status",
    "reviewer_marks",
    "reviewers",
    "score_entry",
    "search_terms",
    "sniff_encoding",
    "source_label",
    "summarize",
    "unjudged_counts",
    "unread_pool",
    "view_of",
    "visible",
]
