"""Judgement lines about spans (issue 19 item 2, design section 10): an `evidence` line whose
target is a span adds an item given as that span; `role` and `drop` lines name it by the same
span; an `alternative` line makes a span an alternative of an item. Merge, agreement,
adjudication, withdrawal, the journal, `restore judgements` and `export judgements` all work
for them as for passage lines."""

from __future__ import annotations

import json
import shutil

from db.journal import journal_path
from db.journal import read as journal_lines
from desktop.evaluation.spans import Span
from desktop.project import Project
from tests.evaluation.test_span_items import db  # noqa: F401 (a fixture)
from tests.helpers import cli, cli_here, write_jsonl

SPAN = {"document_id": "d1", "start": 0, "end": 30}
AT = "2026-12-01T10:00:00+09:00"


def line(reviewer, kind, value, at=AT, span=SPAN, **more) -> dict:
    return {
        "reviewer": reviewer,
        "at": at,
        "question_id": "q3",
        "kind": kind,
        "passage_id": None,
        "span": span,
        "value": value,
        **more,
    }


def span_items(path, question="q3"):
    """(span, role, alternative spans) of the question's items given as spans, in force."""
    with Project(path) as project:
        pk = next(q["pk"] for q in project.store.questions() if q["id"] == question)
        items = project.effective_gold().items[pk]
        return [(i.span, i.role, i.alternative_spans) for i in items if i.span is not None]


def judge(path, tmp_path, lines, name="j.jsonl"):
    done = cli_here(path, "import", "judgements", str(write_jsonl(tmp_path / name, lines)))
    assert done.returncode == 0, done.stderr
    return done


def test_two_reviewers_add_a_span_item_merge_disagree_and_an_adjudication_settles(db, tmp_path):  # noqa: F811
    other = tmp_path / "lee.sqlite"
    shutil.copy(db, other)
    judge(db, tmp_path, [line("kim", "evidence", True), line("kim", "role", "core")], "k.jsonl")
    later = "2026-12-01T11:00:00+09:00"
    judge(
        other,
        tmp_path,
        [line("lee", "evidence", True, later), line("lee", "role", "supporting", later)],
        "l.jsonl",
    )
    assert span_items(db) == [(Span("d1", 0, 30), "core", [])]  # kim alone: single-reviewed
    done = cli(db, "merge", str(other))
    assert done.returncode == 0 and "merged 2 judgements" in done.stdout, done.stdout
    assert "merged 0 judgements" in cli(db, "merge", str(other)).stdout
    # both added it; the role is disputed, so the item stands with no role
    assert span_items(db) == [(Span("d1", 0, 30), None, [])]
    data = json.loads(cli(db, "agreement", "--json").stdout)
    assert data["disagreements"] == 1
    pairs = {p["kind"]: p for p in data["pairs"]}
    assert pairs["evidence"]["items"] == 1 and pairs["evidence"]["agreement"] == 1.0
    assert pairs["role"]["items"] == 1 and pairs["role"]["agreement"] == 0.0
    settle = line("park", "adjudication", "supporting", "2026-12-02T09:00:00+09:00")
    judge(db, tmp_path, [{**settle, "settles": "role"}], "a.jsonl")
    assert span_items(db) == [(Span("d1", 0, 30), "supporting", [])]
    assert json.loads(cli(db, "agreement", "--json").stdout)["disagreements"] == 0


def test_a_span_item_added_scores_and_a_drop_takes_it_out(db, tmp_path):  # noqa: F811
    def recall():
        data = json.loads(cli(db, "metrics", "--k", "1", "--per-question", "--json").stdout)
        rows = {(r["system"], r["question"]): r for r in data["per_question"]}
        return rows[("large", "q3")]["Recall@1"]

    # q3: one passage item c40-d1-200 (alternative span d2[160:190)); the large run's first
    # passage d2[160:200) finds it. d1[0:30) is nowhere in its top 1: Recall@1 1 -> 1/2.
    assert recall() == 1.0
    judge(db, tmp_path, [line("kim", "evidence", True)])
    assert recall() == 0.5
    judge(db, tmp_path, [line("kim", "drop", True, "2026-12-01T12:00:00+09:00")], "d.jsonl")
    assert span_items(db) == [] and recall() == 1.0


def test_an_alternative_span_and_its_withdrawal(db, tmp_path):  # noqa: F811
    """A span made an alternative of q3's passage item (named by its primary passage id), and
    of q2's span item (named by its key 'd2:85-150'); null withdraws."""
    alt = {"document_id": "d1", "start": 5, "end": 25}
    judge(db, tmp_path, [line("kim", "alternative", "c40-d1-200", span=alt)])
    with Project(db) as project:
        items = project.effective_gold().items
        q3 = next(q["pk"] for q in project.store.questions() if q["id"] == "q3")
        (passage_item,) = items[q3]
        assert passage_item.alternative_spans == [Span("d2", 160, 190), Span("d1", 5, 25)]
    key_line = {**line("kim", "alternative", "d2:85-150", span=alt), "question_id": "q2"}
    judge(db, tmp_path, [key_line], "k.jsonl")
    assert span_items(db, "q2") == [(Span("d2", 85, 150), "core", [Span("d1", 5, 25)])]
    withdraw = {**key_line, "at": "2026-12-01T12:00:00+09:00", "value": None}
    judge(db, tmp_path, [withdraw], "w.jsonl")
    assert span_items(db, "q2") == [(Span("d2", 85, 150), "core", [])]


def test_export_journal_and_restore_keep_the_span(db, tmp_path):  # noqa: F811
    fresh = tmp_path / "fresh.sqlite"
    shutil.copy(db, fresh)
    lines = [line("kim", "evidence", True), line("kim", "role", "core")]
    judge(db, tmp_path, lines)
    out = tmp_path / "out.jsonl"
    assert cli(db, "export", "judgements", str(out)).returncode == 0
    exported = [json.loads(x) for x in out.read_text().splitlines()]
    assert exported == lines
    journal = journal_path(db)
    assert [x["span"] for x in journal_lines(journal)[1]] == [SPAN, SPAN]
    done = cli(fresh, "restore", "judgements", str(journal), "--force")
    assert done.returncode == 0 and "restored 2 judgements" in done.stdout, done.stderr
    assert span_items(fresh) == [(Span("d1", 0, 30), "core", [])]
    # the same lines again are the same judgements: nothing added
    assert (
        "added 0 judgements (2 already there)" in judge(db, tmp_path, lines, "again.jsonl").stdout
    )


def test_bad_span_lines_are_refused_with_their_line(db, tmp_path):  # noqa: F811
    bad = [
        (
            line("kim", "evidence", True, span={"document_id": "d1", "start": 0, "end": 9999}),
            "not inside",
        ),
        (
            line("kim", "evidence", True, span={"document_id": "zz", "start": 0, "end": 5}),
            "unknown document",
        ),
        (line("kim", "not_evidence", True), "names a passage, not a span"),
        ({**line("kim", "role", "core"), "passage_id": "c40-d1-200"}, "not both"),
        (line("kim", "drop", True), "nothing to drop"),
        (line("kim", "alternative", "d9:1-2"), "must be the primary"),
    ]
    for entry, words in bad:
        path = write_jsonl(tmp_path / "bad.jsonl", [entry])
        done = cli(db, "import", "judgements", str(path))
        assert done.returncode == 2 and done.stderr.startswith(f"{path}:1: "), entry
        assert words in done.stderr, (words, done.stderr)


def test_one_questions_gold_holds_its_span_items_as_the_whole_gold_does(db, tmp_path):  # noqa: F811
    """The window and the report build a question's gold from its own rows
    (review.question_gold): imported span items, their alternatives and span lines in it
    exactly as in the effective gold of the whole database."""
    from desktop import review

    alt = {"document_id": "d1", "start": 5, "end": 25}
    judge(
        db,
        tmp_path,
        [line("kim", "evidence", True), line("kim", "alternative", "c40-d1-200", span=alt)],
    )
    with Project(db) as project:
        whole = project.effective_gold()
        names = project.reviewers()
        for question in project.store.questions():
            built, _, _ = review.question_gold(project, question, "", False, names)
            assert built.items[question["pk"]] == whole.items[question["pk"]], question["id"]
            assert any(item.span for item in built.items[question["pk"]]), question["id"]


def test_the_report_is_written_with_span_items_and_span_disagreements(db, tmp_path):  # noqa: F811
    later = "2026-12-01T11:00:00+09:00"
    lines = [line("kim", "evidence", True), line("kim", "role", "core")]
    lines += [line("lee", "evidence", True, later), line("lee", "role", "supporting", later)]
    judge(db, tmp_path, lines)
    done = cli(db, "export", str(tmp_path / "report.xlsx"), "--k", "1,3")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "report.xlsx").stat().st_size > 0
