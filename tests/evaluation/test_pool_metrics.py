"""P@K and Judged@K (issue 13 point 3) against pytrec_eval and ir_measures, and hand-computed
tied cases."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop.evaluation.metrics import Item, Prepared
from tests.evaluation.test_metrics import PASSAGES, QUESTIONS, qrels_strategy, run_strategy, scored

FAST = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FAST
@given(qrels=qrels_strategy, run=run_strategy, k=st.sampled_from([1, 3, 5, 10]))
def test_p_at_k_agrees_with_pytrec_eval_with_level_zero_and_ties(tmp_path_factory, qrels, run, k):
    import pytrec_eval

    out = scored(tmp_path_factory.mktemp("p"), qrels, run, [k])
    if out is None:
        return
    per, _ = out
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {f"P.{k}"}).evaluate(run)
    for q, values in per.items():
        assert values[f"P@{k}"] == pytest.approx(theirs.get(q, {}).get(f"P_{k}", 0.0), abs=1e-12)


# distinct scores: ir_measures orders ties its own way
untied_runs = st.dictionaries(
    st.sampled_from(QUESTIONS),
    st.lists(st.sampled_from(PASSAGES), unique=True, max_size=15).map(
        lambda ps: {p: float(len(ps) - i) for i, p in enumerate(ps)}
    ),
)


@FAST
@given(qrels=qrels_strategy, run=untied_runs, k=st.sampled_from([1, 3, 5, 10]))
def test_judged_at_k_agrees_with_ir_measures_without_ties(tmp_path_factory, qrels, run, k):
    import ir_measures
    from ir_measures import Judged

    out = scored(tmp_path_factory.mktemp("j"), qrels, run, [k])
    if out is None:
        return
    per, _ = out
    theirs = {
        m.query_id: m.value
        for m in ir_measures.iter_calc(
            [Judged @ k],
            [ir_measures.Qrel(q, p, lvl) for q, docs in qrels.items() for p, lvl in docs.items()],
            [ir_measures.ScoredDoc(q, p, s) for q, docs in run.items() for p, s in docs.items()],
        )
    }
    for q, values in per.items():
        assert values[f"Judged@{k}"] == pytest.approx(theirs.get(q, 0.0), abs=1e-12), q


def test_tied_scores_take_the_design_order_by_hand(tmp_path):
    # q1: d01 relevant, d02 judged not relevant; the run ties d01, d02, d03 at one score.
    # The design (trec_eval) orders ties by passage id descending: d03, d02, d01.
    qrels = {"q1": {"d01": 1, "d02": 0}}
    run = {"q1": {"d01": 1.0, "d02": 1.0, "d03": 1.0}}
    per, means = scored(tmp_path, qrels, run, [1, 2, 5])
    assert per["q1"]["Judged@1"] == 0.0  # d03 is unjudged
    assert per["q1"]["Judged@2"] == 0.5  # d02 is judged
    assert per["q1"]["Judged@5"] == pytest.approx(2 / 3)  # |TopK| is 3, not 5
    assert per["q1"]["P@1"] == 0.0 and per["q1"]["P@2"] == 0.0
    assert per["q1"]["P@5"] == pytest.approx(1 / 5)  # K stays the denominator
    assert means["P@5"] == pytest.approx(1 / 5)


def test_judged_counts_alternatives_and_empty_lists():
    item = Item("a", "core", frozenset({"a", "alt"}))
    prepared = Prepared([item], [2, 3], judged={"a", "alt", "n"})
    scores = prepared.score(["alt", "x", "n"])
    assert scores["P@2"] == 0.5 and scores["Judged@2"] == 0.5 and scores["Judged@3"] == 2 / 3
    empty = prepared.score([])
    assert empty["Judged@2"] == 0.0 and empty["P@2"] == 0.0
    assert "P@2" not in Prepared([item], [2]).score(["alt"])  # without J(q): not scored
