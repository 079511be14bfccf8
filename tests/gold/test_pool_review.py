"""The pool as the window reads it, without Qt: one question's pool read by its own keys is
that question's part of the whole pool; blind mode judges by the reviewer's own lines; the
question summaries carry the unjudged counts; lines written together are written all or
none and undone as one step."""

from __future__ import annotations

import pytest

from desktop import review
from desktop.project import Project


@pytest.fixture
def opened(sample_db):
    with Project(sample_db) as project:
        yield project


@pytest.mark.parametrize("depth", [1, 3, 10, 20])
def test_one_questions_pool_is_its_part_of_the_whole(opened, depth):
    opened.add_judgement("kim", "q05", "not_evidence", True, passage_id="art-013")
    opened.add_evidence("kim", "q02", "art-066", "core")
    whole = dict(opened.pool(depth))
    for qid in ("q02", "q05", "q33"):
        asked = opened.pool(depth, questions=[qid])
        assert asked == ([(qid, whole[qid])] if qid in whole else [])
    assert opened.pool(depth, questions=["q02", "q05"]) == [
        ("q02", whole["q02"]),
        ("q05", whole["q05"]),
    ]
    assert opened.pool(depth, questions=["no such question"]) == []


def test_the_window_pool_judges_as_the_reviewer_sees(opened):
    q05 = opened.reads.question("q05")
    first = opened.pool(10, questions=["q05"])[0][1][0]
    opened.add_judgement("lee", "q05", "not_evidence", True, passage_id=first.passage_id)
    reviewers = opened.reviewers()
    assert reviewers == ["lee"]
    everyone = review.pool_of(opened, q05, "kim", False, reviewers)
    blind = review.pool_of(opened, q05, "kim", True, reviewers)
    # lee's line alone is in force (lee is the only reviewer in the database).
    assert first.passage_pk not in {e.passage_pk for e in everyone}
    # Blind, kim judges as if no one else had: the passage is still to judge, unnamed.
    assert blind[0].passage_pk == first.passage_pk
    assert all(e.retrieved_by == () for e in blind)
    assert all(e.retrieved_by for e in everyone)
    view = review.question_view(opened, q05, opened.systems()[:1], 5, "kim", False, reviewers, 10)
    assert view.pool == everyone


def test_imported_level_zero_passages_are_judged_in_the_window_too(opened, tmp_path):
    q05 = opened.reads.question("q05")
    first = opened.pool(10, questions=["q05"])[0][1][0]
    qrels = tmp_path / "gold.qrels"
    qrels.write_text(f"q05 0 art-084 1\nq05 0 {first.passage_id} 0\n", encoding="utf-8")
    opened.import_file("gold", qrels, fmt="qrels")
    shown = review.pool_of(opened, q05, "kim", False, [])
    assert first.passage_pk not in {e.passage_pk for e in shown}
    assert shown == opened.pool(10, questions=["q05"])[0][1]


def test_every_questions_count_and_one_questions_after_a_judgement(opened):
    counts = {qid: len(entries) for qid, entries in opened.pool(5)}
    by_pk = review.pool_counts(opened, "kim", False, 5)
    assert by_pk == {q["pk"]: counts.get(q["id"], 0) for q in opened.questions()}
    q05 = opened.reads.question("q05")
    first = opened.pool(5, questions=["q05"])[0][1][0]
    opened.add_judgement("kim", "q05", "not_evidence", True, passage_id=first.passage_id)
    summary, _ = review.refresh_question(opened, q05, "kim", False, [5], ["kim"], 5)
    assert summary.unjudged == counts["q05"] - 1


def test_lines_written_together_are_all_or_none(opened):
    before = opened.judgement_lines()
    with pytest.raises(ValueError, match="not in the corpus"):
        opened.add_judgement_lines(
            "kim",
            [
                {"question_id": "q05", "kind": "note", "value": "먼저", "passage_id": ""},
                {"question_id": "q05", "kind": "evidence", "value": True, "passage_id": "nope"},
            ],
        )
    assert opened.judgement_lines() == before
    rows = opened.add_evidence("kim", "q05", "art-013", "supporting")
    assert [(r["kind"], r["at"]) for r in rows] == [
        ("evidence", rows[0]["at"]),
        ("role", rows[0]["at"]),
    ]


def test_an_added_item_is_one_undo_step_even_after_a_restart(opened):
    history = review.UndoHistory()
    rows = opened.add_evidence("kim", "q05", "art-013", "core", at="2026-01-01T10:00:00.000Z")
    assert history.record_all(rows) == "change"
    undo = history.undo_lines()
    assert [(u["kind"], u["value"]) for u in undo] == [("role", None), ("evidence", None)]
    again = review.UndoHistory(opened.reads.judgements(reviewer="kim"))
    assert again.undo_lines() == undo  # read back from the log: still one step
    lines = [{k: v for k, v in u.items()} for u in undo]
    written = opened.add_judgement_lines("kim", lines, "2026-01-01T10:00:01.000Z")
    assert history.record_all(written) == "undo"
    assert not history.can_undo()
    assert [(r["kind"], r["value"]) for r in history.redo_lines()] == [
        ("evidence", True),
        ("role", "core"),
    ]
    restarted = review.UndoHistory(opened.reads.judgements(reviewer="kim"))
    assert not restarted.can_undo() and restarted.redo_lines() == history.redo_lines()
    # A lone line after it is a step of its own.
    one = opened.add_judgement("kim", "q05", "answerable", True, at="2026-01-01T10:00:02.000Z")
    assert history.record(one) == "change"
    assert [u["kind"] for u in history.undo_lines()] == ["answerable"]
    assert not history.can_redo()


def test_a_pending_judgement_leaves_only_its_reviewers_queue(opened):
    """With two reviewers a lone line waits for the other; it has left its reviewer's queue
    (their part is done) and stays in the other's, in the count as in the queue."""
    q05 = opened.reads.question("q05")
    first, second = opened.pool(10, questions=["q05"])[0][1][:2]
    opened.add_judgement("kim", "q01", "note", "둘째 검수자")
    opened.add_judgement("lee", "q05", "not_evidence", True, passage_id=first.passage_id)
    opened.add_evidence("lee", "q05", second.passage_id, "core")
    reviewers = opened.reviewers()
    assert opened.pool(10, questions=["q05"])[0][1][:2] == [first, second]  # not in force
    kim = review.pool_of(opened, q05, "kim", False, reviewers)
    lee = review.pool_of(opened, q05, "lee", False, reviewers)
    assert kim[:2] == [first, second]
    assert first not in lee and second not in lee and len(lee) == len(kim) - 2
    assert review.pool_counts(opened, "lee", False)[q05["pk"]] == len(lee)
    assert review.pool_counts(opened, "kim", False)[q05["pk"]] == len(kim)
    summary, _ = review.refresh_question(opened, q05, "kim", False, [5], reviewers)
    assert summary.unjudged == len(kim)
    # lee withdraws: back in lee's queue.
    opened.add_judgement("lee", "q05", "not_evidence", None, passage_id=first.passage_id)
    assert first in review.pool_of(opened, q05, "lee", False, reviewers)
