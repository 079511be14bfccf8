"""The store's areas (issue 24): one db/ module per area of the store, each importable alone
(no import cycle), none over the project's sizes."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

DB = Path(__file__).resolve().parents[1] / "db"
MODULES = sorted(path.stem for path in DB.glob("*.py") if path.stem != "__init__")


@pytest.mark.parametrize("module", MODULES)
def test_each_store_module_imports_alone(module):
    # A fresh interpreter, so that no module another test imported first hides a cycle.
    done = subprocess.run(
        [sys.executable, "-c", f"import db.{module}"],
        cwd=DB.parent,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def _is_migration(node) -> bool:
    return any(
        isinstance(d, ast.Call) and getattr(d.func, "id", "") == "MIGRATIONS"
        for d in getattr(node, "decorator_list", [])
    )


def test_the_store_is_split_within_the_sizes():
    too_big = []
    for path in DB.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > 600:
            too_big.append(f"{path.name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if _is_migration(node):
                continue  # a schema version is one SQL script, kept as it shipped
            length = node.end_lineno - node.lineno + 1
            if isinstance(node, ast.ClassDef) and length > 400:
                too_big.append(f"{path.name}: class {node.name}, {length} lines")
            if not isinstance(node, ast.ClassDef) and length > 60:
                too_big.append(f"{path.name}: {node.name}(), {length} lines")
    assert too_big == []


def test_the_store_is_made_of_its_areas():
    from db import Store
    from db.gold import Gold
    from db.judgements import JudgementLog
    from db.passages import Passages
    from db.questions import Questions
    from db.runs import Runs

    assert {Passages, Questions, Gold, Runs, JudgementLog} <= set(Store.__mro__)
    # Each area's methods are its own: no name defined twice across areas and the Store.
    names = [
        name
        for cls in (Store, Passages, Questions, Gold, Runs, JudgementLog)
        for name in vars(cls)
        if not name.startswith("__")
    ]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def test_project_reads_the_store_without_forwarding(sample_db):
    """Issue 24: the reads the window's domain and the report need come from the store's read
    areas (project.reads), not a Project method per query that only forwards (the old
    desktop/reads.py had 26). The names Project shares with the store are its own lifecycle
    and facts, which it has always had; a new shared name is a forwarder growing back."""
    from db import Store
    from desktop.project import Project

    def public(cls):
        return {name for name in dir(cls) if not name.startswith("_")}

    shared = public(Project) & public(Store)
    assert shared == {"close", "journal_problem", "questions", "search", "systems"}
    with Project(sample_db) as project:
        heads = list(project.reads.ranked_heads(3))
        assert heads and all(len(ranked) <= 3 for _, _, ranked in heads)
        system_pk = project.systems()[0]["pk"]
        grouped = dict(project.reads.scored_heads(system_pk, 3))
        # The same lists, with scores, and a tie group at rank 3 carried on past it.
        mine = {q: ranked for s, q, ranked in heads if s == system_pk}
        assert grouped.keys() == mine.keys()
        assert all([pk for pk, _ in grouped[q]][:3] == mine[q] for q in mine)
