"""Small builders shared by the tests: write data files in the design's formats."""

from __future__ import annotations

import json
from pathlib import Path


def write_jsonl(path: Path, rows) -> Path:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return path


def write_text(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def corpus_of(path: Path, ids) -> Path:
    return write_jsonl(path, [{"id": i, "text": f"passage {i}"} for i in ids])


def questions_of(path: Path, ids) -> Path:
    return write_jsonl(path, [{"id": q, "text": f"question {q}"} for q in ids])


def trec_ids(*files: Path) -> tuple[list[str], list[str]]:
    """(question ids, passage ids) named in TREC qrels/run files, in first-seen order."""
    questions: dict[str, None] = {}
    passages: dict[str, None] = {}
    for f in files:
        for line in f.read_text().splitlines():
            parts = line.split()
            if len(parts) == 4:
                questions.setdefault(parts[0])
                passages.setdefault(parts[2])
            elif len(parts) >= 6:
                questions.setdefault(parts[0])
                passages.setdefault(parts[2])
    return list(questions), list(passages)
