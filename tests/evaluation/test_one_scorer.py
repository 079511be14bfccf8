"""One scorer (issue 11, point 4): the command line (Project.evaluate, recall_curves), the
window's domain (review.overview's Scoreboard) and the Excel report take their means and
Recall@K curves from the same accumulator, so on any data they give identical numbers."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from desktop import review
from desktop.project import Project
from desktop.report import write_report
from tests.helpers import write_jsonl
from tests.report.test_report import find_row, table

PASSAGES = [f"p{i:02d}" for i in range(15)]
QUESTIONS = ["q1", "q2", "q3", "q4"]

evidence_strategy = st.lists(
    st.tuples(
        st.sampled_from(PASSAGES),
        st.sampled_from(["core", "supporting", None]),
        st.lists(st.sampled_from(PASSAGES), max_size=2),
    ),
    max_size=4,
    unique_by=lambda e: e[0],
)
gold_strategy = st.fixed_dictionaries({q: evidence_strategy for q in QUESTIONS})
run_strategy = st.dictionaries(
    st.sampled_from(QUESTIONS),
    st.lists(st.sampled_from(PASSAGES), min_size=1, max_size=12, unique=True),
    min_size=1,
)


def as_written(value: float | None) -> float | None:
    """A number as the workbook holds it: openpyxl writes 16 significant digits ("%.16g")."""
    return None if value is None else float(f"{value:.16g}")


def _build(base, gold, runs, judged_role):
    project = Project(base / "db.sqlite")
    write_jsonl(base / "c.jsonl", [{"id": p, "text": f"text {p}"} for p in PASSAGES])
    project.import_corpus(base / "c.jsonl")
    write_jsonl(base / "q.jsonl", [{"id": q, "text": f"question {q}"} for q in QUESTIONS])
    project.import_questions(base / "q.jsonl")
    rows = []
    for q, evidence in gold.items():
        items = []
        for pid, role, alternatives in evidence:
            item = {"passage_id": pid, "role": role}
            alts = sorted({a for a in alternatives if a != pid})
            if alts:
                item["alternatives"] = alts
            items.append(item)
        rows.append({"question_id": q, "evidence": items})
    write_jsonl(base / "g.jsonl", rows)
    project.import_gold(base / "g.jsonl")
    for name, lists in runs.items():
        write_jsonl(
            base / f"{name}.jsonl",
            [
                {"question_id": q, "results": [{"passage_id": p} for p in ranked]}
                for q, ranked in lists.items()
            ],
        )
        project.import_run(base / f"{name}.jsonl", name)
    first = next(((q, e[0][0]) for q, e in gold.items() if e), None)
    if judged_role and first:
        project.add_judgement("kim", first[0], "role", judged_role, passage_id=first[1])
    return project


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    gold=gold_strategy,
    runs=st.fixed_dictionaries({"A": run_strategy, "B": run_strategy}),
    ks=st.lists(st.integers(1, 12), min_size=1, max_size=3, unique=True),
    judged_role=st.sampled_from([None, "core", "supporting"]),
)
def test_cli_window_and_report_give_identical_means_and_curves(
    tmp_path_factory, gold, runs, ks, judged_role
):
    base = tmp_path_factory.mktemp("scorer")
    project = _build(base, gold, runs, judged_role)
    try:
        ks = sorted(ks)
        evaluation = project.evaluate(ks)
        cli_means = {s.system: s.means for s in evaluation.systems}
        cli_curves = project.recall_curves()
        board = review.overview(project, "kim", False, ks).board
        wb = load_workbook(
            write_report(project, base / "r.xlsx", ks, resamples=20, permutations=20, lang="en")
        )
    finally:
        project.close()
    summary = {r["system"]: r for r in table(wb["Summary"])}
    charts = wb["Charts"]
    curve_rows = table(charts, find_row(charts, "rank"))
    assert set(cli_means) == set(board.systems) == set(summary) == {"A", "B"}
    for system, means in cli_means.items():
        # the window scores the design's five measures; P@K and Judged@K need whole lists
        assert board.means(system) == {label: means[label] for label in board.labels}
        assert {label: summary[system][label] for label in means} == {
            label: as_written(value) for label, value in means.items()
        }
        assert board.curve(system) == cli_curves[system]
        assert [r[system] for r in curve_rows] == [as_written(v) for v in cli_curves[system]]


def test_entries_share_their_tuples_and_ranks_stay_ints():
    """A board holds one tuple per distinct first ranks and per distinct values (50,000 entries
    at the reference size held 12 MB): two questions scored alike share them, and first ranks
    are never replaced by equal floats."""
    from desktop.evaluation.metrics import Item, Prepared
    from desktop.review.scores import score_entry

    prepared = Prepared([Item("a", "core", frozenset({"a"}))], [5, 10], {"a"})
    one = score_entry(prepared, [(1, "a")], 10)
    two = score_entry(
        Prepared([Item("b", "core", frozenset({"b"}))], [5, 10], {"b"}), [(1, "b")], 10
    )
    assert one == two and one.first is two.first and one.values is two.values
    assert one.first == (1,) and type(one.first[0]) is int
