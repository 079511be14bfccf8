"""`pool --json` written straight from the store's ordered rows (Project.pool_json) is byte for
byte what json.dumps writes for Project.pool, the pool the window and `pool` list, on random
studies: ids that need escaping or sort by code point, ties broken by id, judged passages
left out, the depth, a reviewer's shuffle (issue 23 item 8)."""

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop.project import Project
from tests.helpers import cli, write_jsonl

# Quotes, backslashes and control characters are escaped; 가, ｱ and 𝄞 order by code point
# (UTF-8 bytes in SQLite, str in Python: the same order, which the test holds to).
ID = st.text(alphabet='aB"\\\x01\n\t가ｱ𝄞', max_size=3).map(lambda s: f"p{s}x")


@st.composite
def studies(draw):
    passages = draw(st.lists(ID, min_size=1, max_size=8, unique=True))
    questions = [f"q{n}" for n in range(draw(st.integers(1, 4)))]
    runs = [
        {q: draw(st.lists(st.sampled_from(passages), max_size=6, unique=True)) for q in questions}
        for _ in range(draw(st.integers(1, 3)))
    ]
    some = st.lists(st.sampled_from(passages), max_size=2, unique=True)
    gold = {q: draw(some) for q in questions}
    judged = draw(st.lists(st.tuples(st.sampled_from(questions), st.sampled_from(passages))))
    return passages, questions, runs, gold, judged


def build(project: Project, folder: Path, study) -> None:
    passages, questions, runs, gold, judged = study
    write_jsonl(folder / "corpus.jsonl", [{"id": p, "text": f"문단 {p}"} for p in passages])
    project.import_corpus(folder / "corpus.jsonl")
    write_jsonl(folder / "questions.jsonl", [{"id": q, "text": f"질문 {q}"} for q in questions])
    project.import_questions(folder / "questions.jsonl")
    evidence = [
        {"question_id": q, "evidence": [{"passage_id": p, "role": "core"} for p in ps]}
        for q, ps in gold.items()
        if ps
    ]
    if evidence:
        project.import_gold(write_jsonl(folder / "gold.jsonl", evidence))
    for n, run in enumerate(runs):
        lines = [
            {"question_id": q, "results": [{"passage_id": p, "score": -r} for r, p in ranked]}
            for q, ps in run.items()
            if (ranked := list(enumerate(ps)))
        ]
        if lines:
            project.import_run(write_jsonl(folder / f"run{n}.jsonl", lines), f"S{n}")
    for q, p in dict.fromkeys(judged):
        project.add_judgement("kim", q, "not_evidence", True, passage_id=p)


def dumped(project: Project, depth: int, shuffle_for: str | None) -> str:
    """The previous way: the pool's entries, as dicts, through json.dumps."""
    found = project.pool(depth, shuffle_for=shuffle_for, blind=True)
    return json.dumps(
        {
            "depth": depth,
            "unjudged": sum(len(entries) for _, entries in found),
            "questions": [
                {
                    "question": qid,
                    "unjudged": [
                        {"passage_id": e.passage_id, "systems": e.systems, "best_rank": e.best_rank}
                        for e in entries
                    ],
                }
                for qid, entries in found
            ],
        },
        ensure_ascii=False,
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(studies(), st.integers(1, 5), st.sampled_from([None, "kim", "이"]))
def test_pool_json_is_what_json_dumps_writes_for_the_pool(study, depth, shuffle_for):
    with tempfile.TemporaryDirectory() as tmp, Project(Path(tmp) / "study.db") as project:
        build(project, Path(tmp), study)
        text = "".join(project.pool_json(depth, shuffle_for=shuffle_for))
        assert text == dumped(project, depth, shuffle_for)


def oracle_pool(study, depth: int) -> dict[str, list[tuple[str, int, int]]]:
    """The design's pool worked out from the study alone: per question, each passage in some
    system's top D, not in the gold and not judged, as (id, systems, best rank), ordered by
    most systems, best rank, then passage id."""
    _, questions, runs, gold, judged = study
    out = {}
    for q in questions:
        seen = set(gold[q]) | {p for jq, p in judged if jq == q}
        ranks: dict[str, list[int]] = {}
        for run in runs:
            for rank, p in enumerate(run[q][:depth], start=1):
                ranks.setdefault(p, []).append(rank)
        entries = [(p, len(r), min(r)) for p, r in ranks.items() if p not in seen]
        if entries:
            out[q] = sorted(entries, key=lambda e: (-e[1], e[2], e[0]))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(studies(), st.integers(1, 5))
def test_the_pool_is_in_the_designs_order(study, depth):
    """The store's ORDER BY is the one place the order is written; this is its oracle."""
    with tempfile.TemporaryDirectory() as tmp, Project(Path(tmp) / "study.db") as project:
        build(project, Path(tmp), study)
        found = {
            qid: [(e.passage_id, e.systems, e.best_rank) for e in entries]
            for qid, entries in project.pool(depth, blind=True)
            if entries
        }
        assert found == oracle_pool(study, depth)


def test_pool_command_json_is_the_pool_dumped(db_path, tmp_path):
    passages = ['p"1x', "pa\\x", "p가x", "pBx"]
    runs = [
        {"q0": ["p가x", "pBx", "pa\\x"], "q1": ['p"1x']},
        {"q0": ["pa\\x", 'p"1x'], "q1": ["pBx", 'p"1x']},
    ]
    study = (passages, ["q0", "q1", "q2"], runs, {"q2": ["pBx"]}, [("q0", "pBx")])
    with Project(db_path) as project:
        build(project, tmp_path, study)
        expected = {(d, s): dumped(project, d, s) for d in (1, 10) for s in (None, "kim")}
    assert '{"question": "q2", "unjudged": []}' in expected[(10, None)]  # evidence, no list
    for (depth, shuffle_for), text in expected.items():
        shuffled = ["--shuffle-for", shuffle_for] if shuffle_for else []
        result = cli(db_path, "pool", "--json", "--depth", str(depth), *shuffled)
        assert result.returncode == 0, result.stderr
        assert result.stdout == text + "\n"
