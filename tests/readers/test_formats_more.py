"""The files researchers already have: decomposed (NFD) Korean text, BEIR folders, .gz inputs,
ranx / pytrec_eval JSON, MS MARCO runs and graded qrels levels (issue 20). Every file is
made here, small."""

from __future__ import annotations

import unicodedata

import pytest

from tests.helpers import refused, write_jsonl, write_text


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


# -- NFC -----------------------------------------------------------------------------------


def test_nfd_corpus_questions_and_gold_come_in_as_nfc_and_are_found(project, tmp_path):
    assert nfd("한글") != "한글"
    write_jsonl(
        tmp_path / "c.jsonl",
        [
            {"id": nfd("조문1"), "title": nfd("헌법"), "text": nfd("대통령의 임기는 한글로 5년")},
            {"id": "p2", "text": "다른 문단"},
        ],
    )
    write_jsonl(tmp_path / "q.jsonl", [{"id": nfd("질문1"), "text": nfd("대통령 임기는?")}])
    write_text(tmp_path / "g.qrels", f"{nfd('질문1')} 0 {nfd('조문1')} 2\n")
    project.import_corpus(tmp_path / "c.jsonl")
    project.import_questions(tmp_path / "q.jsonl")
    project.import_gold(tmp_path / "g.qrels")
    # The ids and texts are stored composed: a gold file typed as NFC matches them.
    passage = project.store.passage("조문1")
    assert passage["text"] == "대통령의 임기는 한글로 5년" and passage["title"] == "헌법"
    assert [q["id"] for q in project.questions()] == ["질문1"]
    assert project.questions()[0]["text"] == "대통령 임기는?"
    write_text(tmp_path / "run.trec", "질문1 Q0 조문1 1 3.0 bm25\n")
    project.import_run(tmp_path / "run.trec", "bm25")
    assert project.evaluate([1]).systems[0].means["Recall@1"] == 1.0
    # Search words, typed either way, find the passage (short and long words alike).
    for word in ("한글", nfd("한글"), nfd("대통령의"), "임기"):
        assert project.search(word).total == 1, word


def test_search_and_filter_words_are_nfc():
    from desktop import review
    from desktop.search import words

    assert words(nfd("한글 임기")) == ["한글", "임기"]
    assert review.search_terms(nfd("대통령 임기")) == ["대통령", "임기"]
    assert "대통령" in review.question_terms(nfd("대통령의 임기는?"))


def test_two_ids_that_become_one_are_refused_with_both_lines(project, tmp_path):
    write_jsonl(
        tmp_path / "c.jsonl",
        [{"id": "한1", "text": "a"}, {"id": "p2", "text": "b"}, {"id": nfd("한1"), "text": "c"}],
    )
    error = refused(project, project.import_corpus, tmp_path / "c.jsonl")
    assert (error.line, error.path) == (3, str(tmp_path / "c.jsonl"))
    assert "is the same as line 1's after Unicode NFC normalisation" in error.message

    # Across two files of one corpus the first place names its file.
    folder = tmp_path / "v"
    folder.mkdir()
    write_jsonl(folder / "a.jsonl", [{"id": nfd("한1"), "text": "a"}])
    write_jsonl(folder / "b.jsonl", [{"id": "x", "text": "b"}, {"id": "한1", "text": "c"}])
    error = refused(project, project.import_corpus, folder)
    assert (error.path, error.line) == (str(folder / "b.jsonl"), 2)
    assert f"the same as {folder / 'a.jsonl'}:1's after Unicode NFC" in error.message

    # The same id spelled the same way twice keeps its own message.
    write_jsonl(tmp_path / "d.jsonl", [{"id": "한1", "text": "a"}, {"id": "한1", "text": "b"}])
    assert "appears twice" in refused(project, project.import_corpus, tmp_path / "d.jsonl").message

    write_text(tmp_path / "q.tsv", f"질문\t첫째\n{nfd('질문')}\t둘째\n")
    error = refused(project, project.import_questions, tmp_path / "q.tsv")
    assert error.line == 2 and "the same as line 1's after Unicode NFC" in error.message


# -- .gz -------------------------------------------------------------------------------------


def gz(path, text: str):
    import gzip

    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write(text)
    return path


def small(project, tmp_path, passages=("d1", "d2", "d3"), questions=("q1", "q2")):
    """A corpus and questions imported, for the run and gold tests."""
    write_jsonl(tmp_path / "c.jsonl", [{"id": p, "text": f"passage {p}"} for p in passages])
    write_jsonl(tmp_path / "q.jsonl", [{"id": q, "text": f"question {q}"} for q in questions])
    project.import_corpus(tmp_path / "c.jsonl")
    project.import_questions(tmp_path / "q.jsonl")


def ranked(project, system: str) -> dict[str, list[str]]:
    ids = {q["pk"]: q["id"] for q in project.questions()}
    runs = project.runs()[system]
    names = project.store.passage_ids_of(p for ps in runs.values() for p in ps)
    return {ids[q]: [names[p] for p in ps] for q, ps in runs.items()}


def test_gz_inputs_are_read_as_a_stream_with_the_format_under_gz(project, tmp_path):
    from tests.helpers import cli

    folder = tmp_path / "volumes"
    folder.mkdir()
    gz(folder / "a.jsonl.gz", '{"id": "d1", "text": "첫째"}\n{"id": "d2", "text": "둘째"}\n')
    write_jsonl(folder / "b.jsonl", [{"id": "d3", "text": "셋째"}])
    project.import_corpus(folder)
    assert project.store.passage("d1")["text"] == "첫째" and project.store.passage("d3")
    project.import_questions(gz(tmp_path / "q.tsv.gz", "q1\t무엇\n"))
    project.import_gold(gz(tmp_path / "g.qrels.gz", "q1 0 d2 2\n"))
    project.close()

    run = gz(tmp_path / "run.trec.gz", "q1 Q0 d1 1 2.0 x\nq1 Q0 d2 2 1.0 x\n")
    done = cli(project.path, "import", "run", str(run), "--system", "bm25")
    assert done.returncode == 0, done.stderr
    assert "imported 2 results for 1 questions" in done.stdout
    # Named with --format, the same file is read as text too: no false "looks like UTF-16".
    done = cli(project.path, "import", "run", str(run), "--system", "x", "--format", "trec")
    assert done.returncode == 0 and "UTF-16" not in done.stderr, done.stderr


def test_a_damaged_gz_is_refused_in_one_line(project, tmp_path):
    small(project, tmp_path)
    whole = gz(tmp_path / "whole.trec.gz", "q1 Q0 d1 1 2.0 x\n" * 2000).read_bytes()
    (tmp_path / "cut.trec.gz").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "plain.trec.gz").write_text("q1 Q0 d1 1 2.0 x\n")
    for name in ("cut.trec.gz", "plain.trec.gz"):
        error = refused(project, project.import_run, tmp_path / name, "bm25")
        assert error.path == str(tmp_path / name) and "not a readable gzip file" in error.message


# -- BEIR ------------------------------------------------------------------------------------


def beir_folder(tmp_path, qrels: str = "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t1\n"):
    folder = tmp_path / "scifact"
    (folder / "qrels").mkdir(parents=True)
    write_jsonl(
        folder / "corpus.jsonl",
        [
            {"_id": p, "title": "T", "text": f"passage {p}", "metadata": {}}
            for p in "d1 d2 d3".split()
        ],
    )
    # BEIR's queries.jsonl holds every split's questions; q9 is a training question.
    write_jsonl(
        folder / "queries.jsonl",
        [{"_id": q, "text": f"question {q}", "metadata": {}} for q in ("q1", "q2", "q9")],
    )
    write_text(folder / "qrels" / "test.tsv", qrels)
    write_text(folder / "qrels" / "train.tsv", "query-id\tcorpus-id\tscore\nq9\td2\t1\n")
    return folder


def test_import_beir_takes_corpus_queries_and_qrels_in_one_transaction(project, tmp_path):
    folder = beir_folder(tmp_path)
    report = project.import_file("beir", folder)
    assert report.rows == 3
    assert [q["id"] for q in project.questions()] == ["q1", "q2"]  # the test split's only
    text = "\n".join(report.lines())
    assert "imported 3 passages" in text and "imported 2 new questions" in text
    assert "left out 1 questions the gold does not name" in text
    assert "--levels 1=core" in text  # every score 1: said at once why there is no core item
    items = project.evaluate([5]).items
    assert {item.role for these in items.values() for item in these} == {"supporting"}

    other = type(project)(tmp_path / "train.db")
    other.import_file("beir", folder, split="train", levels={1: "core"})
    assert [q["id"] for q in other.questions()] == ["q9"]
    assert {i.role for these in other.evaluate([5]).items.values() for i in these} == {"core"}
    other.close()


def test_a_bad_beir_folder_leaves_nothing(project, tmp_path):
    folder = beir_folder(tmp_path, "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\tnope\t1\n")
    error = refused(project, project.import_file, "beir", folder)
    assert (
        error.path == str(folder / "qrels" / "test.tsv") and "unknown passage id" in error.message
    )
    assert project.store.corpus() is None
    error = refused(project, project.import_file, "beir", folder, split="dev")
    assert "no qrels/dev.tsv" in error.message and "its splits: test, train" in error.message


def test_a_corpus_folder_refuses_a_questions_file(project, tmp_path):
    from tests.helpers import cli

    folder = beir_folder(tmp_path)
    error = refused(project, project.import_corpus, folder)
    assert error.path == str(folder / "queries.jsonl")
    assert "a questions file" in error.message and f"import beir {folder}" in error.message
    project.close()
    done = cli(project.path, "import", "corpus", str(folder))
    assert done.returncode == 2 and "imported" not in done.stdout
    assert done.stderr.startswith(f"{folder / 'queries.jsonl'}: a questions file"), done.stderr
    for kind, where in (("questions", folder), ("gold", folder / "qrels")):
        done = cli(project.path, "import", kind, str(where))
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"{where}: is a folder, not a file")
        assert f"a BEIR folder comes in whole: import beir {folder}" in done.stderr


# -- ranx / pytrec_eval JSON and MS MARCO runs ------------------------------------------------


def test_json_dict_run_is_ordered_as_trec_eval_orders_a_trec_run(project, tmp_path):
    small(project, tmp_path, passages=("d1", "d2", "d3", "d10"))
    body = '{"q1": {"d1": 1.5, "d2": 1.5, "d3": 9, "d10": 1.5}, "q2": {}}'
    project.import_run(write_text(tmp_path / "run.json", body), "ranx")
    # Score descending, ties by passage id descending (as strings: d2 > d10 > d1).
    assert ranked(project, "ranx")["q1"] == ["d3", "d2", "d10", "d1"]
    # The same lists from a TREC file: one ordering for both.
    trec = "".join(
        f"q1 Q0 {p} 0 {s} t\n" for p, s in (("d1", 1.5), ("d2", 1.5), ("d3", 9), ("d10", 1.5))
    )
    project.import_run(write_text(tmp_path / "run.trec", trec), "trec")
    assert ranked(project, "trec")["q1"] == ranked(project, "ranx")["q1"]
    # Found from the content under a JSONL name too.
    project.import_run(write_text(tmp_path / "run.jsonl", body), "named-jsonl")
    assert ranked(project, "named-jsonl")["q1"] == ["d3", "d2", "d10", "d1"]


def test_json_dict_refusals_name_the_question_line(project, tmp_path):
    from tests.helpers import cli

    small(project, tmp_path)
    pretty = '{\n  "q1": {"d1": 1.0},\n  "q2": {\n    "d2": "high"\n  }\n}\n'
    error = refused(project, project.import_run, write_text(tmp_path / "a.json", pretty), "x")
    assert error.line == 3 and "'score' must be a number" in error.message
    twice = '{"q1": {"d1": 1},\n "q1": {"d2": 2}}'
    error = refused(project, project.import_run, write_text(tmp_path / "b.json", twice), "x")
    assert error.line == 2 and "question 'q1' given twice" in error.message
    broken = '{"q1": {"d1": 1},\n "q2": {"d2": }}'
    error = refused(project, project.import_run, write_text(tmp_path / "c.json", broken), "x")
    assert error.line == 2 and "not valid JSON" in error.message
    error = refused(project, project.import_run, write_text(tmp_path / "d.json", "[1]"), "x")
    assert "expected one JSON object" in error.message
    project.close()
    # Named --format jsonl, the old misleading "a run line needs 'question_id'" is gone.
    path = write_text(tmp_path / "r.jsonl", '{"q1": {"d1": 1.2}}\n')
    done = cli(project.path, "import", "run", str(path), "--format", "jsonl", "--system", "x")
    assert done.returncode == 2 and "question_id" not in done.stderr
    assert "--format json-dict" in done.stderr and done.stderr.startswith(f"{path}:1:")
    done = cli(project.path, "import", "run", str(path), "--format", "json-dict", "--system", "x")
    assert done.returncode == 0, done.stderr


def test_json_dict_size_limit(project, tmp_path, monkeypatch):
    from desktop import readers

    small(project, tmp_path)
    monkeypatch.setattr(readers.json_dict, "JSON_DICT_LIMIT", 10)
    path = write_text(tmp_path / "big.json", '{"q1": {"d1": 1.0}}')
    error = refused(project, project.import_run, path, "x")
    assert "over 0 MB of JSON" in error.message and "convert it to TREC" in error.message


def test_json_dict_qrels_levels_as_trec_levels(project, tmp_path):
    small(project, tmp_path)
    body = '{"q1": {"d1": 2, "d2": 1, "d3": 0}, "q2": {"d3": 1}}'
    report = project.import_gold(write_text(tmp_path / "qrels.json", body))
    assert "imported gold for 2 questions: 3 evidence items" in report.lines()[0]
    gold = project.evaluate([5])
    roles = {q: sorted(i.role for i in these) for q, these in gold.items.items()}
    assert sorted(roles.values()) == [["core", "supporting"], ["supporting"]]
    error = refused(
        project, project.import_gold, write_text(tmp_path / "bad.json", '{"q1": {"d1": 1.5}}')
    )
    assert error.line == 1 and "whole number" in error.message


def test_msmarco_run_in_rank_order(project, tmp_path):
    small(project, tmp_path)
    project.import_run(
        write_text(tmp_path / "run.dev.tsv", "q1\td1\t2\nq1\td3\t1\nq2\td2\t1\n"), "mm"
    )
    assert ranked(project, "mm") == {"q1": ["d3", "d1"], "q2": ["d2"]}
    path = write_text(tmp_path / "run.txt", "q1 d2 1\nq1 d1 2\n")
    project.import_run(path, "mm2", fmt="msmarco")
    assert ranked(project, "mm2")["q1"] == ["d2", "d1"]
    twice = write_text(tmp_path / "twice.tsv", "q1\td1\t1\nq1\td2\t1\n")
    error = refused(project, project.import_run, twice, "x")
    assert error.line == 2 and "rank 1 given twice" in error.message
    wide = write_text(tmp_path / "wide.tsv", "q1\td1\t1\t3.2\n")
    error = refused(project, project.import_run, wide, "x")
    assert error.line == 1 and "expected 'qid<TAB>passage_id<TAB>rank'" in error.message


# -- what a graded level means, and why CoreRecall is "-" ------------------------------------


def test_levels_say_what_a_graded_level_means(project, tmp_path):
    from desktop.readers import parse_levels

    small(project, tmp_path)
    qrels = write_text(tmp_path / "g.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\n")
    project.import_gold(qrels, levels=parse_levels("1=core"))
    assert [i.role for i in project.evaluate([5]).items[project.questions()[0]["pk"]]] == ["core"]
    project.import_gold(qrels, levels=parse_levels("2=core, 1=supporting, 0=core"))
    roles = sorted(i.role for these in project.evaluate([5]).items.values() for i in these)
    assert roles == ["core", "supporting"]
    for bad in ("1=gold", "x=core", "1=core,1=supporting", "", "1"):
        with pytest.raises(ValueError):
            parse_levels(bad)
    jsonl = write_jsonl(tmp_path / "g.jsonl", [{"question_id": "q1", "evidence": []}])
    error = refused(project, project.import_gold, jsonl, levels={1: "core"})
    assert "--levels is for graded qrels" in error.message


def test_metrics_say_why_core_recall_is_dash(project, tmp_path):
    import json

    from tests.helpers import cli

    small(project, tmp_path)
    write_text(tmp_path / "g.qrels", "q1 0 d1 1\nq2 0 d2 1\n")
    write_text(tmp_path / "run.trec", "q1 Q0 d1 1 2 x\nq2 Q0 d3 1 2 x\n")
    project.import_gold(tmp_path / "g.qrels")
    project.import_run(tmp_path / "run.trec", "bm25")
    note = project.evaluate([5]).core_note()
    assert note and "none of the 2 evaluated questions has a core evidence item" in note
    project.close()
    done = cli(project.path, "metrics")
    assert done.returncode == 0 and note in done.stdout
    data = json.loads(cli(project.path, "metrics", "--json").stdout)
    assert data["core_note"] == note and data["systems"][0]["CoreRecall@5"] is None
    assert set(data["questions"]) == {"total", "evaluated", "without_evidence"}
    assert note in summary_lines(project.path, tmp_path / "dash.xlsx"), "the report says it too"
    done = cli(project.path, "import", "gold", str(tmp_path / "g.qrels"), "--levels", "1=core")
    assert done.returncode == 0, done.stderr
    data = json.loads(cli(project.path, "metrics", "--json").stdout)
    assert data["core_note"] is None and data["systems"][0]["CoreRecall@5"] == 0.5
    assert "CoreRecall is" not in cli(project.path, "metrics").stdout
    lines = summary_lines(project.path, tmp_path / "core.xlsx")
    assert "CoreRecall@K averages over the 2 questions with a core item." in lines
    assert not any("CoreRecall is" in line for line in lines)
    done = cli(project.path, "import", "gold", str(tmp_path / "g.qrels"), "--levels", "1=gold")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "--levels: '1=gold' is not LEVEL=MEANING" in done.stderr


def test_nfd_judgement_lines_name_the_nfc_question_and_passage(project, tmp_path):
    write_jsonl(
        tmp_path / "c.jsonl", [{"id": "조문1", "text": "가"}, {"id": "조문2", "text": "나"}]
    )
    write_jsonl(tmp_path / "q.jsonl", [{"id": "질문1", "text": "무엇?"}])
    project.import_corpus(tmp_path / "c.jsonl")
    project.import_questions(tmp_path / "q.jsonl")
    project.import_gold(write_text(tmp_path / "g.qrels", "질문1 0 조문1 1\n"))
    line = {"reviewer": nfd("김검수"), "at": "2026-01-01T00:00:00+09:00"}
    write_jsonl(
        tmp_path / "j.jsonl",
        [
            {
                **line,
                "question_id": nfd("질문1"),
                "kind": "role",
                "passage_id": nfd("조문1"),
                "value": "core",
            },
            {
                **line,
                "question_id": nfd("질문1"),
                "kind": "alternative",
                "passage_id": "조문2",
                "value": nfd("조문1"),
            },
        ],
    )
    assert project.import_judgements(tmp_path / "j.jsonl").rows == 2
    lines = project.judgement_lines()
    assert {(j["reviewer"], j["question_id"]) for j in lines} == {("김검수", "질문1")}
    assert {j["passage_id"] for j in lines} == {"조문1", "조문2"}
    assert [i.role for these in project.evaluate([5]).items.values() for i in these] == ["core"]


def summary_lines(db, target) -> list[str]:
    """The Summary sheet's one-cell lines of a report exported by the command line."""
    from openpyxl import load_workbook

    from tests.helpers import cli

    done = cli(db, "export", str(target), "--lang", "en")
    assert done.returncode == 0, done.stderr
    sheet = load_workbook(target, read_only=True)["Summary"]
    return [row[0] for row in sheet.iter_rows(values_only=True) if row and isinstance(row[0], str)]
