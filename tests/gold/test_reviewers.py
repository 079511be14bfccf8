"""Judgement log, effective gold, merge, agreement (design section 6)."""

import json
import os
import shutil
import sqlite3

import pytest

from desktop.gold.effective import cohen_kappa
from desktop.project import Project
from tests.helpers import cli, kill_when_writing, small_project, snapshot, write_jsonl, write_text


def roles(project, question_id):
    pk = project.store.question(question_id)["pk"]
    return {i.primary_id: i.role for i in project.effective_gold().items[pk]}


def alternatives(project, question_id):
    pk = project.store.question(question_id)["pk"]
    return {
        i.primary_id: sorted(i.alternatives.values()) for i in project.effective_gold().items[pk]
    }


def test_single_reviewer_change_counts_at_once_and_is_marked(project, tmp_path):
    small_project(project, tmp_path)
    project.add_judgement("kim", "q2", "role", "core", passage_id="p3")
    assert roles(project, "q2") == {"p3": "core"}
    (decision,) = project.effective_gold().decisions
    assert decision.status == "single" and decision.counts


def test_second_reviewer_turns_single_into_pending_agreed_or_disputed(project, tmp_path):
    small_project(project, tmp_path)
    project.add_judgement("kim", "q2", "role", "core", passage_id="p3")
    project.add_judgement("lee", "q1", "note", "다시 볼 것")
    # lee is now in the database: kim's lone change waits for a second review.
    assert roles(project, "q2") == {"p3": None}
    assert project.effective_gold().decisions[0].status == "pending"
    project.add_judgement("lee", "q2", "role", "core", passage_id="p3")
    assert roles(project, "q2") == {"p3": "core"}
    project.add_judgement("lee", "q2", "role", "supporting", passage_id="p3")
    assert roles(project, "q2") == {"p3": None}  # disputed: the imported gold stands
    gold = project.effective_gold()
    assert [d.status for d in gold.disagreements()] == ["disputed"]
    assert gold.disagreements()[0].votes == {"kim": "core", "lee": "supporting"}
    project.add_judgement(
        "park", "q2", "adjudication", "supporting", passage_id="p3", settles="role"
    )
    assert roles(project, "q2") == {"p3": "supporting"}
    assert project.agreement()["disagreements"] == 0


def test_latest_line_wins_by_instant_not_by_text(project, tmp_path):
    small_project(project, tmp_path)
    # 10:00+09:00 is 01:00 UTC, earlier than 02:00+00:00 though its text sorts later.
    project.add_judgement(
        "kim", "q1", "role", "supporting", passage_id="p2", at="2026-12-01T02:00:00+00:00"
    )
    project.add_judgement(
        "kim", "q1", "role", "core", passage_id="p2", at="2026-12-01T10:00:00+09:00"
    )
    assert roles(project, "q1")["p2"] == "supporting"
    assert len(project.store.judgements()) == 2  # both lines stay in the log


def test_alternative_and_withdrawal_move_the_metrics(project, tmp_path):
    small_project(project, tmp_path)
    write_text(tmp_path / "r.trec", "q1 Q0 p3 1 9 t\nq1 Q0 p4 2 8 t\nq2 Q0 p1 1 5 t\n")
    project.import_run(tmp_path / "r.trec", "BM25")

    def recall():
        (scores,) = project.evaluate([5]).systems
        return scores.means["Recall@5"]

    assert recall() == 0.0
    project.add_judgement("kim", "q2", "alternative", "p3", passage_id="p1")
    assert alternatives(project, "q2") == {"p3": ["p1", "p4"]}
    assert recall() == pytest.approx(0.5)
    project.add_judgement("kim", "q2", "alternative", None, passage_id="p1")
    assert alternatives(project, "q2") == {"p3": ["p4"]}
    assert recall() == 0.0
    project.add_judgement("kim", "q2", "not_evidence", True, passage_id="p4")
    assert alternatives(project, "q2") == {"p3": []}


def test_answerable_judgement(project, tmp_path):
    small_project(project, tmp_path)
    q3 = project.store.question("q3")["pk"]
    assert project.effective_gold().answerable[q3] is False
    project.add_judgement("kim", "q3", "answerable", True)
    assert project.effective_gold().answerable[q3] is True


def test_bad_values_are_refused(project, tmp_path):
    small_project(project, tmp_path)
    with pytest.raises(ValueError):
        project.add_judgement("kim", "q1", "role", "main", passage_id="p2")
    with pytest.raises(ValueError):
        project.add_judgement("kim", "q1", "answerable", "yes")


def test_kappa_hand_computed():
    pairs = [("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15
    observed, kappa = cohen_kappa(pairs)
    assert observed == pytest.approx(0.7) and kappa == pytest.approx(0.4)
    # Both always give one and the same value: agreement 1, kappa undefined.
    assert cohen_kappa([("core", "core")] * 4) == (1.0, None)
    # Each always gives one value, but not the same one: no agreement, kappa 0.
    assert cohen_kappa([("core", "supporting")] * 3) == (0.0, 0.0)
    # Perfect agreement over two values.
    assert cohen_kappa([("a", "a"), ("b", "b")]) == (1.0, 1.0)


def two_reviewers(tmp_path):
    """A base database copied to two laptops; kim and lee judge independently."""
    base = Project(tmp_path / "base.db")
    small_project(base, tmp_path)
    base.close()
    shutil.copy(tmp_path / "base.db", tmp_path / "kim.db")
    shutil.copy(tmp_path / "base.db", tmp_path / "lee.db")
    kim, lee = Project(tmp_path / "kim.db"), Project(tmp_path / "lee.db")
    kim.add_judgement("kim", "q1", "role", "core", passage_id="p1")
    kim.add_judgement("kim", "q2", "role", "core", passage_id="p3")
    kim.add_judgement("kim", "q2", "alternative", "p3", passage_id="p1")
    lee.add_judgement("lee", "q1", "role", "core", passage_id="p1")
    lee.add_judgement("lee", "q2", "role", "supporting", passage_id="p3")
    lee.add_judgement("lee", "q3", "answerable", True)
    return kim, lee


def effective(project):
    gold = project.effective_gold()
    return (
        {
            q: sorted((i.primary_id, i.role, tuple(sorted(i.alternatives.values()))) for i in items)
            for q, items in gold.items.items()
        },
        gold.answerable,
        [(d.question_id, d.kind, d.passage_id, d.status) for d in gold.decisions],
    )


def test_merge_both_ways_gives_the_same_gold_and_twice_adds_nothing(tmp_path):
    kim, lee = two_reviewers(tmp_path)
    kim_file, lee_file = kim.path, lee.path
    added = kim.merge(lee_file).rows
    assert added == 3
    lee.merge(kim_file)
    assert effective(kim) == effective(lee)
    before = snapshot(kim.path)
    assert kim.merge(lee_file).rows == 0
    assert lee.merge(kim_file).rows == 0
    # The merge's own record aside, nothing changed.
    assert len(kim.store.judgements()) == 6
    del before
    statuses = {(d.question_id, d.passage_id): d.status for d in kim.effective_gold().decisions}
    assert statuses[("q1", "p1")] == "agreed"
    assert statuses[("q2", "p3")] == "disputed"
    assert statuses[("q2", "p1")] == "pending"
    data = kim.agreement()
    assert data["disagreements"] == 1
    (pair,) = [p for p in data["pairs"] if p["kind"] == "role"]
    assert pair["reviewers"] == ["kim", "lee"] and pair["items"] == 2
    assert pair["agreement"] == 0.5
    kim.close()
    lee.close()


def test_merge_refuses_a_different_evaluation_and_changes_nothing(tmp_path):
    kim, lee = two_reviewers(tmp_path)
    write_jsonl(tmp_path / "more.jsonl", [{"id": "q9", "text": "새 질문"}])
    lee.import_questions(tmp_path / "more.jsonl")
    before = snapshot(kim.path)
    from desktop.readers import InputError

    with pytest.raises(InputError, match="questions differ"):
        kim.merge(lee.path)
    assert snapshot(kim.path) == before
    kim.close()
    lee.close()


def test_export_import_judgements_round_trip(tmp_path):
    kim, lee = two_reviewers(tmp_path)
    out = tmp_path / "kim.jsonl"
    assert kim.export_judgements(out, reviewer="kim") == 3
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["reviewer"] == "kim" and lines[0]["kind"] == "role"
    assert lee.import_judgements(out).rows == 3
    assert lee.import_judgements(out).rows == 0
    bad = write_jsonl(tmp_path / "bad.jsonl", [{**lines[0], "question_id": "nope"}])
    before = snapshot(lee.path)
    from desktop.readers import InputError

    with pytest.raises(InputError, match=r"bad\.jsonl:1: unknown question"):
        lee.import_judgements(bad)
    assert snapshot(lee.path) == before
    kim.close()
    lee.close()


def test_cli_merge_and_agreement_json(tmp_path):
    kim, lee = two_reviewers(tmp_path)
    kim.close()
    lee.close()

    kim_db = tmp_path / "kim.db"
    assert "merged 3" in cli(kim_db, "merge", str(tmp_path / "lee.db")).stdout
    assert "merged 0" in cli(kim_db, "merge", str(tmp_path / "lee.db")).stdout
    data = json.loads(cli(kim_db, "agreement", "--json").stdout)
    assert data["disagreements"] == 1
    assert {"reviewers", "kind", "items", "agreement", "kappa"} <= set(data["pairs"][0])
    missing = cli(kim_db, "merge", str(tmp_path / "none.db"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
def test_merge_killed_mid_way_leaves_the_database_as_it_was(tmp_path):
    kim, lee = two_reviewers(tmp_path)
    rows = [
        (
            "lee",
            f"2026-12-01T10:{i // 6000 % 60:02d}:{i // 100 % 60:02d}.{i % 100:03d}+09:00",
            "q1",
            "note",
            "",
            json.dumps(f"메모 {i} " * 20),
            None,
            None,
            None,
            0,
        )
        for i in range(400_000)
    ]
    lee.store.add_judgements(rows)
    kim.close()
    lee.close()
    before = snapshot(tmp_path / "kim.db")
    kill_when_writing(tmp_path / "kim.db", "merge", str(tmp_path / "lee.db"), wal_bytes=4_000_000)
    conn = sqlite3.connect(tmp_path / "kim.db")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    assert snapshot(tmp_path / "kim.db") == before
