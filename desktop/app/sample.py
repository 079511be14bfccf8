"""The bundled sample project (resources/sample): the Korean Constitution by article, about
thirty questions with hand-chosen gold, and three real retrieval runs; and the chunking study
(resources/sample/study): the same questions and gold over the Constitution as documents, cut
three ways, with a BM25 run on each cut."""

from __future__ import annotations

import json
from collections.abc import Iterator

import resources


def manifest() -> dict:
    return json.loads(resources.path("sample", "sample.json").read_text(encoding="utf-8"))


def load_sample(project, progress=None) -> Iterator[str]:
    """Import the sample into an empty project, yielding a line per step."""
    spec = manifest()
    base = resources.path("sample")
    corpus = spec["corpus"]
    if project.reads.corpus() is None:
        report = project.import_corpus(
            base / spec["corpus_file"],
            name=corpus["name"],
            chunk_size=corpus.get("chunk_size"),
            overlap=corpus.get("overlap"),
            unit=corpus.get("unit"),
            progress=progress,
        )
        yield from report.lines()
    yield from project.import_questions(base / spec["questions"]).lines()
    yield from project.import_gold(base / spec["gold"]).lines()
    for system in spec["systems"]:
        yield from project.import_run(base / system["file"], system["name"]).lines()


def load_study(project, progress=None) -> Iterator[str]:
    """Import the chunking study into an empty project, yielding a line per step: documents,
    the article chunking the gold was judged on, the questions and gold, then each chunking
    with its run (section 10: the same gold scored across chunkings)."""
    base = resources.path("sample", "study")
    spec = json.loads((base / "study.json").read_text(encoding="utf-8"))
    sample = resources.path("sample")
    yield from project.import_documents(base / spec["documents"], progress=progress).lines()
    for n, chunking in enumerate(spec["chunkings"]):
        yield from project.import_corpus(
            base / chunking["file"],
            name=chunking["name"],
            unit=chunking.get("unit"),
            chunking=chunking["name"] if n else None,
            progress=progress,
        ).lines()
        if n == 0:
            yield from project.import_questions(sample / manifest()["questions"]).lines()
            yield from project.import_gold(sample / manifest()["gold"]).lines()
        yield from project.import_run(base / chunking["run"], chunking["system"]).lines()
