"""The files researchers already have: decomposed (NFD) Korean text, BEIR folders, .gz inputs,
ranx / pytrec_eval JSON, MS MARCO runs and graded qrels levels (issue 20). Every file is
made here, small."""

from __future__ import annotations

import unicodedata

import pytest

from desktop.formats import InputError
from tests.helpers import snapshot, write_jsonl, write_text


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def refused(project, call, *args, **kwargs) -> InputError:
    before = snapshot(project.path)
    with pytest.raises(InputError) as caught:
        call(*args, **kwargs)
    assert snapshot(project.path) == before, "a refused file changed the database"
    return caught.value


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
