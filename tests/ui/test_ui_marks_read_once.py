"""The reviewer-mark lines (who is a machine, on every question) are read once by the session
and handed to what the workers build: a judged question and the pool queue's next questions
read each question's log once, and the mark lines not again."""

from __future__ import annotations

from desktop.project import Project
from desktop.ui import operations


def statements(project, work) -> list[str]:
    seen: list[str] = []
    project.store.trace(seen.append)
    try:
        result = work(project, lambda *_: None)
    finally:
        project.store.trace(None)
    return result, [" ".join(s.split()) for s in seen]


def test_the_workers_read_each_questions_log_once_and_the_marks_not_again(sample_db):
    with Project(sample_db) as project:
        project.add_judgement("gpt", "q05", "not_evidence", True, passage_id="art-013")
        project.mark_reviewer("gpt", True)
        marks = project.reads.mark_lines()
        questions = [q for q in project.questions() if q["id"] in ("q05", "q06", "q07")]
        reviewers = project.reviewers()
        op = operations.next_pools_op(questions, 3, "kim", False, reviewers, 10, 240, marks)
        done, sql = statements(project, op)
        logs = [s for s in sql if "FROM judgement WHERE question_id = " in s]
        assert len(logs) == len(done.result) == 3
        assert not [s for s in sql if "kind = 'machine'" in s]
        # The machine's line is its suggestion, as the question's view gives it.
        (q05,) = [p for p in done.result if p.id == "q05"]
        assert ("q05", "art-013") in q05.suggestions

        systems = project.reads.systems()
        judged = operations.judged_op(
            questions[0], systems[:1], 5, "kim", False, reviewers, [5, 10], 10,
            systems=systems, marks=marks,
        )  # fmt: skip
        _, sql = statements(project, judged)
        assert len([s for s in sql if "FROM judgement WHERE question_id = " in s]) == 1
        assert not [s for s in sql if "kind = 'machine'" in s]
