"""A busy, full, read-only or damaged database: the store waits for another program's write
lock and says so, and every sqlite3 failure reaches the user as one line `PATH: what is wrong,
what to do` with exit status 2 and the database unchanged."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import subprocess
import time

import pytest

from db import Store, StoreBusy, StoreError
from desktop.project import Project
from tests.helpers import cli, small_project, snapshot, tmpfs, write_jsonl

BUSY = "another program (a second window, a command, a sync tool) is writing to this database"


@contextlib.contextmanager
def write_lock(db):
    """A second connection holding the write lock, as another program would."""
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


def one_line_error(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if not ln.startswith("waiting for")]
    return line


@pytest.mark.slow  # seconds of real waiting or an external program: CI runs it
def test_an_import_waits_for_a_lock_held_a_few_seconds_and_then_succeeds(project, tmp_path):
    small_project(project, tmp_path)
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 p2 1 3.0 a\n")
    with write_lock(project.path) as other:
        child = subprocess.Popen(
            [*cli_command(project.path), "import", "run", str(run), "--system", "A"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(3)
        assert child.poll() is None, "the import waits while the lock is held"
        other.execute("ROLLBACK")
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert err.strip() == f"waiting for another program to release {project.path}…"
    assert "imported 1 results" in out
    assert [s["name"] for s in project.systems()] == ["A"]


def test_with_a_short_wait_a_held_lock_gives_exit_2_and_changes_nothing(project, tmp_path):
    small_project(project, tmp_path)
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 p2 1 3.0 a\n")
    state = snapshot(project.path)
    with write_lock(project.path):
        started = time.monotonic()
        done = cli(project.path, "--wait", "0.5", "import", "run", str(run))
        waited = time.monotonic() - started
    assert (
        one_line_error(done)
        == f"recall-reviewer: {project.path}: {BUSY}; try again when it is done"
    )
    assert done.stderr.startswith("waiting for another program to release")
    assert waited >= 0.5
    assert snapshot(project.path) == state


def cli_command(db):
    import sys

    return [sys.executable, "-m", "desktop", "--db", str(db)]


def test_a_judgement_waits_for_the_lock_and_inner_atomic_blocks_are_savepoints(db_path):
    waits = []
    store = Store(db_path, wait=0.6, on_wait=waits.append)
    with write_lock(db_path):
        with pytest.raises(StoreBusy, match=re.escape(BUSY)):
            store.add_judgements([("kim", "t", "q1", "note", "", '"x"', None, None, None, 0)])
    assert waits == [db_path]
    assert isinstance(StoreBusy("x"), StoreError)
    with store.atomic():
        store.add_judgements([("kim", "t1", "q1", "note", "", '"a"', None, None, None, 0)])
        with pytest.raises(RuntimeError):
            with store.db.atomic():  # sqlite-utils' own blocks nest as savepoints
                store.add_judgements([("kim", "t2", "q1", "note", "", '"b"', None, None, None, 0)])
                raise RuntimeError
    assert [j["at"] for j in store.judgements()] == ["t1"]
    store.close()


def test_data_version_tells_a_project_another_program_committed(project, tmp_path):
    assert not project.changed_elsewhere()
    project.add_judgement("kim", "q1", "note", "mine")
    assert not project.changed_elsewhere(), "its own commits are not news"
    with Project(project.path) as other:
        other.add_judgement("lee", "q1", "note", "theirs")
    assert project.changed_elsewhere()
    assert not project.changed_elsewhere()


def test_nothing_raised_after_commit_fails_the_change(project, tmp_path, monkeypatch, caplog):
    small_project(project, tmp_path)
    # the journal cannot be written (its path is a folder): the judgement stays committed
    project.store.journal_path.mkdir()
    row = project.add_judgement("kim", "q1", "note", "kept")
    assert project.judgement_lines()[-1]["value"] == row["value"].strip('"')
    problem = project.store.journal_problem
    assert problem.startswith(f"{project.store.journal_path}: the judgements are saved")
    # once the folder is gone the next write brings the journal up to date; the problem, kept
    # for the whole process (the command line reports it at its end), goes with it
    project.store.journal_path.rmdir()
    project.add_judgement("kim", "q1", "note", "and again")
    assert project.store.journal_problem is None


def test_a_damaged_database_gives_one_line_for_every_command(project, tmp_path):
    small_project(project, tmp_path)
    (tmp_path / "run.trec").write_text("q1 Q0 p2 1 3.0 a\n")
    project.import_run(tmp_path / "run.trec", "A")
    for i in range(50):
        project.add_judgement("kim", "q1", "note", f"note {i} " * 50)
    project.close()
    size = project.path.stat().st_size
    with open(project.path, "r+b") as handle:
        handle.seek(4096 * 2)
        handle.write(os.urandom(size - 4096 * 4))
    for command in (
        ["metrics"],
        ["agreement"],
        ["info"],
        ["export", str(tmp_path / "r.xlsx")],
        ["export", "judgements", str(tmp_path / "j.jsonl")],
    ):
        line = one_line_error(cli(project.path, *command))
        assert line.startswith(f"recall-reviewer: {project.path}: "), (command, line)
        assert "damaged" in line and "restore judgements" in line
    fresh = tmp_path / "fresh.db"
    with Project(fresh) as p:
        small_project(p, tmp_path)
    line = one_line_error(cli(fresh, "merge", str(project.path)))
    assert line.startswith(f"recall-reviewer: {project.path}: ") and "damaged" in line

    junk = tmp_path / "junk.db"
    junk.write_bytes(b"garbage " * 1000)
    line = one_line_error(cli(junk, "info"))
    assert line.startswith(f"recall-reviewer: {junk}: ") and "damaged" in line


@pytest.fixture
def small_disk(tmp_path):
    folder = tmp_path / "disk"
    folder.mkdir()
    with tmpfs(folder, "size=2m", "a small tmpfs"):
        yield folder


def test_a_full_disk_gives_exit_2_and_leaves_the_database_intact(small_disk, tmp_path):
    db = small_disk / "review.db"
    with Project(db) as p:
        small_project(p, tmp_path)
    state = snapshot(db)
    rows = [{"id": f"x{i}", "text": "말씀 " * 40} for i in range(40_000)]
    big = write_jsonl(tmp_path / "big.jsonl", rows)
    done = cli(db, "import", "corpus", str(big), "--replace")
    line = one_line_error(done)
    assert line == f"recall-reviewer: {db}: the disk is full; free some space and try again"
    assert snapshot(db) == state
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_a_read_only_folder_gives_one_line(small_disk, tmp_path):
    db = small_disk / "review.db"
    with Project(db) as p:
        small_project(p, tmp_path)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    done = cli(db, "import", "questions", str(tmp_path / "questions.jsonl"))
    line = one_line_error(done)
    assert line.startswith(f"recall-reviewer: {db}: ") and "read-only" in line


def test_a_read_never_leaves_a_stale_snapshot_that_blocks_the_next_write(project, tmp_path):
    # The window's metrics query fills a temporary table; with implicit transactions that left
    # a transaction open, so the window kept seeing the database as it was (0 passages after an
    # import) and its next judgement failed at once with "database is locked".
    small_project(project, tmp_path)
    list(project.store.evidence_hits([(1, 1)]))
    assert not project.store.conn.in_transaction
    with Project(project.path) as other:
        (tmp_path / "run.trec").write_text("q1 Q0 p2 1 3.0 a\n")
        other.import_run(tmp_path / "run.trec", "A")
    assert project.changed_elsewhere()
    assert [s["name"] for s in project.systems()] == ["A"]
    project.add_judgement("kim", "q1", "note", "after the other program's import")
    assert not project.store.conn.in_transaction


def test_a_judgement_while_another_program_writes_is_a_store_error(tmp_path, db_path):
    with Project(db_path, wait=0.2) as project:
        small_project(project, tmp_path)
        before = snapshot(db_path)
        with write_lock(db_path), pytest.raises(StoreBusy) as caught:
            project.add_judgement("kim", "q1", "role", "core", passage_id="p2")
        assert not isinstance(caught.value, sqlite3.Error)
        assert str(caught.value).startswith(f"{db_path}: ") and BUSY in str(caught.value)
        assert snapshot(db_path) == before
        assert project.reads.judgements() == []
