"""Comparisons between systems (issue 10): hand-computed cases, brute-force oracles on random
data, Holm on a hand-computed family, tie ranges against every tie order, AUROC by hand, and
the `compare` command's JSON."""

from __future__ import annotations

import json
import math
from itertools import combinations, groupby, permutations, product
from operator import itemgetter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop.evaluation import compare as cp
from desktop.evaluation import metrics, significance, ties
from desktop.evaluation.metrics import Item
from tests.helpers import cli, corpus_of, snapshot, write_jsonl, write_text

# -- pure pieces by hand ----------------------------------------------------------------------


def test_holm_on_a_hand_computed_family():
    # Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> kept at 0.06.
    assert significance.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # Capped at 1, and a family of one is left as it is.
    assert significance.holm([0.5, 0.6, 0.01]) == pytest.approx([1.0, 1.0, 0.03])
    assert significance.holm([0.2]) == [0.2]
    assert significance.holm([]) == []


def test_win_tie_loss_by_hand():
    assert significance.win_tie_loss([1, 0.5, 0, 0.25], [0.5, 0.5, 1, 0]) == (2, 1, 1)


def test_auroc_and_threshold_by_hand():
    positives, negatives = [3.0, 2.0, 2.0], [2.0, 1.0]
    # Pairs (pos, neg): (3,2) 1, (3,1) 1, (2,2) 1/2, (2,1) 1, (2,2) 1/2, (2,1) 1 -> 5/6.
    assert cp.auroc(positives, negatives) == pytest.approx(5 / 6)
    # Answer when >= 3: 1 + 2 right; >= 2: 3 + 1; >= 1: 3 + 0; never: 0 + 2.
    assert cp.best_threshold(positives, negatives) == (2.0, pytest.approx(4 / 5))
    assert cp.auroc([1.0], [2.0]) == 0.0
    assert cp.best_threshold([1.0], [2.0, 3.0]) == (None, pytest.approx(2 / 3))
    # A question missing from a run has no top score: below every score.
    assert cp.auroc([-math.inf, 5.0], [1.0]) == 0.5


def test_top_scores_are_split_by_merging_in_question_order():
    rows = [(1, 2, 0.5), (1, 3, 0.9), (1, 7, 0.1), (1, 8, 0.4)]  # question 5 is not in the run
    pos, neg = cp.top_split(rows, [2, 5, 8], [3, 4])
    assert list(pos) == [0.5, -math.inf, 0.4] and list(neg) == [0.9, -math.inf]
    assert cp.top_split([(1, 2, 0.5), (1, 3, None)], [2], [3]) is None  # a list without score
    assert cp.top_split([], [2], [3]) is None  # no list at all
    assert cp.abstention("S", pos, neg) == cp.Abstention(
        "S", cp.auroc(pos, neg), *cp.best_threshold(pos, neg), 3, 2
    )


# -- the whole comparison on a hand-computed project ------------------------------------------


def hand_project(tmp_path, db):
    corpus = corpus_of(tmp_path / "corpus.jsonl", [f"p{i}" for i in range(1, 9)])
    questions = write_jsonl(
        tmp_path / "questions.jsonl",
        [
            {"id": "q1", "text": "one"},
            {"id": "q2", "text": "two"},
            {"id": "q3", "text": "three", "answerable": False},
        ],
    )
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {
                "question_id": "q1",
                "evidence": [
                    {"passage_id": "p1", "role": "core"},
                    {"passage_id": "p2", "role": "supporting", "alternatives": ["p3"]},
                ],
            },
            {"question_id": "q2", "evidence": [{"passage_id": "p4", "role": "core"}]},
            {"question_id": "q3", "evidence": []},
        ],
    )
    # A: ties p5/p2 at 2.0 for q1 (trec_eval puts p5 first: ids descending) and p6/p4 for q2.
    run_a = write_text(
        tmp_path / "A.trec",
        "q1 Q0 p1 1 3.0 a\nq1 Q0 p2 2 2.0 a\nq1 Q0 p5 3 2.0 a\n"
        "q2 Q0 p4 1 1.0 a\nq2 Q0 p6 2 1.0 a\nq3 Q0 p7 1 0.5 a\n",
    )
    run_b = write_text(
        tmp_path / "B.trec",
        "q1 Q0 p5 1 3.0 b\nq1 Q0 p3 2 2.0 b\nq1 Q0 p6 3 1.0 b\n"
        "q2 Q0 p4 1 2.0 b\nq3 Q0 p8 1 4.0 b\n",
    )
    for args in (
        ("init",),
        ("import", "corpus", str(corpus)),
        ("import", "questions", str(questions)),
        ("import", "gold", str(gold)),
        ("import", "run", str(run_a), "--system", "A"),
        ("import", "run", str(run_b), "--system", "B"),
    ):
        assert cli(db, *args).returncode == 0


def test_hand_computed_comparison_through_the_command_line(tmp_path, db_path):
    hand_project(tmp_path, db_path)
    result = cli(db_path, "compare", "--k", "1,2", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {
        "k",
        "family",
        "pairs",
        "unique",
        "a_finds_b_misses",
        "union",
        "ties",
        "abstain",
        "untested",
    }
    assert data["untested"] == []  # two ranked runs: both tested
    assert data["k"] == [1, 2]
    assert data["family"] == 1 * 5 * 2  # one pair, five measures, two K
    pairs = {(p["a"], p["b"], p["metric"]): p for p in data["pairs"]}
    assert len(pairs) == 2 * 5 * 2  # both orders
    # Recall@1: A 1/2 and 0, B 0 and 1; Recall@2: both 1/2 and 1.
    r1 = pairs[("A", "B", "Recall@1")]
    assert (r1["wins"], r1["ties"], r1["losses"]) == (1, 0, 1)
    r1_back = pairs[("B", "A", "Recall@1")]
    assert (r1_back["wins"], r1_back["losses"], r1_back["p"]) == (1, 1, r1["p"])
    r2 = pairs[("A", "B", "Recall@2")]
    assert (r2["wins"], r2["ties"], r2["losses"], r2["p"]) == (0, 2, 0, 1.0)
    for p in data["pairs"]:
        assert set(p) == {"a", "b", "metric", "wins", "ties", "losses", "p", "p_holm"}
        assert p["p"] <= p["p_holm"] <= 1
        assert p["wins"] + p["ties"] + p["losses"] == 2
    unique = {(u["system"], u["k"]): u["items"] for u in data["unique"]}
    assert unique == {("A", 1): 1, ("B", 1): 1, ("A", 2): 1, ("B", 2): 1}
    missed = {(m["a"], m["b"], m["k"]): m["items"] for m in data["a_finds_b_misses"]}
    assert missed == {("A", "B", 1): 1, ("B", "A", 1): 1, ("A", "B", 2): 1, ("B", "A", 2): 1}
    union = {(tuple(u["systems"]), u["k"]): u["Recall"] for u in data["union"]}
    # Both lists: union Recall@1 = (1/2 + 1) / 2, @2 = (1 + 1) / 2. Two systems: the pair is
    # also "all systems", listed once each way.
    assert union[(("A", "B"), 1)] == pytest.approx(0.75)
    assert union[(("A", "B"), 2)] == pytest.approx(1.0)
    ties = {(t["system"], t["metric"]): t for t in data["ties"]}
    a = ties[("A", "Recall@1")]  # q2: p4 and p6 tie at rank 1
    assert (a["value"], a["low"], a["high"], a["questions"]) == (0.25, 0.25, 0.75, 1)
    a = ties[("A", "Recall@2")]  # q1: p2 and p5 straddle rank 2 (p5 first in trec_eval order)
    assert (a["value"], a["low"], a["high"], a["questions"]) == (0.75, 0.75, 1.0, 1)
    a = ties[("A", "MRR@2")]
    assert (a["value"], a["low"], a["high"], a["questions"]) == (0.75, 0.75, 1.0, 1)
    a = ties[("A", "Hit@1")]
    assert (a["value"], a["low"], a["high"], a["questions"]) == (0.5, 0.5, 1.0, 1)
    for (system, _), t in ties.items():
        if system == "B":  # no equal scores
            assert t["low"] == t["value"] == t["high"] and t["questions"] == 0
    abstain = {a["system"]: a for a in data["abstain"]}
    # A: answerable 3.0 and 1.0, abstain 0.5; B: answerable 3.0 and 2.0, abstain 4.0.
    assert abstain["A"] == {
        "system": "A",
        "auroc": 1.0,
        "threshold": 1.0,
        "accuracy": 1.0,
        "answerable": 2,
        "abstain": 1,
    }
    assert abstain["B"]["auroc"] == 0.0
    assert abstain["B"]["threshold"] == 2.0
    assert abstain["B"]["accuracy"] == pytest.approx(2 / 3)

    text = cli(db_path, "compare", "--k", "1,2")
    assert text.returncode == 0
    assert "p_holm" in text.stdout and "union Recall@K" in text.stdout
    assert "AUROC" in text.stdout


def test_compare_refuses_a_bad_k_and_changes_nothing(tmp_path, db_path):
    hand_project(tmp_path, db_path)
    before = snapshot(db_path)
    result = cli(db_path, "compare", "--k", "5,x")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "K must be whole numbers" in result.stderr
    assert snapshot(db_path) == before


def test_no_abstention_without_both_kinds_and_no_ties_for_jsonl_runs(project, tmp_path):
    project.import_corpus(corpus_of(tmp_path / "c.jsonl", ["p1", "p2", "p3"]))
    project.import_questions(write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "x"}]))
    project.import_gold(
        write_jsonl(
            tmp_path / "g.jsonl", [{"question_id": "q1", "evidence": [{"passage_id": "p2"}]}]
        )
    )
    project.import_run(
        write_jsonl(
            tmp_path / "s.jsonl",
            [
                {
                    "question_id": "q1",
                    "results": [
                        {"passage_id": "p1", "score": 1.0},
                        {"passage_id": "p2", "score": 1.0},
                    ],
                }
            ],
        ),
        "S",
    )
    result = cp.compare(project, [1])
    assert result.abstain == [] and result.ties == []
    assert result.family == 0 and result.pairs == []
    assert result.unique == [{"system": "S", "k": 1, "items": 0}]


# -- brute-force oracles on random data -------------------------------------------------------

PASSAGES = list(range(12))


@st.composite
def gold_and_runs(draw):
    n_questions = draw(st.integers(1, 6))
    gold: dict[int, list[Item]] = {}
    for q in range(n_questions):
        items = []
        for _ in range(draw(st.integers(0, 3))):
            passages = draw(st.sets(st.sampled_from(PASSAGES), min_size=1, max_size=3))
            role = draw(st.sampled_from(["core", "supporting", None]))
            items.append(Item(min(passages), role, frozenset(passages)))
        gold[q] = items
    systems = draw(st.integers(1, 4))
    runs = {}
    for s in range(systems):
        runs[f"S{s}"] = {
            q: draw(st.lists(st.sampled_from(PASSAGES), max_size=6, unique=True))
            for q in range(n_questions)
            if draw(st.booleans()) or q == 0
        }
    return gold, runs


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gold_and_runs(), st.lists(st.integers(1, 6), min_size=1, max_size=3, unique=True))
def test_wins_unique_and_union_against_brute_force(case, ks):
    gold, runs = case
    ks = sorted(ks)
    names = list(runs)
    scores = {s.system: s.per_question for s in metrics.evaluate(gold, runs, ks)}
    rows, family = significance.pair_results(gold, names, scores, ks, permutations=20, seed=1)
    evaluated = [q for q, items in gold.items() if items]
    core = [q for q in evaluated if any(i.role == "core" for i in gold[q])]
    by_key = {(r.a, r.b, r.metric): r for r in rows}
    for a, b in permutations(names, 2):
        for measure, k in product(metrics.MEASURES, ks):
            label = metrics.label(measure, k)
            over = core if measure == "CoreRecall" else evaluated
            va = [metrics.score_question(gold[q], runs[a].get(q, []), [k])[label] for q in over]
            vb = [metrics.score_question(gold[q], runs[b].get(q, []), [k])[label] for q in over]
            row = by_key[(a, b, label)]
            assert row.wins == sum(x > y for x, y in zip(va, vb, strict=True))
            assert row.losses == sum(x < y for x, y in zip(va, vb, strict=True))
            assert row.ties == sum(x == y for x, y in zip(va, vb, strict=True))
            if over:
                assert row.p is not None and row.p <= row.p_holm <= 1
    tested = sum(1 for m in metrics.MEASURES if (core if m == "CoreRecall" else evaluated))
    assert family == tested * len(ks) * len(list(combinations(names, 2)))

    def found(system, q, k):
        top = set(runs[system].get(q, [])[:k])
        return {i for i, item in enumerate(gold[q]) if item.passages & top}

    masks = {s: cp.found_masks(gold, runs[s], ks) for s in names}
    unique, missed, union, only = cp.coverage(gold, masks, ks)
    for u in unique:
        others = [s for s in names if s != u["system"]]
        expected = 0
        for q in evaluated:
            alone = found(u["system"], q, u["k"])
            for s in others:
                alone -= found(s, q, u["k"])
            expected += len(alone)
            k_index = ks.index(u["k"])
            assert only.get(q, {}).get(u["system"], [[]] * len(ks))[k_index] == sorted(alone)
        assert u["items"] == expected
    for m in missed:
        assert m["items"] == sum(
            len(found(m["a"], q, m["k"]) - found(m["b"], q, m["k"])) for q in evaluated
        )
    assert len(union) == len(ks) * (1 + len(list(combinations(names, 2))))
    for u in union:
        if not evaluated:
            assert u["Recall"] is None
            continue
        expected = sum(
            len(set().union(*(found(s, q, u["k"]) for s in u["systems"]))) / len(gold[q])
            for q in evaluated
        )
        assert u["Recall"] == pytest.approx(expected / len(evaluated))


# -- tie ranges against every tie order -------------------------------------------------------


def every_tie_order(ranked):
    """Every list that orders the same (passage, score) pairs by score, ties in any order."""
    groups = [list(g) for _, g in groupby(ranked, key=itemgetter(1))]
    for choice in product(*(permutations(g) for g in groups)):
        yield [p for group in choice for p, _ in group]


@st.composite
def tied_case(draw):
    passages = draw(st.lists(st.sampled_from(PASSAGES), min_size=1, max_size=7, unique=True))
    scores = [draw(st.sampled_from([1.0, 2.0, 3.0])) for _ in passages]
    # The stored order: score descending, ties by passage id descending (trec_eval's).
    ranked = sorted(zip(passages, scores, strict=True), key=lambda r: (r[1], r[0]), reverse=True)
    items = []
    for _ in range(draw(st.integers(1, 3))):
        these = draw(st.sets(st.sampled_from(PASSAGES), min_size=1, max_size=3))
        items.append(
            Item(min(these), draw(st.sampled_from(["core", "supporting", None])), frozenset(these))
        )
    return items, ranked


@settings(max_examples=300, deadline=None)
@given(tied_case(), st.lists(st.integers(1, 7), min_size=1, max_size=2, unique=True))
def test_tie_extremes_against_every_order(case, ks):
    items, ranked = case
    ks = sorted(ks)
    values = [metrics.score_question(items, order, ks) for order in every_tie_order(ranked)]
    found = ties.tie_extremes(items, ks, ranked)
    labels = list(values[0])
    if found is None:
        for label in labels:
            assert len({v[label] for v in values}) == 1
        return
    low, high, exact = found
    assert exact
    for label in labels:
        these = [v[label] for v in values]
        if these[0] is None:
            assert low[label] is None and high[label] is None
            continue
        assert low[label] == pytest.approx(min(these))
        assert high[label] == pytest.approx(max(these))


def test_tie_ranges_are_means_of_the_per_question_extremes():
    items = {1: [Item(10, "core", frozenset({10}))], 2: [Item(20, None, frozenset({20}))]}
    # q1: 10 ties with 11 at rank 1 (stored second); q2: found at rank 1, no tie.
    scored = {"S": {1: [(11, 1.0), (10, 1.0)], 2: [(20, 5.0), (21, 1.0)]}}
    runs = {"S": {q: [p for p, _ in lst] for q, lst in scored["S"].items()}}
    (scores,) = metrics.evaluate(items, runs, [1])
    ranges = ties.tie_ranges(items, scored, [1], {"S": scores.means}, {"S": scores.per_question})
    by_metric = {r.metric: r for r in ranges}
    r = by_metric["Recall@1"]
    assert (r.value, r.low, r.high, r.questions) == (0.5, 0.5, 1.0, 1)
    r = by_metric["CoreRecall@1"]  # one core question: q1
    assert (r.value, r.low, r.high, r.questions) == (0.0, 0.0, 1.0, 1)
