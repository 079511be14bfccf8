"""The evidence column on a question switch (issue 23): the passage text's cells are kept as
pixmaps drawn exactly as Qt's own delegate draws them (kept while the window waits for input,
so that a judgement's repaint copies them instead of wrapping the Korean text again), and the
column is laid out in the switch's event, so that the switch paints it once."""

from __future__ import annotations

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QStyledItemDelegate

from desktop.ui.cells import KeptTextDelegate, keep_shown
from desktop.ui.evidence import TEXT_CHARS_AT_LEAST, TEXT_COLUMNS
from desktop.ui.models import EvidenceModel
from tests.ui.test_ui_repaint import (
    PaintCounter,
    _candidates_arrived,
    _candidates_room,
    _settle,
    _shown,
)


def _hangul(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" for ch in text)


def _with_items(window, least: int = 1, skip: str = "") -> str:
    """Show the first question with at least `least` evidence items (other than `skip`)."""
    for question in window.question_ids():
        if question != skip:
            _shown(window, question)
            if len(window.view.items) >= least:
                return question
    raise AssertionError("no question with evidence items")


def _grab(table):
    table.viewport().update()
    _settle()
    return table.grab().toImage()


def _wait_for_input(ms: int = 150) -> None:
    """The event loop run as a reviewer's window runs while they read: it blocks for input
    (processEvents never does)."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def _with_delegate(table, delegate) -> None:
    for column in TEXT_COLUMNS:
        table.setItemDelegateForColumn(column, delegate)


def test_kept_text_cells_look_as_qts_own_cells(open_window, sample_db):
    """Grabbed with the kept cells (drawn ahead, as when the window waits) and with Qt's own
    delegate drawing them anew: the same pixels, a selected row and unselected ones, Korean
    text, at two column widths."""
    window = open_window(sample_db)
    panel = window.evidence_panel
    table = panel.table
    _with_items(window, least=2)
    assert _hangul(" ".join(panel.model.texts.values()))
    plain = QStyledItemDelegate(table)
    widths = set()
    for width in (1366, 1100):
        window.resize(width, 768)
        _settle()
        widths.add(table.columnWidth(panel.model.col_text))
        table.selectRow(1)
        # A delegate of its own: nothing kept before. Its cells drawn ahead as the table
        # would paint them, before it paints with them.
        panel.text_cells = KeptTextDelegate(EvidenceModel.TextRole, parent=table)
        keep_shown(table, panel.text_cells, panel.model.col_text)
        assert panel.text_cells.drawn == panel.text_cells.kept() >= 2
        _with_delegate(table, panel.text_cells)
        drawn = panel.text_cells.drawn
        kept = _grab(table)
        assert panel.text_cells.drawn == drawn, "copied from the kept pixmaps"
        _with_delegate(table, plain)
        assert kept == _grab(table), width
    _with_delegate(table, panel.text_cells)
    assert len(widths) == 2


def test_a_judgement_repaints_the_evidence_rows_from_cells_kept_while_waiting(
    open_window, sample_db, qtbot
):
    """A question shown, the window waiting for input: its text cells are kept then, and a
    judgement that repaints the table (the item's role changed) lays no text out again;
    neither does the question shown again after another."""
    window = open_window(sample_db)
    panel = window.evidence_panel
    first = _with_items(window, skip=window.session.current_id())  # not painted before
    kept = panel.text_cells.kept()
    _wait_for_input()
    assert panel.text_cells.kept() > kept
    counter = PaintCounter(window)
    drawn = panel.text_cells.drawn
    view = window.session.view
    qtbot.keyClick(panel.table, Qt.Key.Key_2)  # supporting
    qtbot.waitUntil(lambda: window.session.view is not view)
    _settle()
    assert counter.counts.get(panel.table.viewport(), 0) >= 1
    assert panel.text_cells.drawn == drawn
    _with_items(window, skip=first)
    _wait_for_input()
    counter.reset()
    drawn = panel.text_cells.drawn
    _shown(window, first)
    assert counter.counts.get(panel.table.viewport(), 0) >= 1
    assert panel.text_cells.drawn == drawn


def test_a_switch_that_moves_the_column_paints_its_buttons_and_rows_once(open_window, sample_db):
    """A question of another number of items: the table's new height moves the buttons under
    it, and the column may take or lose its scroll bar (a new width for everything in it).
    The disagreements shown or hidden do the same. Everything is laid out before the switch's
    paint, so that each triage button and the table's rows are painted once; left to the
    layout requests, a switch that brought or took the scroll bar painted them all a second
    time at the new width."""
    window = open_window(sample_db, size=(1366, 640))
    panel = window.evidence_panel
    bar = panel.parentWidget().parentWidget().verticalScrollBar()  # the column's scroll area
    ids = window.question_ids()
    _shown(window, ids[0])
    _candidates_arrived(window)
    counter = PaintCounter(window)
    toggled = 0

    for qid in ids[1:] + ids[:1]:
        counter.reset()
        before = bar.isVisible(), _candidates_room(window)
        _shown(window, qid)
        _candidates_arrived(window)
        # A new item's candidates come after the switch's frame: a list of other height may
        # bring or take the scroll bar then, and the column is painted again at that width.
        later = 1 + (_candidates_room(window) != before[1])
        toggled += bar.isVisible() != before[0] and later == 1
        for button in panel.triage.buttons:
            assert counter.counts.get(button, 0) <= later, (qid, button.text())
        assert counter.counts.get(panel.table.viewport(), 0) <= later, qid
    # The scroll bar came or went with the switch itself (the table grew to a question of
    # more items; it keeps that height after, so the sample's switches do it once).
    assert toggled >= 1


def test_the_passage_text_fills_the_table_with_alternatives_shown_or_not(open_window, sample_db):
    """The alternatives' column comes with a question whose items have alternatives and goes
    with the next one: each time the passage text takes exactly the room the other columns
    leave. It kept the width the last question left it: the text's end cut off beside the
    alternatives (423 px of columns in a 390 px table), then empty room beside a narrow text
    on every question after."""
    window = open_window(sample_db)
    table = window.evidence_panel.table
    header = table.horizontalHeader()
    alternatives = window.evidence_panel.model.col_alternatives
    seen = set()
    for qid in window.question_ids():
        _shown(window, qid)
        if not window.view.items:
            continue
        seen.add(table.isColumnHidden(alternatives))
        assert header.length() == table.viewport().width(), qid
    assert seen == {True, False}  # the sample has questions with alternatives, and without
    # A column's edge dragged: the text still takes the room left.
    passage = window.evidence_panel.model.COL_PASSAGE
    header.resizeSection(passage, header.sectionSize(passage) + 30)
    assert header.length() == table.viewport().width()
    # Two systems' columns and the alternatives take most of the width: the text keeps its
    # least (it was left 18 pixels, or run past the table's edge).
    window.set_compare(window.session.systems[1]["name"])
    model = window.evidence_panel.model
    least = table.fontMetrics().averageCharWidth() * TEXT_CHARS_AT_LEAST
    for qid in window.question_ids():
        _shown(window, qid)
        if window.view.items:
            assert header.sectionSize(model.col_text) >= least, qid
