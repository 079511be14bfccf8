"""The bundled sample project imports cleanly and gives distinct, sensible scores."""

import json

from tests.helpers import cli


def test_demo_command_loads_the_sample(tmp_path):
    db = tmp_path / "demo.db"
    done = cli(db, "demo")
    assert done.returncode == 0, done.stderr
    assert str(db) in done.stdout
    info = json.loads(cli(db, "info", "--json").stdout)
    assert info["passages"] == 137 and info["questions"] == 33
    assert info["systems"] == ["BM25-Kiwi", "BM25-Bigram", "RRF"]
    data = json.loads(cli(db, "metrics", "--json").stdout)
    assert data["questions"] == {"total": 33, "evaluated": 31, "without_evidence": 2}
    recall = {s["system"]: s["Recall@5"] for s in data["systems"]}
    assert len(set(recall.values())) == 3 and all(0 < v < 1 for v in recall.values())


def test_demo_twice_is_harmless(project):
    from desktop.app.sample import load_sample

    list(load_sample(project))
    before = project.info()
    list(load_sample(project))
    after = project.info()
    assert {k: before[k] for k in ("passages", "questions", "evidence_items", "results")} == {
        k: after[k] for k in ("passages", "questions", "evidence_items", "results")
    }


def test_the_judged_note_names_each_system_once(sample_db):
    """The note under the table: each system once, with its Judged@K values together, as
    the window's tooltip and the report say it (metrics.unsettled_by_system)."""
    from tests.helpers import cli_here

    note = cli_here(sample_db, "metrics", "--k", "5,10").stdout.strip().splitlines()[-1]
    assert note.startswith("under 80% of the top K is judged for ")
    for system in ("BM25-Kiwi", "BM25-Bigram", "RRF"):
        assert note.count(f"{system} (") == 1, note
    assert "BM25-Kiwi (Judged@5 0.26, Judged@10 0.15)" in note
