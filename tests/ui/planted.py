"""The bundled sample with a planted near copy of an evidence item in another place (issue
21): copy-128 says what art-128 (q01's supporting item) says, in a commentary at the end of the
corpus, and BM25-Bigram ranks it 2nd for q01 (in place of art-098) while it ranks art-128 9th,
so that accepting the copy as an alternative turns that system's miss at 5 into a hit. Used by
tests/ui/test_ui_candidates.py and docs/screenshots/alternatives/take.py."""

from __future__ import annotations

import json
from pathlib import Path

QUESTION, ITEM, COPY_ID, SYSTEM = "q01", "art-128", "copy-128", "BM25-Bigram"
COPY = {
    "id": COPY_ID,
    "title": "헌법 해설 제10장",
    "text": (
        "헌법개정은 국회재적의원 과반수 또는 대통령의 발의로 제안된다. 대통령의 임기연장 "
        "또는 중임변경을 위한 헌법개정은 그 헌법개정 제안 당시의 대통령에게는 효력이 없다."
    ),
}


def planted_sample(folder: Path) -> Path:
    """A fresh database in folder: the sample's corpus with the copy, questions, gold and
    runs (BM25-Bigram's with the copy at rank 2 of q01)."""
    import resources
    from desktop.project import Project

    base = resources.path("sample")
    corpus = (base / "corpus.jsonl").read_text(encoding="utf-8")
    (folder / "corpus.jsonl").write_text(
        corpus + json.dumps(COPY, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    run = (base / "runs" / "bm25-bigram.trec").read_text(encoding="utf-8")
    planted = run.replace(f"{QUESTION} Q0 art-098 2 ", f"{QUESTION} Q0 {COPY_ID} 2 ")
    assert planted != run
    (folder / "bigram.trec").write_text(planted, encoding="utf-8")
    db = folder / "planted.db"
    with Project(db) as project:
        project.import_corpus(folder / "corpus.jsonl")
        project.import_questions(base / "questions.jsonl")
        project.import_gold(base / "gold.jsonl")
        project.import_run(base / "runs" / "bm25-kiwi.trec", "BM25-Kiwi")
        project.import_run(folder / "bigram.trec", SYSTEM)
        project.import_run(base / "runs" / "rrf.trec", "RRF")
    return db
