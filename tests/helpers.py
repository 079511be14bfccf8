"""Small builders shared by the tests: write data files in the design's formats."""

from __future__ import annotations

import contextlib
import io
import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from desktop.readers import InputError

# One line of each kind a refusal test starts from (question q1 and passage p2 of small_project).
RUN_LINE = {"question_id": "q1", "results": [{"passage_id": "p2", "score": 3.5}]}
JUDGEMENT_LINE = {
    "reviewer": "kim",
    "at": "2026-12-01T10:00:00+09:00",
    "question_id": "q1",
    "kind": "role",
    "passage_id": "p2",
    "value": "core",
}


def cli(db: Path, *args: str, timeout: float | None = None) -> subprocess.CompletedProcess:
    """Run the command line as a user does, in a child process, on the database db."""
    return subprocess.run(
        [sys.executable, "-m", "desktop", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def cli_here(db: Path, *args: str) -> subprocess.CompletedProcess:
    """The command line's main run in this process, with what it printed: for building a test's
    database, where the child process itself is not under test (a fresh interpreter and its
    imports cost a third of a second of CPU per call). Tests of exit codes, tracebacks, signals
    or standard input keep cli(). A journal problem is kept per process (db/journal.py), so
    while this process holds one the command runs as a child."""
    from db import journal
    from desktop.cli import main

    if journal.problems():  # an earlier test's, which main would report as this command's
        return cli(db, *args)
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(["--db", str(db), *args])
    finally:
        sys.stdout, sys.stderr = saved  # main wraps both in SafeStream
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def kill_when_writing(db: Path, *args: str, wal_bytes: int) -> None:
    """Run the command on the database and SIGKILL it once its WAL has grown past wal_bytes,
    that is while it is writing; fails when the command ended first (make its input bigger)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "desktop", "--db", str(db), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wal = db.with_name(db.name + "-wal")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        # SQLite removes the WAL when the database's last connection closes, as happens
        # while the command opens the project: it can vanish between two looks.
        with contextlib.suppress(FileNotFoundError):
            if wal.stat().st_size > wal_bytes:
                break
        time.sleep(0.005)
    assert proc.poll() is None, f"{args[0]} ended before it could be killed; make it bigger"
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def write_jsonl(path: Path, rows) -> Path:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return path


def write_text(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def corpus_of(path: Path, ids) -> Path:
    return write_jsonl(path, [{"id": i, "text": f"passage {i}"} for i in ids])


def questions_of(path: Path, ids) -> Path:
    return write_jsonl(path, [{"id": q, "text": f"question {q}"} for q in ids])


def trec_ids(*files: Path) -> tuple[list[str], list[str]]:
    """(question ids, passage ids) named in TREC qrels/run files, in first-seen order."""
    questions: dict[str, None] = {}
    passages: dict[str, None] = {}
    for f in files:
        for line in f.read_text().splitlines():
            parts = line.split()
            if len(parts) == 4:
                questions.setdefault(parts[0])
                passages.setdefault(parts[2])
            elif len(parts) >= 6:
                questions.setdefault(parts[0])
                passages.setdefault(parts[2])
    return list(questions), list(passages)


def snapshot(db_path: Path) -> str:
    """A digest of everything the database holds, to show a refused import changed nothing."""
    import hashlib
    import sqlite3

    conn = sqlite3.connect(db_path)
    try:
        digest = hashlib.sha256()
        for line in conn.iterdump():
            digest.update(line.encode())
        return digest.hexdigest()
    finally:
        conn.close()


def small_project(project, tmp_path: Path) -> None:
    """Four passages, two questions, gold for both, no runs."""
    write_jsonl(
        tmp_path / "corpus.jsonl",
        [
            {"id": "p1", "text": "대한민국은 민주공화국이다.", "title": "제1조", "volume": 1},
            {"id": "p2", "text": "대한민국의 주권은 국민에게 있다.", "title": "제1조 2항"},
            {"id": "p3", "text": "대통령의 임기는 5년으로 한다.", "title": "제70조"},
            {"id": "p4", "text": "국회의원의 임기는 4년으로 한다.", "title": "제42조"},
        ],
    )
    project.import_corpus(tmp_path / "corpus.jsonl")
    write_jsonl(
        tmp_path / "questions.jsonl",
        [
            {"id": "q1", "text": "주권은 누구에게 있나?"},
            {"id": "q2", "text": "대통령 임기는?"},
            {"id": "q3", "text": "벌금은 얼마인가?", "answerable": False},
        ],
    )
    project.import_questions(tmp_path / "questions.jsonl")
    write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {
                "question_id": "q1",
                "evidence": [
                    {"passage_id": "p2", "role": "core"},
                    {"passage_id": "p1", "role": "supporting"},
                ],
            },
            {"question_id": "q2", "evidence": [{"passage_id": "p3", "alternatives": ["p4"]}]},
            {"question_id": "q3", "evidence": []},
        ],
    )
    project.import_gold(tmp_path / "gold.jsonl")


def refused(project, call, *args, **kwargs) -> InputError:
    """The InputError call raises, checking that the refusal left the database as it was."""
    before = snapshot(project.path)
    with pytest.raises(InputError) as caught:
        call(*args, **kwargs)
    assert snapshot(project.path) == before, "a refused file changed the database"
    return caught.value


def refused_by_cli(db, *args, timeout=60) -> str:
    """stderr of a command line the user can mend (exit 2, no traceback), checking that it left
    the database as it was; the timeout catches a read that would wait forever (a FIFO)."""
    before = snapshot(db)
    result = cli(db, *args, timeout=timeout)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert snapshot(db) == before, "a refused file changed the database"
    return result.stderr


@contextmanager
def tmpfs(folder: Path, options: str, what: str) -> Iterator[Path]:
    """A tmpfs mounted on folder while the test runs (as root); the test is skipped where it
    cannot be mounted. options: mount's -o, e.g. size=2m or size=1m,ro."""
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount {what}: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
