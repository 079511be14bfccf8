"""Inputs of issue 18: only regular files are read, no line grows without bound, every import
kind checks its kind, and the right words for encodings, formats and numbers. Refusals go
through the command line as a user meets them: exit 2, FILE:LINE, no traceback, the database
byte-for-byte unchanged."""

import json
import os
import socket

import pytest

from desktop import readers
from tests.helpers import (
    JUDGEMENT_LINE,
    RUN_LINE,
    cli,
    refused_by_cli,
    small_project,
    write_jsonl,
    write_text,
)

OPTIONS = {"run": ("--system", "base"), "corpus": ("--replace",)}
NAMES = {"corpus": "c.jsonl", "questions": "q.jsonl", "gold": "g.jsonl", "run": "r.jsonl"}
NAMES["judgements"] = "j.jsonl"


@pytest.fixture
def loaded(project, tmp_path):
    small_project(project, tmp_path)
    return project


# -- only regular files ------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("kind", ["corpus", "questions", "gold", "run", "judgements"])
def test_a_fifo_is_refused_with_its_kind_named_instead_of_waiting(loaded, tmp_path, kind):
    fifo = tmp_path / NAMES[kind]
    os.mkfifo(fifo)
    stderr = refused_by_cli(loaded.path, "import", kind, str(fifo), *OPTIONS.get(kind, ()))
    assert f"{fifo}: is a named pipe (FIFO), not a file" in stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_behind_a_link_is_refused(loaded, tmp_path):
    link = tmp_path / "zero.jsonl"
    link.symlink_to("/dev/zero")
    stderr = refused_by_cli(loaded.path, "import", "questions", str(link), timeout=20)
    assert f"{link}: is a character device, not a file" in stderr


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="needs Unix sockets")
def test_a_socket_and_a_folder_are_refused(loaded, tmp_path):
    path = tmp_path / "s.jsonl"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        stderr = refused_by_cli(loaded.path, "import", "gold", str(path))
        assert f"{path}: is a socket, not a file" in stderr
    finally:
        server.close()
    folder = tmp_path / "q.jsonl.d"
    folder.mkdir()
    stderr = refused_by_cli(loaded.path, "import", "questions", str(folder))
    assert f"{folder}: is a folder (directory), not a file" in stderr


def test_a_journal_to_restore_must_be_a_regular_file(loaded, tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("named pipes are POSIX")
    fifo = tmp_path / "other.judgements.jsonl"
    os.mkfifo(fifo)
    stderr = refused_by_cli(loaded.path, "restore", "judgements", str(fifo))
    assert f"{fifo}: is a named pipe (FIFO), not a file" in stderr


def test_sniffing_the_encoding_of_a_fifo_does_not_wait(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("named pipes are POSIX")
    fifo = tmp_path / "w.jsonl"
    os.mkfifo(fifo)
    assert readers.sniff_encoding(fifo) is None  # the window's import dialog asks this first


def test_a_line_over_the_limit_is_refused_at_its_line_without_reading_it_all(
    loaded, tmp_path, monkeypatch
):
    monkeypatch.setattr(readers.opening, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "q.jsonl"
    good = json.dumps({"id": "q9", "text": "짧은 질문"}, ensure_ascii=False) + "\n"
    path.write_text(good + "x" * 100_000, encoding="utf-8")  # no line ending: no end at all
    with open(path, "rb") as handle:
        lines = readers.opening._bounded(path, handle)
        assert next(lines)[0] == 1
        with pytest.raises(readers.InputError, match=r"q\.jsonl:2: line longer than"):
            next(lines)
        assert handle.tell() < len(good) + 2 * 1000 + 8192  # read up to the limit, not on
    with pytest.raises(readers.InputError, match=r":2: line longer than"):
        loaded.import_questions(path)


def test_a_passage_over_one_megabyte_is_refused(loaded, tmp_path):
    text = "가" * (readers.MAX_LINE_BYTES // 3 + 1)  # three bytes each in UTF-8
    path = write_jsonl(
        tmp_path / "c.jsonl", [{"id": "a", "text": "짧다"}, {"id": "b", "text": text}]
    )
    stderr = refused_by_cli(loaded.path, "import", "corpus", str(path), "--replace")
    assert f"{path}:2: line longer than 1 MB" in stderr


def test_a_quoted_csv_field_cannot_gather_lines_without_bound(project, tmp_path, monkeypatch):
    monkeypatch.setattr(readers.opening, "MAX_LINE_BYTES", 1000)
    path = write_text(tmp_path / "c.csv", 'id,text\np1,ok\np2,"open\n' + "more\n" * 500)
    with pytest.raises(readers.InputError, match=r"c\.csv:3: line longer than"):
        list(readers.read_corpus(path))


def test_a_utf16_line_over_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(readers.opening, "MAX_LINE_BYTES", 1000)
    path = write_text(tmp_path / "q.tsv", "q1\t질문\nq2\t" + "가" * 5000, "utf-16")
    with pytest.raises(readers.InputError, match=r"q\.tsv:2: line longer than"):
        list(readers.read_questions(path, encoding="utf-16"))


def test_a_corpus_folder_names_what_it_skipped_and_refuses_what_it_cannot_read(
    project, tmp_path, db_path
):
    folder = tmp_path / "volumes"
    folder.mkdir()
    write_jsonl(folder / "a.jsonl", [{"id": "p1", "text": "하나"}])
    write_text(folder / "notes.txt", "not a corpus\n")
    (folder / "old").mkdir()
    out = cli(db_path, "import", "corpus", str(folder))
    assert out.returncode == 0, out.stderr
    assert "imported 1 passages" in out.stdout
    assert f"warning: skipped {folder / 'notes.txt'}: not a .jsonl, .csv or .tsv file" in out.stderr
    assert f"warning: skipped {folder / 'old'}: a folder" in out.stderr
    (folder / "b.jsonl").symlink_to(folder / "gone.jsonl")
    stderr = refused_by_cli(db_path, "import", "corpus", str(folder), "--replace")
    assert f"{folder / 'b.jsonl'}: is a link to a file that does not exist" in stderr
    if hasattr(os, "mkfifo"):
        (folder / "b.jsonl").unlink()
        os.mkfifo(folder / "b.jsonl")
        stderr = refused_by_cli(db_path, "import", "corpus", str(folder), "--replace")
        assert f"{folder / 'b.jsonl'}: is a named pipe (FIFO), not a file" in stderr


# -- the right words ---------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["rot13", "base64", "zlib_codec", "undefined", "klingon"])
def test_an_encoding_that_is_not_a_text_encoding_is_named_with_valid_ones(
    loaded, tmp_path, encoding
):
    path = write_jsonl(tmp_path / "q.jsonl", [{"id": "q9", "text": "질문"}])
    stderr = refused_by_cli(loaded.path, "import", "questions", str(path), "--encoding", encoding)
    assert stderr.count("\n") == 1
    said = "unknown encoding '{}'" if encoding == "klingon" else "'{}' is not a text encoding"
    assert said.format(encoding) in stderr
    assert all(name in stderr for name in ("utf-8", "cp949", "euc-kr", "utf-16"))


def test_judgements_honour_format(loaded, tmp_path, db_path):
    path = write_text(tmp_path / "kim.txt", json.dumps(JUDGEMENT_LINE) + "\n")
    out = cli(db_path, "import", "judgements", str(path), "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    assert "added 1 judgements" in out.stdout


def test_invalid_utf8_is_not_called_utf16(loaded, tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_bytes(b'{"id": "q9", "text": "\xff\xfe\xfd\xfc"}\n')
    stderr = refused_by_cli(loaded.path, "import", "questions", str(path))
    assert f"{path}:1: not UTF-8" in stderr and "UTF-16" not in stderr


def test_a_binary_file_is_not_called_utf16(loaded, tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_bytes(b"PK\x03\x04\x14\x00\x00\x00\x08\x00\xa1\x5b\x00\x00\x13\x07\x00\x01\n")
    stderr = refused_by_cli(loaded.path, "import", "questions", str(path))
    assert f"{path}:1: not a text file (it holds NUL bytes)" in stderr
    for order in ("le", "be"):
        path = write_text(tmp_path / f"{order}.tsv", "q9\t주권은?\n", f"utf-16-{order}")
        stderr = refused_by_cli(loaded.path, "import", "questions", str(path))
        assert f"looks like UTF-16 without a BOM; use --encoding utf-16-{order}" in stderr


def test_a_json_error_says_at_once(loaded, tmp_path):
    path = write_text(tmp_path / "q.jsonl", '{"id": "q9", "text": "open\n')
    stderr = refused_by_cli(loaded.path, "import", "questions", str(path))
    assert "Unterminated string starting at column" in stderr and "at at" not in stderr


def test_a_long_number_is_shortened_in_the_message(loaded, tmp_path):
    level = "7" * 5000
    path = write_text(tmp_path / "g.qrels", f"q1 0 p2 {level}\n")
    stderr = refused_by_cli(loaded.path, "import", "gold", str(path))
    assert f"{path}:1: relevance level" in stderr
    assert "7" * 20 + "…" in stderr and "7" * 21 not in stderr
    score = "9" * 5000
    path = write_text(tmp_path / "r.trec", f"q1 Q0 p2 1 x{score} bm25\n")
    stderr = refused_by_cli(loaded.path, "import", "run", str(path), "--system", "base")
    assert f"{path}:1: score" in stderr and len(stderr) < 300


@pytest.mark.parametrize("number", ["1_000", "１２", "٣", "1_0.5"])
def test_numbers_are_ascii_digits_only(loaded, tmp_path, number):
    path = write_text(tmp_path / "r.trec", f"q1 Q0 p2 1 {number} bm25\n")
    stderr = refused_by_cli(loaded.path, "import", "run", str(path), "--system", "base")
    assert f"{path}:1: score must be a number in ASCII digits" in stderr
    path = write_text(tmp_path / "g.qrels", f"q1 0 p2 {number}\n")
    stderr = refused_by_cli(loaded.path, "import", "gold", str(path))
    assert f"{path}:1: relevance level must be a whole number in ASCII digits" in stderr
    path = write_text(tmp_path / "r.csv", f"question_id,passage_id,rank\nq1,p2,{number}\n")
    stderr = refused_by_cli(loaded.path, "import", "run", str(path), "--system", "base")
    assert f"{path}:2: rank must be a whole number in ASCII digits" in stderr


def test_ascii_numbers_still_read(tmp_path):
    path = write_text(tmp_path / "r.trec", "q1 Q0 p2 1 -1.5e3 bm25\nq1 Q0 p3 2 +7 bm25\n")
    _, lists = readers.read_run(path)
    assert [score for _, score, _ in lists[0].results] == [7.0, -1500.0]


# -- questions check their kind, and keep what they replace -------------------------------------


def test_a_corpus_file_given_as_questions_is_refused(loaded, tmp_path):
    # The corpus small_project loaded: its lines carry a title, as passages do.
    corpus = tmp_path / "corpus.jsonl"
    stderr = refused_by_cli(loaded.path, "import", "questions", str(corpus))
    assert f"{corpus}:1: questions have no 'title', passages do" in stderr
    assert f"this looks like a corpus file: import corpus {corpus}" in stderr
    tsv = write_text(tmp_path / "c.tsv", "id\ttitle\ttext\np9\t제9조\t새 문단\n")
    stderr = refused_by_cli(loaded.path, "import", "questions", str(tsv))
    assert f"{tsv}:1: questions have no 'title' column" in stderr


def test_a_questions_file_given_as_the_corpus_is_refused(loaded, tmp_path):
    questions = tmp_path / "questions.jsonl"  # small_project's: q3 says answerable
    stderr = refused_by_cli(loaded.path, "import", "corpus", str(questions), "--replace")
    assert f"{questions}:3: passages have no 'answerable', questions do" in stderr
    assert f"this looks like a questions file: import questions {questions}" in stderr


def test_passages_without_titles_given_as_questions_are_refused_by_the_database(loaded, tmp_path):
    """Content alone cannot tell {"id", "text"} passages from questions: the loaded corpus
    can, when every line is one of its passages, id and text."""
    lines = (tmp_path / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [{"id": p["id"], "text": p["text"]} for p in map(json.loads, lines)]
    path = write_jsonl(tmp_path / "untitled.jsonl", rows)
    stderr = refused_by_cli(loaded.path, "import", "questions", str(path))
    assert f"{path}: every question read (4) is a passage of the loaded corpus" in stderr
    # Questions whose ids happen to be passage ids are questions all the same.
    path = write_jsonl(tmp_path / "q.jsonl", [{"id": "p1", "text": "첫 조항은 무엇인가?"}])
    assert loaded.import_questions(path).rows == 1


def test_a_run_file_given_as_questions_is_refused(loaded, tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", [RUN_LINE])
    stderr = refused_by_cli(loaded.path, "import", "questions", str(path))
    assert "this looks like a run file: import run" in stderr
    path = write_text(tmp_path / "r.tsv", "q1\tQ0\tp2\t1\t3.5\tbm25\n")
    stderr = refused_by_cli(loaded.path, "import", "questions", str(path))
    assert f"{path}:1: expected 'id<TAB>text'; this looks like a run file: import run" in stderr


def test_a_question_import_that_replaces_texts_keeps_them_for_restore(loaded, tmp_path, db_path):
    before = {q["id"]: (q["text"], q["answerable"], q["meta"]) for q in loaded.questions()}
    again = write_jsonl(
        tmp_path / "q2.jsonl",
        [
            {"id": "q1", "text": "주권은 누구에게 있나?"},  # unchanged: not kept
            {"id": "q2", "text": "바뀐 질문", "source": "v2"},
            {"id": "q3", "text": "벌금은 얼마인가?"},  # answerable: false -> true
            {"id": "q4", "text": "새 질문"},  # added: stays after restore
        ],
    )
    report = loaded.import_questions(again)
    assert report.messages == [
        "imported 1 new questions, updated 3",
        "kept what it replaced as backup 1 (undo: restore last-import)",
    ]
    assert [(b["kind"], b["summary"]) for b in loaded.backups()] == [
        ("questions", "the texts of 2 questions")
    ]
    loaded.import_corpus(tmp_path / "corpus.jsonl", replace=True)  # texts do not depend on it
    loaded.restore_import()  # the corpus replacement's backup: the gold it removed
    out = cli(db_path, "restore", "--list")
    assert "the texts of 2 questions, before" in out.stdout and "corpus replaced" not in out.stdout
    out = cli(db_path, "restore", "last-import")
    assert out.returncode == 0, out.stderr
    assert "restored backup 1: the texts of 2 questions" in out.stdout
    after = {q["id"]: (q["text"], q["answerable"], q["meta"]) for q in loaded.questions()}
    assert after == {**before, "q4": ("새 질문", 1, None)}
    assert loaded.backups() == []
    # Importing the same texts again replaces nothing and keeps nothing.
    loaded.import_questions(tmp_path / "questions.jsonl")
    assert loaded.backups() == []


def test_the_migration_keeps_the_backups_it_copies(loaded, tmp_path):
    """0006 copies the undo table to let it hold question backups: run it again on a
    database with a gold, a run and a questions backup, and restore each afterwards."""
    import sqlite3

    from db.schema import SCHEMA_VERSION
    from desktop.project import Project

    run = write_text(tmp_path / "run.trec", "q1 Q0 p2 1 3.0 bm25\n")
    loaded.import_run(run, "BM25")
    loaded.import_run(write_text(tmp_path / "r2.trec", "q1 Q0 p1 1 3.0 bm25\n"), "BM25")
    loaded.import_gold(tmp_path / "gold.jsonl")
    loaded.import_questions(write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "다른"}]))
    kept = [(b["kind"], b["summary"], b["rows"]) for b in loaded.backups()]
    assert [k[0] for k in kept] == ["questions", "gold", "run"]
    loaded.close()
    conn = sqlite3.connect(loaded.path)
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0006_undo_questions'")
    conn.execute("DROP TABLE undo_question")  # what a schema-5 file lacks; its row goes too
    conn.execute("DELETE FROM undo WHERE kind = 'questions'")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.commit()
    conn.close()
    with Project(loaded.path) as again:
        assert [(b["kind"], b["summary"], b["rows"]) for b in again.backups()] == kept[1:]
        again.restore_import()
        again.restore_import()
    conn = sqlite3.connect(loaded.path)
    results = conn.execute("SELECT p.id FROM result r JOIN passage p ON p.pk = r.passage_pk")
    assert [row[0] for row in results] == ["p2"]  # the first run, back from its backup
    conn.close()
