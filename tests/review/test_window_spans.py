"""The window's scores for runs with spans (desktop/review/spanned.py) come from the command
line's own per-question step: on the bundled study (the Constitution cut three ways, a BM25 run
on each), the full pass's means and every question's values equal `metrics --json` for every
system to the last digit, and a judged question's rescore equals the full pass."""

from __future__ import annotations

import json

import pytest

from desktop import review
from desktop.project import Project
from desktop.review.spanned import SpanChoice
from tests.evaluation.test_span_items import build_db
from tests.helpers import cli

KS = [5, 10]


def metrics_json(db, *extra):
    done = cli(db, "metrics", "--k", "5,10", "--budget", "2000", "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_windows_figures_equal_metrics_json_for_every_system(sample_study):
    expected = metrics_json(sample_study, "--per-question")
    with Project(sample_study) as project:
        shown = review.overview(project, "kim", False, KS)
        ids = {q["pk"]: q["id"] for q in project.questions()}
    board = shown.board
    assert shown.span is not None and shown.span.extra  # SpanRecall@K and @2000ch shown
    assert set(expected["across_chunkings"]) == {"BM25-c200o50", "BM25-c500o100"}
    for row in expected["systems"]:
        means = board.means(row["system"])
        for label, value in row.items():
            if label in means:
                assert means[label] == value, (row["system"], label)
        assert set(board.labels) <= set(row)  # every figure the window shows is compared
    for row in expected["per_question"]:
        pk = next(pk for pk, qid in ids.items() if qid == row["question"])
        entry = board.entries[row["system"]][pk]
        assert dict(zip(board.labels, entry.values, strict=True)) == {
            label: row[label] for label in board.labels
        }


def test_a_run_on_another_chunking_is_found_by_coverage_not_by_ids(sample_study):
    with Project(sample_study) as project:
        by_ids = review.overview(project, "kim", False, KS, choice=None).board
        by_spans = review.overview(project, "kim", False, KS).board
    # by ids alone no passage of the 500-character chunking is evidence: Recall 0
    assert by_ids.means("BM25-c500o100")["Recall@5"] == 0
    assert by_spans.means("BM25-c500o100")["Recall@5"] > 0.8
    # the found marks (question list, compare, curve) follow the same rule
    found = [by_spans.found("BM25-c500o100", q, 5) for q in by_spans.entries["BM25-c500o100"]]
    assert sum(n for n, _ in found) > 0
    assert by_spans.curve("BM25-c500o100")[4] == pytest.approx(
        by_spans.means("BM25-c500o100")["Recall@5"]
    )


def test_a_judged_questions_rescore_equals_the_full_pass(sample_study):
    with Project(sample_study) as project:
        shown = review.overview(project, "kim", False, KS)
        choice = SpanChoice(systems=shown.span.systems)
        systems = project.systems()
        for question in project.questions()[:6]:
            _, entries = review.refresh_question(
                project, question, "kim", False, KS, [], choice=choice
            )
            for system, entry in entries.items():
                assert entry == shown.board.entries[system].get(question["pk"]), system
        assert systems


def test_a_question_view_shows_coverage_by_the_span_rule(sample_study):
    with Project(sample_study) as project:
        board = review.overview(project, "kim", False, KS).board
        systems = [s for s in project.systems() if s["name"] == "BM25-c500o100"]
        covered_rows = 0
        for question in project.questions():
            view = review.question_view(project, question, systems, 5, "kim", False, [])
            entry = board.entries["BM25-c500o100"].get(question["pk"])
            if entry is None:
                continue
            # where each item is first found is the board's first rank (the same rule)
            found = [state.found["BM25-c500o100"].rank for state in view.items]
            assert tuple(r if r is not None and r <= board.depth else None for r in found) == (
                entry.first
            )
            for state in view.items:
                assert 0 <= state.coverage["BM25-c500o100"] <= 1
            for row in view.rankings["BM25-c500o100"]:
                covered_rows += bool(row.coverage)
                assert all(0 < cov <= 1 for _, cov in row.coverage)
                assert row.items == [i for i, cov in row.coverage if cov >= 0.5]
    assert covered_rows > 10


def test_the_comparison_scores_runs_on_other_chunkings_as_metrics_does(sample_study):
    """The comparison (the `compare` command's pass, the window's comparison tab): a run on
    another chunking by the span rule, as `metrics` scores it; nDCG, not defined across
    chunkings, neither counted nor tested for its pairs."""
    from desktop.evaluation import compare, scored

    expected = {row["system"]: row for row in metrics_json(sample_study)["systems"]}
    with Project(sample_study) as project:
        scores = scored.collect(project, KS)
        for system, means in scores.means.items():
            for label in ("Recall@5", "Recall@10", "Hit@5", "MRR@10", "CoreRecall@5"):
                assert means[label] == expected[system][label], (system, label)
        found = compare.compare(project, KS, permutations=200)
    labels = {(row.a, row.b, row.metric) for row in found.pairs}
    assert ("BM25-articles", "BM25-c500o100", "Recall@5") in labels
    assert not [label for label in labels if label[2].startswith("nDCG")]


def test_span_items_rescore_as_the_full_pass_scores_them(tmp_path):
    """A question whose evidence is given as spans (design section 10) scores the same after a
    judgement (its rescore) as in the full pass: the span items reach the scorer both ways."""
    with Project(build_db(tmp_path)) as project:
        shown = review.overview(project, "kim", False, [1, 3])
        choice = SpanChoice(systems=shown.span.systems)
        given = 0
        for question in project.questions():
            items = project.effective_gold().metric_items().get(question["pk"], [])
            given += sum(item.given_as_span for item in items)
            _, entries = review.refresh_question(
                project, question, "kim", False, [1, 3], [], choice=choice
            )
            for system, entry in entries.items():
                assert entry == shown.board.entries[system].get(question["pk"]), system
        assert given, "no item given as a span: the test reaches nothing"


def test_the_evidence_panel_finds_span_items_as_metrics_does(tmp_path):
    """An item given as a span is found by coverage on every run, the gold's own chunking
    included: the question view's found marks at K count what `metrics` counts."""
    db = build_db(tmp_path)
    data = json.loads(cli(db, "metrics", "--k", "1,3", "--json", "--per-question").stdout)
    recall = {(r["system"], r["question"]): r["Recall@3"] for r in data["per_question"]}
    with Project(db) as project:
        systems = project.systems()
        for question in project.questions():
            view = review.question_view(project, question, systems, 3, "kim", False, [])
            for system in systems:
                found = sum(s.found[system["name"]].at(3) for s in view.items)
                want = recall[(system["name"], question["id"])] * len(view.items)
                assert found == round(want), (system["name"], question["id"])
