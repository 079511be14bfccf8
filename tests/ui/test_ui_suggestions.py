"""A machine's judgements as suggestions in the pool queue (issue 22): shown beside the
passages it judged, never counted (the passages stay unjudged), and G writes the suggestion
as the reviewer's own lines; blind mode hides them."""

from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.project import Project
from desktop.ui.models.pool import PoolModel
from tests.helpers import write_jsonl
from tests.ui.test_ui_pool import pool_of, to_pool
from tests.ui.uihelpers import idle, logged

AT = "2026-12-01T09:00:00+09:00"


def _machine_judges(db, tmp_path, first: str, second: str) -> None:
    line = {"reviewer": "gpt", "at": AT, "question_id": "q05"}
    lines = [
        {**line, "kind": "evidence", "passage_id": first, "value": True},
        {**line, "kind": "role", "passage_id": first, "value": "core"},
        {**line, "kind": "not_evidence", "passage_id": second, "value": True},
    ]
    with Project(db) as project:
        project.import_judgements(write_jsonl(tmp_path / "gpt.jsonl", lines), machine=True)


def test_g_adopts_the_machines_suggestion(sample_db, tmp_path, open_window, qtbot):
    entries = pool_of(sample_db, "q05")
    first, second, third = (e.passage_id for e in entries[:3])
    _machine_judges(sample_db, tmp_path, first, second)
    assert [e.passage_id for e in pool_of(sample_db, "q05")] == [e.passage_id for e in entries]
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    model = panel.model
    assert not panel.table.isColumnHidden(PoolModel.COL_MACHINE)
    said = [model.index(r, PoolModel.COL_MACHINE).data() for r in range(3)]
    assert said == ["gpt: core", "gpt: not evidence", ""]
    assert panel.current().passage_id == first

    qtbot.keyClick(window, Qt.Key.Key_G)
    idle(qtbot, window)
    mine = [(r["kind"], r["passage_id"], r["value"]) for r in logged(sample_db, reviewer="kim")]
    assert mine == [("evidence", first, True), ("role", first, "core")]
    assert all(not r["machine"] for r in logged(sample_db, reviewer="kim"))
    assert panel.current().passage_id == second
    qtbot.keyClick(window, Qt.Key.Key_G)
    idle(qtbot, window)
    assert logged(sample_db, reviewer="kim")[-1]["kind"] == "not_evidence"
    assert panel.current().passage_id == third
    qtbot.keyClick(window, Qt.Key.Key_G)  # no suggestion here: nothing is written
    idle(qtbot, window)
    assert len(logged(sample_db, reviewer="kim")) == 3


def test_blind_mode_hides_the_suggestions(sample_db, tmp_path, open_window, qtbot):
    entries = pool_of(sample_db, "q05")
    _machine_judges(sample_db, tmp_path, entries[0].passage_id, entries[1].passage_id)
    window = open_window(sample_db)
    window.act_blind.trigger()
    idle(qtbot, window)
    panel = to_pool(window, qtbot, "q05")
    assert panel.table.isColumnHidden(PoolModel.COL_MACHINE)
    assert all(r.suggestion is None for r in panel.model.rows)
    qtbot.keyClick(window, Qt.Key.Key_G)
    idle(qtbot, window)
    assert logged(sample_db, reviewer="kim") == []


def test_the_import_dialog_marks_a_machines_judgements(sample_db, tmp_path, open_window, qtbot):
    from desktop.ui.dialogs import ImportDialog

    window = open_window(sample_db)
    line = {"reviewer": "gpt", "at": AT, "question_id": "q02", "kind": "role"}
    path = write_jsonl(tmp_path / "gpt.jsonl", [{**line, "passage_id": "art-067", "value": "core"}])
    dialog = ImportDialog("judgements", path, True, window)
    assert "machine" not in dialog.options()
    dialog.machine.setChecked(True)
    window.files.start_import("judgements", path, **dialog.options())
    qtbot.waitUntil(lambda: "added 1 judgements" in window.last_message, timeout=10000)
    (row,) = logged(sample_db)
    assert row["reviewer"] == "gpt" and row["machine"] == 1
    with Project(sample_db) as project:
        assert project.machine_reviewers() == ["gpt"] and project.reviewers() == []
    assert ImportDialog("run", path, True, window).machine.isHidden()


def test_the_current_questions_suggestions_come_in_its_view(
    sample_db, tmp_path, open_window, qtbot
):
    """The pool queue shows the machine's verdicts from the question's view (built with its
    gold, from the lines already read): filling the queue runs no statement on the GUI
    thread."""
    from tests.ui.test_ui_keypress_cost import gui_statements

    entries = pool_of(sample_db, "q05")
    _machine_judges(sample_db, tmp_path, entries[0].passage_id, entries[1].passage_id)
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    assert set(window.view.suggestions) == {
        ("q05", entries[0].passage_id),
        ("q05", entries[1].passage_id),
    }
    assert gui_statements(window, qtbot, lambda: panel.show_view(window.view, True)) == []
    said = [panel.model.index(r, PoolModel.COL_MACHINE).data() for r in range(2)]
    assert said == ["gpt: core", "gpt: not evidence"]
