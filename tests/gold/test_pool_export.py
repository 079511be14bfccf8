"""The unjudged pool and the reviewed gold exported (issue 13 points 2 and 4)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from desktop.gold import pool
from desktop.gold.pool import reviewer_seed
from desktop.project import Project
from tests.helpers import cli, small_project, write_text


def with_runs(project, tmp_path):
    small_project(project, tmp_path)
    # q1's gold: p2 core, p1 supporting; q2: p3 with alternative p4; q3: no evidence.
    write_text(tmp_path / "a.trec", "q1 Q0 p3 1 9 a\nq1 Q0 p4 2 8 a\nq1 Q0 p2 3 7 a\n")
    write_text(tmp_path / "b.trec", "q1 Q0 p4 1 9 b\nq1 Q0 p3 2 8 b\nq3 Q0 p1 1 9 b\n")
    project.import_run(tmp_path / "a.trec", "A")
    project.import_run(tmp_path / "b.trec", "B")


def pool_of(project, **options):
    return {
        qid: [(e.passage_id, e.systems, e.best_rank, e.retrieved_by) for e in entries]
        for qid, entries in project.pool(10, **options)
    }


def test_pool_orders_by_systems_best_rank_and_id_and_leaves_judged_out(project, tmp_path):
    with_runs(project, tmp_path)
    assert pool_of(project) == {
        # p3 and p4: both systems; p4's best rank is 1, p3's is 1 too: then passage id
        "q1": [("p3", 2, 1, ("A", "B")), ("p4", 2, 1, ("A", "B"))],
        "q2": [],  # has evidence, no ranked list
        "q3": [("p1", 1, 1, ("B",))],
    }
    project.add_judgement("kim", "q1", "not_evidence", True, passage_id="p3")
    project.add_evidence("kim", "q3", "p1", "core")
    assert pool_of(project)["q1"] == [("p4", 2, 1, ("A", "B"))]
    assert pool_of(project)["q3"] == []
    project.add_judgement("kim", "q1", "alternative", "p2", passage_id="p4")
    assert pool_of(project)["q1"] == []


def test_depth_blind_and_shuffle(project, tmp_path):
    with_runs(project, tmp_path)
    assert pool_of(project, blind=True)["q1"] == [("p3", 2, 1, ()), ("p4", 2, 1, ())]
    one = {q: [e.passage_id for e in es] for q, es in project.pool(1)}
    assert one["q1"] == ["p3", "p4"]  # A's rank 1 is p3, B's is p4
    assert reviewer_seed("kim") == reviewer_seed("kim") != reviewer_seed("lee")
    shuffled = [[e.passage_id for e in es] for _, es in project.pool(10, shuffle_for="kim")]
    again = [[e.passage_id for e in es] for _, es in project.pool(10, shuffle_for="kim")]
    assert shuffled == again
    assert sorted(shuffled[0]) == ["p3", "p4"]


def test_pool_command_json(db_path, tmp_path):
    with Project(db_path) as project:
        with_runs(project, tmp_path)
    result = cli(db_path, "pool", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "depth": 10,
        "unjudged": 3,
        "questions": [
            {
                "question": "q1",
                "unjudged": [
                    {"passage_id": "p3", "systems": 2, "best_rank": 1},
                    {"passage_id": "p4", "systems": 2, "best_rank": 1},
                ],
            },
            {"question": "q2", "unjudged": []},
            {"question": "q3", "unjudged": [{"passage_id": "p1", "systems": 1, "best_rank": 1}]},
        ],
    }
    assert cli(db_path, "pool", "--depth", "0").returncode == 2


def reviewed(project, tmp_path):
    with_runs(project, tmp_path)
    project.add_evidence("kim", "q3", "p1", "core")
    project.add_judgement("kim", "q1", "drop", True, passage_id="p1")
    project.add_judgement("kim", "q1", "not_evidence", True, passage_id="p3")
    project.add_judgement("kim", "q2", "role", "supporting", passage_id="p3")


def test_exported_jsonl_scores_exactly_as_the_reviewed_database(project, tmp_path):
    reviewed(project, tmp_path)
    out = tmp_path / "out" / "gold.jsonl"
    out.parent.mkdir()
    assert project.export_gold(out, "jsonl") == 3
    ks = [1, 2, 3, 5, 10]
    before = project.evaluate(ks).as_json(per_question=True)
    pool_before = pool_of(project)
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert lines[0] == {
        "question_id": "q1",
        "evidence": [{"passage_id": "p2", "role": "core"}],
        "not_evidence": ["p1", "p3"],  # p1: a dropped item's passage stays judged
    }
    fresh = Project(tmp_path / "fresh.db")
    try:
        small_project(fresh, tmp_path)
        fresh.import_run(tmp_path / "a.trec", "A")
        fresh.import_run(tmp_path / "b.trec", "B")
        fresh.import_gold(out)
        assert fresh.evaluate(ks).as_json(per_question=True) == before
        assert pool_of(fresh) == pool_before
    finally:
        fresh.close()


def test_exported_qrels_are_read_by_pytrec_eval_and_agree_on_recall(db_path, tmp_path):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    with Project(db_path) as project:
        reviewed(project, tmp_path)
        project.add_judgement("kim", "q2", "alternative", None, passage_id="p4")
        ours = project.evaluate([1, 3]).as_json(per_question=True)
    out = tmp_path / "gold.qrels"
    result = cli(db_path, "export", "gold", str(out), "--format", "qrels")
    assert result.returncode == 0, result.stderr
    assert "cannot say 'any one of these'" in result.stdout
    text = out.read_text(encoding="utf-8")
    assert "q2 0 p3 1\n" in text and "q1 0 p3 0\n" in text and "q3 0 p1 2\n" in text
    qrels: dict = {}
    for line in text.splitlines():
        q, _, p, level = line.split()
        qrels.setdefault(q, {})[p] = int(level)
    runs = {"A": tmp_path / "a.trec", "B": tmp_path / "b.trec"}
    for system, path in runs.items():
        run: dict = {}
        for line in path.read_text().splitlines():
            q, _, p, _, score, _ = line.split()
            run.setdefault(q, {})[p] = float(score)
        theirs = pytrec_eval.RelevanceEvaluator(qrels, {"recall.1", "recall.3"}).evaluate(run)
        for row in ours["per_question"]:
            if row["system"] == system:
                t = theirs.get(row["question"], {})
                assert row["Recall@3"] == pytest.approx(t.get("recall_3", 0.0))
                assert row["Recall@1"] == pytest.approx(t.get("recall_1", 0.0))
    beir = tmp_path / "gold.tsv"
    assert cli(db_path, "export", "gold", str(beir), "--format", "beir").returncode == 0
    assert beir.read_text(encoding="utf-8").startswith("query-id\tcorpus-id\tscore\n")
    # and it reads back
    with Project(tmp_path / "again.db") as again:
        small_project(again, tmp_path)
        again.import_gold(beir)


def test_export_gold_refuses_an_imported_file(db_path, tmp_path):
    with Project(db_path) as project:
        small_project(project, tmp_path)
    result = cli(db_path, "export", "gold", str(tmp_path / "gold.jsonl"))
    assert result.returncode == 2 and "Traceback" not in result.stderr


@given(
    st.lists(
        st.tuples(
            st.text(max_size=8),
            st.lists(
                st.tuples(st.text(max_size=8), st.integers(1, 99), st.integers(1, 1000)),
                max_size=4,
            ),
        ),
        max_size=4,
    ),
    st.integers(1, 1000),
)
def test_the_pool_json_text_is_what_json_dumps_writes(questions, depth):
    """pool --json writes its text without a dict per passage: byte for byte what json.dumps
    (ensure_ascii=False) writes for the same object, whatever the ids hold."""
    rows = [
        (q, n, pid, systems, rank)
        for q, (_, entries) in enumerate(questions)
        for n, (pid, systems, rank) in enumerate(entries)
    ]
    found = pool.entry_texts(rows, lambda _: set())
    listed = [(qid, found.get(q)) for q, (qid, _) in enumerate(questions)]
    expected = {
        "depth": depth,
        "unjudged": sum(len(e) for _, e in questions),
        "questions": [
            {
                "question": qid,
                "unjudged": [
                    {"passage_id": pid, "systems": systems, "best_rank": rank}
                    for pid, systems, rank in entries
                ],
            }
            for qid, entries in questions
        ],
    }
    assert "".join(pool.json_parts(depth, listed)) == json.dumps(expected, ensure_ascii=False)
