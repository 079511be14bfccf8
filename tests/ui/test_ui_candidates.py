"""Candidate alternatives in the window (issue 21 item 2): on the sample with a planted near
copy of an evidence item elsewhere, selecting the item lists the copy first with the systems
that have it in their top K and the phrases it shares; A accepts it and the metrics dock moves;
H dismisses it for that reviewer only; the pool queue marks it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.ui.models.candidates import CandidateModel
from tests.ui.planted import COPY_ID, ITEM, QUESTION, SYSTEM, planted_sample
from tests.ui.uihelpers import idle, logged, panel_value, read, recall


@pytest.fixture
def planted(tmp_path):
    folder = tmp_path / "planted"
    folder.mkdir()
    return planted_sample(folder)


def item_row(window, primary_id: str) -> int:
    return [i.primary_id for i in window.view.items].index(primary_id)


def listed(window) -> list[str]:
    return [c.passage_id for c in window.evidence_panel.candidates.model.rows]


def candidates_of(window, qtbot, primary_id: str) -> list[str]:
    """Select the item and wait for its candidates to arrive from the worker."""
    window.select_item(item_row(window, primary_id))
    panel = window.evidence_panel.candidates
    qtbot.waitUntil(lambda: panel.model.found is not None, timeout=10000)
    qtbot.waitUntil(
        lambda: panel.model.found.item_id == primary_id and not window.alternatives.worker.busy(),
        timeout=10000,
    )
    return listed(window)


def test_the_items_near_copy_is_listed_first_with_the_systems_that_have_it(
    planted, open_window, qtbot
):
    window = open_window(planted)
    window.show_question(QUESTION)
    assert candidates_of(window, qtbot, ITEM)[0] == COPY_ID
    model = window.evidence_panel.candidates.model
    copy = model.rows[0]
    assert copy.score >= 0.6 and copy.shared  # shared phrases are marked
    assert copy.top_k == ((SYSTEM, 2),)
    note = model.index(0, CandidateModel.COL_CANDIDATE).data()
    assert f"{SYSTEM} (2)" in note and "accepting it changes their scores" in note
    assert "<span style=" in model.index(0, CandidateModel.COL_CANDIDATE).data(model.HtmlRole)
    # An item's own neighbours and the question's other items are never listed.
    assert not {"art-127", "art-129", "art-070"} & set(listed(window))


def test_A_accepts_the_candidate_and_the_metrics_dock_changes(planted, open_window, qtbot):
    window = open_window(planted)
    before = panel_value(window, SYSTEM, "Recall@5")
    window.show_question(QUESTION)
    assert candidates_of(window, qtbot, ITEM)[0] == COPY_ID
    window.evidence_panel.candidates.table.selectRow(0)
    assert window.selected_passage().passage_id == COPY_ID
    assert read(window).passage_pk == window.evidence_panel.candidates.model.rows[0].passage_pk
    qtbot.keyClick(window, Qt.Key.Key_A)
    idle(qtbot, window)
    (line,) = logged(planted, kind="alternative")
    assert (line["passage_id"], line["value"], line["reviewer"]) == (COPY_ID, ITEM, "kim")
    after = panel_value(window, SYSTEM, "Recall@5")
    assert after > before
    assert abs(after - recall(planted, SYSTEM, "Recall@5")) < 1e-12
    # Now an alternative in force: no longer a candidate to decide on.
    qtbot.waitUntil(lambda: not window.alternatives.worker.busy(), timeout=10000)
    assert COPY_ID not in listed(window)


def test_H_dismisses_for_this_reviewer_only(planted, open_window, qtbot):
    window = open_window(planted, reviewer="kim")
    window.show_question(QUESTION)
    assert candidates_of(window, qtbot, ITEM)[0] == COPY_ID
    before = panel_value(window, SYSTEM, "Recall@5")
    window.evidence_panel.candidates.table.selectRow(0)
    qtbot.keyClick(window, Qt.Key.Key_H)
    assert COPY_ID not in listed(window)  # at once
    idle(qtbot, window)
    (line,) = logged(planted, kind="dismissed")
    assert (line["passage_id"], line["value"]) == (COPY_ID, ITEM)
    qtbot.waitUntil(lambda: not window.alternatives.worker.busy(), timeout=10000)
    assert COPY_ID not in listed(window)
    assert window.evidence_panel.candidates.model.found.dismissed == 1
    assert panel_value(window, SYSTEM, "Recall@5") == before  # never the gold
    window.close()
    other = open_window(planted, reviewer="lee")
    other.show_question(QUESTION)
    assert candidates_of(other, qtbot, ITEM)[0] == COPY_ID
    other.close()
    # Undone, it comes back.
    again = open_window(planted, reviewer="kim")
    again.show_question(QUESTION)
    assert COPY_ID not in candidates_of(again, qtbot, ITEM)
    again.act_undo.trigger()
    idle(qtbot, again)
    qtbot.waitUntil(lambda: COPY_ID in listed(again), timeout=10000)


def test_the_pool_queue_marks_the_candidate(planted, open_window, qtbot):
    window = open_window(planted)
    window.show_question(QUESTION)
    qtbot.keyClick(window, Qt.Key.Key_P)
    pool = window.pool_panel
    assert pool.settle()  # its excerpts are read on the queue's worker
    qtbot.waitUntil(lambda: not window.alternatives.worker.busy(), timeout=10000)
    model = pool.model
    rows = {r.passage_id: n for n, r in enumerate(model.rows)}
    assert COPY_ID in rows
    cell = model.index(rows[COPY_ID], model.COL_PASSAGE)
    qtbot.waitUntil(lambda: cell.data() == f"≈ {COPY_ID}", timeout=10000)
    assert ITEM in cell.data(Qt.ItemDataRole.ToolTipRole)
    unmarked = [r for r in model.rows if r.passage_id != COPY_ID]
    assert all(not model.candidate_of(r) for r in unmarked)


def test_candidate_model_under_the_model_tester(planted, qtlog):
    from PySide6.QtTest import QAbstractItemModelTester

    from desktop.project import Project
    from desktop.review.candidates import item_candidates

    with Project(planted) as project:
        question = project.store.question(QUESTION)
        pk = project.store.passage_pks([ITEM])[ITEM]
        found = item_candidates(project, question, (pk, ITEM), [pk], project.systems(), 5, "kim")
    model = CandidateModel()
    tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
    model.set_candidates(found)
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            model.index(row, column).data(model.HtmlRole)
    model.remove(COPY_ID)
    model.set_candidates(None)
    del tester
    failures = [r.message for r in qtlog.records if "FAIL" in r.message or "ASSERT" in r.message]
    assert failures == []


def test_blind_mode_counts_the_systems_without_naming_them(planted, open_window, qtbot):
    window = open_window(planted)
    window.act_blind.trigger()
    assert window.session.blind
    window.show_question(QUESTION)
    assert candidates_of(window, qtbot, ITEM)[0] == COPY_ID
    note = window.evidence_panel.candidates.model.index(0, 0).data()
    assert "In the top 5 of 1 systems" in note and SYSTEM not in note


def test_a_click_picks_a_new_candidate_once_and_the_current_one_again(planted, open_window, qtbot):
    """A click on a new candidate picks it once (it became current: not again for the click);
    a click on the candidate already current picks it again, for the reader to show it."""
    window = open_window(planted)
    window.show_question(QUESTION)
    assert candidates_of(window, qtbot, ITEM)[0] == COPY_ID
    panel = window.evidence_panel.candidates
    picks = []
    panel.candidateChosen.connect(lambda c: picks.append(c.passage_id))
    table = panel.table
    centre = table.visualRect(panel.model.index(0, CandidateModel.COL_CANDIDATE)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert picks == [COPY_ID]
    assert read(window).passage_pk == panel.model.rows[0].passage_pk
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert picks == [COPY_ID, COPY_ID]


def test_questions_passed_over_start_no_candidate_search(
    sample_db, open_window, qtbot, monkeypatch
):
    """A second's search at a million passages: it starts once the reviewer stops on a
    question (the window quiet for a moment), so that it takes no core and no GIL from the
    switches' frames, and not at all for the questions passed over on the way."""
    import threading

    from desktop.ui import candidates

    ran: list[str] = []
    lock = threading.Lock()
    made = candidates.item_op

    def counted(question, *args):
        work = made(question, *args)

        def run(project, progress):
            with lock:
                ran.append(question["id"])
            return work(project, progress)

        return run

    monkeypatch.setattr(candidates, "item_op", counted)
    window = open_window(sample_db)
    idle(qtbot, window)
    ran.clear()
    for question_id in ("q01", "q02", "q03", "q04", "q05"):
        window.show_question(question_id)  # back to back, as a held key
    idle(qtbot, window)
    qtbot.waitUntil(lambda: not window.alternatives.worker.busy(), timeout=10000)
    assert ran == ["q05"]
