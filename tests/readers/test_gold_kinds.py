"""The evidence and drop judgement kinds, and qrels level 0 kept (issue 13 point 1)."""

import pytest

from db.journal import journal_path
from desktop.project import Project
from tests.helpers import cli, small_project, snapshot, write_jsonl, write_text


def items(project, question_id):
    pk = project.store.question(question_id)["pk"]
    return {
        i.primary_id: (i.role, sorted(i.alternatives.values()))
        for i in project.effective_gold().items[pk]
    }


def line(reviewer, qid, kind, value, pid="", at="2026-12-01T01:00:00Z", **more):
    return {
        "reviewer": reviewer,
        "at": at,
        "question_id": qid,
        "kind": kind,
        "passage_id": pid,
        "value": value,
        **more,
    }


def test_evidence_adds_an_item_that_a_role_and_alternative_then_shape(project, tmp_path):
    small_project(project, tmp_path)
    project.add_judgement("kim", "q3", "evidence", True, passage_id="p4")
    assert items(project, "q3") == {"p4": (None, [])}
    project.add_judgement("kim", "q3", "role", "core", passage_id="p4")
    # an added item's primary counts for an alternative
    project.add_judgement("kim", "q3", "alternative", "p4", passage_id="p1")
    assert items(project, "q3") == {"p4": ("core", ["p1"])}
    project.add_judgement("kim", "q3", "evidence", None, passage_id="p4")
    assert items(project, "q3") == {}


def test_add_evidence_writes_evidence_and_role_in_one_go(project, tmp_path):
    small_project(project, tmp_path)
    rows = project.add_evidence("kim", "q2", "p1", "supporting")
    assert [r["kind"] for r in rows] == ["evidence", "role"]
    assert items(project, "q2") == {"p3": (None, ["p4"]), "p1": ("supporting", [])}
    with pytest.raises(ValueError):
        project.add_evidence("kim", "q2", "p2", "maybe")
    assert len(project.store.judgements()) == 2


def test_drop_removes_an_item_with_its_alternatives_and_metrics_follow(project, tmp_path):
    small_project(project, tmp_path)
    write_text(tmp_path / "r.trec", "q2 Q0 p4 1 9 t\nq1 Q0 p2 1 5 t\n")
    project.import_run(tmp_path / "r.trec", "BM25")
    project.add_judgement("kim", "q1", "drop", True, passage_id="p1", system=None)
    assert items(project, "q1") == {"p2": ("core", [])}
    (scores,) = project.evaluate([5]).systems
    assert scores.means["Recall@5"] == pytest.approx(1.0)
    project.add_judgement("kim", "q2", "drop", True, passage_id="p3")
    assert items(project, "q2") == {}
    gold = project.effective_gold()
    q2 = project.store.question("q2")["pk"]
    pk = project.store.passage_pks(["p3", "p4"])
    assert gold.judged(q2) == {pk["p3"], pk["p4"]}  # a dropped item's passages are judged


def test_drop_of_an_added_item(project, tmp_path):
    small_project(project, tmp_path)
    project.add_judgement("kim", "q3", "evidence", True, passage_id="p2")
    project.add_judgement("kim", "q3", "drop", True, passage_id="p2")
    assert items(project, "q3") == {}


def test_values_are_true_or_null_only(project, tmp_path):
    small_project(project, tmp_path)
    for value in (False, 1, "yes", 1.0):
        with pytest.raises(ValueError, match="true or null"):
            project.add_judgement("kim", "q3", "evidence", value, passage_id="p2")
        with pytest.raises(ValueError, match="true or null"):
            project.add_judgement("kim", "q1", "drop", value, passage_id="p1")


def test_add_judgement_refusals(project, tmp_path):
    small_project(project, tmp_path)
    with pytest.raises(ValueError, match="already the primary"):
        project.add_judgement("kim", "q1", "evidence", True, passage_id="p2")
    with pytest.raises(ValueError, match="not in the corpus"):
        project.add_judgement("kim", "q1", "evidence", True, passage_id="nope")
    with pytest.raises(ValueError, match="nothing to drop"):
        project.add_judgement("kim", "q1", "drop", True, passage_id="p3")
    with pytest.raises(ValueError, match="evidence items"):
        project.add_judgement("kim", "q1", "alternative", "p3", passage_id="p4")
    assert project.store.judgements() == []


@pytest.mark.parametrize(
    "rows, where, what",
    [
        ([line("kim", "q1", "evidence", True, "p2")], 1, "already the primary"),
        ([line("kim", "q1", "evidence", True, "zz")], 1, "unknown passage id 'zz'"),
        ([line("kim", "q1", "drop", True, "p3")], 1, "nothing to drop"),
        (
            [line("kim", "q1", "drop", True, "p4"), line("kim", "q1", "evidence", True, "p4")],
            1,
            "nothing to drop",
        ),
        ([line("kim", "q1", "evidence", False, "p3")], 1, "true or null"),
        ([line("kim", "q1", "drop", 1, "p1")], 1, "true or null"),
        (
            [line("kim", "q1", "role", "core", "p1"), line("kim", "q1", "evidence", True, "")],
            2,
            "needs a 'passage_id'",
        ),
        (
            [line("kim", "q1", "adjudication", True, "p1", settles="evidence")],
            1,
            "already the primary",
        ),
    ],
)
def test_import_refusals_name_the_line_and_change_nothing(db_path, tmp_path, rows, where, what):
    with Project(db_path) as project:
        small_project(project, tmp_path)
    before = snapshot(db_path)
    path = write_jsonl(tmp_path / "j.jsonl", rows)
    result = cli(db_path, "import", "judgements", str(path))
    assert result.returncode == 2, result.stderr
    assert f"{path}:{where}:" in result.stderr and what in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(db_path) == before


def test_drop_after_evidence_in_the_same_file_or_the_database_imports(project, tmp_path):
    small_project(project, tmp_path)
    path = write_jsonl(
        tmp_path / "j.jsonl",
        [
            line("kim", "q1", "evidence", True, "p4"),
            line("kim", "q1", "alternative", "p4", "p3", at="2026-12-01T01:00:01Z"),
            line("kim", "q1", "drop", True, "p4", at="2026-12-01T01:00:02Z"),
        ],
    )
    assert project.import_judgements(path).rows == 3
    assert items(project, "q1") == {"p2": ("core", []), "p1": ("supporting", [])}
    path = write_jsonl(
        tmp_path / "k.jsonl", [line("kim", "q1", "drop", None, "p4", at="2026-12-01T01:00:03Z")]
    )
    assert project.import_judgements(path).rows == 1
    assert items(project, "q1")["p4"] == (None, ["p3"])


def two_reviewers(project, tmp_path, *rows):
    small_project(project, tmp_path)
    project.add_judgement("lee", "q1", "note", "둘째 검토자")
    for reviewer, kind, value in rows:
        project.add_judgement(reviewer, "q3", kind, value, passage_id="p2")


def test_two_reviewers_adding_the_same_passage_agree(project, tmp_path):
    two_reviewers(project, tmp_path, ("kim", "evidence", True))
    assert items(project, "q3") == {}  # pending: kim is not alone in the database
    project.add_judgement("lee", "q3", "evidence", True, passage_id="p2")
    assert items(project, "q3") == {"p2": (None, [])}
    (d,) = [d for d in project.effective_gold().decisions if d.kind == "evidence"]
    assert d.status == "agreed"


def test_evidence_against_not_evidence_is_a_disagreement_until_adjudicated(project, tmp_path):
    two_reviewers(
        project,
        tmp_path,
        ("kim", "evidence", True),
        ("park", "evidence", True),
        ("lee", "not_evidence", True),
    )
    gold = project.effective_gold()
    # kim and park agree: the evidence decision is in force, so the item counts meanwhile
    assert items(project, "q3") == {"p2": (None, [])}
    (conflict,) = gold.disagreements()
    assert (conflict.kind, conflict.passage_id) == ("evidence", "p2")
    assert conflict.votes == {"kim": True, "park": True, "lee": False}
    assert project.agreement()["disagreements"] == 1
    project.add_judgement("choi", "q3", "adjudication", None, passage_id="p2", settles="drop")
    assert project.effective_gold().disagreements()  # a withdrawn line settles nothing
    project.add_judgement("choi", "q3", "adjudication", True, passage_id="p2", settles="evidence")
    assert project.effective_gold().disagreements() == []
    assert project.agreement()["disagreements"] == 0


def test_adjudication_settles_a_drop(project, tmp_path):
    two_reviewers(project, tmp_path)
    project.add_judgement("kim", "q1", "drop", True, passage_id="p1")
    assert "p1" in items(project, "q1")  # pending
    project.add_judgement("choi", "q1", "adjudication", True, passage_id="p1", settles="drop")
    assert "p1" not in items(project, "q1")


def test_journal_carries_the_new_kinds_unchanged(db_path, tmp_path):
    with Project(db_path) as project:
        small_project(project, tmp_path)
        project.add_evidence("kim", "q3", "p2", "core")
        project.add_judgement("kim", "q1", "drop", True, passage_id="p1")
        lines = project.judgement_lines()
    fresh = tmp_path / "fresh.db"
    with Project(fresh) as other:
        small_project(other, tmp_path)
        report = other.restore_judgements(journal_path(db_path), force=True)
        assert report.rows == 3
        assert other.judgement_lines() == lines
        assert items(other, "q3") == {"p2": ("core", [])}


def test_qrels_level_zero_is_kept_as_judged(project, tmp_path):
    small_project(project, tmp_path)
    write_text(tmp_path / "g.qrels", "q1 0 p2 2\nq1 0 p3 0\nq2 0 p3 1\n")
    project.import_gold(tmp_path / "g.qrels")
    gold = project.effective_gold()
    pk = project.store.passage_pks(["p2", "p3"])
    assert gold.judged(project.store.question("q1")["pk"]) == {pk["p2"], pk["p3"]}
    # replacing the question's gold replaces its level-0 lines too
    write_jsonl(
        tmp_path / "g2.jsonl",
        [{"question_id": "q1", "evidence": [{"passage_id": "p2"}], "not_evidence": ["p4"]}],
    )
    project.import_gold(tmp_path / "g2.jsonl")
    pk4 = project.store.passage_pks(["p4"])["p4"]
    assert project.effective_gold().judged(project.store.question("q1")["pk"]) == {pk["p2"], pk4}


def test_gold_jsonl_not_evidence_refusals(db_path, tmp_path):
    with Project(db_path) as project:
        small_project(project, tmp_path)
    before = snapshot(db_path)
    for n, obj in enumerate(
        [
            {"question_id": "q1", "evidence": [{"passage_id": "p2"}], "not_evidence": ["p2"]},
            {"question_id": "q1", "evidence": [], "not_evidence": "p2"},
            {"question_id": "q1", "evidence": [], "not_evidence": ["zz"]},
        ]
    ):
        path = write_jsonl(tmp_path / f"g{n}.jsonl", [obj])
        result = cli(db_path, "import", "gold", str(path))
        assert result.returncode == 2 and f"{path}:1:" in result.stderr, result.stderr
    assert snapshot(db_path) == before
