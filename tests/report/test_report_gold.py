"""The report's pass over the questions (desktop.report.gold_pass, issue 12): built a question at a
time, it must hold what the whole effective gold holds; its spill files give back what was
written; and the report reads one snapshot of the database."""

from __future__ import annotations

import json
import random

import pytest

from desktop.gold import effective as gold
from desktop.project import Project
from desktop.report.gold_pass import QuestionPass
from desktop.review.seen import each_question_rows, question_rows
from tests.helpers import write_jsonl

PASSAGES = [f"p{i}" for i in range(1, 13)]
QUESTIONS = [f"q{i}" for i in range(1, 9)]


def judged_project(project, tmp_path, seed: int) -> None:
    """Eight questions over twelve passages, two runs, and a random log of three reviewers:
    roles, alternatives, not evidence, answerability, added and dropped items, notes and
    adjudications (lines the log refuses are skipped)."""
    rng = random.Random(seed)
    write_jsonl(
        tmp_path / "corpus.jsonl",
        [{"id": p, "text": f"{p} 본문", "title": f"제{i}조"} for i, p in enumerate(PASSAGES)],
    )
    project.import_corpus(tmp_path / "corpus.jsonl")
    write_jsonl(
        tmp_path / "questions.jsonl",
        [{"id": q, "text": f"{q} 질문", "answerable": rng.random() > 0.2} for q in QUESTIONS],
    )
    project.import_questions(tmp_path / "questions.jsonl")
    gold_lines = []
    for q in QUESTIONS[:-1]:  # the last question has no gold at all
        primaries = rng.sample(PASSAGES, rng.randint(0, 3))
        evidence = []
        for p in primaries:
            item = {"passage_id": p}
            if rng.random() < 0.6:
                item["role"] = rng.choice(["core", "supporting"])
            others = [x for x in PASSAGES if x not in primaries]
            if rng.random() < 0.4:
                item["alternatives"] = rng.sample(others, 1)
            evidence.append(item)
        gold_lines.append({"question_id": q, "evidence": evidence})
    project.import_gold(write_jsonl(tmp_path / "gold.jsonl", gold_lines))
    for name in ("A", "B"):
        lines = [
            {
                "question_id": q,
                "results": [
                    {"passage_id": p, "score": 20 - r}
                    for r, p in enumerate(rng.sample(PASSAGES, 8))
                ],
            }
            for q in QUESTIONS
            if rng.random() < 0.9
        ]
        project.import_run(write_jsonl(tmp_path / f"{name}.jsonl", lines), name)
    reviewers = ["kim", "lee", "park"]
    for n in range(120):
        who, q, p = rng.choice(reviewers), rng.choice(QUESTIONS), rng.choice(PASSAGES)
        at = f"2026-12-0{1 + n // 40}T{10 + n % 12:02d}:{n % 60:02d}:00+09:00"
        kind = rng.choice(
            ["role", "role", "alternative", "not_evidence", "answerable", "evidence", "drop"]
            + ["note", "adjudication"]
        )
        try:
            if kind == "evidence":
                project.add_evidence(who, q, p, rng.choice(["core", "supporting"]), at=at)
            elif kind == "role":
                value = rng.choice(["core", "supporting", None])
                project.add_judgement(who, q, "role", value, passage_id=p, at=at)
            elif kind == "alternative":
                target = rng.choice(PASSAGES)
                project.add_judgement(who, q, "alternative", target, passage_id=p, at=at)
            elif kind in ("not_evidence", "drop"):
                project.add_judgement(who, q, kind, rng.random() < 0.8, passage_id=p, at=at)
            elif kind == "answerable":
                project.add_judgement(who, q, "answerable", rng.random() < 0.5, at=at)
            elif kind == "note":
                pid = rng.choice([p, ""])
                project.add_judgement(who, q, "note", f"메모 {n}", passage_id=pid, at=at)
            else:
                settles = rng.choice(["role", "answerable"])
                value = rng.choice(["core", "supporting"]) if settles == "role" else True
                pid = p if settles == "role" else ""
                project.add_judgement(
                    who, q, "adjudication", value, passage_id=pid, settles=settles, at=at
                )
        except ValueError:
            continue  # refused by the log's own checks, as the window would refuse it


def _items(items):
    return [(i.primary_pk, i.primary_id, i.role, dict(i.alternatives)) for i in items]


def machine_judges(project, seed: int) -> None:
    """A machine's random lines of every compared kind (raw rows: they count nowhere)."""
    rng = random.Random(seed)
    values = {"role": ["core", "supporting"], "answerable": [True, False]}
    rows = []
    for n in range(60):
        kind = rng.choice(["role", "role", "answerable", "evidence", "not_evidence", "drop"])
        value = rng.choice(values.get(kind, [True]))
        passage = "" if kind == "answerable" else rng.choice(PASSAGES)
        at = f"2026-12-02T09:{n:02d}:00+09:00"
        question = rng.choice(QUESTIONS)
        rows.append(("gpt", at, question, kind, passage, json.dumps(value), None, None, None, 1))
    project.store.add_judgements(rows)


@pytest.mark.parametrize("seed", range(6))
def test_the_pass_holds_what_the_whole_gold_holds(project, tmp_path, seed):
    judged_project(project, tmp_path, seed)
    machine_judges(project, seed)
    whole = project.effective_gold()
    counts = project.unjudged_counts(10)
    with project.reads.reading():
        passed = QuestionPass(project, 10)
        passed.run()
    records = list(passed)
    questions = project.questions()
    assert [r.id for r in records] == [q["id"] for q in questions]
    for record, question in zip(records, questions, strict=True):
        pk = question["pk"]
        assert _items(record.gold_items()) == _items(whole.items.get(pk, []))
        assert record.metric_items() == [i.as_item() for i in whole.items.get(pk, [])]
        assert set(record.judged) == whole.judged(pk)
        assert record.answerable == whole.answerable[pk]
        assert record.unjudged == counts.get(question["id"])
    evaluated = [q["pk"] for q in questions if whole.items.get(q["pk"])]
    assert list(passed.gold) == evaluated
    assert {q: passed.gold[q] for q in passed.gold} == {
        q: [i.as_item() for i in whole.items[q]] for q in evaluated
    }
    assert list(passed.denominators) == [len(whole.items[q]) for q in evaluated]
    agreement = {**passed.agreement.result(), "machines": passed.machines.result()}
    assert agreement == project.agreement() and agreement["machines"]
    decided = [(r[0], r[1], r[2], r[3]) for r in passed.tables["decisions"]]
    assert sorted(decided) == sorted(
        (d.question_id, d.kind, d.passage_id, d.status) for d in whole.decisions
    )
    disputed = {(r[0], r[1], r[2]) for r in passed.tables["disputed"]}
    assert disputed == {
        (d.question_id, d.kind, d.passage_id) for d in whole.decisions if d.status == gold.DISPUTED
    }
    assert passed.lines == len(project.reads.judgements())


def test_lines_about_a_question_no_longer_there_are_still_listed(project, tmp_path):
    judged_project(project, tmp_path, 1)
    project.add_judgement("kim", "q1", "role", "core", passage_id="p1")
    # A log line about a question id the database does not have (an older file's); the log
    # has no foreign key on question ids, so only a raw insert makes one here.
    project.store.add_judgements(
        [
            (
                "kim",
                "2026-12-01T09:00:00+09:00",
                "q-gone",
                "role",
                "p1",
                '"core"',
                None,
                None,
                None,
                0,
            )
        ]
    )
    with project.reads.reading():
        passed = QuestionPass(project, 10)
        passed.run()
    rows = [r for r in passed.tables["decisions"] if r[0] == "q-gone"]
    # three reviewers are in the database, so kim's line alone waits for a second review
    assert rows == [["q-gone", "role", "p1", "pending", False, "kim=core", None, ""]]
    assert passed.lines == len(project.reads.judgements())
    assert passed.by_reviewer["kim"].questions == len(
        {j["question_id"] for j in project.reads.judgements() if j["reviewer"] == "kim"}
    )


def test_reading_is_one_snapshot(project, tmp_path):
    judged_project(project, tmp_path, 2)
    before = len(project.reads.judgements())
    other = Project(project.path)
    try:
        with project.reads.reading():
            other.add_judgement("lee", "q1", "note", "그사이 메모", at="2026-12-09T10:00:00+09:00")
            assert len(project.reads.judgements()) == before  # not seen inside the snapshot
        assert len(project.reads.judgements()) == before + 1
    finally:
        other.close()


def _not_evidence_too(project, tmp_path) -> None:
    """Imported gold that judges passages not evidence (a second gold file, one question)."""
    line = {"question_id": "q2", "evidence": [{"passage_id": "p3"}], "not_evidence": ["p4", "p5"]}
    project.import_gold(write_jsonl(tmp_path / "gold2.jsonl", [line]))


@pytest.mark.parametrize("seed", range(3))
def test_the_rows_read_for_all_questions_are_each_questions_own(project, tmp_path, seed):
    """each_question_rows (the report's few statements) gives every question the rows
    question_rows (the window's, a statement each) gives it, in the same order."""
    judged_project(project, tmp_path, seed)
    machine_judges(project, seed)
    _not_evidence_too(project, tmp_path)
    together = list(each_question_rows(project))
    questions = project.questions()
    assert [q for q, _ in together] == questions
    for question, read in together:
        own = question_rows(project, question)
        assert read == own
    assert any(read.not_evidence for _, read in together)
    assert any(e["alternatives"] for _, read in together for e in read.evidence)


def test_the_rows_of_items_given_as_spans_are_each_questions_own(tmp_path):
    """Items and alternatives given as spans (issue 19) read for all questions as alone."""
    from tests.evaluation.test_span_items import build_db

    project = Project(build_db(tmp_path))
    try:
        together = list(each_question_rows(project))
        assert [q for q, _ in together] == project.questions()
        for question, read in together:
            assert read == question_rows(project, question)
        assert any(read.span_items for _, read in together)
        assert any(read.span_alternatives for _, read in together)
    finally:
        project.close()


def test_the_pass_reads_the_gold_in_statements_that_do_not_grow_with_the_questions(
    sample_study,
):
    """The report's gold pass reads every question's gold in a few statements, not five per
    question (33 questions here: the old pass ran 201 statements, this one 9)."""
    project = Project(sample_study)
    statements: list[str] = []
    try:
        with project.reads.reading():
            passed = QuestionPass(project, 10)
            project.store.trace(statements.append)
            try:
                passed.run()
            finally:
                project.store.trace(None)
        assert passed.questions == len(project.questions()) > 30
        assert len(statements) < 15, statements
    finally:
        project.close()
