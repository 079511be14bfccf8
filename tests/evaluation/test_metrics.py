"""Metrics: hand-computed cases for what trec_eval cannot check (alternatives, unassigned roles,
repeats, empty runs), and random cases against pytrec_eval through the real import path."""

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop.evaluation.metrics import (
    Item,
    evaluate,
    match,
    parse_ks,
    recall_curves,
    score_question,
)
from tests.helpers import write_jsonl, write_text


def item(primary, role=None, alternatives=()):
    return Item(primary, role, frozenset([primary, *alternatives]))


def test_seed_example_one_of_three_found():
    # The seed: gold A, B, C; top 5 holds only A -> Recall@5 = 1/3, Hit@5 = 1.
    items = [item("A", "core"), item("B", "core"), item("C", "core")]
    scores = score_question(items, ["x", "A", "y", "z", "w", "B"], [5, 10])
    assert scores["Recall@5"] == pytest.approx(1 / 3)
    assert scores["Hit@5"] == 1.0
    assert scores["Recall@10"] == pytest.approx(2 / 3)
    assert scores["MRR@5"] == 0.5


def test_alternative_counts_as_finding_the_item_once():
    items = [item("A", "core", ["A2"]), item("B", "supporting")]
    scores = score_question(items, ["A2", "A", "B"], [1, 2, 3])
    assert scores["Recall@1"] == 0.5
    assert scores["Recall@2"] == 0.5  # A after A2 finds nothing new
    assert scores["Recall@3"] == 1.0
    # nDCG@3: ranks earn 2 (core via A2), 0 (A's item already credited), 1 (B)
    dcg = 2 / math.log2(2) + 0 + 1 / math.log2(4)
    idcg = 2 / math.log2(2) + 1 / math.log2(3)
    assert scores["nDCG@3"] == pytest.approx(dcg / idcg)


def test_unassigned_role_has_gain_one_and_is_not_core():
    items = [item("A"), item("B", "core")]
    scores = score_question(items, ["A"], [1, 5])
    assert scores["CoreRecall@5"] == 0.0
    assert scores["Recall@5"] == 0.5
    idcg = 2 / math.log2(2) + 1 / math.log2(3)
    assert scores["nDCG@1"] == pytest.approx(1 / 2)
    assert scores["nDCG@5"] == pytest.approx((1 / math.log2(2)) / idcg)


def test_core_recall_is_none_without_core_items_and_left_out_of_the_mean():
    gold = {"q1": [item("A", "supporting")], "q2": [item("B", "core"), item("C", "core")]}
    runs = {"S": {"q1": ["A"], "q2": ["B"]}}
    (scores,) = evaluate(gold, runs, [5])
    assert scores.per_question["q1"]["CoreRecall@5"] is None
    assert scores.means["CoreRecall@5"] == 0.5  # only q2 counts
    assert scores.means["Recall@5"] == pytest.approx((1 + 0.5) / 2)
    assert scores.core_evaluated == 1


def test_passage_in_two_items_credits_the_higher_gain_first():
    # P is the primary of a supporting item and an alternative of a core one.
    items = [item("P", "supporting"), item("C", "core", ["P"])]
    scores = score_question(items, ["P", "C"], [2])
    assert scores["Recall@2"] == 1.0
    # rank 1 credits the core item (gain 2); rank 2 (C) belongs only to the credited core item.
    idcg = 2 / math.log2(2) + 1 / math.log2(3)
    assert scores["nDCG@2"] == pytest.approx(2 / idcg)


def test_empty_and_missing_runs_score_zero_and_questions_without_evidence_are_apart():
    gold = {"q1": [item("A", "core")], "q2": [], "q3": [item("B")]}
    runs = {"S": {"q1": []}}
    (scores,) = evaluate(gold, runs, [5])
    assert scores.evaluated == 2
    assert scores.means["Recall@5"] == 0.0
    assert scores.means["nDCG@5"] == 0.0
    assert "q2" not in scores.per_question


def test_k_longer_than_the_run_and_the_curve():
    items = [item("A"), item("B")]
    assert score_question(items, ["B"], [100])["Recall@100"] == 0.5
    curves = recall_curves({"q": items}, {"S": {"q": ["x", "B", "A"]}}, 4)
    assert curves["S"] == [0.0, 0.5, 1.0, 1.0]


def test_match_reports_rank_and_alternative():
    items = [item("A", "core", ["A2"]), item("B")]
    matches, per_rank = match(items, ["z", "A2", "A"])
    assert (matches[0].rank, matches[0].via, matches[0].through_alternative) == (2, "A2", True)
    assert matches[1].rank is None
    assert per_rank == [[], [0], [0]]


def test_parse_ks():
    assert parse_ks("10,5, 5") == [5, 10]
    for bad in ("", "0", "a", "5,-1"):
        with pytest.raises(ValueError):
            parse_ks(bad)


def test_repeated_passage_counts_once_at_first_rank(project, tmp_path):
    write_jsonl(tmp_path / "c.jsonl", [{"id": p, "text": p} for p in "ABCD"])
    project.import_corpus(tmp_path / "c.jsonl")
    write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "?"}])
    project.import_questions(tmp_path / "q.jsonl")
    write_jsonl(
        tmp_path / "g.jsonl",
        [
            {
                "question_id": "q1",
                "evidence": [
                    {"passage_id": "B", "role": "core"},
                    {"passage_id": "C", "role": "supporting"},
                ],
            }
        ],
    )
    project.import_gold(tmp_path / "g.jsonl")
    write_jsonl(
        tmp_path / "r.jsonl",
        [
            {
                "question_id": "q1",
                "results": [
                    {"passage_id": "A"},
                    {"passage_id": "A"},
                    {"passage_id": "B"},
                    {"passage_id": "C"},
                ],
            }
        ],
    )
    report = project.import_run(tmp_path / "r.jsonl", "S")
    assert any("repeated" in w for w in report.warnings)
    (scores,) = project.evaluate([2, 3]).systems
    values = next(iter(scores.per_question.values()))
    # Without the repeat B is at rank 2 and C at rank 3.
    assert values["Recall@2"] == 0.5 and values["Recall@3"] == 1.0
    assert values["MRR@2"] == 0.5


# -- random cases against pytrec_eval -----------------------------------------------------------

PASSAGES = [f"d{i:02d}" for i in range(25)]
QUESTIONS = ["q1", "q2", "q3", "q4"]

qrels_strategy = st.dictionaries(
    st.sampled_from(QUESTIONS),
    st.dictionaries(st.sampled_from(PASSAGES), st.sampled_from([0, 1, 2]), min_size=1, max_size=8),
    min_size=1,
)
# Scores from a tiny set so that ties are common: trec_eval then orders by passage id.
run_strategy = st.dictionaries(
    st.sampled_from(QUESTIONS),
    st.dictionaries(st.sampled_from(PASSAGES), st.sampled_from([0.5, 1.0, 1.5, 2.0]), max_size=15),
)


def scored(base, qrels, run, ks):
    """(per question id, means) of our scores for qrels and a TREC run given as dicts; None
    when the run is empty."""
    from desktop.project import Project

    project = Project(base / "db.sqlite")
    try:
        write_jsonl(base / "c.jsonl", [{"id": p, "text": p} for p in PASSAGES])
        project.import_corpus(base / "c.jsonl")
        write_text(base / "q.tsv", "".join(f"{q}\tquestion {q}\n" for q in QUESTIONS))
        project.import_questions(base / "q.tsv")
        write_text(
            base / "g.qrels",
            "".join(f"{q} 0 {p} {lvl}\n" for q, docs in qrels.items() for p, lvl in docs.items()),
        )
        project.import_gold(base / "g.qrels")
        lines = [f"{q} Q0 {p} 0 {s} T\n" for q, docs in run.items() for p, s in docs.items()]
        if not lines:
            return None
        write_text(base / "r.trec", "".join(lines))
        project.import_run(base / "r.trec", "T")
        evaluation = project.evaluate(ks)
        (ours,) = evaluation.systems
        ids = {q["pk"]: q["id"] for q in evaluation.questions}
        return {ids[pk]: v for pk, v in ours.per_question.items()}, ours.means
    finally:
        project.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(qrels=qrels_strategy, run=run_strategy, k=st.sampled_from([1, 3, 5, 10]))
def test_random_runs_agree_with_pytrec_eval(tmp_path_factory, qrels, run, k):
    pytrec_eval = pytest.importorskip("pytrec_eval")

    out = scored(tmp_path_factory.mktemp("h"), qrels, run, [k, 1000])
    if out is None:
        return
    per, _ = out

    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, {f"recall.{k}", f"success.{k}", f"ndcg_cut.{k}", "recip_rank"}
    )
    theirs = evaluator.evaluate(run)
    relevant = [q for q, docs in qrels.items() if any(v > 0 for v in docs.values())]
    assert sorted(per) == sorted(relevant)
    for q in relevant:
        t = theirs.get(q, {})
        for name, label in (
            (f"recall_{k}", f"Recall@{k}"),
            (f"success_{k}", f"Hit@{k}"),
            (f"ndcg_cut_{k}", f"nDCG@{k}"),
            ("recip_rank", "MRR@1000"),
        ):
            assert per[q][label] == pytest.approx(t.get(name, 0.0), abs=1e-12), (q, name)
    json.dumps(per)  # per-question values are plain JSON numbers


# -- the one accumulator of means and curves --------------------------------------------------

question_strategy = st.tuples(
    st.lists(st.sampled_from([None, 0.0, 0.25, 1 / 3, 0.5, 1.0]), min_size=10, max_size=10),
    st.lists(st.one_of(st.none(), st.integers(1, 12)), min_size=1, max_size=5),
)


@settings(max_examples=80, deadline=None)
@given(questions=st.lists(question_strategy, min_size=1, max_size=8), data=st.data())
def test_means_take_a_question_out_as_if_it_never_came(questions, data):
    from desktop.evaluation.metrics import Means

    ks = [5, 10]
    both = Means(ks, 10)
    for values, first in questions:
        both.add(values, first)
    out = data.draw(st.integers(0, len(questions) - 1))
    both.remove(*questions[out])
    rest = Means(ks, 10)
    for index, (values, first) in enumerate(questions):
        if index != out:
            rest.add(values, first)
    assert both.questions == rest.questions == len(questions) - 1
    for label, value in rest.means().items():
        assert both.count(label) == rest.count(label)
        if value is None:
            assert both.means()[label] is None
        else:
            assert both.means()[label] == pytest.approx(value, abs=1e-12)
    assert both.curve() == pytest.approx(rest.curve(), abs=1e-12)


def test_means_leave_a_measure_none_out_and_step_the_curve_per_item():
    from desktop.evaluation.metrics import Means

    means = Means([1], 3)
    # Recall, CoreRecall, Hit, MRR, nDCG at K = 1; the second question has no core item.
    means.add([1.0, 1.0, 1.0, 1.0, 1.0], [1, None])
    means.add([0.0, None, 0.0, 0.0, 0.0], [3])
    assert means.means()["Recall@1"] == 0.5
    assert means.means()["CoreRecall@1"] == 1.0 and means.count("CoreRecall@1") == 1
    assert means.curve() == [0.25, 0.25, 0.75]
