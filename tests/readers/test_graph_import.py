"""GraphRAG and LightRAG through the real command line (design section 11): from an empty
database, documents, a 160-character chunking with a BM25 run, a GraphRAG output folder with
its saved contexts for every question, and a LightRAG store with its query results all import;
the graph runs are unranked; bad input is refused with FILE:LINE and the database unchanged.
The folders are tests/readers/test_graph.py's, built in the schemas graphrag and LightRAG write."""

import json
import sqlite3

import pytest

from tests.helpers import cli_here, refused_by_cli, write_jsonl
from tests.readers.test_graph import IMPORTED, chunk, context_line, truth, write_graphrag
from tests.readers.test_graph import write_lightrag as write_lightrag_store

QUESTIONS = ["q1", "q2", "q3"]
# each question's GraphRAG sources (human_readable_ids), in the order given, one repeated
SOURCES = {"q1": [4, 0, 4, 2], "q2": [7], "q3": [1, 9, 3]}


def ok(db, *args):
    done = cli_here(db, *args)
    assert done.returncode == 0, (done.stdout, done.stderr)
    return done


def c160_passages():
    """The team's own 160-character chunking, each passage at its document's offsets."""
    rows = []
    for doc in IMPORTED:
        for n, (s, e) in enumerate(chunk(doc, size=160, overlap=20)):
            rows.append(
                {"id": f"{doc.id}-{n}", "text": doc.text[s:e], "document_id": doc.id, "start": s}
            )
            rows[-1]["end"] = e
    return rows


def lightrag_results(path, truth_rows):
    """aquery_data results: per question the chunks in LightRAG's order (mix mode)."""
    ids = [cid for cid, *_ in truth_rows]
    lines = [
        {"question_id": q, "data": {"chunks": [{"chunk_id": c, "content": "…"} for c in chunks]}}
        for q, chunks in zip(QUESTIONS, [ids[3:0:-1], ids[5:6], ids[0:2]], strict=True)
    ]
    return write_jsonl(path, lines), lines


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """The whole study imported from an empty database: (database, folder, lightrag lines)."""
    return build_study(tmp_path_factory.mktemp("study"))


def build_study(tmp):
    """Documents, a 160-character chunking with a BM25 run, a GraphRAG output folder with its
    saved contexts and a LightRAG store with its results, imported through the command line
    into tmp/study.db (docs/screenshots/graph/take.py shows it too)."""
    db = tmp / "study.db"
    ok(db, "init")
    docs = [
        {"id": d.id, "text": d.text, **({"title": d.title} if d.title else {})} for d in IMPORTED
    ]
    ok(db, "import", "documents", str(write_jsonl(tmp / "documents.jsonl", docs)))
    passages = c160_passages()
    ok(db, "import", "corpus", str(write_jsonl(tmp / "c160.jsonl", passages)), "--chunking", "c160")
    questions = [{"id": q, "text": f"질문 {q}"} for q in QUESTIONS]
    ok(db, "import", "questions", str(write_jsonl(tmp / "questions.jsonl", questions)))
    gold = [
        {"question_id": q, "evidence": [{"passage_id": passages[n]["id"]}]}
        for n, q in enumerate(QUESTIONS)
    ]
    ok(db, "import", "gold", str(write_jsonl(tmp / "gold.jsonl", gold)))
    bm25 = "".join(
        f"{q} Q0 {p['id']} {rank} {10 - rank} bm25\n"
        for q in QUESTIONS
        for rank, p in enumerate(passages[:5], 1)
    )
    (tmp / "bm25.trec").write_text(bm25, encoding="utf-8")
    ok(db, "import", "run", str(tmp / "bm25.trec"), "--system", "BM25")
    folder = write_graphrag(tmp / "graphrag" / "output")
    ok(db, "import", "corpus", str(folder), "--format", "graphrag", "--chunking", "graphrag")
    contexts = "".join(context_line(q, SOURCES[q]) + "\n" for q in QUESTIONS)
    (tmp / "contexts.jsonl").write_text(contexts, encoding="utf-8")
    done = ok(
        db,
        "import",
        "run",
        str(tmp / "contexts.jsonl"),
        "--format",
        "graphrag",
        "--system",
        "GraphRAG",
    )
    assert "marked unranked" in done.stdout
    assert "1 repeated passages" in done.stderr
    truth_rows = write_lightrag_store(tmp / "rag_storage")
    ok(
        db,
        "import",
        "corpus",
        str(tmp / "rag_storage"),
        "--format",
        "lightrag",
        "--chunking",
        "lightrag",
    )
    results, lines = lightrag_results(tmp / "lightrag.jsonl", truth_rows)
    ok(db, "import", "run", str(results), "--format", "lightrag", "--system", "LightRAG")
    return db, tmp, truth_rows


def stored(db, sql, *params):
    conn = sqlite3.connect(db)
    try:
        return [tuple(row) for row in conn.execute(sql, params)]
    finally:
        conn.close()


def spans_of(db, chunking):
    return stored(
        db,
        'SELECT p.id, d.id, p.start, p."end" FROM passage p '
        "JOIN document d ON d.pk = p.document_pk JOIN chunking c ON c.pk = p.chunking_pk "
        "WHERE c.name = ? ORDER BY p.pk",
        chunking,
    )


def test_graphrag_units_are_passages_at_the_chunkers_offsets(study):
    db, _, _ = study
    # the passage id is human_readable_id, the id the saved contexts name
    assert spans_of(db, "graphrag") == [(str(n), doc, s, e) for _, n, doc, s, e, _ in truth()]
    long_ids = [
        json.loads(m)["graphrag_id"]
        for (m,) in stored(
            db,
            "SELECT meta FROM passage WHERE chunking_pk = (SELECT pk FROM chunking WHERE "
            "name = 'graphrag') ORDER BY pk",
        )
    ]
    assert long_ids == [tid for tid, *_ in truth()]
    assert spans_of(db, "lightrag") == sorted(
        [(cid, doc, s, e) for cid, doc, s, e in study[2]],
        key=lambda row: ([d.id for d in IMPORTED].index(row[1]), row[2]),
    )


def test_contexts_become_runs_in_the_given_order_each_unit_once(study):
    db, _, truth_rows = study
    rows = stored(
        db,
        "SELECT q.id, p.id FROM result r JOIN question q ON q.pk = r.question_pk JOIN passage p "
        "ON p.pk = r.passage_pk JOIN system s ON s.pk = r.system_pk WHERE s.name = ? "
        "ORDER BY q.pk, r.rank",
        "GraphRAG",
    )
    assert rows == [
        ("q1", "4"),
        ("q1", "0"),
        ("q1", "2"),
        ("q2", "7"),
        ("q3", "1"),
        ("q3", "9"),
        ("q3", "3"),
    ]
    ids = [cid for cid, *_ in truth_rows]
    lightrag = stored(
        db,
        "SELECT p.id FROM result r JOIN passage p ON p.pk = r.passage_pk JOIN system s "
        "ON s.pk = r.system_pk WHERE s.name = 'LightRAG' ORDER BY r.question_pk, r.rank",
    )
    assert [pid for (pid,) in lightrag] == [*ids[3:0:-1], *ids[5:6], *ids[0:2]]
    assert stored(db, "SELECT name, unranked FROM system ORDER BY pk") == [
        ("BM25", 0),
        ("GraphRAG", 1),
        ("LightRAG", 1),
    ]


def test_a_long_id_names_the_same_passage_and_ranked_overrides(study, tmp_path):
    db, _, _ = study
    copy = tmp_path / "copy.db"
    copy.write_bytes(db.read_bytes())
    long_ids = {n: tid for tid, n, *_ in truth()}
    line = context_line("q1", [long_ids[4], 0])
    (tmp_path / "long.jsonl").write_text(line + "\n", encoding="utf-8")
    ok(
        copy,
        "import",
        "run",
        str(tmp_path / "long.jsonl"),
        "--format",
        "graphrag",
        "--system",
        "GraphRAG-ranked",
        "--ranked",
    )
    rows = stored(
        copy,
        "SELECT p.id, s.unranked FROM result r JOIN passage p ON p.pk = r.passage_pk JOIN system s "
        "ON s.pk = r.system_pk WHERE s.name = 'GraphRAG-ranked' ORDER BY r.rank",
    )
    assert rows == [("4", 0), ("0", 0)]


def test_restoring_a_replaced_graph_run_keeps_it_unranked(study, tmp_path):
    db, tmp, _ = study
    copy = tmp_path / "copy.db"
    copy.write_bytes(db.read_bytes())
    ok(copy, "import", "run", str(tmp / "bm25.trec"), "--system", "GraphRAG")
    assert stored(copy, "SELECT unranked FROM system WHERE name = 'GraphRAG'") == [(0,)]
    ok(copy, "restore", "last-import")
    assert stored(copy, "SELECT unranked FROM system WHERE name = 'GraphRAG'") == [(1,)]


def test_metrics_json_marks_unranked_runs_and_compare_leaves_them_out(study):
    db, _, _ = study
    data = json.loads(ok(db, "metrics", "--k", "5,10", "--json").stdout)
    marks = {row["system"]: row.get("unranked", False) for row in data["systems"]}
    assert marks == {"BM25": False, "GraphRAG": True, "LightRAG": True}
    compared = json.loads(ok(db, "compare", "--json").stdout)
    assert compared["untested"] == ["GraphRAG", "LightRAG"]
    assert not any({pair["a"], pair["b"]} & {"GraphRAG", "LightRAG"} for pair in compared["pairs"])
    shown = ok(db, "compare").stdout
    assert "unranked runs" in shown and "GraphRAG, LightRAG" in shown


def test_an_unknown_source_id_is_refused_with_its_line_and_question(study, tmp_path):
    db, _, _ = study
    lines = [context_line("q1", [0]), context_line("q2", [4, 999])]
    path = tmp_path / "drift.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    error = refused_by_cli(db, "import", "run", str(path), "--format", "graphrag", "--system", "X")
    assert f"{path}:2:" in error and "'999'" in error and "'q2'" in error


def test_a_context_for_an_unknown_question_is_refused_with_its_line(study, tmp_path):
    db, _, _ = study
    lines = [context_line("q1", [0]), context_line("q2", [1]), context_line("q9", [2])]
    path = tmp_path / "contexts.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    error = refused_by_cli(db, "import", "run", str(path), "--format", "graphrag", "--system", "X")
    assert f"{path}:3:" in error and "'q9'" in error


def test_graphrag_format_on_a_file_that_is_not_a_folder_is_refused(study, tmp_path):
    db, tmp, _ = study
    path = tmp / "contexts.jsonl"
    error = refused_by_cli(
        db, "import", "corpus", str(path), "--format", "graphrag", "--chunking", "g2"
    )
    assert f"{path}:" in error and "not a GraphRAG output folder" in error
    error = refused_by_cli(db, "import", "run", str(tmp / "rag_storage"), "--format", "lightrag")
    assert str(tmp / "rag_storage") in error


def test_graph_formats_take_one_folder_and_only_a_corpus_or_a_run(study):
    db, tmp, _ = study
    folders = (str(tmp / "graphrag" / "output"), str(tmp / "rag_storage"))
    error = refused_by_cli(db, "import", "corpus", *folders, "--format", "graphrag")
    assert "reads one folder or file" in error
    error = refused_by_cli(db, "import", "gold", folders[0], "--format", "graphrag")
    assert f"{folders[0]}:" in error and "not gold files" in error


def test_a_unit_that_is_in_no_document_is_refused_by_name(study, tmp_path):
    db, _, _ = study

    def garble(rows):
        rows[5]["text"] = "이 문장은 어느 문서에도 없다."

    folder = write_graphrag(tmp_path / "output", edit=garble)
    error = refused_by_cli(
        db, "import", "corpus", str(folder), "--format", "graphrag", "--chunking", "g2"
    )
    assert "text_units.parquet:" in error and "cannot be located" in error and " 5" in error


def test_a_graph_run_needs_its_chunking(tmp_path):
    db = tmp_path / "empty.db"
    path = tmp_path / "contexts.jsonl"
    path.write_text(context_line("q1", [0]) + "\n", encoding="utf-8")
    ok(db, "init")
    error = refused_by_cli(db, "import", "run", str(path), "--format", "graphrag")
    assert f"{path}:" in error and "--format graphrag --chunking NAME" in error


def test_metrics_put_bm25_graphrag_and_lightrag_side_by_side_at_one_budget(study):
    """Issue 26's study: at a budget of 2,000 characters every system is scored by the span
    rule on the same gold, whatever its chunking, and the graph runs reach the evidence."""
    db, _, _ = study
    data = json.loads(ok(db, "metrics", "--k", "5", "--budget", "2000", "--json").stdout)
    rows = {row["system"]: row for row in data["systems"]}
    assert set(rows) == {"BM25", "GraphRAG", "LightRAG"}
    for name, row in rows.items():
        for label in ("Recall@2000ch", "SpanRecall@2000ch", "SpanPrecision@2000ch"):
            assert row[label] is not None and 0 <= row[label] <= 1, (name, label)
    assert rows["GraphRAG"]["SpanRecall@2000ch"] > 0 and rows["LightRAG"]["SpanRecall@2000ch"] > 0
    assert data["budgets"] == [2000]
