"""Issue 22: a reviewer marked as a machine in the window, after their lines are in: the
Agreement tab's reviewer list checks it, a reviewer-mark line is written through the project,
the pool's "Machine says" suggestions and the reviewer list follow, and Ctrl+Z undoes it."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from desktop.project import Project
from desktop.ui.metrics_dock import AGREEMENT_TAB
from desktop.ui.models.pool import PoolModel
from tests.ui.test_ui_pool import pool_of, to_pool
from tests.ui.test_ui_suggestions import _machine_judges
from tests.ui.uihelpers import idle, logged


def _suggested(panel) -> list[str]:
    return [panel.model.index(r, PoolModel.COL_MACHINE).data() for r in range(2)]


def _item(window, name):
    marks = window.metrics_dock.reviewer_marks
    return next(marks.item(r) for r in range(marks.count()) if marks.item(r).text() == name)


def test_a_reviewer_is_marked_as_a_machine_in_the_agreement_tab(
    sample_db, tmp_path, open_window, qtbot
):
    entries = pool_of(sample_db, "q05")
    first, second = (e.passage_id for e in entries[:2])
    _machine_judges(sample_db, tmp_path, first, second)
    with Project(sample_db) as project:  # gpt imported as a machine, then marked a person
        project.mark_reviewer("gpt", False, at="2026-12-01T09:30:00+09:00")
        assert project.reviewers() == ["gpt"]
    window = open_window(sample_db, reviewer="kim")
    window.metrics_dock.show()
    window.metrics_dock.tabs.setCurrentIndex(AGREEMENT_TAB)
    idle(qtbot, window)
    item = _item(window, "gpt")
    assert item.checkState() == Qt.CheckState.Unchecked
    panel = to_pool(window, qtbot, "q05")
    assert _suggested(panel) == ["", ""]  # a person's lines are no suggestions

    item.setCheckState(Qt.CheckState.Checked)  # as a click on its box does
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=10000)
    idle(qtbot, window)
    mark = logged(sample_db, reviewer="gpt")[-1]
    assert (mark["kind"], mark["question_id"], mark["value"], mark["machine"]) == (
        "machine",
        "",
        True,
        1,
    )
    with Project(sample_db) as project:
        assert (project.reviewers(), project.machine_reviewers()) == ([], ["gpt"])
    assert window.session.machines == ["gpt"]
    assert window.metrics_dock.reviewer_marks.machines() == ["gpt"]
    panel = to_pool(window, qtbot, "q05")
    assert _suggested(panel) == ["gpt: core", "gpt: not evidence"]

    window.act_undo.trigger()  # the mark line undone: the value it replaced (a person)
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=10000)
    idle(qtbot, window)
    assert logged(sample_db, reviewer="gpt")[-1]["value"] is False
    assert window.metrics_dock.reviewer_marks.machines() == []
    assert _item(window, "gpt").checkState() == Qt.CheckState.Unchecked
    panel = to_pool(window, qtbot, "q05")
    assert _suggested(panel) == ["", ""]


def test_checking_a_reviewer_runs_no_statement_on_the_gui_thread(
    sample_db, tmp_path, open_window, qtbot
):
    """The mark it replaces (for undo) is read by the mark's operation on the tasks worker,
    not on the GUI thread when the box is checked; undo still puts that value back."""
    entries = pool_of(sample_db, "q05")
    _machine_judges(sample_db, tmp_path, *(e.passage_id for e in entries[:2]))
    with Project(sample_db) as project:
        project.mark_reviewer("gpt", False, at="2026-12-01T09:30:00+09:00")
    window = open_window(sample_db, reviewer="kim")
    window.metrics_dock.show()
    window.metrics_dock.tabs.setCurrentIndex(AGREEMENT_TAB)
    idle(qtbot, window)
    gui, seen = threading.main_thread(), []
    window.project.store.trace(
        lambda sql: seen.append(sql) if threading.current_thread() is gui else None
    )
    try:
        _item(window, "gpt").setCheckState(Qt.CheckState.Checked)  # as a click on its box
    finally:
        window.project.store.trace(None)
    assert seen == []
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=10000)
    idle(qtbot, window)
    assert logged(sample_db, reviewer="gpt")[-1]["value"] is True
    window.act_undo.trigger()
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=10000)
    idle(qtbot, window)
    assert logged(sample_db, reviewer="gpt")[-1]["value"] is False  # the mark it replaced
