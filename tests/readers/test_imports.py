"""Importers: every format of design section 4, and every refused file leaving the database
exactly as it was, with FILE:LINE in the message."""

import json
import subprocess
import sys

import pytest

from tests.helpers import cli, cli_here, refused, small_project, snapshot, write_jsonl, write_text


def test_corpus_jsonl_beir_csv_tsv_bom_crlf_blank_lines(project, tmp_path):
    text = (
        '\ufeff{"_id": "b1", "title": "T", "text": "본문", "metadata": {"권": 3}}\r\n\r\n'
        '{"id": "b2", "text": "둘째"}\r\n'
    )
    write_text(tmp_path / "c.jsonl", text)
    report = project.import_corpus(tmp_path / "c.jsonl", chunk_size=512, overlap=64, unit="tokens")
    assert report.rows == 2
    row = project.store.passage("b1")
    assert row["title"] == "T" and json.loads(row["meta"]) == {"metadata": {"권": 3}}
    corpus = project.store.corpus()
    assert (corpus["chunk_size"], corpus["overlap"], corpus["unit"]) == (512, 64, "tokens")

    for name, body in (
        ("c.csv", 'id,text,volume\nx1,"쉼표, 있는 글",2\nx2,"여러\n줄",\n'),
        ("c.tsv", "id\ttext\nx1\t탭\n"),
    ):
        other = type(project)(tmp_path / f"{name}.db")
        write_text(tmp_path / name, body)
        other.import_corpus(tmp_path / name)
        assert other.store.passage("x1") is not None
        other.close()
    other = type(project)(tmp_path / "csv2.db")
    other.import_corpus(tmp_path / "c.csv")
    assert other.store.passage("x2")["text"] == "여러\n줄"
    assert json.loads(other.store.passage("x1")["meta"]) == {"volume": "2"}
    other.close()


@pytest.mark.parametrize(
    "body, line, words",
    [
        ('{"id": "a", "text": "x"}\n{"id": "b", "text": \n', 2, "not valid JSON"),
        ('{"id": "a", "text": "x"}\n{"text": "y"}\n', 2, "no 'id'"),
        ('{"id": "a"}\n', 1, "no 'text'"),
        ('{"id": "a", "text": "x"}\n\n{"id": "a", "text": "y"}\n', 3, "appears twice"),
        ("[1, 2]\n", 1, "JSON object"),
    ],
)
def test_bad_corpus_lines_are_refused_with_their_line(project, tmp_path, body, line, words):
    path = write_text(tmp_path / "bad.jsonl", body)
    error = refused(project, project.import_corpus, path)
    assert str(error).startswith(f"{path}:{line}: ") and words in str(error)


def test_duplicate_across_batches_names_the_line(project, tmp_path):
    rows = [{"id": f"p{i}", "text": "t"} for i in range(25_000)] + [{"id": "p7", "text": "t"}]
    path = write_jsonl(tmp_path / "big.jsonl", rows)
    error = refused(project, project.import_corpus, path)
    assert error.line == 25_001 and "'p7'" in error.message


def test_cp949_is_named_and_decoded_on_request(project, tmp_path):
    path = write_text(tmp_path / "k.jsonl", '{"id": "a", "text": "한국어 문단"}\n', "cp949")
    error = refused(project, project.import_corpus, path)
    assert f"{path}:1:" in str(error) and "CP949/EUC-KR" in str(error)
    assert "--encoding" in str(error)
    project.import_corpus(path, encoding="cp949")
    assert project.store.passage("a")["text"] == "한국어 문단"


def test_unknown_extension_and_wrong_format(project, tmp_path):
    path = write_text(tmp_path / "c.txt", "x")
    assert "--format" in str(refused(project, project.import_corpus, path))
    path = write_text(tmp_path / "c.jsonl", '{"id": "a", "text": "x"}\n')
    assert "not trec" in str(refused(project, project.import_corpus, path, fmt="trec"))


def test_second_corpus_refused_unless_replace(project, tmp_path):
    small_project(project, tmp_path)
    path = write_jsonl(tmp_path / "c2.jsonl", [{"id": "z", "text": "새"}])
    assert "--replace" in str(refused(project, project.import_corpus, path))
    report = project.import_corpus(path, replace=True)
    assert "replaced the corpus" in report.messages[0]
    assert project.info()["passages"] == 1 and project.info()["evidence_items"] == 0


def test_questions_jsonl_tsv_and_refusals(project, tmp_path):
    path = write_text(tmp_path / "q.tsv", "id\ttext\nq1\t첫 질문\nq2\t둘째\n")
    project.import_questions(path)
    assert project.store.question("q2")["text"] == "둘째"
    path = write_jsonl(tmp_path / "q.jsonl", [{"_id": "q9", "text": "BEIR", "answerable": False}])
    project.import_questions(path)
    assert project.store.question("q9")["answerable"] == 0
    for rows, words in (
        ([{"id": "a", "text": "x", "answerable": "no"}], "answerable"),
        ([{"id": "a", "text": "x"}, {"id": "a", "text": "y"}], "twice"),
        ([{"id": "a", "text": ""}], "no 'text'"),
    ):
        path = write_jsonl(tmp_path / "bad.jsonl", rows)
        assert words in str(refused(project, project.import_questions, path))


def test_gold_formats(project, tmp_path):
    small_project(project, tmp_path)
    evidence = project.store.question_evidence(project.store.question("q2")["pk"])
    assert [a[1] for a in evidence[0]["alternatives"]] == ["p4"] and evidence[0]["role"] is None
    write_text(tmp_path / "g.qrels", "q1 0 p1 2\nq1 0 p3 0\nq1 0 p2 1\n")
    project.import_gold(tmp_path / "g.qrels")
    roles = {
        e["passage_id"]: e["role"]
        for e in project.store.question_evidence(project.store.question("q1")["pk"])
    }
    assert roles == {"p1": "core", "p2": "supporting"}  # level 0: judged not relevant
    write_text(tmp_path / "g.tsv", "query-id\tcorpus-id\tscore\nq2\tp4\t1\n")
    project.import_gold(tmp_path / "g.tsv")
    assert [
        e["passage_id"] for e in project.store.question_evidence(project.store.question("q2")["pk"])
    ] == ["p4"]


@pytest.mark.parametrize(
    "body, words",
    [
        (
            '{"question_id": "q1", "evidence": '
            '[{"passage_id": "nope1"}, {"passage_id": "nope2"}]}\n',
            "2 passage ids",
        ),
        ('{"question_id": "qX", "evidence": []}\n', "unknown question id 'qX'"),
        ('{"question_id": "q1", "evidence": [{"passage_id": "p1", "role": "main"}]}\n', "role"),
        (
            '{"question_id": "q1", "evidence": [{"passage_id": "p1", "alternatives": ["zz"]}]}\n',
            "unknown passage id 'zz'",
        ),
        ('{"question_id": "q1", "evidence": []}\n{"question_id": "q1", "evidence": []}\n', "twice"),
    ],
)
def test_bad_gold_is_refused(project, tmp_path, body, words):
    small_project(project, tmp_path)
    path = write_text(tmp_path / "bad.jsonl", body)
    error = refused(project, project.import_gold, path)
    assert str(error).startswith(f"{path}:") and words in str(error)


def test_bad_qrels_level(project, tmp_path):
    small_project(project, tmp_path)
    path = write_text(tmp_path / "bad.qrels", "q1 0 p1 2\nq1 0 p2 high\n")
    assert str(refused(project, project.import_gold, path)).startswith(f"{path}:2: ")


def test_trec_run_order_replace_and_refusals(project, tmp_path):
    small_project(project, tmp_path)
    # Rank column disagrees with scores; the tie (p1, p4 at 1.0) goes to the larger id first.
    path = write_text(
        tmp_path / "r.trec", "q1 Q0 p1 1 1.0 t\nq1 Q0 p2 2 3.0 t\nq1 Q0 p4 3 1.0 t extra junk\n"
    )
    project.import_run(path, "BM25")
    pk = project.store.question("q1")["pk"]
    (system,) = project.systems()
    ranking = project.store.ranking(system["pk"], pk)
    assert [r["passage_id"] for r in ranking] == ["p2", "p4", "p1"]
    report = project.import_run(path, "BM25")
    assert "replaced" in report.messages[0]

    for body, line, words in (
        ("q1 Q0 p1 1 1.0 t\nq1 Q0 p9 2 0.5 t\nq1 Q0 p8 3 0.1 t\n", 2, "2 passage ids"),
        ("q1 Q0 p1 1 high t\n", 1, "score"),
        ("q1 Q0 p1 1\n", 1, "expected"),
        ("qZ Q0 p1 1 1 t\n", 1, "unknown question id 'qZ'"),
    ):
        bad = write_text(tmp_path / "bad.trec", body)
        error = refused(project, project.import_run, bad, "Vector")
        assert str(error).startswith(f"{bad}:{line}: ") and words in str(error)


def test_jsonl_and_csv_runs_keep_their_rank_order(project, tmp_path):
    small_project(project, tmp_path)
    write_jsonl(
        tmp_path / "r.jsonl",
        [
            {
                "question_id": "q1",
                "results": [{"passage_id": "p3", "score": 1}, {"passage_id": "p1", "score": 9}],
            }
        ],
    )
    project.import_run(tmp_path / "r.jsonl", "J")
    write_text(tmp_path / "r.csv", "question_id,passage_id,rank,score\nq1,p1,2,\nq1,p3,1,0.5\n")
    project.import_run(tmp_path / "r.csv", "C")
    pk = project.store.question("q1")["pk"]
    for system in project.systems():
        assert [r["passage_id"] for r in project.store.ranking(system["pk"], pk)] == ["p3", "p1"]
    bad = write_text(tmp_path / "bad.csv", "question_id,passage_id,rank\nq1,p1,1\nq1,p2,1\n")
    assert str(refused(project, project.import_run, bad, "C")).startswith(f"{bad}:3: ")


def test_search_uses_trigram_and_like_for_short_terms(project, tmp_path):
    small_project(project, tmp_path)
    assert [p["id"] for p in project.store.search_passages(["민주공화국"])] == ["p1"]
    assert [p["id"] for p in project.store.search_passages(["임기"])] == ["p3", "p4"]
    assert [p["id"] for p in project.store.search_passages(["임기", "대통령의"])] == ["p3"]
    assert project.store.search_passages(["100%"]) == []


def test_cli_refusal_is_file_line_exit_2_no_traceback(tmp_path):
    db = tmp_path / "c.db"
    good = write_jsonl(tmp_path / "c.jsonl", [{"id": "a", "text": "x"}])
    assert cli_here(db, "init").returncode == 0
    assert cli_here(db, "import", "corpus", str(good)).returncode == 0
    before = snapshot(db)
    bad = write_text(tmp_path / "q.jsonl", '{"id": "q1", "text": "x"}\n{"id": 5\n')
    done = cli(db, "import", "questions", str(bad))
    assert done.returncode == 2
    assert done.stderr.startswith(f"{bad}:2: not valid JSON")
    assert "Traceback" not in done.stderr
    assert snapshot(db) == before


def test_cli_info_json_and_table(tmp_path):
    db = tmp_path / "i.db"
    good = write_jsonl(tmp_path / "c.jsonl", [{"id": "a", "text": "x"}])
    assert cli_here(db, "init").returncode == 0
    cli(db, "import", "corpus", str(good))
    info = json.loads(cli(db, "info", "--json").stdout)
    assert {
        k: info[k] for k in ("passages", "questions", "evidence_items", "systems", "judgements")
    } == {"passages": 1, "questions": 0, "evidence_items": 0, "systems": [], "judgements": 0}
    assert "passages:" in cli(db, "info").stdout


def test_newer_database_is_refused_untouched(tmp_path):
    import sqlite3

    db = tmp_path / "new.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 99")
    conn.execute("CREATE TABLE future (x)")
    conn.commit()
    conn.close()
    before = snapshot(db)
    done = cli(db, "info")
    assert done.returncode == 2 and "newer" in done.stderr
    assert snapshot(db) == before


def test_headless_commands_do_not_import_qt(tmp_path):
    code = (
        "import sys; from desktop.cli import main; main(['--db', sys.argv[1], 'init']); "
        "main(['--db', sys.argv[1], 'info']); "
        "assert not [m for m in sys.modules if m.startswith('PySide6')], 'Qt imported'"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "q.db")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_lone_surrogate_escape_is_refused_with_its_line(project, tmp_path):
    path = write_text(
        tmp_path / "s.jsonl",
        '{"id": "a", "text": "ok \\ud55c"}\n{"id": "b", "text": "bad \\ud800"}\n',
    )
    error = refused(project, project.import_corpus, path)
    assert str(error).startswith(f"{path}:2: ") and "surrogate" in str(error)


def test_cli_unwritable_target_is_exit_2_without_traceback(tmp_path):
    db = tmp_path / "o.db"
    assert cli_here(db, "init").returncode == 0
    done = cli(db, "export", "judgements", str(tmp_path / "no" / "such" / "dir.jsonl"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
