"""An import killed with SIGKILL leaves a sound database holding all of that file or none."""

import os
import sqlite3
import subprocess
import sys

import pytest

from tests.helpers import kill_when_writing, small_project, write_jsonl

# Kills take seconds each: marked slow (run in CI by tests/run, left out of `-m "not slow"`).
pytestmark = [
    pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX"),
    pytest.mark.slow,
]


def kill_mid_way(db, *args) -> None:
    kill_when_writing(db, "import", *args, wal_bytes=2_000_000)


def test_killed_corpus_import_leaves_nothing(tmp_path):
    db = tmp_path / "k.db"
    rows = [{"id": f"p{i}", "text": "말씀선집 문단 " * 20 + str(i)} for i in range(300_000)]
    corpus = write_jsonl(tmp_path / "c.jsonl", rows)
    init = [sys.executable, "-m", "desktop", "--db", str(db), "init"]
    assert subprocess.run(init, capture_output=True).returncode == 0
    kill_mid_way(db, "corpus", str(corpus))
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT count(*) FROM passage").fetchone()[0] in (0, len(rows))
    conn.close()
    # And the database is usable: the same import now completes.
    done = subprocess.run(
        [sys.executable, "-m", "desktop", "--db", str(db), "import", "corpus", str(corpus)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_killed_run_import_keeps_the_old_run_whole(tmp_path, project):
    small_project(project, tmp_path)
    db = project.path
    extra = [{"id": f"x{i}", "text": "문단 " * 30} for i in range(200_000)]
    project.import_corpus(write_jsonl(tmp_path / "c2.jsonl", extra), replace=True)
    qs = [{"id": f"q{i}", "text": "질문"} for i in range(2000)]
    project.import_questions(write_jsonl(tmp_path / "q.jsonl", qs))
    small_run = tmp_path / "small.trec"
    small_run.write_text("q1 Q0 x1 1 1.0 t\n")
    project.import_run(small_run, "S")
    project.close()
    lines = [
        f"q{q} Q0 x{(q * 100 + r) % 200_000} {r} {100 - r} t\n"
        for q in range(2000)
        for r in range(100)
    ]
    big = tmp_path / "big.trec"
    big.write_text("".join(lines))
    kill_mid_way(db, "run", str(big), "--system", "S")
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    count = conn.execute("SELECT count(*) FROM result").fetchone()[0]
    assert count in (1, len(lines))
    conn.close()
