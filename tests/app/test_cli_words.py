"""Every way in answered at the command line: a mistyped database path creates nothing, an
export never empties a file by accident nor writes onto something that is not a regular file
or onto another database's journal, and values from files are printed escaped."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from desktop.project import Project
from tests.helpers import cli_here, snapshot, tmpfs, write_jsonl

MISSING = "run init, or check the path"


def run_cli(db: Path, *args: str, timeout: float = 30, **kwargs) -> subprocess.CompletedProcess:
    """cli() with a timeout: a hang (a FIFO opened for reading) fails the test, not the suite."""
    return subprocess.run(
        [sys.executable, "-m", "desktop", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        **kwargs,
    )


def one_line(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr.strip()


@pytest.fixture
def mine(tmp_path) -> Path:
    """A reviewer's judgement file with something in it (704 bytes)."""
    path = tmp_path / "mine.jsonl"
    path.write_bytes(b'{"reviewer": "kim", "note": "' + b"x" * 672 + b'"}\n')
    assert path.stat().st_size == 704
    return path


COMMANDS = {
    "metrics": ["metrics"],
    "compare": ["compare"],
    "info": ["info"],
    "pool": ["pool"],
    "agreement": ["agreement"],
    "search": ["search", "법률"],
    "restore": ["restore", "--list"],
    "import": ["import", "questions", "{questions}"],
    "export judgements": ["export", "judgements", "{mine}"],
    "export gold": ["export", "gold", "{mine}"],
    "export report": ["export", "{report}"],
    "merge": ["merge", "{other}"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_missing_database_is_refused_and_nothing_is_created(name, tmp_path, mine):
    db = tmp_path / "tpyo.db"
    questions = write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "질문"}])
    report = tmp_path / "report.xlsx"
    report.write_bytes(b"an old report")
    other = tmp_path / "other.db"
    with Project(other):
        pass
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    fill = {"questions": questions, "mine": mine, "report": report, "other": other}
    args = [a.format(**fill) for a in COMMANDS[name]]
    line = one_line(run_cli(db, *args))
    assert line == f"recall-reviewer: {db}: no such database; {MISSING}"
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert after == before  # no tpyo.db, -wal or journal, and mine.jsonl untouched


def test_a_folder_as_the_database_is_named_as_such(tmp_path):
    for command in ("init", "info"):
        line = one_line(run_cli(tmp_path, command))
        assert (
            line
            == f"recall-reviewer: {tmp_path}: this is a folder; name the database file inside it"
        )


def test_init_still_creates_the_database(tmp_path):
    db = tmp_path / "new.db"
    assert run_cli(db, "init").returncode == 0
    assert db.is_file()
    assert run_cli(db, "info").returncode == 0


def test_an_empty_export_never_replaces_a_non_empty_file_unless_forced(sample_db, tmp_path, mine):
    content = mine.read_bytes()
    line = one_line(run_cli(sample_db, "export", "judgements", str(mine), "--reviewer", "nobody"))
    assert str(mine) in line and "--force" in line and "no judgements" in line
    assert mine.read_bytes() == content
    done = run_cli(sample_db, "export", "judgements", str(mine), "--reviewer", "nobody", "--force")
    assert done.returncode == 0, done.stderr
    assert mine.read_bytes() == b""
    # an empty file, or none, takes an empty export without --force
    assert run_cli(sample_db, "export", "judgements", str(mine), "--reviewer", "x").returncode == 0


def test_an_empty_gold_or_report_never_replaces_a_non_empty_file(tmp_path, mine):
    db = tmp_path / "empty.db"
    assert cli_here(db, "init").returncode == 0
    content = mine.read_bytes()
    line = one_line(run_cli(db, "export", "gold", str(mine)))
    assert "no gold questions" in line and "--force" in line
    assert mine.read_bytes() == content
    report = tmp_path / "report.xlsx"
    report.write_bytes(b"last week's report")
    line = one_line(run_cli(db, "export", str(report)))
    assert str(report) in line and "--force" in line
    assert report.read_bytes() == b"last week's report"
    assert run_cli(db, "export", "gold", str(mine), "--force").returncode == 0


def _refused_target(db: Path, target: str, **kwargs) -> str:
    before = snapshot(db)
    line = one_line(run_cli(db, "export", "judgements", target, timeout=20, **kwargs))
    assert snapshot(db) == before
    return line


def test_a_fifo_target_is_refused_without_hanging(sample_db, tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    line = _refused_target(sample_db, str(fifo))
    assert "named pipe" in line and str(fifo) in line
    assert (tmp_path / "pipe.jsonl").is_fifo()


def test_a_socket_or_a_device_target_is_refused(sample_db, tmp_path):
    sock_path = tmp_path / "s.jsonl"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(sock_path))
        assert "socket" in _refused_target(sample_db, str(sock_path))
    link = tmp_path / "null.jsonl"
    link.symlink_to("/dev/null")  # followed: the device behind the name is what counts
    assert "device" in _refused_target(sample_db, str(link))
    assert link.is_symlink()


def test_dev_stdout_is_refused_not_read_and_not_replaced(sample_db):
    # Through a pipe the old code read from it and hung; with output redirected to a file it
    # renamed its export onto /dev/stdout itself.
    line = _refused_target(sample_db, "/dev/stdout")
    assert "/dev/stdout" in line
    assert Path("/dev/stdout").is_symlink()


def test_another_databases_journal_is_refused(sample_db, tmp_path):
    other = tmp_path / "other.db"
    with Project(other) as project:
        project.import_questions(write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "질문"}]))
        project.add_judgement("lee", "q1", "note", "keep me")
    journal = tmp_path / "other.db.judgements.jsonl"
    content = journal.read_bytes()
    assert b"keep me" in content
    line = _refused_target(sample_db, str(journal))
    assert "journal" in line
    assert journal.read_bytes() == content
    # a journal set aside under its id, and the name of one not written yet
    aside = tmp_path / "other.db.judgements.1a2b3c4d.jsonl"
    aside.write_bytes(content)
    assert "journal" in _refused_target(sample_db, str(aside))
    assert aside.read_bytes() == content
    Project(tmp_path / "third.db").close()
    assert "journal" in _refused_target(sample_db, str(tmp_path / "third.db.judgements.jsonl"))
    assert not (tmp_path / "third.db.judgements.jsonl").exists()
    # beside a file that is no database, the name is only a name
    (tmp_path / "notes").write_text("my notes")
    done = run_cli(sample_db, "export", "judgements", str(tmp_path / "notes.judgements.jsonl"))
    assert done.returncode == 0, done.stderr


def test_a_file_name_with_a_newline_prints_one_line(sample_db, tmp_path):
    evil = tmp_path / "evil\nFAKE: line.trec"
    evil.write_text("q1 Q0 p1 1\n", encoding="utf-8")  # too few columns
    line = one_line(run_cli(sample_db, "import", "run", str(evil), "--system", "x"))
    assert "evil\\u000aFAKE: line.trec:1: " in line
    assert not any(row.startswith("FAKE") for row in line.splitlines())


def test_pool_prints_one_line_per_passage_whatever_the_ids_hold(tmp_path):
    db = tmp_path / "pool.db"
    with Project(db) as project:
        project.import_corpus(
            write_jsonl(
                tmp_path / "c.jsonl", [{"id": f"p\t{i}\nx", "text": f"문단 {i}"} for i in range(5)]
            )
        )
        project.import_questions(
            write_jsonl(tmp_path / "q.jsonl", [{"id": "q\n1", "text": "질문"}])
        )
        results = [{"passage_id": f"p\t{i}\nx", "score": 5 - i} for i in range(5)]
        run = write_jsonl(tmp_path / "run.jsonl", [{"question_id": "q\n1", "results": results}])
        project.import_run(run, "sys\ntem")
    done = run_cli(db, "pool", "--depth", "5")
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert len(rows) == 6, rows  # the count, then one line per unjudged passage
    assert rows[1].split("\t")[:2] == ["q\\u000a1", "p\\u00090\\u000ax"]
    assert rows[1].endswith("sys\\u000atem")


LOCKER = (
    "import sys, os; from PySide6.QtCore import QLockFile; "
    "lock = QLockFile(sys.argv[1]); assert lock.tryLock(1000); "
    "print('locked', flush=True); sys.stdin.readline(); os._exit(0)"
)


def test_a_killed_windows_lock_is_cleared_by_any_command(sample_db):
    lock = Path(str(sample_db) + ".window-lock")
    # A window killed while it held its lock: the process exits without unlocking.
    done = subprocess.run(
        [sys.executable, "-c", LOCKER, str(lock)], input="\n", capture_output=True, text=True
    )
    assert done.returncode == 0 and lock.exists(), done.stderr
    assert run_cli(sample_db, "info").returncode == 0
    assert not lock.exists()


def test_a_running_windows_lock_is_kept(sample_db):
    lock = Path(str(sample_db) + ".window-lock")
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCKER, str(lock)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        assert run_cli(sample_db, "info").returncode == 0
        assert lock.exists()
    finally:
        holder.communicate("\n", timeout=30)


def _with_home(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, RECALL_REVIEWER_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "desktop", *args], capture_output=True, text=True, env=env
    )


def test_a_data_folder_that_is_a_file_is_named_in_words(tmp_path):
    home = tmp_path / "home-file"
    home.write_text("not a folder")
    for args in (["init"], ["--db", str(tmp_path / "r.db"), "init"], ["info"]):
        line = one_line(_with_home(home, *args))
        assert line == (
            f"recall-reviewer: RECALL_REVIEWER_HOME={home} is not a folder; "
            "point RECALL_REVIEWER_HOME at a folder you can write to"
        )
    line = one_line(_with_home(home / "below", "init"))
    assert f"cannot be made: {home} is a file" in line
    assert home.read_text() == "not a folder" and not (tmp_path / "r.db").exists()


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder this process cannot write: permissions, or (as root, whom they do not stop)
    a read-only tmpfs."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    with tmpfs(folder, "size=1m,ro", "a read-only tmpfs"):
        yield folder


def test_a_read_only_data_folder_is_named_in_words(read_only_folder, tmp_path):
    line = one_line(_with_home(read_only_folder, "--db", str(tmp_path / "r.db"), "init"))
    assert line.startswith(f"recall-reviewer: RECALL_REVIEWER_HOME={read_only_folder} ")
    assert "read-only" in line and "point RECALL_REVIEWER_HOME at a folder" in line
    line = one_line(_with_home(read_only_folder / "sub", "init"))
    assert f"({read_only_folder} cannot be written)" in line


def test_ctrl_c_stops_a_long_sql_statement_within_a_second():
    from desktop.app import interrupt

    conn = sqlite3.connect(":memory:")
    interrupt.watch(conn)
    # Tens of seconds in SQLite's C code, where Python's own handler cannot run.
    endless = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) "
        "SELECT count(*) FROM c"
    )
    with interrupt.handling():
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        started = time.monotonic()
        timer.start()
        with pytest.raises((sqlite3.OperationalError, KeyboardInterrupt)):
            conn.execute(endless).fetchone()
        stopped = time.monotonic() - started
        assert interrupt.requested()
    assert stopped < 1.3, stopped
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    conn.close()


@pytest.mark.slow  # seconds of real waiting or an external program: CI runs it
def test_ctrl_c_during_an_import_says_nothing_was_changed(tmp_path):
    db = tmp_path / "c.db"
    assert cli_here(db, "init").returncode == 0
    before = snapshot(db)
    text = "대한민국 헌법 제1조 대한민국은 민주공화국이다 " * 8
    corpus = write_jsonl(
        tmp_path / "big.jsonl", ({"id": f"p{i}", "text": f"{text}{i}"} for i in range(60_000))
    )
    child = subprocess.Popen(
        [sys.executable, "-m", "desktop", "--db", str(db), "import", "corpus", str(corpus)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert time.monotonic() - sent < 1.5
    assert child.returncode == 130, (out, err)
    assert err == "recall-reviewer: cancelled; nothing was changed\n"
    assert snapshot(db) == before


@pytest.fixture
def full_disk(tmp_path):
    """A 1 MB tmpfs, filled up after the test has put what it needs there: fill() (root)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs: {mounted.stderr.decode().strip()}")

    def fill() -> None:
        with contextlib.suppress(OSError), open(folder / "filler", "wb") as handle:
            while True:  # until the disk is full (the last flush, at close, fails too)
                handle.write(b"\0" * 4096)
                handle.flush()

    try:
        yield folder, fill
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_full_disk_on_export_names_the_file(sample_db, full_disk):
    folder, fill = full_disk
    with Project(sample_db) as project:
        for i in range(20):
            project.add_judgement("kim", "q01", "note", f"메모 {i} " * 200)
    fill()
    target = folder / "mine.jsonl"
    line = one_line(run_cli(sample_db, "export", "judgements", str(target)))
    assert line == f"recall-reviewer: {target}: the disk is full; free some space and try again"
    assert sorted(p.name for p in folder.iterdir()) == ["filler"]  # no half file left


def test_a_full_disk_at_an_import_says_so_not_disk_io_error(full_disk, tmp_path):
    folder, fill = full_disk
    db = folder / "r.db"
    assert cli_here(db, "init").returncode == 0
    fill()
    questions = write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "질문"}])
    for command in (["import", "questions", str(questions)], ["info"]):
        line = one_line(run_cli(db, *command))
        assert line == f"recall-reviewer: {db}: the disk is full; free some space and try again"
    from desktop.app import errors

    said = errors.describe_sqlite_error(sqlite3.OperationalError("disk I/O error"), db)
    assert said.startswith(f"{db}: the disk is full")


@pytest.mark.slow  # seconds of real waiting or an external program: CI runs it
def test_ctrl_c_while_waiting_for_another_writer_stops_at_once(tmp_path):
    db = tmp_path / "w.db"
    assert cli_here(db, "init").returncode == 0
    questions = write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "질문"}])
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "desktop",
                "--db",
                str(db),
                "import",
                "questions",
                str(questions),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(3)  # the child is in its 30 s wait for the lock by now
        assert child.poll() is None
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        _out, err = child.communicate(timeout=60)
        assert time.monotonic() - sent < 1.0
    finally:
        other.rollback()
        other.close()
    assert child.returncode == 130
    assert err.endswith("recall-reviewer: cancelled; nothing was changed\n")
    assert "waiting for another program" in err
