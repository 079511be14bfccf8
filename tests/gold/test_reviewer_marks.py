"""Issue 22: a reviewer marked as a machine after their lines are in, by a reviewer-mark line
(kind "machine", about no question). The issue's done-when through the mark: marking a
reviewer makes `export gold` byte-identical to the database without that reviewer's lines;
unmarking brings their lines back; α leaves them out; the mark merges both ways, round-trips
export and import, and is undone like any line."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing

import pytest

from db import judgement_kinds
from db.schema import SCHEMA_VERSION
from desktop.app.sample import load_sample
from desktop.project import Project
from desktop.review import UndoHistory
from tests.gold.test_team_agreement import _gold, _lines
from tests.helpers import cli, refused, write_jsonl

PEOPLE = ("kim", "lee")
LATER = "2026-12-02T09:00:00+09:00"  # after every judged line


def _mark(reviewer, value, at=LATER, **more):
    return {"reviewer": reviewer, "at": at, "kind": "machine", "value": value, **more}


def _export_gold(db, path) -> bytes:
    assert cli(db, "export", "gold", str(path)).returncode == 0
    return path.read_bytes()


@pytest.fixture(scope="module")
def dbs(tmp_path_factory):
    """people.db: the sample judged by kim and lee; everyone.db: the same and gpt's lines,
    imported as a person's (no --machine); the gold exported from both."""
    tmp_path = tmp_path_factory.mktemp("marks")
    people, everyone = tmp_path / "people.db", tmp_path / "everyone.db"
    with Project(people) as project:
        list(load_sample(project))
    gold = _gold(tmp_path, people)
    files = {
        name: write_jsonl(tmp_path / f"{name}.jsonl", _lines(gold, name, seed=i, hour=10 + i))
        for i, name in enumerate((*PEOPLE, "gpt"))
    }
    with Project(people) as project:
        for name in PEOPLE:
            project.import_judgements(files[name])
    shutil.copy(people, everyone)
    with Project(everyone) as project:
        project.import_judgements(files["gpt"])
    return {
        "tmp": tmp_path,
        "people": people,
        "everyone": everyone,
        "files": files,
        "without": _export_gold(people, tmp_path / "without.jsonl"),
        "with": _export_gold(everyone, tmp_path / "with.jsonl"),
    }


def _copy(dbs, name):
    target = dbs["tmp"] / name
    shutil.copy(dbs["everyone"], target)
    return target


def test_marking_a_reviewer_leaves_the_gold_as_without_their_lines(dbs):
    assert dbs["with"] != dbs["without"]  # gpt counts as a person before the mark
    db = _copy(dbs, "marked.db")
    mark = write_jsonl(dbs["tmp"] / "mark.jsonl", [_mark("gpt", True)])
    done = cli(db, "import", "judgements", str(mark))
    assert done.returncode == 0, done.stderr
    assert _export_gold(db, dbs["tmp"] / "marked.jsonl") == dbs["without"]
    with Project(db) as project:
        assert (project.reviewers(), project.machine_reviewers()) == (["kim", "lee"], ["gpt"])
    # α and κ leave the machine out: as the people's database has them
    people = json.loads(cli(dbs["people"], "agreement", "--json").stdout)
    marked = json.loads(cli(db, "agreement", "--json").stdout)
    for key in ("alpha", "reviewers", "pairs", "disagreements"):
        assert marked[key] == people[key]
    assert {m["machine"] for m in marked["machines"]} == {"gpt"}
    info = json.loads(cli(db, "info", "--json").stdout)
    assert (info["reviewers"], info["machines"]) == (["kim", "lee"], ["gpt"])


def test_unmarking_brings_the_reviewers_lines_back(dbs):
    db = _copy(dbs, "unmarked.db")
    with Project(db) as project:
        project.mark_reviewer("gpt", True, at=LATER)
        assert project.machine_reviewers() == ["gpt"]
        project.mark_reviewer("gpt", False, at="2026-12-02T10:00:00+09:00")
        assert (project.reviewers(), project.machine_reviewers()) == (["gpt", "kim", "lee"], [])
    assert _export_gold(db, dbs["tmp"] / "unmarked.jsonl") == dbs["with"]
    with Project(db) as project:  # a null mark withdraws it: gpt's lines' own marks stand
        project.mark_reviewer("gpt", True, at="2026-12-02T11:00:00+09:00")
        project.mark_reviewer("gpt", None, at="2026-12-02T12:00:00+09:00")
        assert project.machine_reviewers() == []


def test_the_latest_mark_wins_over_the_lines_own_marks(dbs, tmp_path):
    """gpt's lines imported with --machine, then marked a person: they count as a person's."""
    db = tmp_path / "machine.db"
    shutil.copy(dbs["people"], db)
    with Project(db) as project:
        project.import_judgements(dbs["files"]["gpt"], machine=True)
        assert project.machine_reviewers() == ["gpt"]
    assert _export_gold(db, tmp_path / "a.jsonl") == dbs["without"]
    with Project(db) as project:
        project.mark_reviewer("gpt", False, at=LATER)
        assert project.reviewers() == ["gpt", "kim", "lee"]
    assert _export_gold(db, tmp_path / "b.jsonl") == dbs["with"]


def test_the_mark_merges_both_ways(dbs):
    marked = _copy(dbs, "merge-marked.db")
    with Project(marked) as project:
        project.mark_reviewer("gpt", True, at=LATER)
    plain = _copy(dbs, "merge-plain.db")
    with Project(plain) as project:
        assert "merged 1 judgements" in project.merge(marked).messages[0]
    with Project(marked) as project:
        assert "merged 0 judgements" in project.merge(plain).messages[0]
    for db in (plain, marked):
        assert _export_gold(db, dbs["tmp"] / f"{db.stem}.jsonl") == dbs["without"]


def test_the_mark_round_trips_export_import_and_the_journal(dbs, tmp_path):
    db = _copy(dbs, "round.db")
    with Project(db) as project:
        project.mark_reviewer("gpt", True, at=LATER)
        journal = project.store.journal_path
    out = tmp_path / "all.jsonl"
    assert cli(db, "export", "judgements", str(out)).returncode == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    marks = [line for line in lines if line["kind"] == "machine"]
    assert marks == [
        {
            "reviewer": "gpt",
            "at": LATER,
            "question_id": None,
            "kind": "machine",
            "value": True,
            "machine": True,
        }
    ]
    again = tmp_path / "again.db"
    with Project(again) as project:
        list(load_sample(project))
        assert project.import_judgements(out).rows == len(lines)
        assert project.machine_reviewers() == ["gpt"]
    back = tmp_path / "back.jsonl"
    assert cli(again, "export", "judgements", str(back)).returncode == 0
    assert back.read_bytes() == out.read_bytes()
    assert _export_gold(again, tmp_path / "gold.jsonl") == dbs["without"]
    lost = tmp_path / "lost.db"  # the journal brings the mark back with the lines
    with Project(lost) as project:
        list(load_sample(project))
        report = project.restore_judgements(journal, force=True)
        assert not report.warnings  # a mark is about no question: not an unknown one
        assert project.machine_reviewers() == ["gpt"]


def test_a_mark_line_is_checked(dbs, tmp_path):
    with Project(_copy(dbs, "checked.db")) as project:
        for line, problem in (
            (_mark("gpt", True, question_id="q1"), "its 'question_id' must be null or left out"),
            (_mark("gpt", "yes"), "a machine (reviewer mark) judgement's value must be true"),
            ({"reviewer": "gpt", "at": LATER, "kind": "machine"}, "judgement needs a 'value'"),
            (_mark("gpt", False, machine=True), "'machine' is true exactly when its value is"),
        ):
            bad = write_jsonl(tmp_path / "bad.jsonl", [line])
            assert problem in str(refused(project, project.import_judgements, bad))
        with pytest.raises(ValueError):
            project.mark_reviewer("gpt", "yes")


def test_a_mark_is_undone_like_any_line(dbs):
    """The window's undo reads a mark back from the log: undoing it writes the value it
    replaced (none: a null mark), redoing writes it again."""
    with Project(_copy(dbs, "undo.db")) as project:
        history = UndoHistory()
        history.record(project.mark_reviewer("gpt", True, at=LATER))
        [undo] = history.undo_lines()
        assert (undo["kind"], undo["reviewer"], undo["value"]) == ("machine", "gpt", None)
        history.record(project.mark_reviewer(undo["reviewer"], None, at="2026-12-02T09:01:00Z"))
        assert project.machine_reviewers() == [] and history.can_redo()
        [redo] = history.redo_lines()
        assert (redo["reviewer"], redo["value"]) == ("gpt", True)


def test_the_migration_keeps_every_line_and_then_takes_marks(dbs, tmp_path):
    """A database as migration 0012 left it (no 'machine' kind allowed; 0013 and 0014 widen
    the kinds) keeps every line, its pk, span and machine mark, and takes a reviewer mark once
    migrated."""
    db = tmp_path / "old.db"
    shutil.copy(dbs["people"], db)
    with Project(db) as project:
        project.import_judgements(dbs["files"]["gpt"], machine=True)
        before = project.store.judgements()
    old = sqlite3.connect(db)
    old.executescript(
        judgement_kinds.widened(())
        + f"""
        DELETE FROM _sqlite_migrations WHERE name LIKE '%_reviewer_marks'
            OR name LIKE '%_dismissed_candidates';
        PRAGMA user_version = {SCHEMA_VERSION - 2};
        """
    )
    with pytest.raises(sqlite3.IntegrityError):  # the kinds' CHECK before 0013
        old.execute(
            "INSERT INTO judgement (reviewer, at, question_id, kind, value) "
            "VALUES ('gpt', 'x', '', 'machine', 'true')"
        )
    old.close()
    with Project(db) as migrated:
        assert migrated.store.schema_version() == SCHEMA_VERSION
        assert migrated.store.judgements() == before
        migrated.mark_reviewer("gpt", False, at=LATER)
        assert migrated.reviewers() == ["gpt", "kim", "lee"]
    assert _export_gold(db, tmp_path / "gold.jsonl") == dbs["with"]
    assert _judgement_table(db) == _judgement_table(dbs["people"])  # the copy is the table


def _judgement_table(db) -> list:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'judgement' ORDER BY name"
        ).fetchall()


def test_a_marked_machines_lines_review_nothing_in_the_question_list(dbs):
    """The window's question list (review.overview, every question's rows grouped apart from
    the mark lines) reads the mark: gpt's own progress is untouched once gpt is a machine."""
    from desktop import review

    with Project(_copy(dbs, "status.db")) as project:
        before = review.overview(project, "gpt", False, [5]).summaries
        assert any(s.status != review.UNTOUCHED for s in before.values())
        project.mark_reviewer("gpt", True, at=LATER)
        after = review.overview(project, "gpt", False, [5]).summaries
        assert all(s.status == review.UNTOUCHED for s in after.values())


def test_a_questions_read_holds_its_lines_and_its_gold_still_reads_the_marks(dbs):
    """judgements(question_id=…) returns that question's lines only (no reviewer-mark line,
    which is about no question); a question's gold, built from them, still leaves the marked
    machine's lines out, as the gold of the whole log does."""
    from desktop import review

    db = _copy(dbs, "question-read.db")
    with Project(db) as project:
        project.mark_reviewer("gpt", True, at=LATER)
        whole = project.effective_gold()
        reviewers = project.reviewers()
        for question in project.reads.each_question():
            rows = project.store.judgements(question_id=question["id"])
            assert {r["question_id"] for r in rows} <= {question["id"]}
            built, _, seen = review.question_gold(project, question, "", False, reviewers)
            pk = question["pk"]
            assert built.items.get(pk) == whole.items.get(pk)
            assert built.answerable.get(pk) == whole.answerable.get(pk)
            assert [r["reviewer"] for r in seen if r["kind"] == "machine"] == ["gpt"]
