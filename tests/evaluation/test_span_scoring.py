"""The span rule wired into the one scorer (issue 19 item 3): the same Korean documents cut
into 40- and 100-character chunkings, gold judged on the first, a run on each; `metrics --json`
with `--budget` and `--coverage` against an independent computation over sets of character
positions, and one small case checked by hand."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pytest

from tests.helpers import cli, cli_here, write_jsonl

BASE = (
    "국회는 국민의 대표기관으로서 법률을 제정하고 예산안을 심의하며 국정을 감사한다. "
    "의원은 국민 전체의 봉사자로서 양심에 따라 직무를 행하고 청렴의 의무를 진다. "
)
DOCUMENTS = {
    "d1": (BASE * 3)[:240],
    "d2": ("대통령은 국가의 원수이며 외국에 대하여 국가를 대표한다. " * 6)[:200],
}
QUESTIONS = ["q1", "q2", "q3"]


def cut(size: int, step: int) -> list[tuple[str, str, int, int]]:
    """(passage id, document, start, end): each document cut every ``step`` characters into
    passages of ``size`` (the last one shorter)."""
    out = []
    for doc, text in DOCUMENTS.items():
        for start in range(0, len(text), step):
            end = min(start + size, len(text))
            out.append((f"c{size}-{doc}-{start}", doc, start, end))
            if end == len(text):
                break
    return out


SMALL, LARGE = cut(40, 40), cut(100, 80)  # the second has 20 characters of overlap
SPAN = {pid: (doc, start, end) for pid, doc, start, end in SMALL + LARGE}
# Gold judged on the 40-character chunking: (primary, role, alternatives) per question.
GOLD = {
    "q1": [("c40-d1-40", "core", []), ("c40-d1-120", "supporting", ["c40-d2-0"])],
    "q2": [("c40-d2-80", "core", [])],
    "q3": [("c40-d1-200", None, []), ("c40-d2-160", "core", [])],
}
RUNS = {
    "small": {
        "q1": ["c40-d1-0", "c40-d1-40", "c40-d2-0", "c40-d1-80"],
        "q2": ["c40-d2-40", "c40-d2-80"],
        "q3": ["c40-d1-200"],
    },
    "large": {
        "q1": ["c100-d1-0", "c100-d1-80", "c100-d2-0"],
        "q2": ["c100-d2-80", "c100-d2-0"],
        "q3": ["c100-d1-160", "c100-d2-160", "c100-d1-0"],
    },
}


@pytest.fixture
def db(tmp_path):
    gold = [
        {
            "question_id": q,
            "evidence": [
                {"passage_id": p, "role": r, **({"alternatives": a} if a else {})}
                for p, r, a in items
            ],
        }
        for q, items in GOLD.items()
    ]
    return import_study(tmp_path, gold, RUNS)


def import_study(tmp_path, gold: list[dict], runs: dict, questions=QUESTIONS):
    """Through the command line, in this process: DOCUMENTS, their 40- and 100-character
    chunkings, questions, this gold and these runs (system -> question -> passage ids), into
    tmp_path/db.sqlite."""
    path = tmp_path / "db.sqlite"
    docs = [{"id": d, "text": t, "title": d} for d, t in DOCUMENTS.items()]
    write_jsonl(tmp_path / "docs.jsonl", docs)
    for name, passages in (("c40", SMALL), ("c100", LARGE)):
        rows = [
            {"id": p, "text": DOCUMENTS[d][s:e], "document_id": d, "start": s, "end": e}
            for p, d, s, e in passages
        ]
        write_jsonl(tmp_path / f"{name}.jsonl", rows)
    write_jsonl(tmp_path / "q.jsonl", [{"id": q, "text": f"질문 {q}"} for q in questions])
    write_jsonl(tmp_path / "gold.jsonl", gold)
    steps = [
        ("import", "documents", str(tmp_path / "docs.jsonl")),
        ("import", "corpus", str(tmp_path / "c40.jsonl"), "--chunking", "c40"),
        ("import", "corpus", str(tmp_path / "c100.jsonl"), "--chunking", "c100"),
        ("import", "questions", str(tmp_path / "q.jsonl")),
        ("import", "gold", str(tmp_path / "gold.jsonl")),
    ]
    for system, lists in runs.items():
        run = [
            {"question_id": q, "results": [{"passage_id": p} for p in ps]}
            for q, ps in lists.items()
        ]
        write_jsonl(tmp_path / f"{system}.jsonl", run)
        steps.append(("import", "run", str(tmp_path / f"{system}.jsonl"), "--system", system))
    assert cli_here(path, "init").returncode == 0
    for step in steps:
        done = cli_here(path, *step)
        assert done.returncode == 0, done.stderr
    return path


# -- an independent computation: sets of character positions -----------------------------------


def chars(doc: str, start: int, end: int) -> set[tuple[str, int]]:
    return {(doc, i) for i in range(start, end)}


def context(ranked: list[str], k: int | None = None, budget: int | None = None):
    """U at K, or at a budget: every passage's full length counts, the last one cut."""
    if budget is None:
        return set().union(*(chars(*SPAN[p]) for p in ranked[:k]))
    u: set = set()
    left = budget
    for p in ranked:
        if left <= 0:
            break
        doc, start, end = SPAN[p]
        take = min(end - start, left)
        u |= chars(doc, start, start + take)
        left -= take
    return u


def oracle(system: str, q: str, theta: float, k=None, budget=None) -> dict[str, float]:
    ranked = RUNS[system].get(q, [])
    items = GOLD[q]
    u = context(ranked, k, budget)
    spans = [[chars(*SPAN[p]) for p in (primary, *alts)] for primary, _, alts in items]
    cov = [max(len(s & u) / len(s) for s in these) for these in spans]
    if system == "small" and budget is None:  # the gold's own chunking: the id rule at K
        found = [bool({primary, *alts} & set(ranked[:k])) for primary, _, alts in items]
        first = [
            next((i for i, p in enumerate(ranked[:k], 1) if p in {primary, *alts}), math.inf)
            for primary, _, alts in items
        ]
    else:
        found = [c >= theta for c in cov]
        # the rank at which each item's coverage first reaches θ
        first = [first_reached(these, ranked, theta, budget) for these in spans]
    return measures(items, spans, found, first, cov, u)


def first_reached(these, ranked, theta: float, budget=None) -> float:
    """The first rank whose context covers θ of one of these sets of positions (inf: none)."""
    for rank in range(1, len(ranked) + 1):
        u_r = context(ranked, rank) if budget is None else context(ranked[:rank], None, budget)
        if max(len(s & u_r) / len(s) for s in these) >= theta:
            return rank
    return math.inf


def measures(items, spans, found, first, cov, u) -> dict:
    """The span rule's figures from each item's found, first rank and coverage, and U."""
    evidence = set().union(*(s for these in spans for s in these))
    cores = [f for f, (_, role, _) in zip(found, items, strict=True) if role == "core"]
    hit_ranks = [r for r, f in zip(first, found, strict=True) if f]
    return {
        "Recall": sum(found) / len(items),
        "CoreRecall": sum(cores) / len(cores) if cores else None,
        "Hit": 1.0 if any(found) else 0.0,
        "MRR": 1.0 / min(hit_ranks) if hit_ranks else 0.0,
        "SpanRecall": sum(cov) / len(cov),
        "SpanPrecision": len(u & evidence) / len(u) if u else 0.0,
    }


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


@pytest.mark.parametrize("theta", [0.5, 0.3])
def test_metrics_across_two_chunkings_equal_sets_of_character_positions(db, theta):
    done = cli(
        db, "metrics", "--k", "1,3", "--budget", "50,150", "--coverage", str(theta), "--json"
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["coverage"] == theta and data["budgets"] == [50, 150]
    assert data["across_chunkings"] == ["large"]
    by_system = {s["system"]: s for s in data["systems"]}
    for system in RUNS:
        got = by_system[system]
        for k, budget in ((1, None), (3, None), (None, 50), (None, 150)):
            expected = [oracle(system, q, theta, k, budget) for q in QUESTIONS]
            for measure in expected[0]:
                name = f"{measure}@{k}" if budget is None else f"{measure}@{budget}ch"
                want = mean(e[measure] for e in expected)
                assert got[name] == pytest.approx(want), (system, name)
    assert by_system["large"]["nDCG@3"] is None and by_system["large"]["P@3"] is None
    assert by_system["small"]["nDCG@3"] is not None


def test_one_small_case_by_hand(db):
    """q2 on the 100-character chunking: its one core item is d2[80:120). The run's first
    passage d2[80:180) covers it whole: found at rank 1, SpanRecall 1, SpanPrecision 40/100.
    With a budget of 50 characters the context is d2[80:130): SpanPrecision 40/50 = 0.8.
    On the 40-character chunking the id rule finds it at rank 2 (MRR 0.5) and the first
    passage d2[40:80) touches none of it: SpanRecall@1 0, at 3 it is 1, SpanPrecision@3
    40/80 = 0.5."""
    data = json.loads(
        cli(db, "metrics", "--k", "1,3", "--budget", "50", "--per-question", "--json").stdout
    )
    row = {(p["system"], p["question"]): p for p in data["per_question"]}
    large, small = row[("large", "q2")], row[("small", "q2")]
    assert (large["Recall@1"], large["MRR@1"], large["SpanRecall@1"]) == (1.0, 1.0, 1.0)
    assert large["SpanPrecision@1"] == 0.4 and large["SpanPrecision@50ch"] == 0.8
    assert large["nDCG@1"] is None and large["P@1"] is None and large["Judged@1"] is None
    assert (small["Recall@1"], small["SpanRecall@1"], small["MRR@3"]) == (0.0, 0.0, 0.5)
    assert (small["SpanRecall@3"], small["SpanPrecision@3"]) == (1.0, 0.5)


def test_the_run_on_the_gold_chunking_keeps_the_id_rule_figures(db):
    """Its figures by ids are those of the id scorer alone, and the text output prints θ and
    why nDCG and P@K are '-' on the other chunking."""
    with_spans = json.loads(cli(db, "metrics", "--json").stdout)
    small = next(s for s in with_spans["systems"] if s["system"] == "small")
    assert small["Recall@5"] == pytest.approx(mean([2 / 2, 1 / 1, 1 / 2]))
    assert small["nDCG@5"] is not None and "SpanRecall@5" in small
    text = cli(db, "metrics", "--coverage", "0.7").stdout
    assert "θ = 0.7" in text and "not defined across chunkings" in text
    assert "SpanRecall@5" in text


def test_bad_budget_and_coverage_are_refused(db):
    for args in (("--budget", "0"), ("--budget", "abc"), ("--coverage", "0"), ("--coverage", "x")):
        done = cli(db, "metrics", *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, args


# `metrics --json --per-question` on the sample before the span rule was wired in.
SAMPLE_PER_QUESTION_SHA256 = "79b627b2ef1e920fc2ad1e74bfec02840285cc5190287d94ce8bdd54971cdc87"


def test_figures_without_spans_are_unchanged_byte_for_byte(sample_db):
    """The sample has no documents: --budget and --coverage change nothing in what metrics
    prints (tests/data/sample_metrics.json is the output of the code before them)."""
    before = (Path(__file__).parents[1] / "data" / "sample_metrics.json").read_text("utf-8")
    done = cli(sample_db, "metrics", "--json", "--budget", "1000,2000", "--coverage", "0.5")
    assert done.returncode == 0, done.stderr
    assert done.stdout == before
    done = cli(sample_db, "metrics", "--json", "--per-question", "--budget", "1000,2000")
    assert hashlib.sha256(done.stdout.encode("utf-8")).hexdigest() == SAMPLE_PER_QUESTION_SHA256


# -- export gold --chunking ---------------------------------------------------------------------


def projected_oracle(theta: float) -> dict[str, list[set[str]]]:
    """Per question, each item's passages of the 100-character chunking: those holding at
    least θ of one of its spans, or lying at least θ inside one (sets of positions)."""
    out = {}
    for q, items in GOLD.items():
        these = []
        for primary, _, alts in items:
            spans = [chars(*SPAN[p]) for p in (primary, *alts)]
            passages = {
                pid
                for pid, *where in LARGE
                for s in spans
                if (common := len(chars(*where) & s))
                and (common >= theta * len(s) or common >= theta * len(chars(*where)))
            }
            these.append(passages)
        out[q] = these
    return out


@pytest.mark.parametrize("theta", [0.5, 0.9])
def test_export_gold_onto_another_chunking_equals_the_projection_by_positions(db, tmp_path, theta):
    target = tmp_path / "projected.jsonl"
    done = cli(db, "export", "gold", str(target), "--chunking", "c100", "--coverage", str(theta))
    assert done.returncode == 0, done.stderr
    assert "projected onto chunking c100" in done.stdout
    lines = [json.loads(line) for line in target.read_text("utf-8").splitlines()]
    want = projected_oracle(theta)
    for line in lines:
        assert line["projected"] == {"chunking": "c100", "coverage": theta}
        got = [{e["passage_id"], *e.get("alternatives", [])} for e in line["evidence"]]
        assert got == [p for p in want[line["question_id"]] if p], line
    assert {line["question_id"] for line in lines} == set(GOLD)


def test_export_gold_projection_by_hand_in_each_format(db, tmp_path):
    """q2's item is d2[80:120). On the 100-character chunking d2[0:100) holds 20 of its 40
    characters (exactly θ = 0.5) and d2[80:180) all of it; d2[160:200) none."""
    for fmt in ("jsonl", "qrels", "beir"):
        target = tmp_path / f"g.{fmt}"
        done = cli(db, "export", "gold", str(target), "--chunking", "c100", "--format", fmt)
        assert done.returncode == 0, done.stderr
        text = target.read_text("utf-8")
        if fmt == "jsonl":
            q2 = next(json.loads(t) for t in text.splitlines() if '"q2"' in t)
            assert q2["evidence"] == [
                {"passage_id": "c100-d2-0", "role": "core", "alternatives": ["c100-d2-80"]}
            ]
        elif fmt == "qrels":
            q2 = [t for t in text.splitlines() if t.startswith("q2 ")]
            assert q2 == [
                "q2 projected:c100@0.5 c100-d2-0 2",
                "q2 projected:c100@0.5 c100-d2-80 2",
            ]
        else:
            assert text.splitlines()[0].endswith("\tprojected onto chunking c100 at coverage 0.5")
            assert "q2\tc100-d2-0\t2" in text.splitlines()


def test_export_gold_onto_an_unknown_chunking_is_refused(db, tmp_path):
    done = cli(db, "export", "gold", str(tmp_path / "g.jsonl"), "--chunking", "nope")
    assert done.returncode == 2 and "there is no chunking 'nope'" in done.stderr
    assert not (tmp_path / "g.jsonl").exists()


def test_lists_read_to_a_depth_then_whole_keep_every_figure(db, monkeypatch):
    """metrics --budget reads the ranked lists only as deep as twice the recorded chunk size
    reaches the budget, then whole for the lists that fall short: with a recorded size ten
    times the passages' (lists fall short and are read again) and with every list read whole,
    every figure equals the command line's."""
    from desktop import project_evaluation
    from desktop.project import Project

    want = json.loads(cli(db, "metrics", "--k", "1,3", "--budget", "50,150", "--json").stdout)
    project = Project(db)
    try:
        c40 = project.store.chunking_named("c40")
        project.store.set_chunking_shape(c40["pk"], 400, 0, "characters")
        project.store.set_chunking_shape(
            project.store.chunking_named("c100")["pk"], 1000, 0, "characters"
        )
        read = []
        real = project.store.ranked_passages
        monkeypatch.setattr(
            project.store, "ranked_passages", lambda *key: read.append(key) or real(*key)
        )
        deepened = project.evaluate([1, 3], budgets=[50, 150]).as_json()
        assert read, "no list was read again: the test does not reach the second read"
        monkeypatch.setattr(project_evaluation, "SHORT_LISTS", 0)
        whole = project.evaluate([1, 3], budgets=[50, 150]).as_json()
    finally:
        project.close()
    for got in (deepened, whole):
        assert got["systems"] == want["systems"]
