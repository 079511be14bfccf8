"""First-run safety net: full copies before a migration (rotated), partial backups of what an
import replaces, the rotating log file, and the crash dialog that names it."""

from __future__ import annotations

import logging
import sqlite3
import sys
import tempfile
import threading

import pytest

from db import SCHEMA_VERSION
from db.files import backup_file, file_has_rows, file_schema_version
from desktop.app import backup, logs, paths
from desktop.project import Project
from tests.helpers import small_project, snapshot, write_jsonl


def test_new_and_missing_databases_are_not_backed_up(tmp_path):
    missing = tmp_path / "none.db"
    assert backup.before(missing, "import-corpus") is None
    assert not missing.exists(), "asking for a backup must not create the database"
    assert file_schema_version(missing) is None and not file_has_rows(missing)

    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert backup.before(empty, "merge") is None

    fresh = tmp_path / "fresh.db"
    Project(fresh).close()
    assert file_schema_version(fresh) == SCHEMA_VERSION
    assert not file_has_rows(fresh), "schema and FTS bookkeeping only: nothing to lose yet"
    assert backup.before(fresh, "import-corpus") is None
    assert not paths.backup_dir().exists() or not any(paths.backup_dir().iterdir())


def test_not_sqlite_is_neither_backed_up_nor_an_error(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("not a database", encoding="utf-8")
    assert file_schema_version(junk) is None
    assert backup.before(junk, "import-corpus") is None


def test_imports_keep_only_what_they_replace_and_never_copy_the_file(project, tmp_path):
    small_project(project, tmp_path)  # corpus, questions, first gold: pure additions
    assert project.backups() == []
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 p2 1 3.0 bm25\nq2 Q0 p4 1 2.0 bm25\n")
    project.import_run(run, "BM25")  # a new system: nothing to keep
    assert project.backups() == []
    write_jsonl(
        tmp_path / "kim.jsonl",
        [
            {
                "reviewer": "kim",
                "at": "2026-12-01T10:00:00+09:00",
                "question_id": "q2",
                "kind": "role",
                "passage_id": "p3",
                "value": "core",
            }
        ],
    )
    project.import_judgements(tmp_path / "kim.jsonl")  # journaled, never replaced
    other = tmp_path / "other.db"
    backup_file(project.path, other)  # a plain file copy would miss what is still in -wal
    project.merge(other)
    assert project.backups() == []

    project.import_run(run, "BM25")
    project.import_gold(tmp_path / "gold.jsonl")
    project.import_corpus(tmp_path / "corpus.jsonl", replace=True)
    assert [(b["kind"], b["summary"]) for b in project.backups()] == [
        ("corpus", "the gold of 3 questions and 1 runs, removed with the corpus"),
        ("gold", "the gold of 3 questions"),
        ("run", "the run of system 'BM25'"),
    ]
    assert backup.backups(project.path) == [], "no full copy before an import or merge"
    assert not paths.backup_dir().exists() or not any(paths.backup_dir().iterdir())


def test_a_refused_import_keeps_no_backup_and_leaves_the_database_unchanged(project, tmp_path):
    small_project(project, tmp_path)
    (tmp_path / "run.trec").write_text("q1 Q0 p2 1 3.0 x\n")
    project.import_run(tmp_path / "run.trec", "X")
    state = snapshot(project.path)
    (tmp_path / "bad.trec").write_text("q1 Q0 nope 1 3.0 x\n")
    with pytest.raises(Exception, match="unknown passage id"):
        project.import_run(tmp_path / "bad.trec", "X")
    assert snapshot(project.path) == state
    assert project.backups() == []


def test_full_copies_are_rotated_per_database(project, tmp_path):
    small_project(project, tmp_path)
    for _ in range(backup.KEEP + 5):
        backup.before(project.path, "manual")
    kept = backup.backups(project.path)
    assert len(kept) == backup.KEEP
    assert kept == sorted(kept), "names sort oldest first"

    # another database with the same file name elsewhere keeps its own history
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with Project(elsewhere / project.path.name) as twin:
        small_project(twin, elsewhere)
        backup.before(twin.path, "manual")
        backup.before(twin.path, "manual")
        assert len(backup.backups(twin.path)) == 2
    assert len(backup.backups(project.path)) == backup.KEEP


def test_a_backup_is_a_complete_standalone_copy_taken_while_the_database_is_open(project, tmp_path):
    small_project(project, tmp_path)
    copy = backup.before(project.path, "manual")
    assert copy is not None and copy.parent == paths.backup_dir()
    assert not copy.with_name(copy.name + "-wal").exists()
    conn = sqlite3.connect(copy)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    with Project(copy) as restored:
        assert restored.info()["questions"] == project.info()["questions"] == 3
        assert restored.info()["evidence_items"] == project.info()["evidence_items"]


def test_opening_an_older_schema_backs_up_before_migrating(tmp_path):
    db = tmp_path / "old.db"
    with Project(db) as p:
        small_project(p, tmp_path)
    for old in backup.backups(db):
        old.unlink()
    # Pretend the file was written by a program one schema older; opening it runs the
    # (here: no-op) migration path and must keep a copy first.
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    with Project(db):
        pass
    (copy,) = backup.backups(db)
    assert copy.name.endswith(f".migration-{SCHEMA_VERSION - 1}-to-{SCHEMA_VERSION}.db")
    assert file_schema_version(copy) == SCHEMA_VERSION - 1
    assert file_schema_version(db) == SCHEMA_VERSION
    with Project(db):  # up to date now: no second copy
        pass
    assert len(backup.backups(db)) == 1


def test_a_failed_backup_is_logged_and_the_migration_goes_on(tmp_path, monkeypatch, caplog):
    db = tmp_path / "old.db"
    with Project(db) as p:
        small_project(p, tmp_path)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setattr(paths, "backup_dir", lambda: blocker / "backups")
    with caplog.at_level(logging.WARNING, logger="recall_reviewer.backup"):
        with Project(db) as p:
            assert p.info()["questions"] == 3
    assert "no backup of" in caplog.text
    assert file_schema_version(db) == SCHEMA_VERSION


def test_backup_file_refuses_a_missing_source(tmp_path):
    from db import StoreError

    with pytest.raises(StoreError):
        backup_file(tmp_path / "none.db", tmp_path / "copy.db")
    assert not (tmp_path / "none.db").exists()


# -- the log file ------------------------------------------------------------------------------


@pytest.fixture
def log_setup():
    yield logs.setup
    logs.shutdown()


def test_log_goes_to_the_data_folder_and_rotates(log_setup, monkeypatch):
    monkeypatch.setattr(logs, "MAX_BYTES", 2_000)
    path = log_setup()
    assert path == paths.log_dir() / logs.LOG_NAME
    assert log_setup() == path, "a second setup() changes nothing"
    logging.getLogger("recall_reviewer.test").warning("한글 메시지 %s", "x" * 500)
    assert "한글 메시지" in path.read_text(encoding="utf-8")
    handler = logs._handler
    handler.maxBytes = 2_000
    for i in range(40):
        logging.getLogger("recall_reviewer.test").warning("line %d %s", i, "y" * 200)
    rotated = sorted(paths.log_dir().glob(f"{logs.LOG_NAME}.*"))
    assert 1 <= len(rotated) <= logs.BACKUP_COUNT
    assert (paths.log_dir() / logs.FAULTS_NAME).exists()


def test_read_only_data_folder_falls_back_to_the_temp_folder(log_setup, monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(paths, "log_dir", lambda: blocker / "logs")
    # the test's own temp folder stands in for the system's, so nothing is left behind
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = log_setup()
    assert path.parent == tmp_path / "recall-reviewer-logs" and path.parent.is_dir()


# -- the crash dialog --------------------------------------------------------------------------


@pytest.fixture
def crash(qapp, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from desktop.ui import crash as module

    shown = []

    def fake_exec(box):
        shown.append((box.text(), box.detailedText(), box.windowTitle()))
        return 0

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    saved = sys.excepthook, threading.excepthook
    module.install_crash_dialog()
    yield module, shown
    module.uninstall_crash_dialog()
    logs.shutdown()
    assert (sys.excepthook, threading.excepthook) == saved


def _raise(message):
    try:
        raise RuntimeError(message)
    except RuntimeError:
        return sys.exc_info()


def test_uncaught_exception_is_logged_and_shown_with_the_log_location(crash):
    module, shown = crash
    sys.excepthook(*_raise("검수 중 오류"))
    ((text, details, title),) = shown
    assert str(logs.log_file()) in text
    assert "RuntimeError: 검수 중 오류" in text
    assert details == "" and "Traceback" not in text  # the traceback stays in the log
    assert "Recall Reviewer" in title
    logged = logs.log_file().read_text(encoding="utf-8")
    assert "uncaught exception" in logged and "검수 중 오류" in logged


def test_exception_in_a_worker_thread_reaches_the_gui_thread(crash, qtbot):
    module, shown = crash

    def work():
        raise ValueError("worker failed")

    thread = threading.Thread(target=work, name="import-worker")
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=3000)
    assert "ValueError: worker failed" in shown[0][0] and "Traceback" not in shown[0][0]
    assert "import-worker" in logs.log_file().read_text(encoding="utf-8")


def test_keyboard_interrupt_is_not_a_crash(crash, capsys):
    module, shown = crash
    sys.excepthook(*_interrupt())
    assert shown == []


def _interrupt():
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        return sys.exc_info()


def test_the_backup_reports_progress_and_can_be_cancelled(project, tmp_path):
    from desktop.readers import Cancelled

    rows = [{"id": f"x{i}", "text": "말씀 " * 200} for i in range(9000)]
    project.import_corpus(write_jsonl(tmp_path / "big.jsonl", rows))
    calls = []

    def cancel_during_backup(done, total, phase=None):
        calls.append((done, total, phase))
        raise Cancelled

    before = snapshot(project.path)
    with pytest.raises(Cancelled):
        backup.before(project.path, "migration-1-to-2", progress=cancel_during_backup)
    assert calls and calls[0][1] > 4096, "the copy of a big file reports its pages"
    assert calls[0][2] == "backing up"
    assert backup.backups(project.path) == []
    assert not list(paths.backup_dir().glob("*.part"))
    assert snapshot(project.path) == before
    seen = []
    copy = backup.before(project.path, "manual", progress=lambda *a: seen.append(a))
    assert backup.backups(project.path) == [copy] and seen
