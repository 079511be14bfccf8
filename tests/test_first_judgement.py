"""A window's first judgement costs what the next one does (issue 23): writing a line needs
no sqlite-utils object, so it imports nothing (sqlite-utils brings numpy and pandas along
whenever they are installed: most of the first keypress, and 70 MB)."""

from __future__ import annotations

import subprocess
import sys

WRITE_ONCE = """
import sys
from desktop.project import Project
with Project(sys.argv[1]) as project:
    before = set(sys.modules)
    project.add_judgement_lines("kim", [
        {"question_id": "q03", "kind": "role", "value": "core", "passage_id": "art-071"},
        {"question_id": "q03", "kind": "answerable", "value": True},
    ])
    with project.store.atomic():  # a nested block is a savepoint, still without sqlite-utils
        with project.store.atomic():
            project.add_judgement("kim", "q03", "note", "seen", passage_id="")
    print(sorted(m for m in set(sys.modules) - before if m.split(".")[0] == "sqlite_utils"))
"""


def test_writing_judgements_imports_no_sqlite_utils(sample_db):
    done = subprocess.run(
        [sys.executable, "-c", WRITE_ONCE, str(sample_db)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_nested_block_that_fails_is_undone_alone(sample_db):
    from desktop.project import Project

    with Project(sample_db) as project:
        store = project.store
        with store.atomic():
            project.add_judgement("kim", "q03", "role", "core", passage_id="art-071")
            try:
                with store.atomic():
                    project.add_judgement("kim", "q03", "answerable", True)
                    raise RuntimeError("refused")
            except RuntimeError:
                pass
        kinds = [r["kind"] for r in store.judgements()]
    assert kinds == ["role"]
