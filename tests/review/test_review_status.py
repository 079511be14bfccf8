"""The review status (issue 20): a question is reviewed when its answerability is set and
every evidence item some system misses at the K shown has a role given in a line; Y alone, or
the imported roles, are not a review. One rule for the window's progress and the report."""

from __future__ import annotations

from desktop import review
from desktop.project import Project


def _status(project, qid: str, k: int = 5) -> str:
    pk = project.reads.question(qid)["pk"]
    full = review.overview(project, "kim", False, [5, 10], k=k).summaries[pk].status
    one, _ = review.refresh_question(
        project, project.reads.question(qid), "kim", False, [5, 10], ["kim"], k=k
    )
    assert one.status == full  # the keypress path and the full pass agree
    return full


def test_y_alone_is_not_a_review_every_miss_needs_a_role(sample_db):
    with Project(sample_db) as project:
        assert _status(project, "q03") == review.UNTOUCHED
        project.add_judgement("kim", "q03", "answerable", True)
        assert _status(project, "q03") == review.IN_PROGRESS  # was done on Y alone
        pk = project.reads.question("q03")["pk"]
        board = review.overview(project, "kim", False, [5, 10]).board
        built, _, _ = review.question_gold(project, project.reads.question("q03"), "kim", False, [])
        entries = [board.entries[s].get(pk) for s in board.systems]
        missed = review.missed_at(built.items[pk], entries, 5)
        assert "art-071" in missed  # BM25-Kiwi's miss at 5
        for passage in missed[:-1]:
            project.add_judgement("kim", "q03", "role", "core", passage_id=passage)
        assert _status(project, "q03") == review.IN_PROGRESS  # one miss left without a role
        project.add_judgement("kim", "q03", "role", "supporting", passage_id=missed[-1])
        assert _status(project, "q03") == review.DONE
        # Another reviewer's lines are not kim's review.
        project.add_judgement("lee", "q05", "answerable", True)
        assert _status(project, "q05") == review.UNTOUCHED


def test_roles_without_the_answerability_are_in_progress(sample_db):
    with Project(sample_db) as project:
        project.add_judgement("kim", "q03", "role", "core", passage_id="art-071")
        assert _status(project, "q03") == review.IN_PROGRESS
