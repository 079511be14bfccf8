"""Room to read (long ids never widen the window, the metrics dock hides and stays hidden,
compare mode keeps whole lines of text, the evidence shows its passages) and sharing a
database (a second window is read-only, another program's changes are reloaded, undo stays
with this window's lines, a committed import is never called a no-op, closing during an
operation asks)."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop.project import Project
from desktop.ui import operations
from tests.helpers import write_jsonl
from tests.ui.uihelpers import idle, logged


def test_a_3000_character_id_keeps_the_window_width(project, db_path, open_window, tmp_path):
    long_id = "가" * 1000 + "x" * 2000  # no space anywhere to wrap at
    write_jsonl(tmp_path / "c.jsonl", [{"id": "p" * 3000, "text": "대한민국은 민주공화국이다."}])
    write_jsonl(tmp_path / "q.jsonl", [{"id": long_id, "text": "대한민국은 어떤 나라인가?"}])
    write_jsonl(
        tmp_path / "g.jsonl", [{"question_id": long_id, "evidence": [{"passage_id": "p" * 3000}]}]
    )
    project.import_corpus(tmp_path / "c.jsonl")
    project.import_questions(tmp_path / "q.jsonl")
    project.import_gold(tmp_path / "g.jsonl")
    project.close()
    window = open_window(db_path)
    assert window.current_question_id() == long_id
    for _ in range(3):
        window.repaint_now()
    assert window.width() == 1366
    assert window.minimumSizeHint().width() < 1366
    index = window.evidence_model.index(0, 2)
    assert index.data(Qt.ItemDataRole.ToolTipRole) == "p" * 3000  # the full id on hover
    assert window.question_header.toolTip().startswith(long_id)


def test_the_metrics_dock_hides_from_the_view_menu_and_stays_hidden(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    toggle = window.metrics_dock.toggleViewAction()
    assert toggle.isEnabled() and toggle in window.view_menu.actions()
    assert window.metrics_dock.isVisible()
    reader_before = window.reader.height()
    toggle.trigger()
    assert not window.metrics_dock.isVisible()
    qtbot.waitUntil(lambda: window.reader.height() > reader_before)  # the room goes to text
    window.close()
    again = open_window(sample_db)
    assert not again.metrics_dock.isVisible()
    again.metrics_dock.toggleViewAction().trigger()
    assert again.metrics_dock.isVisible()


def test_compare_mode_at_1440_keeps_30_korean_characters_a_line(sample_db, open_window, qtbot):
    window = open_window(sample_db, size=(1440, 900))
    window.show_question("q05")
    qtbot.keyClick(window, Qt.Key.Key_C)
    window.repaint_now()
    for panel in window.ranking_panels:
        assert panel.isVisible()
        text = panel.table.columnWidth(panel.model.COL_TEXT)
        assert text >= 30 * panel.table.fontMetrics().horizontalAdvance("가")


def test_the_evidence_panel_shows_each_items_passage_text(sample_db, open_window):
    window = open_window(sample_db)
    window.show_question("q03")
    model = window.evidence_model
    with Project(sample_db) as project:
        texts = {
            i.primary_id: project.store.passage(i.primary_id)["text"] for i in window.view.items
        }
    for row, item in enumerate(window.view.items):
        shown = model.index(row, model.col_text).data()
        assert shown and " ".join(texts[item.primary_id].split()).startswith(shown)


def test_a_second_window_on_the_same_database_is_read_only(sample_db, open_window, qtbot):
    first = open_window(sample_db)
    second = open_window(sample_db)
    assert not first.read_only and second.read_only
    assert "another Recall Reviewer window" in second.last_message
    second.message_box.close()
    second.show_question("q01")
    second.select_item(0)
    qtbot.keyClick(second, Qt.Key.Key_1)
    assert logged(sample_db) == []  # nothing written through the read-only window
    # a search result's "add as core" in the read-only window says why nothing happens
    second.statusBar().clearMessage()
    assert not second.gold.add_passage("art-001", "core")
    assert "Read-only" in second.statusBar().currentMessage()
    assert logged(sample_db) == []
    assert not second.act_core.isEnabled() and not second.act_undo.isEnabled()
    first.close()
    third = open_window(sample_db)  # the lock was released with the first window
    assert not third.read_only


def test_another_programs_change_is_reloaded(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q01")
    with Project(sample_db) as other:
        other.add_judgement("lee", "q01", "note", "다른 창에서 쓴 메모")
    qtbot.waitUntil(lambda: "다른 창에서 쓴 메모" in window.evidence_panel.notes_view.text())
    assert "lee" in window.session.reviewers


def test_undo_never_undoes_a_line_written_elsewhere(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q01")
    row = [i.primary_id for i in window.view.items].index("art-128")
    window.select_item(row)
    qtbot.keyClick(window, Qt.Key.Key_1)  # this window's line
    with Project(sample_db) as other:  # the same name, another program
        other.add_judgement("kim", "q02", "answerable", False)
    qtbot.waitUntil(lambda: window.check_changed_elsewhere() is False)
    idle(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.current_question_id() == "q01"  # it undid this window's role line
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    lines = logged(sample_db)
    assert [(r["question_id"], r["kind"], r["value"]) for r in lines] == [
        ("q01", "role", "core"),
        ("q02", "answerable", False),
        ("q01", "role", None),
    ]  # the second Ctrl+Z had nothing of this window's left to undo
    assert not window.session.history.can_undo()


def test_an_import_that_committed_is_never_reported_as_nothing_changed(
    db_path, open_window, qtbot, tmp_path, monkeypatch
):
    window = open_window(db_path)
    write_jsonl(tmp_path / "c.jsonl", [{"id": "p1", "text": "대한민국은 민주공화국이다."}])
    real = operations.import_file

    def commits_then_fails(project, kind, path, options, progress):
        real(project, kind, path, options, progress)
        raise OSError("the disk went away after the commit")

    monkeypatch.setattr(operations, "import_file", commits_then_fails)
    window.files.start_import("corpus", tmp_path / "c.jsonl")
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=10000)
    assert "nothing was changed" not in window.message_box.windowTitle().lower()
    assert "saved" in window.message_box.windowTitle().lower()
    assert "the disk went away" in window.last_message
    assert "Passages: 1" in window.empty.summary.text()  # the window shows the new data


def test_a_failed_import_that_wrote_nothing_says_so(db_path, open_window, qtbot, tmp_path):
    window = open_window(db_path)
    (tmp_path / "bad.jsonl").write_text('{"id": "p1"}\n', encoding="utf-8")
    window.files.start_import("corpus", tmp_path / "bad.jsonl")
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=10000)
    assert window.message_box.windowTitle() == "Nothing was changed"
    assert "bad.jsonl:1" in window.last_message


@pytest.mark.parametrize("answer", [QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes])
def test_closing_during_an_operation_asks_whether_to_cancel(
    sample_db, open_window, qtbot, monkeypatch, answer
):
    window = open_window(sample_db)
    release = threading.Event()

    def slow(project, progress):
        while not release.wait(0.02):
            progress(0, 1)  # raises Cancelled once cancelled
        return operations.Done(None, operations.Changes("import"))

    asked = []
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *args, **kw: asked.append(args) or answer)
    )
    op = window.files.run_with_progress("slow", slow, lambda _result: None, name="import")
    window.close()
    assert len(asked) == 1
    if answer == QMessageBox.StandardButton.No:
        assert window.isVisible() and not op.is_cancelled
        release.set()
        qtbot.waitUntil(lambda: not window.tasks.busy())
    else:
        assert not window.isVisible() and op.is_cancelled


def test_the_progress_dialog_names_the_phase(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    release = threading.Event()

    def phased(project, progress):
        progress(1, 3)  # two arguments stay valid
        progress(2, 3, "building the search index")
        release.wait(10)
        return operations.Done(None, operations.Changes("import"))

    window.files.run_with_progress(
        "Importing c.jsonl…", phased, lambda _result: None, name="import"
    )
    dialog = window.progress_dialog
    qtbot.waitUntil(lambda: "building the search index" in dialog.labelText())
    assert dialog.labelText().startswith("Importing c.jsonl…")
    release.set()
    qtbot.waitUntil(lambda: not window.tasks.busy())


def test_without_a_reviewer_name_a_judging_key_asks_for_it(sample_db, qtbot):
    from desktop.ui.window import MainWindow

    window = MainWindow(sample_db)  # no name given, none in the settings
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # shortcuts reach the active window only
    idle(qtbot, window)
    assert window.pages.currentIndex() == window.PAGE_REVIEW
    assert "reviewer name" in window.statusBar().currentMessage()
    # The judging keys are live, not greyed: the first one asks for the name there and then.
    assert window.act_core.isEnabled() and window.act_next.isEnabled()
    window.select_item(0)
    item = window.selected_item().primary_id
    qtbot.keyClick(window, Qt.Key.Key_1)
    dialog = window.reviewer_dialog
    assert dialog.isVisible() and logged(sample_db) == []  # nothing without a name
    dialog.setTextValue("  ")
    dialog.accept()  # a blank name writes nothing
    assert logged(sample_db) == [] and not window.session.reviewer
    qtbot.keyClick(window, Qt.Key.Key_1)
    window.reviewer_dialog.setTextValue("kim")
    window.reviewer_dialog.accept()  # the judgement the key asked for is kept and written
    lines = logged(sample_db)
    assert [(r["reviewer"], r["kind"], r["passage_id"], r["value"]) for r in lines] == [
        ("kim", "role", item, "core")
    ]
    assert window.session.reviewer == "kim"
    idle(qtbot, window)
