"""The real window, offscreen: loading, navigating, triage by key, undo across a restart,
compare mode, the passage viewer, corpus search, layout memory."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from desktop.project import Project
from desktop.ui.models import EvidenceModel, QuestionListModel
from desktop.ui.window import MainWindow
from tests.ui.uihelpers import idle, logged, panel_value, read, recall


def item_row(window: MainWindow, primary_id: str) -> int:
    ids = [i.primary_id for i in window.view.items]
    return ids.index(primary_id)


def test_empty_database_offers_the_sample_and_loads_it(db_path, open_window, qtbot):
    window = open_window(db_path)
    assert window.pages.currentIndex() == MainWindow.PAGE_EMPTY
    assert "Passages: 0" in window.empty.summary.text()
    qtbot.mouseClick(window.empty.sample, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.pages.currentIndex() == MainWindow.PAGE_REVIEW, timeout=20000)
    idle(qtbot, window)
    assert len(window.session.questions) == 33
    assert window.current_question_id() == "q01"
    assert window.ranking_panels[0].model.rowCount() == 5  # K = 5
    assert window.question_model.rowCount() == 33
    assert window.metrics_model.rowCount() == 3
    # The list's found/total column is filled by the worker: q01 finds 1 of 2 at K = 5.
    row = window.question_model.row_of(window.session.by_id["q01"]["pk"])
    found = window.question_model.index(row, QuestionListModel.COL_FOUND).data()
    assert found == "1/2"


def test_navigation_keys(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    assert window.current_question_id() == "q01"
    qtbot.keyClick(window, Qt.Key.Key_J)
    idle(qtbot, window)
    assert window.current_question_id() == "q02"
    qtbot.keyClick(window, Qt.Key.Key_J)
    idle(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_K)
    idle(qtbot, window)
    assert window.current_question_id() == "q02"
    # The list follows the shown question.
    current = window.question_panel.table.currentIndex()
    assert window.question_model.pk_at(current.row()) == window.session.by_id["q02"]["pk"]
    # q02 has no miss at K = 5 for BM25-Kiwi: M goes to q03, whose first item is missed.
    qtbot.keyClick(window, Qt.Key.Key_M)
    idle(qtbot, window)
    assert window.current_question_id() == "q03"
    assert window.selected_item().primary_id == "art-071"
    # M again: q03's other item is found at rank 4, so on to the next question with a miss
    # (q04: art-111 is found only at rank 13), selecting that miss.
    qtbot.keyClick(window, Qt.Key.Key_M)
    idle(qtbot, window)
    assert window.current_question_id() == "q04"
    assert window.selected_item().primary_id == "art-111"


def test_triage_keys_write_committed_lines(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q03")
    window.select_item(item_row(window, "art-071"))
    qtbot.keyClick(window, Qt.Key.Key_2)
    idle(qtbot, window)
    lines = logged(sample_db, kind="role")
    assert [(r["reviewer"], r["question_id"], r["passage_id"], r["value"]) for r in lines] == [
        ("kim", "q03", "art-071", "supporting")
    ]
    # Shown at once, with the single-reviewer marking.
    row = item_row(window, "art-071")
    role = window.evidence_model.index(row, EvidenceModel.COL_ROLE).data()
    assert role == "supporting (single)"

    # A: accept the rank-1 passage as an alternative for the missed item.
    window.select_item(row)
    window.select_passage(0)
    passage = window.selected_passage()
    assert not passage.items  # not evidence before
    qtbot.keyClick(window, Qt.Key.Key_A)
    idle(qtbot, window)
    (alt,) = logged(sample_db, kind="alternative")
    assert (alt["passage_id"], alt["value"]) == (passage.passage_id, "art-071")
    assert window.ranking_panels[0].model.mark(window.ranking_panels[0].model.row(0)) == "◐"

    # X on another retrieved passage, then Y and B for the question.
    window.select_passage(1)
    other = window.selected_passage()
    qtbot.keyClick(window, Qt.Key.Key_X)
    idle(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_Y)
    idle(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_B)
    idle(qtbot, window)
    kinds = [(r["kind"], r["passage_id"], r["value"]) for r in logged(sample_db)]
    assert kinds[-3:] == [
        ("not_evidence", other.passage_id, True),
        ("answerable", "", True),
        ("answerable", "", False),
    ]
    assert "to abstain on" in window.question_header.text()
    idle(qtbot, window)
    summary = window.question_model.summary(window.session.by_id["q03"]["pk"])
    assert summary.answerable is False


def test_alternative_moves_the_metrics_panel(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    before = panel_value(window, "BM25-Kiwi", "Recall@5")
    assert before == recall(sample_db, "BM25-Kiwi", "Recall@5")
    window.show_question("q03")
    window.select_item(item_row(window, "art-071"))
    window.select_passage(0)
    qtbot.keyClick(window, Qt.Key.Key_A)
    assert window.metrics_busy()  # recomputed in a worker, not on the GUI thread
    idle(qtbot, window)
    after = panel_value(window, "BM25-Kiwi", "Recall@5")
    assert after > before
    assert abs(after - recall(sample_db, "BM25-Kiwi", "Recall@5")) < 1e-12
    curve = window.metrics_dock.curve.curves["BM25-Kiwi"]
    with Project(sample_db) as project:
        expected = project.recall_curves()["BM25-Kiwi"]
    assert all(abs(a - b) < 1e-12 for a, b in zip(curve, expected, strict=True))


def test_undo_and_redo_survive_a_restart(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q01")
    window.select_item(item_row(window, "art-128"))
    qtbot.keyClick(window, Qt.Key.Key_1)
    idle(qtbot, window)
    assert window.view.items[item_row(window, "art-128")].role == "core"
    window.show_question("q05")
    window.close()

    again = open_window(sample_db)
    assert again.current_question_id() == "q05"  # the last question is restored
    qtbot.keyClick(again, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, again)
    assert again.current_question_id() == "q01"  # undo goes to where the change was
    lines = logged(sample_db, kind="role", passage_id="art-128")
    assert [r["value"] for r in lines] == ["core", None]  # appended, nothing deleted
    assert again.view.items[item_row(again, "art-128")].role == "supporting"  # imported
    qtbot.keyClick(
        again,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    idle(qtbot, again)
    lines = logged(sample_db, kind="role", passage_id="art-128")
    assert [r["value"] for r in lines] == ["core", None, "core"]
    assert again.view.items[item_row(again, "art-128")].role == "core"
    # Undo twice across the restart: the redo put core back; undoing it withdraws again.
    qtbot.keyClick(again, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, again)
    assert [r["value"] for r in logged(sample_db, kind="role")] == ["core", None, "core", None]
    assert not again.session.history.can_undo()


def test_compare_mode_shows_both_systems_and_what_only_one_finds(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q05")
    qtbot.keyClick(window, Qt.Key.Key_C)
    idle(qtbot, window)
    assert window.session.compare_name == "BM25-Bigram"
    assert window.ranking_panels[1].isVisible()
    assert window.ranking_panels[1].model.rowCount() == 5
    model = window.evidence_model
    assert model.columnCount() == EvidenceModel.COL_FIRST_SYSTEM + 2 + 2  # alternatives, text
    assert model.headerData(3, Qt.Orientation.Horizontal) == "BM25-Kiwi"
    assert model.headerData(4, Qt.Orientation.Horizontal) == "BM25-Bigram"
    # art-084: BM25-Kiwi never retrieves it, BM25-Bigram has it at rank 1.
    index = model.index(0, EvidenceModel.COL_FIRST_SYSTEM)
    assert index.data(EvidenceModel.ContrastRole) is True
    assert index.data() == "missed (not retrieved)"
    # ◆: no system at all (RRF included) finds it in its top 5 but BM25-Bigram.
    assert model.index(0, EvidenceModel.COL_FIRST_SYSTEM + 1).data() == "found at 1 ◆"
    assert "Only BM25-Bigram" in model.index(0, 4).data(Qt.ItemDataRole.ToolTipRole)
    # An item both find is not marked.
    window.show_question("q02")
    assert window.evidence_model.index(0, 3).data(EvidenceModel.ContrastRole) is False
    qtbot.keyClick(window, Qt.Key.Key_C)
    idle(qtbot, window)
    assert window.session.compare_name is None
    assert not window.ranking_panels[1].isVisible()


def test_k_chooser_and_missed_but_found_later(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q01")
    row = item_row(window, "art-128")
    status = window.evidence_model.index(row, EvidenceModel.COL_FIRST_SYSTEM).data()
    assert status == "missed (found at 8)"  # a larger K would recover it
    window.toolbar.k_box.setCurrentText("10")
    window.toolbar.k_box.lineEdit().editingFinished.emit()
    assert window.session.k == 10
    assert window.ranking_panels[0].model.rowCount() == 10
    status = window.evidence_model.index(row, EvidenceModel.COL_FIRST_SYSTEM).data()
    assert status == "found at 8"
    window.toolbar.k_box.setCurrentText("7")
    window.toolbar.k_box.lineEdit().editingFinished.emit()
    assert window.ranking_panels[0].model.rowCount() == 7
    idle(qtbot, window)
    assert "Recall@7" in window.session.board.labels
    assert abs(panel_value(window, "RRF", "Recall@7") - _evaluate(sample_db, 7)) < 1e-12


def _evaluate(db_path, k):
    with Project(db_path) as project:
        (scores,) = project.evaluate([k], systems=["RRF"]).systems
    return scores.means[f"Recall@{k}"]


def test_passage_viewer_shows_the_whole_passage_and_its_neighbours(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q02")
    window.select_passage(0)
    text = read(window).viewer.toPlainText()
    with Project(sample_db) as project:
        passage = project.store.passage("art-067")
    assert passage["text"].split("\n")[0] in text
    assert "art-066" in text and "art-068" in text  # neighbours in corpus order
    assert "background" in window.reader.viewer.toHtml().lower()  # question terms are marked


def test_corpus_search_adds_an_alternative(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q03")
    window.select_item(item_row(window, "art-071"))
    qtbot.keyClick(window, Qt.Key.Key_S)
    idle(qtbot, window)
    dialog = window.search
    assert dialog.isVisible()
    dialog.box.setText("국무총리")  # four syllables: the full-text index
    dialog.box.flush()
    qtbot.waitUntil(lambda: dialog.model.rowCount() > 0, timeout=10000)
    ids = [dialog.model.passage(r)["id"] for r in range(dialog.model.rowCount())]
    assert "art-071" in ids
    other = next(i for i in ids if i not in ("art-068", "art-071"))
    # A two-syllable word goes through the LIKE fallback.
    dialog.box.setText("궐위")
    dialog.box.flush()
    qtbot.waitUntil(lambda: dialog.model.rowCount() == 2, timeout=10000)
    ids = [dialog.model.passage(r)["id"] for r in range(dialog.model.rowCount())]
    assert sorted(ids) == ["art-068", "art-071"]
    dialog.table.selectRow(ids.index("art-068"))
    dialog.target.setCurrentIndex(item_row(window, "art-071"))
    # art-068 is itself an evidence item of q03: refused, nothing written.
    assert dialog.add_selected() is False
    assert logged(sample_db) == []
    dialog.box.setText("국무총리")
    dialog.box.flush()
    qtbot.waitUntil(lambda: dialog.model.rowCount() > 2, timeout=10000)
    ids = [dialog.model.passage(r)["id"] for r in range(dialog.model.rowCount())]
    dialog.table.selectRow(ids.index(other))
    assert dialog.add_selected() is True
    idle(qtbot, window)
    (line,) = logged(sample_db, kind="alternative")
    assert (line["passage_id"], line["value"]) == (other, "art-071")
    assert other in window.evidence_model.index(item_row(window, "art-071"), 4).data()
    dialog.close()


def test_shortcut_sheet_lists_the_keys(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    idle(qtbot, window)
    sheet = window.menus.shortcut_sheet
    assert sheet.isVisible()
    keys = [sheet.table.item(r, 0).text() for r in range(sheet.table.rowCount())]
    assert "1" in keys and "2" in keys and "A" in keys and "M" in keys
    assert any("?" in k for k in keys)
    sheet.close()


def test_layout_and_last_question_are_restored(sample_db, open_window, qtbot):
    window = open_window(sample_db, size=(1200, 700))
    qtbot.waitUntil(lambda: window.size().width() == 1200)
    window.show_question("q07")
    window.set_system("RRF")
    window.main_split.setSizes([300, 500, 380])
    sizes = window.main_split.sizes()
    window.close()
    saved = window.settings.value("window/geometry")
    again = open_window(sample_db, size=(1200, 700))
    assert again.current_question_id() == "q07"
    assert again.session.system_name == "RRF"
    assert again.main_split.sizes() == sizes
    # The offscreen screen is 800 px wide, so restoreGeometry clamps what it restores; the
    # saved geometry itself is what the window wrote.
    assert again.settings.value("window/geometry") == saved


def test_judgement_counts_even_if_the_window_dies_right_after(sample_db, open_window, qtbot):
    """Committed before it is shown: a second connection sees it while the window lives."""
    window = open_window(sample_db)
    window.show_question("q01")
    window.select_item(item_row(window, "art-128"))
    qtbot.keyClick(window, Qt.Key.Key_1)
    idle(qtbot, window)
    with Project(sample_db) as other:
        assert [j["value"] for j in other.store.judgements()] == ['"core"']
    QApplication.processEvents()


def test_notes_on_a_miss_and_on_the_question(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q01")
    window.select_item(item_row(window, "art-128"))  # missed at K = 5: a miss note
    qtbot.keyClick(window, Qt.Key.Key_N)
    idle(qtbot, window)
    dialog = window.note_dialog
    assert dialog.isVisible()
    dialog.editor.setPlainText("8위에 있음: K = 10이면 찾음")
    dialog.accept()
    idle(qtbot, window)
    (note,) = logged(sample_db, kind="note")
    assert (note["passage_id"], note["system"], note["value"]) == (
        "art-128",
        "BM25-Kiwi",
        "8위에 있음: K = 10이면 찾음",
    )
    assert "8위에 있음" in window.evidence_panel.notes_view.text()
    # On a found item the note goes on the question.
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.select_item(item_row(window, "art-070"))
    window.ranking_panels[0].table.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_N)
    idle(qtbot, window)
    window.note_dialog.editor.setPlainText("다시 볼 것")
    window.note_dialog.accept()
    idle(qtbot, window)
    notes = logged(sample_db, kind="note")
    assert (notes[-1]["passage_id"], notes[-1]["value"]) == ("", "다시 볼 것")
    # Emptying your note withdraws it (a null line; nothing deleted).
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_N)
    idle(qtbot, window)
    assert window.note_dialog.editor.toPlainText() == "다시 볼 것"
    window.note_dialog.editor.setPlainText("")
    window.note_dialog.accept()
    idle(qtbot, window)
    assert [n["value"] for n in logged(sample_db, kind="note")][-1] is None
    assert "다시 볼 것" not in window.evidence_panel.notes_view.text()


def test_sorting_by_a_header_click_keeps_the_question_selected(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    window.show_question("q05")
    header = window.question_panel.table.horizontalHeader()
    x = header.sectionViewportPosition(QuestionListModel.COL_ID) + 5
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    model = window.question_model
    assert window.session.by_pk[model.pk_at(0)]["id"] == "q33"  # descending now
    current = window.question_panel.table.currentIndex()
    assert window.session.by_pk[model.pk_at(current.row())]["id"] == "q05"
    assert window.current_question_id() == "q05"


def test_triage_buttons_keep_their_short_labels_after_a_reload(open_window, sample_db):
    """Enabling the actions after a load must not put their long menu text on the buttons."""
    from PySide6.QtWidgets import QToolButton

    window = open_window(sample_db)
    # What an import does: triage is switched off while it runs, then on again.
    window._set_triage_enabled(False)
    window._set_triage_enabled(True)
    buttons = [b for b in window.findChildren(QToolButton) if b.defaultAction() is window.act_core]
    assert buttons and buttons[0].text().startswith("1 ")
    assert buttons[0].text() != window.act_core.text()


def test_corpus_search_waits_for_the_hangul_commit_and_says_the_total(
    sample_db, open_window, qtbot
):
    from PySide6.QtGui import QInputMethodEvent

    window = open_window(sample_db)
    window.show_question("q03")
    qtbot.keyClick(window, Qt.Key.Key_S)
    idle(qtbot, window)
    dialog = window.search
    dialog.box.setFocus()
    started = []
    window.queries.changed.connect(lambda: started.append(window.queries.busy()))
    for preedit in ("ㄱ", "구", "국"):  # a syllable still being composed
        QApplication.sendEvent(dialog.box, QInputMethodEvent(preedit, []))
    qtbot.wait(500)  # longer than the debounce
    assert dialog.box.text() == "" and not dialog.box.pending() and started == []
    commit = QInputMethodEvent()
    commit.setCommitString("국무총리")
    QApplication.sendEvent(dialog.box, commit)
    qtbot.waitUntil(lambda: dialog.model.rowCount() > 0, timeout=10000)
    with Project(sample_db) as project:
        total = project.search("국무총리").total
    assert dialog.model.total == total
    assert dialog.status.text() in (f"{total:,} passages", f"{total:,}개 문단")


def test_the_first_run_shares_the_columns_out_once_the_sample_is_loaded(
    db_path, open_window, qtbot
):
    """A first run opens on the welcome page, where the columns are hidden: they are shared
    out (a fifth, a half, three tenths) when the review page first shows them, not when the
    window did (the evidence column then came as a sliver, its passage text unreadable)."""
    window = open_window(db_path, size=(1256, 710))
    assert window.pages.currentIndex() == window.PAGE_EMPTY
    window.files.load_sample()
    qtbot.waitUntil(lambda: window.pages.currentIndex() == window.PAGE_REVIEW, timeout=30000)
    idle(qtbot, window)
    qtbot.wait(50)  # the layout's zero timer
    sizes = window.main_split.sizes()
    # The question column keeps its minimum width (its filters), taken from the others.
    assert sizes[0] == max(window.main_split.widget(0).minimumSizeHint().width(), 1256 // 5)
    assert sizes[2] >= 0.27 * sum(sizes) and sizes[1] >= 0.45 * sum(sizes), sizes
