"""GraphRAG's output folder and saved contexts, LightRAG's store and aquery_data results, read
into plain data (design section 11). The folders are built here in the schemas graphrag and
LightRAG write (column names and parquet types of graphrag v2 and v3 as pyarrow writes them;
context_data as graphrag.api returns it), from Korean text cut by a chunker that knows the true
offsets of every unit, so each located span is checked against the truth."""

import json
import subprocess
import sys
import unicodedata

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from desktop.readers import InputError
from desktop.readers.graph import (
    Document,
    read_graphrag_contexts,
    read_graphrag_output,
    read_lightrag_results,
    read_lightrag_store,
)

SENTENCES = [
    "국회는 오늘 본회의를 열어 예산안을 심의했다.",
    "의원들은 지방 재정의 자립도를 두고 오래 토론했다.",
    "정부는 청년 고용 대책을 새로 내놓았다.",
    "위원장은 다음 회의에서 표결하겠다고 밝혔다.",
    "교육 예산은 작년보다 삼 퍼센트 늘었다.",
    "야당은 복지 예산의 삭감에 반대했다.",
    "국회는 오늘 본회의를 열어 예산안을 심의했다.",  # the same sentence again, later
    "회의는 밤 열 시에 끝났다.",
]

# imported documents (the team's own ids and titles)
IMPORTED = [
    Document("d1", "본회의 회의록", " ".join(SENTENCES)),
    Document("d2", "예산 보고서", " ".join(reversed(SENTENCES[:6]))),
    Document("d3", None, "\n".join(SENTENCES[2:])),
]


def chunk(doc: Document, size: int = 50, overlap: int = 12):
    """A character window chunker, as GraphRAG's token windows cut across sentences: (start,
    end) of each unit in the document, whitespace at both ends left out."""
    spans, start = [], 0
    while start < len(doc.text):
        end = min(start + size, len(doc.text))
        s, e = start, end
        while doc.text[s].isspace():
            s += 1
        while doc.text[e - 1].isspace():
            e -= 1
        spans.append((s, e))
        if end == len(doc.text):
            break
        start = end - overlap
    return spans


def truth():
    """Every unit: (their id, human_readable_id, imported doc id, start, end, text)."""
    units = []
    for doc in IMPORTED:
        for s, e in chunk(doc):
            n = len(units)
            units.append((f"tu{n:03d}hash", n, doc.id, s, e, doc.text[s:e]))
    return units


# GraphRAG's documents: d1 by its title as a file name, d2 by id, d3 by its text alone
THEIR_DOCS = [("a1b2c3", "d1.txt", "d1"), ("d2", "2024 예산.txt", "d2"), ("f9e8", "x.txt", "d3")]
THEIR_ID = {ours: theirs for theirs, _, ours in THEIR_DOCS}
TEXTS = {doc.id: doc.text for doc in IMPORTED}


def write_graphrag(folder, version: int = 3, names=("documents", "text_units"), edit=None):
    """A GraphRAG output folder in v3 (document_id) or v2 (document_ids) schema; edit(rows)
    may change the text unit rows before they are written."""
    folder.mkdir(parents=True, exist_ok=True)
    units = truth()
    rows = [
        {"id": tid, "hrid": n, "text": text, "doc": THEIR_ID[doc]}
        for tid, n, doc, _, _, text in units
    ]
    if edit:
        edit(rows)
    strings = pa.list_(pa.string())
    docs = pa.table(
        {
            "id": pa.array([t for t, _, _ in THEIR_DOCS], pa.string()),
            "human_readable_id": pa.array(range(len(THEIR_DOCS)), pa.int64()),
            "title": pa.array([title for _, title, _ in THEIR_DOCS], pa.string()),
            "text": pa.array([TEXTS[ours] for _, _, ours in THEIR_DOCS], pa.string()),
            "text_unit_ids": pa.array(
                [[r["id"] for r in rows if r["doc"] == t] for t, _, _ in THEIR_DOCS], strings
            ),
            "creation_date": pa.array(["2026-12-01 10:00:00 +0900"] * 3, pa.string()),
            "metadata" if version == 2 else "raw_data": pa.array([None] * 3, pa.string()),
        }
    )
    if version == 3:
        doc_column = {"document_id": pa.array([r["doc"] for r in rows], pa.string())}
    else:
        doc_column = {"document_ids": pa.array([r.get("docs", [r["doc"]]) for r in rows], strings)}
    unit_table = pa.table(
        {
            "id": pa.array([r["id"] for r in rows], pa.string()),
            "human_readable_id": pa.array([r["hrid"] for r in rows], pa.int64()),
            "text": pa.array([r["text"] for r in rows], pa.string()),
            "n_tokens": pa.array([len(r["text"]) for r in rows], pa.int64()),
            **doc_column,
            "entity_ids": pa.array([["e1"]] * len(rows), strings),
            "relationship_ids": pa.array([[]] * len(rows), strings),
            "covariate_ids": pa.array([None] * len(rows), strings),
        }
    )
    prefix = "" if names[0] == "documents" else "create_final_"
    pq.write_table(docs, folder / f"{prefix}documents.parquet")
    pq.write_table(unit_table, folder / f"{prefix}text_units.parquet")
    return folder


def spans(chunking):
    return [(u.id, u.human_readable_id, u.document_id, u.start, u.end) for u in chunking.units]


def expected():
    return [(tid, str(n), doc, s, e) for tid, n, doc, s, e, _ in truth()]


@pytest.mark.parametrize(
    "version,names",
    [(3, ("documents", "text_units")), (2, ("documents", "text_units")), (2, ("create_final",))],
)
def test_graphrag_units_are_located_at_the_chunkers_offsets(tmp_path, version, names):
    folder = write_graphrag(tmp_path / "output", version, names)
    chunking = read_graphrag_output(tmp_path, IMPORTED)  # the project folder holds output/
    assert chunking.documents == {"a1b2c3": "d1", "d2": "d2", "f9e8": "d3"}
    assert spans(chunking) == expected()
    assert any("." in u.text[:-1] for u in chunking.units)  # units cross sentence boundaries
    assert chunking.resolve("3") is chunking.resolve("tu003hash") is chunking.units[3]
    assert read_graphrag_output(folder, IMPORTED).units == chunking.units


def test_a_repeated_sentence_lands_on_the_copy_in_order(tmp_path):
    text = TEXTS["d1"]
    first = text.index(SENTENCES[0])
    second = text.index(SENTENCES[0], first + 1)
    starts = [s for _, _, doc, s, _, _ in truth() if doc == "d1"]
    after = max(i for i, s in enumerate(starts) if s < second)  # the unit before the copy

    def repeat(rows):
        row = {"id": "tu-repeat", "hrid": 999, "text": SENTENCES[0], "doc": "a1b2c3"}
        rows.insert(after + 1, row)

    chunking = read_graphrag_output(write_graphrag(tmp_path, 3, edit=repeat), IMPORTED)
    unit = chunking.resolve("999")
    assert (unit.start, unit.end) == (second, second + len(SENTENCES[0]))


def test_a_unit_whose_whitespace_differs_is_located_ignoring_it(tmp_path):
    def respace(rows):
        rows[2]["text"] = rows[2]["text"].replace(" ", "\n  ", 2)
        rows[7]["text"] = rows[7]["text"].replace(" ", "")  # whitespace missing on one side

    units = read_graphrag_output(write_graphrag(tmp_path, 3, edit=respace), IMPORTED).units
    assert spans_of(units, 2) == expected()[2][3:] and spans_of(units, 7) == expected()[7][3:]
    assert units[2].text != TEXTS[units[2].document_id][units[2].start : units[2].end]


def test_nfd_text_from_macos_is_located_after_nfc(tmp_path):
    def decompose(rows):
        rows[1]["text"] = unicodedata.normalize("NFD", rows[1]["text"])

    units = read_graphrag_output(write_graphrag(tmp_path, 3, edit=decompose), IMPORTED).units
    assert spans_of(units, 1) == expected()[1][3:]
    assert units[1].text == truth()[1][5]  # kept in NFC, offsets counted in NFC


def spans_of(units, index):
    return units[index].start, units[index].end


def test_units_that_cannot_be_located_are_all_listed_by_human_readable_id(tmp_path):
    def lose(rows):
        rows[4]["text"] = "이 문장은 어느 문서에도 없다."
        rows[9]["text"] = rows[9]["text"][:-3] + "없음"

    folder = write_graphrag(tmp_path, 3, edit=lose)
    with pytest.raises(InputError) as caught:
        read_graphrag_output(folder, IMPORTED)
    assert caught.value.path.endswith("text_units.parquet") and caught.value.line is None
    assert "2 text units cannot be located" in caught.value.message
    assert caught.value.message.endswith(": 4, 9")


def test_a_v2_unit_running_across_two_documents_is_refused_by_name(tmp_path):
    def across(rows):
        last_d1 = max(i for i, r in enumerate(rows) if r["doc"] == "a1b2c3")
        rows[last_d1]["text"] = TEXTS["d1"][-20:] + TEXTS["d2"][:20]
        rows[last_d1]["docs"] = ["a1b2c3", "d2"]

    with pytest.raises(InputError, match=r"across documents a1b2c3, d2.*group_by_columns"):
        read_graphrag_output(write_graphrag(tmp_path, 2, edit=across), IMPORTED)


def test_documents_matching_no_imported_document_are_refused_by_name(tmp_path):
    folder = write_graphrag(tmp_path)
    with pytest.raises(InputError) as caught:
        read_graphrag_output(folder, IMPORTED[:1] + [Document("d2", None, "다른 본문")])
    assert caught.value.path.endswith("documents.parquet")
    assert "1 document(s) match no imported document" in caught.value.message
    assert "'x.txt'" in caught.value.message


def test_two_units_of_one_name_are_refused(tmp_path):
    def twice(rows):
        rows[6]["hrid"] = 5

    with pytest.raises(InputError, match="two text units are named '5'"):
        read_graphrag_output(write_graphrag(tmp_path, 3, edit=twice), IMPORTED)


def test_documents_before_graphrag_1_name_their_text_raw_content(tmp_path):
    folder = write_graphrag(tmp_path, 2, ("create_final",))
    table = pq.read_table(folder / "create_final_documents.parquet")
    table = table.rename_columns(["raw_content" if n == "text" else n for n in table.column_names])
    pq.write_table(table, folder / "create_final_documents.parquet")
    assert spans(read_graphrag_output(folder, IMPORTED)) == expected()
    pq.write_table(table.drop_columns(["raw_content"]), folder / "create_final_documents.parquet")
    with pytest.raises(InputError, match="has no column 'text'"):
        read_graphrag_output(folder, IMPORTED)


def test_not_a_graphrag_folder_and_not_parquet(tmp_path):
    with pytest.raises(InputError, match="no documents.parquet or create_final_documents"):
        read_graphrag_output(tmp_path, IMPORTED)
    (tmp_path / "documents.parquet").write_text("이건 parquet가 아니다", encoding="utf-8")
    with pytest.raises(InputError, match="not a readable parquet file"):
        read_graphrag_output(tmp_path, IMPORTED)


def test_a_text_units_table_without_a_document_column_is_refused(tmp_path):
    folder = write_graphrag(tmp_path)
    table = pq.read_table(folder / "text_units.parquet").drop_columns(["document_id"])
    pq.write_table(table, folder / "text_units.parquet")
    with pytest.raises(InputError, match="neither 'document_id' .v3. nor 'document_ids' .v2."):
        read_graphrag_output(folder, IMPORTED)


# -- saved contexts -----------------------------------------------------------------------------


def context_line(question, sources, **extra):
    """One saved query: context_data shaped as graphrag.api's reformat_context_data gives it
    (every key present, a list of records each; source ids are human_readable_id strings)."""
    data = {
        "reports": [{"id": "3", "title": "예산 심의 공동체", "content": "..."}],
        "entities": [
            {"id": "0", "entity": "국회", "description": "입법부", "number of relationships": 2},
            {"id": "1", "entity": "예산안", "description": "", "number of relationships": 1},
        ],
        "relationships": [
            {"id": "0", "source": "국회", "target": "예산안", "description": "심의", "weight": 1.0}
        ],
        "claims": [],
        "sources": [{"id": str(s), "text": "..."} for s in sources],
    }
    return json.dumps({"question_id": question, "context_data": data, **extra}, ensure_ascii=False)


def test_graphrag_contexts_keep_the_given_order_each_source_once(tmp_path):
    chunking = read_graphrag_output(write_graphrag(tmp_path / "out"), IMPORTED)
    path = tmp_path / "contexts.jsonl"
    path.write_text(
        context_line("q1", [5, 2, 5, 9, 2]) + "\n\n" + context_line("q2", []) + "\n",
        encoding="utf-8",
    )
    q1, q2 = read_graphrag_contexts(path, chunking)
    assert q1.question_id == "q1" and q1.line == 1 and q1.unranked
    assert q1.unit_ids == ["tu005hash", "tu002hash", "tu009hash"]
    assert q1.repeats == ["tu005hash", "tu002hash"]
    assert q1.entities == ["국회", "예산안"] and q1.relationships == ["국회 → 예산안"]
    assert q1.reports == ["예산 심의 공동체"] and q1.claims == []
    assert (q2.question_id, q2.line, q2.unit_ids) == ("q2", 3, [])


def test_an_unknown_source_id_is_refused_with_its_line_and_question(tmp_path):
    chunking = read_graphrag_output(write_graphrag(tmp_path / "out"), IMPORTED)
    beyond = len(chunking.units)  # DRIFT's off-by-one: one past the last human_readable_id
    path = tmp_path / "contexts.jsonl"
    path.write_text(context_line("q1", [1]) + "\n" + context_line("q7", [2, beyond]) + "\n")
    with pytest.raises(InputError) as caught:
        read_graphrag_contexts(path, chunking)
    assert caught.value.line == 2
    assert f"question 'q7': source id '{beyond}' is not a unit" in caught.value.message


def test_basic_search_sources_and_a_csv_sources_table(tmp_path):
    chunking = read_graphrag_output(write_graphrag(tmp_path / "out"), IMPORTED)
    line = {"question_id": "q1", "context_data": {"sources": [{"source_id": "4", "text": ""}]}}
    path = tmp_path / "basic.jsonl"
    path.write_text(json.dumps(line) + "\n")
    assert read_graphrag_contexts(path, chunking)[0].unit_ids == ["tu004hash"]
    table = tmp_path / "sources.csv"
    table.write_text(
        'question_id,id,text\nq1,3,"가\n나"\nq2,0,다\nq1,1,라\nq1,3,마\nq2,99,바\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        read_graphrag_contexts(table, chunking)
    assert caught.value.line == 7 and "question 'q2': source id '99'" in caught.value.message
    table.write_text(table.read_text(encoding="utf-8").replace("q2,99,바\n", ""))
    q1, q2 = read_graphrag_contexts(table, chunking)
    assert q1.unit_ids == ["tu003hash", "tu001hash"] and q1.repeats == ["tu003hash"]
    assert q2.unit_ids == ["tu000hash"] and q1.unranked and q2.unranked


def test_a_question_given_twice_is_refused(tmp_path):
    chunking = read_graphrag_output(write_graphrag(tmp_path / "out"), IMPORTED)
    path = tmp_path / "contexts.jsonl"
    path.write_text(context_line("q1", [1]) + "\n" + context_line("q1", [2]) + "\n")
    with pytest.raises(InputError, match="question 'q1' again .first on line 1."):
        read_graphrag_contexts(path, chunking)


# -- LightRAG -----------------------------------------------------------------------------------


def write_lightrag(folder):
    """kv_store_full_docs.json and kv_store_text_chunks.json as LightRAG writes them; chunks
    stored out of order (a dict keyed by chunk id), content stripped as LightRAG strips it."""
    folder.mkdir(parents=True, exist_ok=True)
    docs, chunks, truth_rows = {}, {}, []
    for number, doc in enumerate(IMPORTED):
        key = f"doc-{number:032x}"
        docs[key] = {"content": doc.text, "file_path": f"{doc.id}.txt", "_id": key}
        for order, (s, e) in enumerate(chunk(doc, size=70, overlap=20)):
            cid = f"chunk-{number}{order:031x}"
            truth_rows.append((cid, doc.id, s, e))
            chunks[cid] = {
                "tokens": e - s,
                "content": doc.text[s:e].strip(),
                "chunk_order_index": order,
                "full_doc_id": key,
                "file_path": f"{doc.id}.txt",
                "llm_cache_list": [],
                "_id": cid,
            }
    shuffled = dict(sorted(chunks.items(), key=lambda item: item[0][::-1]))
    for name, data in (("kv_store_full_docs.json", docs), ("kv_store_text_chunks.json", shuffled)):
        (folder / name).write_text(json.dumps(data, ensure_ascii=False, indent=2), "utf-8")
    return truth_rows


def test_lightrag_chunks_are_located_at_the_chunkers_offsets(tmp_path):
    rows = write_lightrag(tmp_path)
    chunking = read_lightrag_store(tmp_path, IMPORTED)
    assert chunking.system == "lightrag"
    assert [(u.id, u.document_id, u.start, u.end) for u in chunking.units] == rows
    assert all(u.human_readable_id is None for u in chunking.units)


def test_lightrag_results_in_the_order_given(tmp_path):
    rows = write_lightrag(tmp_path / "store")
    chunking = read_lightrag_store(tmp_path / "store", IMPORTED)
    ids = [cid for cid, *_ in rows]
    data = {
        "entities": [{"entity_name": "국회", "entity_type": "기관", "description": "..."}],
        "relationships": [{"src_id": "국회", "tgt_id": "예산안", "description": "심의"}],
        "chunks": [
            {"chunk_id": ids[3], "content": "...", "file_path": "d1.txt", "reference_id": "1"},
            {"chunk_id": ids[0], "content": "...", "file_path": "d1.txt", "reference_id": "1"},
            {"chunk_id": ids[3], "content": "...", "file_path": "d1.txt", "reference_id": "1"},
        ],
        "references": [{"reference_id": "1", "file_path": "d1.txt"}],
    }
    line = {"question_id": "q1", "status": "success", "message": "", "data": data}
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    (q1,) = read_lightrag_results(path, chunking)
    assert q1.unit_ids == [ids[3], ids[0]] and q1.repeats == [ids[3]] and q1.unranked
    assert q1.entities == ["국회"] and q1.relationships == ["국회 → 예산안"]
    data["chunks"].append({"chunk_id": "chunk-없음", "content": "..."})
    path.write_text("\n" + json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_lightrag_results(path, chunking)
    assert caught.value.line == 2 and "'chunk-없음' is not a unit" in caught.value.message


def test_a_lightrag_document_matching_nothing_is_refused(tmp_path):
    write_lightrag(tmp_path)
    with pytest.raises(InputError, match=r"match no imported document .*'d3.txt'"):
        read_lightrag_store(tmp_path, IMPORTED[:2])


def test_importing_the_module_does_not_load_a_parquet_reader():
    code = (
        "import sys, desktop.readers.graph; "
        "print([m for m in ('duckdb', 'pyarrow', 'pandas', 'numpy') if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
