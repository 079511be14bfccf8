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
