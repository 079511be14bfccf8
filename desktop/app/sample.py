"""The bundled sample project (resources/sample): the Korean Constitution by article, about
thirty questions with hand-chosen gold, and three real retrieval runs."""

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
