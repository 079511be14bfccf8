"""Items given as spans in the one scorer (issue 19 item 2), against an independent
computation on random documents: a run on the gold's own chunking keeps the id rule for the
items judged on passages and finds the items given as spans (with alternatives as spans and
as passages) by coverage; a run on another chunking finds every item by coverage."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from desktop.evaluation import metrics, span_scores
from desktop.evaluation.spans import Span

KS = (1, 3)
BUDGETS = (25,)


def cut(doc: str, length: int, size: int, step: int, prefix: str):
    out, start = [], 0
    while True:
        end = min(start + size, length)
        out.append((f"{prefix}-{doc}-{start}", Span(doc, start, end)))
        if end == length:
            return out
        start += step


@st.composite
def study(draw):
    lengths = {d: draw(st.integers(10, 60)) for d in ("a", "b")}
    own = [p for d, n in lengths.items() for p in cut(d, n, draw(st.integers(4, 12)), 4, "o")]
    size = draw(st.integers(5, 20))
    other = [p for d, n in lengths.items() for p in cut(d, n, size, max(1, size - 3), "x")]
    spans_of = dict(own + other)

    def a_span():
        doc = draw(st.sampled_from(sorted(lengths)))
        start = draw(st.integers(0, lengths[doc] - 1))
        return Span(doc, start, draw(st.integers(start + 1, lengths[doc])))

    items = []
    own_ids = [pid for pid, _ in own]
    for _ in range(draw(st.integers(1, 3))):
        role = draw(st.sampled_from(["core", "supporting", None]))
        alt_ids = draw(st.lists(st.sampled_from(own_ids), max_size=2, unique=True))
        alt_spans = tuple(a_span() for _ in range(draw(st.integers(0, 1))))
        if draw(st.booleans()):  # given as a span: its primary is its key, no passage
            span = a_span()
            key = f"{span.document}:{span.start}-{span.end}"
            items.append(metrics.Item(key, role, frozenset(alt_ids), (span, *alt_spans)))
        else:
            primary = draw(st.sampled_from(own_ids))
            passages = frozenset([primary, *alt_ids])
            items.append(metrics.Item(primary, role, passages, alt_spans))
    runs = {
        "own": draw(st.lists(st.sampled_from(own_ids), max_size=6, unique=True)),
        "other": draw(st.lists(st.sampled_from([p for p, _ in other]), max_size=6, unique=True)),
    }
    return items, runs, spans_of


def chars(span: Span) -> set:
    return {(span.document, i) for i in range(span.start, span.end)}


def context(ranked, spans_of, k=None, budget=None) -> set:
    if budget is None:
        return set().union(*(chars(spans_of[p]) for p in ranked[:k]))
    u, left = set(), budget
    for p in ranked:
        if left <= 0:
            break
        span = spans_of[p]
        take = min(len(span), left)
        u |= chars(Span(span.document, span.start, span.start + take))
        left -= take
    return u


def oracle(items, ranked, spans_of, own: bool, k=None, budget=None) -> dict:
    sets = []
    for item in items:
        these = [chars(spans_of[p]) for p in item.passages] + [chars(s) for s in item.spans]
        sets.append(these)
    u = context(ranked, spans_of, k, budget)
    cov = [max(len(s & u) / len(s) for s in these) for these in sets]
    found, first = [], []
    for item, these, c in zip(items, sets, cov, strict=True):
        if own and budget is None and item.primary in item.passages:  # the id rule
            found.append(bool(item.passages & set(ranked[:k])))
            first.append(next((i for i, p in enumerate(ranked, 1) if p in item.passages), 0))
            continue
        found.append(c >= 0.5)
        reached = 0
        for rank in range(1, len(ranked) + 1):
            at = (
                context(ranked[:rank], spans_of, None, budget)
                if budget
                else context(ranked, spans_of, rank)
            )
            if max(len(s & at) / len(s) for s in these) >= 0.5:
                reached = rank
                break
        first.append(reached)
    evidence = set().union(*(s for these in sets for s in these))
    cores = [f for f, item in zip(found, items, strict=True) if item.role == "core"]
    ranks = [r for r, f in zip(first, found, strict=True) if f and r]
    return {
        "Recall": sum(found) / len(items),
        "CoreRecall": sum(cores) / len(cores) if cores else None,
        "Hit": 1.0 if any(found) else 0.0,
        "MRR": 1.0 / min(ranks) if ranks else 0.0,
        "SpanRecall": sum(cov) / len(cov),
        "SpanPrecision": len(u & evidence) / len(u) if u else 0.0,
    }


@settings(max_examples=150, deadline=None)
@given(study())
def test_span_items_score_as_sets_of_character_positions(case):
    items, runs, spans_of = case
    gold = {"q": items}
    lists = {name: {"q": ranked} for name, ranked in runs.items() if ranked}
    assume(lists)
    scores = metrics.evaluate(gold, lists, KS, {"q": set()})
    setting = span_scores.SpanSetting(0.5, list(BUDGETS), spans_of, frozenset(["own"]))
    span_scores.add_span_scores(scores, gold, lists, KS, setting)
    assert {s.system for s in scores} == set(lists)
    for system in scores:
        got = system.per_question["q"]
        ranked = runs[system.system]
        own = system.system == "own"
        for k, budget in [(k, None) for k in KS] + [(None, b) for b in BUDGETS]:
            want = oracle(items, ranked, spans_of, own, k, budget)
            for measure, value in want.items():
                name = f"{measure}@{k}" if budget is None else f"{measure}@{budget}ch"
                assert got[name] == pytest.approx(value), (system.system, name)
        given_spans = any(item.primary not in item.passages for item in items)
        for k in KS:
            by_ids_only = own and not given_spans
            assert (got[f"nDCG@{k}"] is not None) == by_ids_only
            assert (got[f"Judged@{k}"] is not None) == own
            assert not math.isnan(got[f"Recall@{k}"])
