"""The pool read through the partial index result_pool (ranks up to POOL_INDEX_DEPTH,
migration 0015) and without it (deeper pools, one question for the window) is the design's
pool: on random studies whose lists run past that depth, every unjudged passage of some
system's top D, in the order of most systems, best rank, passage id (issue 23 item 8)."""

import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from db.runs import POOL_INDEX_DEPTH
from db.schema import SCHEMA_VERSION
from desktop.project import Project
from tests.gold.test_pool_json import ID, build, oracle_pool


@st.composite
def long_studies(draw):
    """test_pool_json's studies with lists longer than the index's depth."""
    passages = draw(
        st.lists(ID, min_size=POOL_INDEX_DEPTH + 2, max_size=POOL_INDEX_DEPTH + 6, unique=True)
    )
    questions = [f"q{n}" for n in range(draw(st.integers(1, 3)))]

    def ranked() -> list[str]:
        order = draw(st.permutations(passages))
        return order[: draw(st.integers(POOL_INDEX_DEPTH - 3, len(order)))]

    runs = [{q: ranked() for q in questions} for _ in range(draw(st.integers(1, 3)))]
    some = st.lists(st.sampled_from(passages), max_size=2, unique=True)
    gold = {q: draw(some) for q in questions}
    judged = draw(st.lists(st.tuples(st.sampled_from(questions), st.sampled_from(passages))))
    return passages, questions, runs, gold, judged


def listed(project: Project, depth: int) -> dict[str, list[tuple[str, int, int]]]:
    return {
        qid: [(e.passage_id, e.systems, e.best_rank) for e in entries]
        for qid, entries in project.pool(depth, blind=True)
        if entries
    }


def keyed(row: tuple) -> tuple:
    """A candidate row with its systems' keys as a set: group_concat's order is SQLite's."""
    return (*row[:5], set(row[5].split(",")))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_studies(), st.integers(1, POOL_INDEX_DEPTH + 4))
def test_the_pool_at_every_depth_is_the_designs(study, depth):
    with tempfile.TemporaryDirectory() as tmp, Project(Path(tmp) / "study.db") as project:
        build(project, Path(tmp), study)
        assert listed(project, depth) == oracle_pool(study, depth)
        # the window's pool of one question (never through the index) is the same rows
        for q in project.store.questions():
            whole = [r for r in project.store.pool_candidates(depth) if r[0] == q["pk"]]
            one = project.store.pool_candidates(depth, question_pk=q["pk"])
            assert [keyed(r) for r in one] == [keyed(r) for r in whole]


def test_an_older_database_gets_the_index_and_the_same_pool(tmp_path):
    study = (
        [f"p{n}" for n in range(14)],
        ["q0", "q1"],
        [
            {"q0": [f"p{n}" for n in range(12)], "q1": [f"p{n}" for n in range(13, 0, -1)]},
            {"q0": [f"p{n}" for n in range(13, 1, -1)], "q1": ["p3", "p0", "p12"]},
        ],
        {"q0": ["p1"], "q1": []},
        [("q1", "p12")],
    )
    db = tmp_path / "old.db"
    with Project(db) as project:
        build(project, tmp_path, study)
    old = sqlite3.connect(db)
    old.executescript(
        f"""
        DROP INDEX result_pool;
        DELETE FROM _sqlite_migrations WHERE name LIKE '%_pool_index';
        PRAGMA user_version = {SCHEMA_VERSION - 1};
        """
    )
    old.close()
    with Project(db) as migrated:
        assert migrated.store.schema_version() == SCHEMA_VERSION
        assert migrated.store.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'result_pool'"
        ).fetchone()
        for depth in (1, POOL_INDEX_DEPTH, POOL_INDEX_DEPTH + 3):
            assert listed(migrated, depth) == oracle_pool(study, depth)
