"""Build the bundled chunking study from the sample project (design section 10).

Run by hand (not at app run time; the app never imports this file or its libraries):

    pip install bm25s
    python resources/sample/study/build_study.py

It reads the sample next door (../corpus.jsonl: the Constitution one passage per article, the
chunking the sample's gold was judged on) and writes, next to this file:

- documents.jsonl: the Constitution as documents, one per chapter (the preamble and the
  addenda are documents of their own), each the chapter's heading, its section headings and
  its articles' texts, one per line, exactly as the articles read;
- articles.jsonl: the sample's passages with their spans in those documents (the gold's
  chunking);
- c200o50.jsonl and c500o100.jsonl: fixed windows of 200 and 500 characters with 50 and 100
  characters of overlap, cut per document (the last window of a document ends at its end);
- runs/bm25-*.trec: the sample's BM25-Bigram retriever (the same tokens and parameters) on
  each chunking, top 20;
- study.json: what `recall-reviewer demo --study` imports, in order.

Nothing is fetched from the network; the output is the same on every run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent
SAMPLE = OUT.parent
sys.path.insert(0, str(SAMPLE))

from build_sample import bigrams, bm25_run, jsonl, trec, write_text  # noqa: E402

WINDOWS = {"c200o50": (200, 50), "c500o100": (500, 100)}


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def documents_of(passages: list[dict]) -> tuple[list[dict], list[dict]]:
    """(documents, the article passages with their spans): one document per chapter."""
    groups: dict[str, dict] = {}
    placed: list[dict] = []
    for p in passages:
        chapter = p.get("chapter") or "전문"
        if chapter not in groups:
            if p["id"] == "preamble":
                doc_id = "preamble"
            elif chapter.startswith("부칙"):
                doc_id = "addenda"
            else:
                doc_id = f"ch{len([g for g in groups if g.startswith('제')]) + 1:02d}"
            heading = "" if doc_id == "preamble" else chapter
            groups[chapter] = {
                "id": doc_id,
                "title": chapter,
                "lines": [heading] if heading else [],
            }
        doc = groups[chapter]
        section = " ".join(p[k] for k in ("section", "subsection") if p.get(k))
        if section and section not in doc["lines"]:
            doc["lines"].append(section)
        start = sum(len(line) + 1 for line in doc["lines"])
        doc["lines"].append(p["text"])
        placed.append(
            {
                "id": p["id"],
                "text": p["text"],
                "title": p["title"],
                "document_id": doc["id"],
                "start": start,
                "end": start + len(p["text"]),
            }
        )
    documents = [
        {"id": d["id"], "title": d["title"], "text": "\n".join(d["lines"])} for d in groups.values()
    ]
    texts = {d["id"]: d["text"] for d in documents}
    for p in placed:
        assert texts[p["document_id"]][p["start"] : p["end"]] == p["text"], p["id"]
    return documents, placed


def windows(documents: list[dict], name: str, size: int, overlap: int) -> list[dict]:
    rows = []
    for doc in documents:
        text, start, n = doc["text"], 0, 0
        while True:
            end = min(start + size, len(text))
            rows.append(
                {
                    "id": f"{name}-{doc['id']}-{n:03d}",
                    "text": text[start:end],
                    "document_id": doc["id"],
                    "start": start,
                    "end": end,
                }
            )
            if end == len(text):
                break
            start, n = end - overlap, n + 1
    return rows


def main() -> int:
    passages = read_jsonl(SAMPLE / "corpus.jsonl")
    questions = read_jsonl(SAMPLE / "questions.jsonl")
    documents, articles = documents_of(passages)
    chunkings = {"articles": articles}
    for name, (size, overlap) in WINDOWS.items():
        chunkings[name] = windows(documents, name, size, overlap)
    write_text(OUT / "documents.jsonl", jsonl(documents))
    study = {"documents": "documents.jsonl", "chunkings": []}
    for name, rows in chunkings.items():
        write_text(OUT / f"{name}.jsonl", jsonl(rows))
        run = bm25_run(rows, questions, bigrams)
        system = f"BM25-{name}"
        write_text(OUT / "runs" / f"bm25-{name}.trec", trec(run, f"bm25-{name}", 4))
        study["chunkings"].append(
            {
                "name": name,
                "file": f"{name}.jsonl",
                "system": system,
                "run": f"runs/bm25-{name}.trec",
            }
        )
        print(f"{name}: {len(rows)} passages")
    study["chunkings"][0]["unit"] = "조"
    write_text(OUT / "study.json", json.dumps(study, ensure_ascii=False, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
