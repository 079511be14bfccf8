"""The unjudged pool across chunkings (design section 10)."""

from __future__ import annotations

import json

import resources
from desktop.project import Project
from tests.helpers import cli, cli_here


def test_the_pool_holds_the_runs_on_the_golds_chunking(tmp_path):
    """Evidence names the gold's passages, so a passage of another chunking never becomes
    judged: the pool (and its counts) holds the runs on the gold's chunking only."""
    db = tmp_path / "study.db"
    assert cli_here(db, "demo", "--study").returncode == 0
    done = cli(db, "pool", "--depth", "10", "--json")
    assert done.returncode == 0, done.stderr
    listed = {e["passage_id"] for q in json.loads(done.stdout)["questions"] for e in q["unjudged"]}
    articles = {
        json.loads(line)["id"]
        for line in resources.path("sample", "study", "articles.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    }
    assert listed and listed <= articles
    with Project(db) as project:
        counts = project.unjudged_counts(10)
        pool = project.pool(10)
    assert counts == {qid: len(entries) for qid, entries in pool if entries}
