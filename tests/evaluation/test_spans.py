"""The span rule of design section 10 (desktop/evaluation/spans.py): hand-computed oracles
for every rule and edge of issue 19 item 3, and hypothesis against an independent
implementation that counts sets of character positions."""

from __future__ import annotations

import unicodedata
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.evaluation import metrics
from desktop.evaluation.spans import (
    ACROSS_CHUNKINGS,
    SPAN_MEASURES,
    Span,
    SpanItem,
    SpanQuestion,
    context,
    coverage,
    found,
    item_coverage,
    labels,
    locate,
    merge,
    parse_budgets,
    passage_coverage,
    prefix,
    project_gold,
    score_question,
)

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
    Span("d1", 3, 10).check(10)
    with pytest.raises(ValueError, match="runs past the end"):
        Span("d1", 3, 11).check(10)


# One question, two documents. Item A (core) is given as a span, with one alternative given as a
# span and one as a passage id ("x", judged on another chunking, span d1[80,90)); item B
# (supporting) is a span. E = d1[10,30) + d1[40,60) + d1[80,90) + d2[0,10).
A = SpanItem("core", (Span("d1", 10, 30), Span("d2", 0, 10), Span("d1", 80, 90)), frozenset("x"))
B = SpanItem("supporting", (Span("d1", 40, 60),))
# A run on a chunking of 25-character passages with overlapping neighbours: p2 repeats p1's
# last five characters and crosses both items; p3 holds exactly half of A's span in d2.
RUN = [
    ("p1", Span("d1", 0, 25)),
    ("p2", Span("d1", 20, 45)),
    ("p3", Span("d2", 5, 15)),
    ("p4", Span("d1", 45, 55)),
]


def measures(scores, at):
    names = ("Recall", "CoreRecall", "Hit", "MRR", "SpanRecall", "SpanPrecision")
    return tuple(scores[f"{name}@{at}"] for name in names)


def test_span_rule_at_k_by_hand():
    scores = score_question([A, B], RUN, ks=[1, 2, 3, 4, 10])
    # rank 1: U = d1[0,25); A covers 15/20 = 0.75 >= 0.5, found at rank 1; B nothing
    assert measures(scores, 1) == (0.5, 1.0, 1.0, 1.0, (0.75 + 0) / 2, 15 / 25)
    # rank 2: U = d1[0,45) (the five repeated characters once); A 20/20, B 5/20
    assert measures(scores, 2) == (0.5, 1.0, 1.0, 1.0, (1.0 + 0.25) / 2, 25 / 45)
    # rank 3: U gains d2[5,15); A's d2 span is covered exactly half, A stays at 1.0
    assert measures(scores, 3) == (0.5, 1.0, 1.0, 1.0, (1.0 + 0.25) / 2, 30 / 55)
    # rank 4: B covers 15/20 and is found
    assert measures(scores, 4) == (1.0, 1.0, 1.0, 1.0, (1.0 + 0.75) / 2, 40 / 65)
    # a run shorter than K: the whole list
    assert measures(scores, 10) == measures(scores, 4)
    # nDCG and P@K are not defined across chunkings
    assert scores["nDCG@10"] is None and scores["P@10"] is None
    assert "chunkings" in ACROSS_CHUNKINGS


def test_span_rule_at_budgets_by_hand():
    scores = score_question([A, B], RUN, ks=[1], budgets=[1000, 30, 40, 50])
    # 30: p1 (25) and p2 cut to its first 5 characters, d1[20,25), all already in U: every
    # passage's full length counts towards the budget, repeated characters once in U
    assert prefix([span for _, span in RUN], budget=30) == [Span("d1", 0, 25), Span("d1", 20, 25)]
    assert measures(scores, "30ch") == (0.5, 1.0, 1.0, 1.0, 0.75 / 2, 15 / 25)
    # 40: p2 cut to d1[20,35): U = d1[0,35), A whole, B nothing
    assert measures(scores, "40ch") == (0.5, 1.0, 1.0, 1.0, 1.0 / 2, 20 / 35)
    # 50: p1 and p2 reach it exactly: the shortest prefix, p3 is not in it
    assert measures(scores, "50ch") == (0.5, 1.0, 1.0, 1.0, 1.25 / 2, 25 / 45)
    # a run shorter than the budget: the whole list
    assert measures(scores, "1000ch") == (1.0, 1.0, 1.0, 1.0, 1.75 / 2, 40 / 65)
    assert "nDCG@1000ch" not in scores


def test_mrr_is_the_rank_where_an_item_becomes_found():
    item = SpanItem(None, (Span("d1", 0, 10),))
    run = [("q1", Span("d1", 7, 20)), ("q2", Span("d1", 0, 5)), ("q3", Span("d1", 50, 60))]
    scores = score_question([item], run, ks=[1, 2, 3])
    # rank 1 touches the item (3/10) but does not find it; rank 2 brings it to 8/10
    assert measures(scores, 1) == (0.0, None, 0.0, 0.0, 0.3, 3 / 13)
    assert measures(scores, 2) == (1.0, None, 1.0, 0.5, 0.8, 8 / 18)
    assert measures(scores, 3) == (1.0, None, 1.0, 0.5, 0.8, 8 / 28)


@pytest.mark.parametrize(
    ("span", "passage", "theta", "found"),
    [
        (Span("d", 0, 10), Span("d", 5, 20), 0.5, True),  # 5/10 exactly at θ
        (Span("d", 0, 10), Span("d", 6, 20), 0.5, False),  # 4/10
        (Span("d", 0, 11), Span("d", 6, 20), 0.5, False),  # 5/11, just under
        (Span("d", 0, 11), Span("d", 5, 20), 0.5, True),  # 6/11
        (Span("d", 0, 10), Span("d", 5, 20), 0.6, False),  # 5/10 under θ = 0.6
        (Span("d", 0, 10), Span("d", 4, 20), 0.6, True),  # 6/10 exactly at θ = 0.6
        (Span("d", 0, 10), Span("d", 0, 10), 1.0, True),
    ],
)
def test_theta_boundaries(span, passage, theta, found):
    scores = score_question([SpanItem("core", (span,))], [("p", passage)], ks=[1], theta=theta)
    assert scores["Recall@1"] == (1.0 if found else 0.0)
    assert scores["Hit@1"] == scores["Recall@1"]


def test_empty_context():
    scores = score_question([A, B], [], ks=[5], budgets=[100])
    for at in (5, "100ch"):
        assert measures(scores, at) == (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    # a context that holds none of the evidence
    scores = score_question([A], [("far", Span("d3", 0, 50))], ks=[1])
    assert measures(scores, 1) == (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def test_items_judged_on_the_runs_own_chunking_keep_the_id_rule():
    # A was judged on this run's chunking: its passages there are "a" (its primary, d1[10,30))
    # and "x" (its alternative, d1[80,90)). "w" overlaps the primary by 15/20 but is not one of
    # A's passages: by the id rule A is found only at rank 2, where "x" is.
    item = SpanItem("core", (Span("d1", 10, 30), Span("d1", 80, 90)), frozenset({"a", "x"}))
    run = [("w", Span("d1", 5, 25)), ("x", Span("d1", 80, 90))]
    own = score_question([item], run, ks=[1, 2], budgets=[20], id_rule_items=[0])
    assert own["Recall@1"] == 0.0 and own["MRR@2"] == 0.5 and own["Recall@2"] == 1.0
    # SpanRecall and SpanPrecision are coverage still, and budgets are always the span rule
    assert own["SpanRecall@1"] == 0.75 and own["SpanPrecision@1"] == 15 / 20
    assert own["Recall@20ch"] == 1.0 and own["MRR@20ch"] == 1.0
    # every item on the id rule: nDCG and P@K are the id scorer's, not given here
    assert "nDCG@1" not in own and "P@1" not in own
    # the same run scored as another chunking's: found at rank 1 by coverage
    other = score_question([item], run, ks=[1, 2])
    assert other["Recall@1"] == 1.0 and other["MRR@2"] == 1.0 and other["nDCG@1"] is None
    # mixed: one item on the id rule, one by the span rule
    mixed = score_question([item, B], run, ks=[1], id_rule_items={0})
    assert mixed["Recall@1"] == 0.0 and mixed["nDCG@1"] is None


def test_offsets_are_counted_after_nfc():
    text = "하나님은 사랑이시다. 참사랑은 위하여 사는 것이다."
    document_nfd = unicodedata.normalize("NFD", text)
    passage_nfd = unicodedata.normalize("NFD", "참사랑은 위하여")
    assert len(document_nfd) > len(text)  # each Hangul syllable is two or three jamo in NFD
    # located in the raw NFD text, the offsets would be the jamo's, not the stored text's
    assert locate(passage_nfd, document_nfd) != (12, 20)
    document = unicodedata.normalize("NFC", document_nfd)
    found = locate(unicodedata.normalize("NFC", passage_nfd), document)
    assert found == (12, 20) and document[12:20] == "참사랑은 위하여"
    gold = SpanItem("core", (Span("d", 12, 16),))  # "참사랑은" in NFC code points
    scores = score_question([gold], [("p", Span("d", *found))], ks=[1])
    assert scores["SpanRecall@1"] == 1.0 and scores["SpanPrecision@1"] == 4 / 8


def test_intervals_and_coverage_helpers():
    spans = [Span("d1", 20, 45), Span("d1", 0, 25), Span("d1", 45, 50), Span("d2", 5, 15)]
    assert merge(spans) == {"d1": [(0, 50)], "d2": [(5, 15)]}
    u = context([span for _, span in RUN], k=2)
    assert u == {"d1": [(0, 45)]}
    assert coverage(Span("d1", 40, 60), u) == 0.25
    assert item_coverage(A.spans, context([span for _, span in RUN], budget=40)) == 1.0
    assert found(B.spans, u) is False and found(B.spans, u, theta=0.25) is True


def test_coverage_per_item_and_per_passage():
    spans = [span for _, span in RUN]
    question = SpanQuestion([A, B])
    assert question.coverages(spans, k=2) == [1.0, 0.25]
    assert question.coverages(spans, budget=30) == [0.75, 0.0]
    assert question.coverages([], k=5) == [0.0, 0.0]
    # p2 crosses both items: 10/20 of A's span in d1, 5/20 of B's
    assert passage_coverage(RUN[1][1], [A, B]) == [(0, 0.5), (1, 0.25)]
    # p3 holds half of A's alternative span in d2
    assert passage_coverage(RUN[2][1], [A, B]) == [(0, 0.5)]
    assert passage_coverage(Span("d3", 0, 9), [A, B]) == []


def test_project_gold_by_hand():
    spans = [Span("d1", 10, 30), Span("d2", 0, 10)]
    passages = [
        ("q1", Span("d1", 0, 10)),  # touches nothing
        ("q2", Span("d1", 0, 20)),  # holds 10/20 of the span: exactly θ
        ("q3", Span("d1", 0, 19)),  # 9/20 of the span, 9/19 of itself
        ("q4", Span("d1", 25, 27)),  # wholly inside the span (AutoRAG drops it)
        ("q5", Span("d1", 28, 100)),  # 2/20, 2/72
        ("q6", Span("d1", 20, 40)),  # 10/20 of the span
        ("q7", Span("d2", 5, 25)),  # 5/10 of the d2 span
        ("q8", Span("d1", 26, 34)),  # 4/20 of the span, but 4/8 of itself inside it
        ("q9", Span("d1", 25, 36)),  # 5/20, 5/11
    ]
    assert project_gold(spans, passages) == ["q2", "q4", "q6", "q7", "q8"]
    assert project_gold(spans, passages, theta=0.75) == ["q4"]


def test_bad_arguments():
    with pytest.raises(ValueError):
        score_question([], RUN, ks=[1])
    with pytest.raises(ValueError):
        score_question([A], RUN, ks=[1], theta=0)
    with pytest.raises(ValueError):
        score_question([SpanItem("core", ())], RUN, ks=[1])
    assert parse_budgets("2000, 1000,2000") == [1000, 2000]
    for bad in ("", "0", "1000,abc", "-5"):
        with pytest.raises(ValueError):
            parse_budgets(bad)


# --- hypothesis: the same measures from sets of character positions ---------------------------


def chars(span):
    return {(span.document, i) for i in range(span.start, span.end)}


def oracle_prefix(ranked, k=None, budget=None):
    """(key, characters) of the context's passages; for a budget, characters taken one by one
    in passage order, repeats included, until budget of them are taken."""
    if budget is None:
        return [(key, chars(span)) for key, span in ranked[:k]]
    out, taken = [], 0
    for key, span in ranked:
        if taken == budget:
            break
        cut = list(range(span.start, span.end))[: budget - taken]
        taken += len(cut)
        out.append((key, {(span.document, i) for i in cut}))
    return out


def oracle_found(item, index, passages, theta, id_rule):
    if index in id_rule:
        return any(key in item.passages for key, _ in passages)
    u = set().union(*(c for _, c in passages))
    return any(Fraction(len(chars(s) & u), len(s)) >= Fraction(theta) for s in item.spans)


def oracle_measures(items, passages, theta, id_rule):
    u = set().union(*(c for _, c in passages))
    e = set().union(*(chars(s) for item in items for s in item.spans))
    found = [oracle_found(it, i, passages, theta, id_rule) for i, it in enumerate(items)]
    core = [f for f, it in zip(found, items, strict=True) if it.role == "core"]
    ranks = range(1, len(passages) + 1)
    found_by = [
        rank
        for rank in ranks
        if any(oracle_found(it, i, passages[:rank], theta, id_rule) for i, it in enumerate(items))
    ]
    first = found_by[0] if found_by else None
    covs = [max(len(chars(s) & u) / len(s) for s in it.spans) for it in items]
    return {
        "Recall": sum(found) / len(items),
        "CoreRecall": sum(core) / len(core) if core else None,
        "Hit": float(any(found)),
        "MRR": 1 / first if first else 0.0,
        "SpanRecall": sum(covs) / len(items),
        "SpanPrecision": len(u & e) / len(u) if u else 0.0,
    }


def chunking(lengths, size, overlap):
    passages = []
    for document, length in enumerate(lengths):
        start = 0
        while True:
            end = min(start + size, length)
            passages.append((f"d{document}:{start}", Span(f"d{document}", start, end)))
            if end == length:
                break
            start += size - overlap
    return passages


@st.composite
def questions(draw):
    lengths = draw(st.lists(st.integers(1, 80), min_size=1, max_size=3))
    size = draw(st.integers(1, 30))
    passages = chunking(lengths, size, draw(st.integers(0, size - 1)))
    ranked = draw(st.permutations(passages))[: draw(st.integers(0, len(passages)))]

    def span():
        document = draw(st.integers(0, len(lengths) - 1))
        start = draw(st.integers(0, lengths[document] - 1))
        return Span(f"d{document}", start, draw(st.integers(start + 1, lengths[document])))

    items = []
    for _ in range(draw(st.integers(1, 4))):
        spans = tuple(span() for _ in range(draw(st.integers(1, 3))))
        keys = draw(st.sets(st.sampled_from([key for key, _ in passages]), max_size=3))
        role = draw(st.sampled_from(["core", "supporting", None]))
        items.append(SpanItem(role, spans, frozenset(keys)))
    id_rule = draw(st.sets(st.integers(0, len(items) - 1)))
    ks = draw(st.lists(st.integers(1, 12), min_size=1, max_size=3))
    budgets = draw(st.lists(st.integers(1, 250), max_size=3))
    theta = draw(st.sampled_from([0.25, 0.5, 0.75, 1.0]))
    return items, ranked, ks, budgets, theta, id_rule, passages


@settings(max_examples=300, deadline=None)
@given(questions())
def test_span_rule_equals_sets_of_characters(question):
    items, ranked, ks, budgets, theta, id_rule, _ = question
    scores = score_question(items, ranked, ks, budgets, theta, id_rule_items=id_rule)
    expected = {}
    for k in ks:
        these = oracle_measures(items, oracle_prefix(ranked, k=k), theta, id_rule)
        expected.update({f"{name}@{k}": value for name, value in these.items()})
        if len(id_rule) < len(items):
            expected.update({f"nDCG@{k}": None, f"P@{k}": None})
    for budget in budgets:
        these = oracle_measures(items, oracle_prefix(ranked, budget=budget), theta, set())
        expected.update({f"{name}@{budget}ch": value for name, value in these.items()})
    assert scores == pytest.approx(expected, abs=1e-12)
    # prepared once, the question scores any number of lists, each on its own
    prepared = SpanQuestion(items, theta)
    prepared.score(ranked[::-1], ks, budgets)
    assert prepared.score(ranked, ks, budgets, id_rule_items=id_rule) == scores
    # labels() names them in the order score() gives them
    assert [key for key in scores if key.split("@")[0] in SPAN_MEASURES] == labels(ks, budgets)


@settings(max_examples=300, deadline=None)
@given(questions())
def test_project_gold_equals_sets_of_characters(question):
    items, _, _, _, theta, _, passages = question
    for item in items:
        expected = [
            key
            for key, passage in passages
            if any(
                len(chars(s) & chars(passage)) >= Fraction(theta) * len(s)
                or len(chars(s) & chars(passage)) >= Fraction(theta) * len(passage)
                for s in item.spans
            )
        ]
        assert project_gold(item.spans, passages, theta) == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(list("가나다라 ab\n\t")), min_size=1, max_size=60),
    st.data(),
)
def test_locate_finds_a_piece_with_its_whitespace_changed(letters, data):
    document = "".join(letters)
    start = data.draw(st.integers(0, len(document) - 1))
    end = data.draw(st.integers(start + 1, len(document)))
    piece = document[start:end]
    if piece.isspace():
        assert locate(piece, document) is None
        return
    changed = data.draw(st.sampled_from([" ", "", "\n  "])).join(piece.split())
    found = locate(changed, document)
    assert found is not None
    # the located text is the piece up to whitespace
    assert "".join(document[found[0] : found[1]].split()) == "".join(piece.split())
    assert not document[found[0]].isspace() and not document[found[1] - 1].isspace()


@settings(max_examples=200, deadline=None)
@given(questions())
def test_the_id_rule_gives_the_id_scorers_numbers(question):
    # every item judged on the run's own chunking: Recall, CoreRecall, Hit and MRR are section
    # 3's, the very numbers desktop.metrics gives (and trec_eval with them)
    items, ranked, ks, _, theta, _, _ = question
    everything = range(len(items))
    scores = score_question(items, ranked, ks, theta=theta, id_rule_items=everything)
    by_id = metrics.Prepared(
        [metrics.Item(i, item.role, item.passages) for i, item in enumerate(items)], ks
    ).score([key for key, _ in ranked])
    for k in ks:
        for name in ("Recall", "CoreRecall", "Hit", "MRR"):
            assert scores[f"{name}@{k}"] == by_id[f"{name}@{k}"]
