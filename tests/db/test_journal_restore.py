"""The judgement journal beside the database, and undoing the imports that replaced gold or runs
(`restore`): the log survives the loss of the database file, and a mistaken import can be put
back exactly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from db import StoreError, journal, undo
from desktop.app import backup, paths
from desktop.project import Project
from tests.helpers import cli, small_project, snapshot, write_jsonl

LINES = [
    {
        "reviewer": "kim",
        "at": "2026-12-01T10:00:00+09:00",
        "question_id": "q1",
        "kind": "role",
        "passage_id": "p1",
        "value": "core",
    },
    {
        "reviewer": "lee",
        "at": "2026-12-01T10:05:00+09:00",
        "question_id": "q2",
        "kind": "note",
        "value": "검토 필요",
        "system": "BM25",
    },
]


def journal_lines(db) -> list[dict]:
    return journal.read(journal.journal_path(db))[1]


def test_every_judgement_commit_is_journaled_and_rebuilds_the_log_after_the_db_is_lost(
    project, tmp_path
):
    small_project(project, tmp_path)
    project.import_judgements(write_jsonl(tmp_path / "j.jsonl", LINES))
    project.add_judgement("park", "q2", "answerable", False)
    header, lines, torn = journal.read(project.store.journal_path)
    assert header["database_id"] == project.store.database_id() and not torn
    assert lines == project.judgement_lines(), "the same design-§6 lines, in log order"
    expected = project.judgement_lines()
    project.close()

    db = project.path
    for suffix in ("", "-wal", "-shm"):
        db.with_name(db.name + suffix).unlink(missing_ok=True)
    assert cli(db, "restore", "judgements").returncode == 2  # a lost database: init first
    assert cli(db, "init").returncode == 0
    refused = cli(db, "restore", "judgements")
    assert refused.returncode == 2 and "the journal of another database" in refused.stderr
    assert "--force" in refused.stderr, "a rebuilt database has an id of its own"
    done = cli(db, "restore", "judgements", "--force")
    assert done.returncode == 0, done.stderr
    assert "restored 3 judgements" in done.stdout
    with Project(db) as rebuilt:
        assert rebuilt.judgement_lines() == expected
        # the rebuilt database journals into a journal of its own; the old one is kept aside
        assert journal.read(rebuilt.store.journal_path)[0]["database_id"] == (
            rebuilt.store.database_id()
        )
    aside = [p for p in tmp_path.glob("review.db.judgements.*.jsonl")]
    assert len(aside) == 1 and journal.read(aside[0])[1] == expected
    again = cli(db, "restore", "judgements", str(aside[0]), "--force")
    assert again.returncode == 0 and "restored 0 judgements" in again.stdout


def test_a_torn_last_line_and_a_missed_write_are_repaired_on_the_next_open(project, tmp_path):
    small_project(project, tmp_path)
    project.import_judgements(write_jsonl(tmp_path / "j.jsonl", LINES))
    path = project.store.journal_path
    project.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 25])  # killed in the middle of writing the last line
    assert journal.read(path)[2], "a torn tail is seen"
    with Project(project.path) as reopened:
        assert journal_lines(reopened.path) == reopened.judgement_lines()
        reopened.add_judgement("kim", "q1", "note", "다시")
        assert len(journal_lines(reopened.path)) == 3
    assert path.read_bytes().endswith(b"\n")


def test_a_journal_of_another_database_is_never_appended_to(project, tmp_path):
    small_project(project, tmp_path)
    project.add_judgement("kim", "q1", "note", "첫째")
    path = project.store.journal_path
    project.close()
    stranger = path.read_text(encoding="utf-8").replace(
        json.loads(path.read_text(encoding="utf-8").splitlines()[0])["database_id"], "f" * 32
    )
    path.write_text(stranger, encoding="utf-8")
    with Project(project.path) as p:
        assert journal.read(path)[0]["database_id"] == p.store.database_id()
        assert journal_lines(p.path) == p.judgement_lines()
    (aside,) = tmp_path.glob("review.db.judgements.ffffffff.jsonl")
    assert json.loads(aside.read_text(encoding="utf-8").splitlines()[0])["database_id"] == "f" * 32


def test_undo_of_a_mistaken_gold_import_restores_the_gold_exactly(project, tmp_path):
    small_project(project, tmp_path)
    (tmp_path / "run.trec").write_text("q1 Q0 p2 1 3.0 a\nq1 Q0 p1 2 2.0 a\nq2 Q0 p4 1 2.0 a\n")
    project.import_run(tmp_path / "run.trec", "BM25")
    before = project.evaluate([1, 5]).as_json(per_question=True)
    state = [project.store.question_evidence(q["pk"]) for q in project.questions()]
    wrong = write_jsonl(
        tmp_path / "wrong.jsonl",
        [
            {"question_id": "q1", "evidence": [{"passage_id": "p4"}]},
            {"question_id": "q2", "evidence": []},
        ],
    )
    project.import_gold(wrong)
    assert project.evaluate([1, 5]).as_json(per_question=True) != before
    (kept,) = project.backups()
    assert kept["kind"] == "gold" and kept["same_corpus"]
    done = cli(project.path, "restore", "--list")
    assert done.returncode == 0 and "the gold of 2 questions" in done.stdout
    done = cli(project.path, "restore", "last-import")
    assert done.returncode == 0, done.stderr
    assert project.evaluate([1, 5]).as_json(per_question=True) == before
    assert [project.store.question_evidence(q["pk"]) for q in project.questions()] == state
    assert project.backups() == []
    done = cli(project.path, "restore", "last-import")
    assert done.returncode == 2 and "no import has replaced anything" in done.stderr


def test_a_run_import_replacing_a_system_can_be_restored(project, tmp_path):
    small_project(project, tmp_path)
    (tmp_path / "a.trec").write_text("q1 Q0 p2 1 3.0 a\nq1 Q0 p1 2 2.5 a\nq2 Q0 p3 1 2.0 a\n")
    (tmp_path / "b.trec").write_text("q1 Q0 p4 1 9.0 b\n")
    project.import_run(tmp_path / "a.trec", "BM25")
    runs, systems = project.runs(), project.systems()
    project.import_run(tmp_path / "b.trec", "BM25")
    assert project.runs() != runs
    project.import_run(tmp_path / "b.trec", "other")  # a new system: nothing kept
    (kept,) = project.backups()
    project.restore_import(kept["id"])
    assert project.runs()["BM25"] == runs["BM25"]
    assert [s for s in project.systems() if s["name"] == "BM25"] == systems


def test_a_backup_is_refused_once_the_corpus_changed_and_corpus_replacement_keeps_gold_and_runs(
    project, tmp_path
):
    small_project(project, tmp_path)
    (tmp_path / "a.trec").write_text("q1 Q0 p2 1 3.0 a\n")
    project.import_run(tmp_path / "a.trec", "BM25")
    project.import_run(tmp_path / "a.trec", "BM25")
    gold_before = [project.store.question_evidence(q["pk"]) for q in project.questions()]
    corpus = tmp_path / "corpus.jsonl"
    project.import_corpus(corpus, replace=True)
    assert project.info()["evidence_items"] == 0 and project.systems() == []
    state = snapshot(project.path)
    run_backup = next(b for b in project.backups() if b["kind"] == "run")
    assert not run_backup["same_corpus"]
    with pytest.raises(StoreError, match="corpus that has been replaced since"):
        project.restore_import(run_backup["id"])
    assert snapshot(project.path) == state
    corpus_backup = project.backups()[0]
    assert corpus_backup["kind"] == "corpus"
    project.restore_import("last-import")
    assert [project.store.question_evidence(q["pk"]) for q in project.questions()] != []
    restored = [project.store.question_evidence(q["pk"]) for q in project.questions()]
    strip = [[{k: v for k, v in i.items() if k != "item_pk"} for i in q] for q in gold_before]
    assert [[{k: v for k, v in i.items() if k != "item_pk"} for i in q] for q in restored] == strip
    assert [s["name"] for s in project.systems()] == ["BM25"]


def test_a_corpus_backup_naming_missing_passages_is_refused(project, tmp_path):
    small_project(project, tmp_path)
    write_jsonl(tmp_path / "other.jsonl", [{"id": "z1", "text": "다른 말뭉치"}])
    project.import_corpus(tmp_path / "other.jsonl", replace=True)
    state = snapshot(project.path)
    done = cli(project.path, "restore", "last-import")
    assert done.returncode == 2 and "names ids this database lacks (passage p" in done.stderr
    assert "Traceback" not in done.stderr and snapshot(project.path) == state


def test_partial_backups_stay_bounded_by_count_and_rows(project, tmp_path, monkeypatch):
    small_project(project, tmp_path)
    (tmp_path / "a.trec").write_text("q1 Q0 p2 1 3.0 a\nq1 Q0 p1 2 2.0 a\n")
    for _ in range(undo.KEEP + 4):
        project.import_run(tmp_path / "a.trec", "BM25")
    kept = project.backups()
    assert len(kept) == undo.KEEP and kept[0]["id"] > kept[-1]["id"]
    monkeypatch.setattr(undo, "MAX_ROWS", 5)
    project.import_run(tmp_path / "a.trec", "BM25")
    assert [b["rows"] for b in project.backups()] == [2, 2]  # the newest, and what fits
    counts = project.store.conn.execute(
        "SELECT (SELECT count(*) FROM undo_result), (SELECT count(*) FROM undo_system)"
    ).fetchone()
    assert counts == (4, 2), "rows of pruned backups go with them"


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL and advisory locks are POSIX")
def test_a_part_left_by_a_killed_copy_is_removed_on_the_next_open(project, tmp_path):
    small_project(project, tmp_path)
    project.close()
    script = (
        "import sys, time\n"
        "from desktop.app import backup\n"
        "def slow(done, total, phase=None):\n"
        "    print('copying', flush=True)\n"
        "    time.sleep(60)\n"
        "backup.before(sys.argv[1], 'migration-1-to-2', progress=slow)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(project.path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "copying"
        (part,) = paths.backup_dir().glob("*.part")
        with Project(project.path):  # a copy still being written is left alone
            assert part.exists()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert part.exists(), "SIGKILL leaves the .part behind"
    with Project(project.path):
        pass
    assert not part.exists()
    assert backup.backups(project.path) == []


def test_restoring_a_gold_import_puts_back_the_passages_judged_not_evidence(project, tmp_path):
    """Imported level-0 lines (not_evidence) are replaced with a question's gold, so the backup
    keeps them: after restore the reviewed gold exports exactly as before, J(q) included."""
    small_project(project, tmp_path)
    first = write_jsonl(
        tmp_path / "first.jsonl",
        [{"question_id": "q1", "evidence": [{"passage_id": "p1"}], "not_evidence": ["p3", "p4"]}],
    )
    project.import_gold(first)
    before = tmp_path / "before.jsonl"
    assert cli(project.path, "export", "gold", before).returncode == 0
    assert "p3" in before.read_text(encoding="utf-8")
    wrong = write_jsonl(tmp_path / "wrong.jsonl", [{"question_id": "q1", "evidence": []}])
    project.import_gold(wrong)
    done = cli(project.path, "restore", "last-import")
    assert done.returncode == 0, done.stderr
    after = tmp_path / "after.jsonl"
    assert cli(project.path, "export", "gold", after).returncode == 0
    assert after.read_text(encoding="utf-8") == before.read_text(encoding="utf-8")
