"""Documents and chunkings in the store (design section 10, issue 19 item 1): `import
documents`, corpus lines placed in their documents (given offsets checked, or located), a
chunking added beside the corpus with --chunking, its shape given or measured, a run's
chunking found from its ids, bad input refused with FILE:LINE and nothing changed, NFC before
offsets, the migration of an older database, and restore of a documents import."""

from __future__ import annotations

import json
import sqlite3
import unicodedata

import pytest

from db import SCHEMA_VERSION
from desktop.project import Project
from desktop.readers import InputError
from tests.helpers import cli, small_project, snapshot, write_jsonl, write_text

SPEECH = "의장은 개회를 선언합니다. 오늘은 예산안을 심사합니다.  다음 안건은 법률안입니다."
BILL = "제1조 이 법은 국회의 운영에 관하여 정한다. 제2조 국회는 매년 정기회를 연다."
DOCUMENTS = [
    {"id": "d1", "text": SPEECH, "title": "본회의", "date": "2024-01-02"},
    {"id": "d2", "text": BILL, "title": "국회법"},
]


def _span(doc: str, part: str, after: int = 0) -> tuple[int, int]:
    start = doc.index(part, after)
    return start, start + len(part)


def _documents(tmp_path, rows=DOCUMENTS):
    return write_jsonl(tmp_path / "documents.jsonl", rows)


def _base(project, tmp_path):
    """Documents, then a corpus (the first chunking) cut by sentence with offsets given."""
    project.import_documents(_documents(tmp_path))
    lines = []
    for n, part in enumerate(["의장은 개회를 선언합니다.", "오늘은 예산안을 심사합니다."], 1):
        start, end = _span(SPEECH, part)
        lines.append({"id": f"s{n}", "text": part, "document_id": "d1", "start": start, "end": end})
    start, end = _span(BILL, "제1조 이 법은 국회의 운영에 관하여 정한다.")
    lines.append(
        {"id": "s3", "text": BILL[start:end], "document_id": "d2", "start": start, "end": end}
    )
    project.import_corpus(write_jsonl(tmp_path / "sentences.jsonl", lines), name="sentences")
    return lines


def _spans(project, chunking_pk: int) -> list[tuple]:
    rows = project.store.conn.execute(
        'SELECT p.id, d.id, p.start, p."end" FROM passage p LEFT JOIN document d '
        "ON d.pk = p.document_pk WHERE p.chunking_pk = ? ORDER BY p.pk",
        (chunking_pk,),
    )
    return [tuple(r) for r in rows]


# -- import documents ---------------------------------------------------------------------------


def test_documents_are_imported_with_their_title_and_other_fields(project, tmp_path):
    report = project.import_documents(_documents(tmp_path))
    assert report.rows == 2 and "imported 2 documents" in report.messages
    assert project.info()["documents"] == 2
    key, text = project.store.document_text("d1")
    assert text == SPEECH
    title, meta = project.store.conn.execute(
        "SELECT title, meta FROM document WHERE pk = ?", (key,)
    ).fetchone()
    assert title == "본회의" and json.loads(meta) == {"date": "2024-01-02"}


def test_restore_last_import_takes_a_documents_import_back(project, tmp_path):
    project.import_documents(_documents(tmp_path))
    changed = [
        {"id": "d2", "text": "바뀐 본문", "title": "국회법"},
        {"id": "d3", "text": "새 문서"},
    ]
    project.import_documents(write_jsonl(tmp_path / "more.jsonl", changed))
    assert project.store.document_text("d2")[1] == "바뀐 본문"
    project.restore_import("last-import")
    assert project.store.document_text("d2")[1] == BILL, "the replaced text is back"
    assert project.store.document_text("d3") is None, "the added document is gone"
    project.restore_import("last-import")
    assert project.info()["documents"] == 0, "the first import is undone too"


def test_restore_is_refused_for_documents_that_passages_have_spans_in(project, tmp_path):
    _base(project, tmp_path)
    before = snapshot(project.path)
    with pytest.raises(Exception, match="spans in"):
        project.restore_import("last-import")
    assert snapshot(project.path) == before


def test_a_document_with_spans_cannot_change_its_text(project, tmp_path):
    _base(project, tmp_path)
    before = snapshot(project.path)
    path = write_jsonl(tmp_path / "again.jsonl", [DOCUMENTS[1], {"id": "d1", "text": "다른 본문"}])
    result = cli(project.path, "import", "documents", str(path))
    assert result.returncode == 2
    assert f"{path}:2: document 'd1' has a different text" in result.stderr
    assert snapshot(project.path) == before


def test_documents_refuse_a_repeated_id_and_a_missing_text(project, tmp_path):
    twice = write_jsonl(tmp_path / "twice.jsonl", [DOCUMENTS[0], DOCUMENTS[0]])
    with pytest.raises(InputError, match=r"twice.jsonl:2: document id 'd1' appears twice"):
        project.import_documents(twice)
    empty = write_jsonl(tmp_path / "empty.jsonl", [{"id": "d9", "title": "no text"}])
    with pytest.raises(InputError, match=r"empty.jsonl:1: document 'd9' has no 'text'"):
        project.import_documents(empty)
    assert project.info()["documents"] == 0


# -- corpus lines placed in their documents -----------------------------------------------------


def test_corpus_lines_with_offsets_get_their_spans(project, tmp_path):
    lines = _base(project, tmp_path)
    assert _spans(project, 1) == [(x["id"], x["document_id"], x["start"], x["end"]) for x in lines]
    meta = project.store.passage("s1")["meta"]
    assert meta is None, "document_id, start and end are the span, not metadata"


def test_a_passage_with_only_its_document_is_located_exactly_then_ignoring_whitespace(
    project, tmp_path
):
    project.import_documents(_documents(tmp_path))
    # Two spaces in the document between the second and third sentences; one in the passage.
    loose = "예산안을 심사합니다. 다음 안건은"
    corpus = write_jsonl(
        tmp_path / "c.jsonl",
        [
            {"id": "a", "text": "의장은 개회를", "document_id": "d1"},
            {"id": "b", "text": loose, "document_id": "d1"},
            {"id": "c", "text": "제2조 국회는", "document_id": "d2"},
        ],
    )
    project.import_corpus(corpus)
    start = SPEECH.index("예산안을")
    end = SPEECH.index("안건은") + len("안건은")
    assert _spans(project, 1) == [
        ("a", "d1", 0, len("의장은 개회를")),
        ("b", "d1", start, end),
        ("c", "d2", *_span(BILL, "제2조 국회는")),
    ]
    assert SPEECH[start:end] != loose and SPEECH[start:end].split() == loose.split()


def test_nfd_input_is_normalised_before_offsets_are_counted(project, tmp_path):
    nfd = [{"id": "d1", "text": unicodedata.normalize("NFD", SPEECH)}]
    project.import_documents(write_jsonl(tmp_path / "nfd_docs.jsonl", nfd))
    assert project.store.document_text("d1")[1] == SPEECH, "stored in NFC"
    part = "오늘은 예산안을 심사합니다."
    start, end = _span(SPEECH, part)  # code points of the NFC text
    line = {
        "id": "p1",
        "text": unicodedata.normalize("NFD", part),
        "document_id": "d1",
        "start": start,
        "end": end,
    }
    project.import_corpus(write_jsonl(tmp_path / "nfd_corpus.jsonl", [line]))
    assert _spans(project, 1) == [("p1", "d1", start, end)]


BAD_LINES = [
    ({"start": 0, "end": len(SPEECH) + 1}, "runs past the end of document 'd1'"),
    ({"start": 5, "end": 5}, "start < end"),
    ({"start": 9, "end": 3}, "start < end"),
    ({"start": 0, "end": 4}, "is not characters 0..4 of document 'd1'"),
    ({"start": "x", "end": 4}, "'start' must be a whole number"),
    ({"start": 0}, "'end' is missing"),
    ({"document_id": "d404"}, "document 'd404' is not in the database"),
    ({"text": "어디에도 없는 문장"}, "is not in document 'd1', neither exactly nor ignoring"),
    ({"document_id": None, "start": 0, "end": 3}, "'start'/'end' need a 'document_id'"),
]


@pytest.mark.parametrize(("change", "message"), BAD_LINES)
def test_a_bad_span_is_refused_with_its_line_and_nothing_changes(
    project, tmp_path, change, message
):
    project.import_documents(_documents(tmp_path))
    project.close()
    good = {"id": "p1", "text": "의장은", "document_id": "d1", "start": 0, "end": 3}
    bad = {"id": "p2", "text": "의장은", "document_id": "d1", **change}
    bad = {k: v for k, v in bad.items() if v is not None}
    path = write_jsonl(tmp_path / "bad.jsonl", [good, bad])
    before = snapshot(project.path)
    result = cli(project.path, "import", "corpus", str(path))
    assert result.returncode == 2, result.stderr
    assert f"{path}:2: " in result.stderr and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(project.path) == before


# -- chunkings ----------------------------------------------------------------------------------


def _windows(tmp_path, name="windows.jsonl"):
    """A second chunking of the speech: 16-character windows every 12 characters, with the
    ids the first chunking uses too (ids are unique within a chunking only)."""
    rows = []
    for n, start in enumerate(range(0, len(SPEECH) - 4, 12), 1):
        text = SPEECH[start : start + 16]
        rows.append(
            {
                "id": f"s{n}",
                "text": text,
                "document_id": "d1",
                "start": start,
                "end": start + len(text),
            }
        )
    return write_jsonl(tmp_path / name, rows), rows


def test_a_chunking_is_added_beside_the_corpus_and_its_shape_measured(project, tmp_path):
    _base(project, tmp_path)
    path, rows = _windows(tmp_path)
    report = project.import_corpus(path, chunking="w16")
    assert report.rows == len(rows)
    first, added = project.info()["chunkings"]
    assert first["name"] == "sentences" and first["passages"] == 3
    assert (first["unit"], first["chunk_size"], first["overlap"]) == ("characters", 15, 0)
    corpus = project.info()["corpus"]
    assert (corpus["unit"], corpus["chunk_size"], corpus["overlap"]) == ("characters", 15, 0)
    assert added["name"] == "w16" and added["passages"] == len(rows)
    assert (added["unit"], added["chunk_size"], added["overlap"]) == ("characters", 16, 4)
    assert _spans(project, 2)[0] == ("s1", "d1", 0, 16)
    assert project.store.passage("s1")["text"] == "의장은 개회를 선언합니다.", (
        "gold names the first"
    )
    out = cli(project.path, "info")
    assert (
        f"chunking:        w16 ({len(rows)} passages; unit characters, chunk_size 16, overlap 4)"
        in out.stdout
    )
    info = json.loads(cli(project.path, "info", "--json").stdout)
    assert [c["name"] for c in info["chunkings"]] == ["sentences", "w16"]


def test_a_chunkings_shape_given_as_options_is_kept(project, tmp_path):
    _base(project, tmp_path)
    project.import_file(
        "corpus", _windows(tmp_path)[0], chunking="w16", chunk_size=20, overlap=5, unit="tokens"
    )
    added = project.info()["chunkings"][1]
    assert (added["chunk_size"], added["overlap"], added["unit"]) == (20, 5, "tokens")


def test_a_chunking_name_is_not_taken_twice_nor_an_id_twice_within_one(project, tmp_path):
    _base(project, tmp_path)
    path, rows = _windows(tmp_path)
    project.import_corpus(path, chunking="w16")
    before = snapshot(project.path)
    with pytest.raises(InputError, match="there is a chunking 'w16' already"):
        project.import_corpus(path, chunking="w16")
    twice = write_jsonl(tmp_path / "twice.jsonl", [rows[0], rows[1], rows[0]])
    with pytest.raises(InputError, match=r"twice.jsonl:3: passage id 's1' appears twice"):
        project.import_corpus(twice, chunking="again")
    assert snapshot(project.path) == before


def test_the_first_chunking_keeps_todays_corpus_rules(project, tmp_path):
    small_project(project, tmp_path)
    assert [c["name"] for c in project.info()["chunkings"]] == ["corpus"]
    with pytest.raises(InputError, match="a corpus is already loaded"):
        project.import_corpus(tmp_path / "corpus.jsonl")


# -- runs ---------------------------------------------------------------------------------------


def _two_chunkings_and_a_question(project, tmp_path):
    _base(project, tmp_path)
    project.import_corpus(_windows(tmp_path)[0], chunking="w16")
    project.import_questions(write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "예산?"}]))


def _run_of(project, tmp_path, name, ids, **options):
    path = write_text(
        tmp_path / f"{name}.trec",
        "".join(f"q1 Q0 {pid} {n} {10 - n} x\n" for n, pid in enumerate(ids, 1)),
    )
    project.import_run(path, name, **options)
    return path


def _run_chunking(project, system) -> set[int]:
    return {
        r[0]
        for r in project.store.conn.execute(
            "SELECT DISTINCT p.chunking_pk FROM result r JOIN system s ON s.pk = r.system_pk "
            "JOIN passage p ON p.pk = r.passage_pk WHERE s.name = ?",
            (system,),
        )
    }


def test_a_run_is_put_on_the_chunking_its_ids_are_in(project, tmp_path):
    _two_chunkings_and_a_question(project, tmp_path)
    _run_of(project, tmp_path, "only_w16", ["s4", "s3"])  # s4: a window only
    assert _run_chunking(project, "only_w16") == {2}
    _run_of(project, tmp_path, "chosen", ["s1", "s2"], chunking="w16")
    assert _run_chunking(project, "chosen") == {2}
    _run_of(project, tmp_path, "first", ["s1", "s2"], chunking="sentences")
    assert _run_chunking(project, "first") == {1}


def test_a_run_whose_ids_fall_in_two_chunkings_needs_chunking(project, tmp_path):
    _two_chunkings_and_a_question(project, tmp_path)
    project.close()
    before = snapshot(project.path)
    path = write_text(tmp_path / "both.trec", "q1 Q0 s1 1 2 x\nq1 Q0 s2 2 1 x\n")
    result = cli(project.path, "import", "run", str(path))
    assert result.returncode == 2
    assert f"{path}:1: the run's passage ids are in 2 chunkings ('sentences', 'w16')" in (
        result.stderr
    )
    assert snapshot(project.path) == before


def test_a_run_whose_ids_span_two_chunkings_is_refused(project, tmp_path):
    _two_chunkings_and_a_question(project, tmp_path)
    project.close()
    before = snapshot(project.path)
    # s1 is in both chunkings, s4 only in the windows.
    path = write_text(tmp_path / "split.trec", "q1 Q0 s1 1 2 x\nq1 Q0 s4 2 1 x\n")
    result = cli(project.path, "import", "run", str(path), "--chunking", "sentences")
    assert result.returncode == 2
    assert f"{path}:2: passage 's4' is not a passage of chunking 'sentences'" in result.stderr
    with sqlite3.connect(project.path) as conn:
        conn.execute("UPDATE passage SET id = 'only1' WHERE chunking_pk = 1 AND id = 's1'")
    before = snapshot(project.path)
    path = write_text(tmp_path / "split2.trec", "q1 Q0 only1 1 2 x\nq1 Q0 s4 2 1 x\n")
    result = cli(project.path, "import", "run", str(path))
    assert result.returncode == 2
    assert f"{path}:2: passage 's4' is of another chunking than line 1's 'only1'" in result.stderr
    unknown = cli(project.path, "import", "run", str(path), "--chunking", "nope")
    assert unknown.returncode == 2 and "there is no chunking 'nope'" in unknown.stderr
    assert snapshot(project.path) == before


def test_a_run_on_one_chunking_scores_as_before(sample_db):
    """The id rule, unchanged: the sample's metrics with a second chunking beside."""
    before = cli(sample_db, "metrics", "--json")
    assert before.returncode == 0
    with Project(sample_db) as project:
        text = project.store.passage("art-001")["text"]
        project.import_documents(
            write_jsonl(sample_db.parent / "d.jsonl", [{"id": "d", "text": text}])
        )
        one = [{"id": "art-001", "text": text, "document_id": "d"}]
        project.import_corpus(write_jsonl(sample_db.parent / "c.jsonl", one), chunking="whole")
    after = cli(sample_db, "metrics", "--json")
    assert json.loads(after.stdout) == json.loads(before.stdout)


# -- migration ----------------------------------------------------------------------------------


def _as_schema_7(path) -> None:
    """Put a database made by this version back as schema 7 left it: one corpus, passage ids
    unique in the whole store, no documents or chunkings."""
    conn = sqlite3.connect(path)  # foreign keys off, as a plain connection has them
    conn.executescript(
        f"""
        CREATE TABLE passage_7 (pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
            text TEXT NOT NULL, title TEXT, meta TEXT);
        INSERT INTO passage_7 SELECT pk, id, text, title, meta FROM passage;
        DROP TABLE passage;
        ALTER TABLE passage_7 RENAME TO passage;
        CREATE INDEX passage_key_id ON passage(pk, id);
        DROP TABLE chunking;
        DROP TABLE document;
        DROP TABLE undo_document;
        ALTER TABLE undo_result DROP COLUMN chunking;
        DELETE FROM _sqlite_migrations WHERE name LIKE '%_documents_and_chunkings';
        PRAGMA user_version = {SCHEMA_VERSION - 1};
        """
    )
    conn.close()


def test_the_migration_makes_the_corpus_the_first_chunking(sample_db):
    before = json.loads(cli(sample_db, "metrics", "--json").stdout)
    found = cli(sample_db, "search", "국회")
    _as_schema_7(sample_db)
    with sqlite3.connect(sample_db) as conn:
        assert "chunking_pk" not in {r[1] for r in conn.execute("PRAGMA table_info(passage)")}
    with Project(sample_db) as project:
        assert project.store.pending_migrations[-1].endswith("_documents_and_chunkings")
        assert project.store.integrity_check() == "ok"
        assert project.store.conn.execute("PRAGMA foreign_key_check").fetchall() == []
        (first,) = project.info()["chunkings"]
        corpus = project.info()["corpus"]
        assert (first["pk"], first["name"], first["unit"]) == (1, corpus["name"], corpus["unit"])
        assert first["passages"] == project.info()["passages"] == 137
    assert json.loads(cli(sample_db, "metrics", "--json").stdout) == before
    assert cli(sample_db, "search", "국회").stdout == found.stdout


def test_a_run_replaced_on_another_chunking_is_restored_on_it(project, tmp_path):
    """Its backup names passages by id, which two chunkings share here: it comes back on the
    chunking it was on."""
    _two_chunkings_and_a_question(project, tmp_path)
    _run_of(project, tmp_path, "w", ["s2", "s1"], chunking="w16")
    kept = [(r[1], r[2]) for r in project.store.result_rows()]
    _run_of(project, tmp_path, "w", ["s3"], chunking="w16")
    project.restore_import("last-import")
    assert [(r[1], r[2]) for r in project.store.result_rows()] == kept
    assert _run_chunking(project, "w") == {2}


def test_gold_names_passages_of_the_first_chunking(project, tmp_path):
    _two_chunkings_and_a_question(project, tmp_path)
    gold = [{"question_id": "q1", "evidence": [{"passage_id": "s2", "alternatives": ["s1"]}]}]
    project.import_gold(write_jsonl(tmp_path / "gold.jsonl", gold))
    rows = project.store.conn.execute(
        "SELECT p.chunking_pk FROM evidence_item e JOIN passage p ON p.pk = e.passage_pk "
        "UNION ALL SELECT p.chunking_pk FROM alternative a JOIN passage p ON p.pk = a.passage_pk"
    ).fetchall()
    assert rows == [(1,), (1,)]
    only_windows = [{"question_id": "q1", "evidence": [{"passage_id": "s4"}]}]
    with pytest.raises(InputError, match="s4"):
        project.import_gold(write_jsonl(tmp_path / "gold4.jsonl", only_windows))


def test_adding_a_chunking_keeps_the_backups_of_the_corpus_restorable(project, tmp_path):
    _base(project, tmp_path)
    project.import_questions(write_jsonl(tmp_path / "q.jsonl", [{"id": "q1", "text": "예산?"}]))
    gold = tmp_path / "gold.jsonl"
    write_jsonl(gold, [{"question_id": "q1", "evidence": [{"passage_id": "s1"}]}])
    project.import_gold(gold)
    write_jsonl(gold, [{"question_id": "q1", "evidence": [{"passage_id": "s2"}]}])
    project.import_gold(gold)
    project.import_corpus(_windows(tmp_path)[0], chunking="w16")
    backup = project.store.undo_entries()[0]
    assert backup["kind"] == "gold" and backup["same_corpus"]
    project.restore_import(backup["id"])
    assert project.store.evidence_primaries("q1") == {"q1": {"s1"}}


def test_neighbours_are_of_the_passages_own_chunking(project, tmp_path):
    _two_chunkings_and_a_question(project, tmp_path)
    last_sentence = project.store.passage("s3")["pk"]
    assert [p["chunking_pk"] for p in project.store.neighbours(last_sentence)] == [1, 1]


def test_a_named_chunking_into_an_empty_database_is_the_first(project, tmp_path):
    project.import_documents(_documents(tmp_path))
    path, rows = _windows(tmp_path)
    project.import_corpus(path, chunking="w16")
    (only,) = project.info()["chunkings"]
    assert (only["pk"], only["name"], only["passages"]) == (1, "w16", len(rows))
    assert project.info()["corpus"]["name"] == "w16"


def test_a_csv_corpus_carries_spans_in_its_columns(project, tmp_path):
    project.import_documents(_documents(tmp_path))
    start, end = _span(BILL, "제2조 국회는")
    path = write_text(
        tmp_path / "c.csv",
        f"id,text,document_id,start,end\na,제2조 국회는,d2,{start},{end}\nb,의장은 개회를,d1,,\n",
    )
    project.import_corpus(path)
    assert _spans(project, 1) == [("a", "d2", start, end), ("b", "d1", 0, 7)]
