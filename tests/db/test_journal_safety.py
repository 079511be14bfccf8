"""The journal is written or the command says so; restore takes only this database's journal
unless told; merge reads another database without leaving anything beside it and names every
wrong source in one line."""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from db import Store, journal
from db.schema import SCHEMA_VERSION
from desktop.project import Project
from tests.helpers import cli, small_project, snapshot, write_jsonl


def notes(count: int, reviewer: str = "kim", question: str = "q1") -> list[dict]:
    return [
        {
            "reviewer": reviewer,
            "at": f"2026-12-01T10:{i // 60:02d}:{i % 60:02d}+09:00",
            "question_id": question,
            "kind": "note",
            "value": f"검토 메모 {i}: 근거 문단을 다시 볼 것",
        }
        for i in range(count)
    ]


@pytest.fixture
def prepared(project, tmp_path) -> Path:
    """A small project's database, closed, and a file of 50 judgement lines beside it."""
    small_project(project, tmp_path)
    project.close()
    write_jsonl(tmp_path / "fifty.jsonl", notes(50))
    return project.path


def logged(db: Path) -> int:
    with Project(db) as project:
        return len(project.judgement_lines())


def assert_journal_line(done, db: Path, what: str) -> None:
    """Exit 2, the judgements reported as added, and one line naming the journal and what to
    do."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "added 50 judgements" in done.stdout
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"recall-reviewer: {journal.journal_path(db)}: the judgements are saved")
    assert what in line and "brought up to date the next time" in line


def test_a_folder_in_the_journals_place_fails_the_command_after_the_commit(prepared, tmp_path):
    journal.journal_path(prepared).mkdir()
    done = cli(prepared, "import", "judgements", str(tmp_path / "fifty.jsonl"))
    assert_journal_line(done, prepared, "a folder is in its place; move that folder away")
    journal.journal_path(prepared).rmdir()
    assert logged(prepared) == 50, "nothing was lost; this open repairs the journal"
    assert len(journal.read(journal.journal_path(prepared))[1]) == 50


def in_namespace(script: str) -> subprocess.CompletedProcess:
    """Run a shell script in a mount namespace of its own (a tiny file system or a read-only
    mount that disappears with it); skips the test where that is not allowed."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("needs unshare(1)")
    flags = ["-m"] if os.geteuid() == 0 else ["-r", "-m"]
    probe = subprocess.run([unshare, *flags, "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("mount namespaces are not allowed here")
    return subprocess.run(
        [unshare, *flags, "sh", "-c", script], capture_output=True, text=True, timeout=120
    )


def command(db: Path, *args: str) -> str:
    return shlex.join([sys.executable, "-m", "desktop", "--db", str(db), *args])


def test_a_read_only_journal_fails_the_command_and_is_repaired_once_writable(prepared, tmp_path):
    path = journal.journal_path(prepared)
    with Project(prepared) as project:
        project.add_judgement("lee", "q2", "note", "처음")  # the journal exists, 1 line
    path.chmod(0o444)
    importing = command(prepared, "import", "judgements", str(tmp_path / "fifty.jsonl"))
    if os.geteuid() == 0:  # root writes through a file's mode: mount it read-only instead
        where = shlex.quote(str(path))
        script = f"mount --bind {where} {where} && mount -o remount,bind,ro {where} && {importing}"
        done = in_namespace(script)
        what = "read-only file system"
    else:
        done = subprocess.run(shlex.split(importing), capture_output=True, text=True)
        what = "read-only or not yours"
    assert_journal_line(done, prepared, what)
    assert len(journal.read(path)[1]) == 1, "the journal as it was"
    path.chmod(0o644)
    assert logged(prepared) == 51
    assert len(journal.read(path)[1]) == 51


def test_a_full_disk_leaves_the_journal_whole_and_the_next_open_repairs_it(prepared, tmp_path):
    """The journal lives on a real 8 KB file system, half filled, so the 50 lines (about 5 KB)
    are written in part and the next write fails with ENOSPC: as on a nearly full disk."""
    small = tmp_path / "small"
    small.mkdir()
    path = journal.journal_path(prepared)
    path.symlink_to(small / "journal.jsonl")
    keep = tmp_path / "kept"
    keep.mkdir()
    fifty = str(tmp_path / "fifty.jsonl")
    script = " && ".join(
        [
            f"mount -t tmpfs -o size=8k tmpfs {small}",
            f"head -c 4000 /dev/zero > {small}/filler",
            f"{{ {command(prepared, 'import', 'judgements', fifty)}; echo $? > {keep}/status; }}",
            f"cp {small}/journal.jsonl {keep}/after-import.jsonl",
            f"rm {small}/filler",
            command(prepared, "info"),
            f"cp {small}/journal.jsonl {keep}/after-open.jsonl",
        ]
    )
    done = in_namespace(script)
    assert (keep / "status").read_text().strip() == "2", done.stderr
    assert "added 50 judgements" in done.stdout
    (line,) = [text for text in done.stderr.splitlines() if "journal" in text]
    assert f"{path}: the judgements are saved in the database" in line
    assert "the disk is full; free some space" in line
    assert (keep / "after-import.jsonl").read_bytes() == b"", "cut back: no torn line"
    header, lines, torn = journal.read(keep / "after-open.jsonl")
    assert len(lines) == 50 and not torn
    assert logged(prepared) == 50


def test_a_torn_last_line_is_cut_and_the_line_written_again(prepared, tmp_path):
    with Project(prepared) as project:
        project.import_judgements(write_jsonl(tmp_path / "three.jsonl", notes(3)))
    path = journal.journal_path(prepared)
    whole = path.read_bytes()
    path.write_bytes(whole[:-30])
    assert journal.read(path)[2], "torn"
    assert cli(prepared, "info").returncode == 0
    assert path.read_bytes() == whole


def test_a_later_write_brings_in_what_a_failed_one_left_out(project, tmp_path):
    """In a window that stays open: the warning stays until the journal is written again, and
    that write adds every line the failed ones missed."""
    small_project(project, tmp_path)
    path = project.store.journal_path
    path.mkdir()
    project.add_judgement("kim", "q1", "note", "하나")
    project.add_judgement("kim", "q1", "note", "둘")
    assert "a folder is in its place" in project.journal_problem()
    path.rmdir()
    project.add_judgement("kim", "q1", "note", "셋")
    assert project.journal_problem() is None
    assert [line["value"] for line in journal.read(path)[1]] == ["하나", "둘", "셋"]


# -- restore judgements ---------------------------------------------------------------------


def test_restore_refuses_another_databases_journal_unless_forced(project, tmp_path):
    small_project(project, tmp_path)
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    with Project(other_dir / "theirs.db") as theirs:
        small_project(theirs, other_dir)
        theirs.import_judgements(write_jsonl(other_dir / "j.jsonl", notes(3, "lee")))
        their_id = theirs.store.database_id()
    project.close()
    before = snapshot(project.path)
    stranger = journal.journal_path(other_dir / "theirs.db")
    done = cli(project.path, "restore", "judgements", str(stranger))
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert f"{stranger}: the journal of another database (theirs.db, id {their_id[:8]})" in line
    assert "--force" in line and snapshot(project.path) == before
    forced = cli(project.path, "restore", "judgements", str(stranger), "--force")
    assert forced.returncode == 0 and "restored 3 judgements" in forced.stdout
    assert forced.stderr == ""


def test_restore_reports_the_lines_about_questions_this_database_lacks(project, tmp_path):
    small_project(project, tmp_path)
    lines = notes(2) + [
        {**line, "question_id": f"x{i}"} for i, line in enumerate(notes(300, "park"))
    ]
    write_jsonl(
        tmp_path / "stranger.jsonl",
        [{journal.HEADER_KEY: 1, "database_id": "e" * 32, "database": "elsewhere.db"}, *lines],
    )
    project.close()
    done = cli(project.path, "restore", "judgements", str(tmp_path / "stranger.jsonl"), "--force")
    assert done.returncode == 0, done.stderr
    assert "restored 302 judgements" in done.stdout
    (warning,) = done.stderr.splitlines()
    assert warning.startswith("warning: 300 of the journal's lines are about 300 questions")
    assert "('x0', 'x1', 'x2', 'x3', 'x4', …)" in warning


# -- merge ----------------------------------------------------------------------------------


@pytest.fixture
def two_databases(project, tmp_path) -> tuple[Path, Path]:
    small_project(project, tmp_path)
    project.close()
    theirs = tmp_path / "theirs" / "theirs.db"
    theirs.parent.mkdir()
    shutil.copy(project.path, theirs)
    with Project(theirs) as other:
        other.import_judgements(write_jsonl(tmp_path / "lee.jsonl", notes(4, "lee")))
    return project.path, theirs


def test_merge_leaves_nothing_beside_the_other_database(two_databases):
    mine, theirs = two_databases
    before = sorted(os.listdir(theirs.parent))
    assert not any(name.endswith(("-wal", "-shm")) for name in before)
    done = cli(mine, "merge", str(theirs))
    assert done.returncode == 0 and "merged 4 judgements" in done.stdout
    assert sorted(os.listdir(theirs.parent)) == before


@pytest.mark.parametrize("through_a_link", [False, True])
def test_merge_reads_a_database_another_program_has_open(two_databases, through_a_link):
    """Its -wal (beside the file, not beside a link to it) holds a commit the file lacks, so it
    is read with SQLite's locks, never immutable."""
    mine, theirs = two_databases
    source = theirs
    if through_a_link:
        source = mine.parent / "link.db"
        source.symlink_to(theirs)
    with Project(theirs) as other:
        other.add_judgement("lee", "q2", "note", "열려 있음")
        done = cli(mine, "merge", str(source))
    assert done.returncode == 0 and "merged 5 judgements" in done.stdout


def test_an_immutable_read_sees_when_another_program_writes_meanwhile(two_databases):
    _mine, theirs = two_databases
    reader = Store(theirs, readonly=True)
    try:
        assert reader.immutable and not reader.changed_since_open()
        conn = sqlite3.connect(theirs)
        conn.execute("PRAGMA user_version = user_version")  # a write: the file changes
        conn.execute("CREATE TABLE scratch (x)")
        conn.commit()
        assert reader.changed_since_open()
        conn.close()
    finally:
        reader.close()


def _newer(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    "make, words",
    [
        ("newer", "made by a newer Recall Reviewer (schema 99, this program knows"),
        ("foreign", "a SQLite file, but not a Recall Reviewer database"),
        ("folder", "this is a folder; name the other database file in it"),
        ("missing", "no such file; name the other database file"),
        ("text", "not a SQLite database, so not a Recall Reviewer one"),
        ("empty", "not a SQLite database, so not a Recall Reviewer one"),
        ("itself", "this is the database being merged into; name another reviewer's database"),
    ],
)
def test_wrong_merge_sources_get_one_line_each(two_databases, tmp_path, make, words):
    mine, theirs = two_databases
    source = tmp_path / f"{make}.db"
    if make == "newer":
        shutil.copy(theirs, source)
        _newer(source)
        words += f" {SCHEMA_VERSION}); update this one to read it"
    elif make == "foreign":
        _foreign(source)
    elif make == "folder":
        source.mkdir()
    elif make == "text":
        source.write_text("id\ttext\np1\t대한민국\n", encoding="utf-8")
    elif make == "empty":
        source.write_bytes(b"")
    elif make == "itself":
        source.symlink_to(mine)  # the same file under another name
    before = snapshot(mine)
    done = cli(mine, "merge", str(source))
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"recall-reviewer: {source}: {words}")
    assert snapshot(mine) == before


def test_a_fifo_in_the_journals_place_is_neither_read_nor_written(prepared, tmp_path):
    os.mkfifo(journal.journal_path(prepared))
    done = subprocess.run(
        shlex.split(command(prepared, "import", "judgements", str(tmp_path / "fifty.jsonl"))),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert_journal_line(done, prepared, "something other than a file (a FIFO, a device)")
    restore = cli(prepared, "restore", "judgements")
    assert restore.returncode == 2 and "is a named pipe (FIFO), not a file" in restore.stderr


def test_an_append_waits_for_another_programs_append(project, tmp_path):
    """Another program appending holds the journal's lock: this append waits for it, so
    neither cuts into the other's lines."""
    import fcntl
    import threading

    small_project(project, tmp_path)
    project.add_judgement("kim", "q1", "note", "먼저")
    path = project.store.journal_path
    with open(path, "ab") as other:
        fcntl.flock(other, fcntl.LOCK_EX)
        writer = threading.Thread(
            target=journal.append, args=(path, project.store.database_id(), notes(1, "lee"))
        )
        writer.start()
        writer.join(0.5)
        assert writer.is_alive() and len(journal.read(path)[1]) == 1, "it waits"
    writer.join(10)
    assert not writer.is_alive() and len(journal.read(path)[1]) == 2
