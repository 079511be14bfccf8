"""SpanQuestion.first_found (the window's found marks and Recall curve for a run on another
chunking) agrees with the span rule's own Recall@k at every k, by hand and on random lists."""

from __future__ import annotations

import random

from desktop.evaluation.spans import Span, SpanItem, SpanQuestion


def test_first_found_by_hand():
    items = [SpanItem("core", (Span("d", 10, 20),)), SpanItem(None, (Span("d", 40, 50),))]
    question = SpanQuestion(items, 0.5)
    ranked = [("a", Span("d", 0, 12)), ("b", Span("d", 12, 16)), ("c", Span("d", 30, 60))]
    # a covers 2 of 10, a+b 6 of 10 (found at 2); c covers all of the second item
    assert question.first_found(ranked, 3) == [2, 3]
    assert question.first_found(ranked, 1) == [None, None]  # not within the depth


def test_first_found_equals_recall_at_every_k():
    rng = random.Random(7)
    for _ in range(200):
        items = []
        for _ in range(rng.randint(1, 4)):
            start = rng.randrange(0, 180)
            items.append(SpanItem("core", (Span("d", start, start + rng.randint(1, 40)),)))
        ranked = []
        for n in range(rng.randint(0, 12)):
            start = rng.randrange(0, 200)
            ranked.append((n, Span("d", start, start + rng.randint(1, 50))))
        theta = rng.choice([0.25, 0.5, 1.0])
        question = SpanQuestion(items, theta)
        first = question.first_found(ranked, len(ranked))
        ks = list(range(1, len(ranked) + 1)) or [1]
        scores = question.score(ranked, ks)
        for k in ks:
            found = sum(1 for rank in first if rank is not None and rank <= k)
            assert found / len(items) == scores[f"Recall@{k}"]
