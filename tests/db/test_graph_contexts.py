"""A graph retriever's context besides its sources (migration 0012): `import run --format
graphrag` stores each question's entities, relationships and report titles with the run; a run
imported in its place takes them away, and `restore last-import` brings them back with the run.
The study is tests/readers/test_graph_import.py's, built through the real command line."""

from __future__ import annotations

import shutil

from desktop.project import Project
from tests.readers.test_graph_import import ok, study  # noqa: F401  (the study fixture)

CONTEXT = {"entities": ["국회", "예산안"], "relationships": ["국회 → 예산안"]}
CONTEXT["reports"] = ["예산 심의 공동체"]


def contexts(db) -> dict[tuple[str, str], dict]:
    with Project(db) as project:
        out = {}
        for question in project.questions():
            for system, parts in project.reads.graph_contexts(question["pk"]).items():
                out[(system, question["id"])] = parts
    return out


def test_a_graphrag_run_keeps_its_contexts_and_restore_brings_them_back(study, tmp_path):  # noqa: F811
    db = tmp_path / "study.db"
    shutil.copy(study[0], db)
    stored = contexts(db)
    assert {key: value for key, value in stored.items() if key[0] == "GraphRAG"} == {
        ("GraphRAG", q): CONTEXT for q in ("q1", "q2", "q3")
    }
    # LightRAG's results here carry chunks only: nothing besides its sources to list
    assert not [key for key in stored if key[0] == "LightRAG"]
    ok(db, "import", "run", str(study[1] / "bm25.trec"), "--system", "GraphRAG")
    assert not [key for key in contexts(db) if key[0] == "GraphRAG"]
    ok(db, "restore", "last-import")
    assert contexts(db) == stored
