"""The report's ranked lists (db/runs.py `ranked_lists`): one row per list, the passage keys
parsed from a JSON array, each list in rank order whatever order group_concat used."""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter

from tests.helpers import small_project, write_text


def test_lists_come_in_rank_order_as_result_rows_give_them(project, tmp_path):
    small_project(project, tmp_path)
    trec = "q1 Q0 p3 1 9 A\nq1 Q0 p1 2 8 A\nq1 Q0 p2 3 7 A\nq2 Q0 p4 1 5 A\n"
    project.import_run(write_text(tmp_path / "A.trec", trec), "A")
    project.import_run(write_text(tmp_path / "B.trec", "q2 Q0 p2 1 1 B\n"), "B")
    expected = [
        (system, question, [row[2] for row in rows])
        for (system, question), rows in groupby(project.reads.result_rows(), key=itemgetter(0, 1))
    ]
    assert list(project.reads.ranked_lists()) == expected
    assert [len(passages) for _, _, passages in expected] == [3, 1, 1]


def test_a_list_whose_ranks_are_not_one_to_n_is_sorted_by_rank(project, tmp_path):
    small_project(project, tmp_path)
    trec = "q1 Q0 p3 1 9 A\nq1 Q0 p1 2 8 A\nq1 Q0 p2 3 7 A\n"
    project.import_run(write_text(tmp_path / "A.trec", trec), "A")
    store = project.store
    keys = dict(store.conn.execute("SELECT id, pk FROM passage"))
    # Gaps and ranks given in reverse: the order check fails and the list is sorted by rank.
    with store.conn:
        store.conn.execute("UPDATE result SET rank = 40 - rank * 10")
    ((_, _, passages),) = list(project.reads.ranked_lists())
    assert passages == [keys["p2"], keys["p1"], keys["p3"]]


def test_tied_heads_are_the_heads_of_the_lists_that_repeat_a_score_near_the_top(project, tmp_path):
    """compare's tie ranges read only the lists where two of the first depth + 1 results
    share a score (scored_heads' tied_only): each as the whole read has it, its tie group
    straddling the depth carried on; a list tied only further down is left out."""
    small_project(project, tmp_path)
    trec = (
        "q1 Q0 p1 1 9 A\nq1 Q0 p2 2 8 A\nq1 Q0 p3 3 8 A\nq1 Q0 p4 4 8 A\n"  # tied over rank 2
        "q2 Q0 p1 1 5 A\nq2 Q0 p2 2 4 A\nq2 Q0 p3 3 3 A\nq2 Q0 p4 4 3 A\n"  # tied at 3 and 4
        "q3 Q0 p1 1 7 A\nq3 Q0 p2 2 7 A\n"  # tied at the top
    )
    project.import_run(write_text(tmp_path / "A.trec", trec), "A")
    (system,) = project.systems()
    every = dict(project.reads.scored_heads(system["pk"], 2))
    tied = dict(project.reads.scored_heads(system["pk"], 2, True))
    keys = {q["id"]: q["pk"] for q in project.questions()}
    assert sorted(tied) == sorted([keys["q1"], keys["q3"]])
    assert all(tied[q] == every[q] for q in tied)
    assert [score for _, score in tied[keys["q1"]]] == [9, 8, 8, 8]
    assert len(every[keys["q2"]]) == 2


def test_max_rank_is_the_deepest_rank_of_any_list(project, tmp_path):
    small_project(project, tmp_path)
    assert project.reads.max_rank() == 0  # no run yet
    project.import_run(write_text(tmp_path / "A.trec", "q1 Q0 p3 1 9 A\nq2 Q0 p1 1 8 A\n"), "A")
    deep = "q2 Q0 p1 1 5 B\nq2 Q0 p2 2 4 B\nq2 Q0 p3 3 3 B\nq1 Q0 p2 1 1 B\n"
    project.import_run(write_text(tmp_path / "B.trec", deep), "B")
    (deepest,) = project.store.conn.execute("SELECT max(rank) FROM result").fetchone()
    assert project.reads.max_rank() == deepest == 3
