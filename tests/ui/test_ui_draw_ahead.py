"""The next and previous questions' ranking cells are drawn while the window waits for input
(issue 23): the next-question key then only copies kept pixmaps, and its pixels are those
drawn on the spot."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from desktop import review


def _settle(window) -> None:
    window.reader.settle()
    for _ in range(5):
        QApplication.sendPostedEvents()
        QApplication.processEvents()


def _wait_for_input(ms: int = 150) -> None:
    """The event loop run as a reviewer's window runs while they read: it blocks for input
    (processEvents never does, so nothing is drawn ahead in the benches' tight loops)."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def _next_key(window) -> int:
    """The cells the first ranking drew itself for the next-question key."""
    delegate = window.rankings.panels[0].delegate
    before = delegate.drawn
    QTest.keyClick(window, Qt.Key.Key_J)
    _settle(window)
    window.rankings.panels[0].table.viewport().repaint()
    return delegate.drawn - before


def test_the_next_question_key_copies_cells_drawn_while_idle(open_window, sample_db):
    window = open_window(sample_db)
    window.show_question(window.question_ids()[3])
    _settle(window)
    assert _next_key(window) > 0  # no idle moment: drawn on the spot
    for _ in range(3):  # the neighbours looked up, then one drawn each time the loop waits
        _wait_for_input()
    assert _next_key(window) == 0
    window.rankings.panels[0].table.setFocus()  # the current row then shows its focus
    window.show_question(window.question_ids()[3])
    _settle(window)
    for _ in range(3):
        _wait_for_input()
    assert _next_key(window) == 0


def test_cells_drawn_ahead_look_as_cells_drawn_on_the_spot(open_window, sample_db):
    window = open_window(sample_db)
    ids = window.question_ids()
    window.show_question(ids[5])
    _settle(window)
    for _ in range(4):
        _wait_for_input()
    QTest.keyClick(window, Qt.Key.Key_J)
    _settle(window)
    table = window.rankings.panels[0].table
    ahead = table.viewport().grab().toImage()
    window.rankings.panels[0].delegate.DRAWN_BYTES = 0  # nothing kept: each cell drawn
    window.show_question(ids[5])
    _settle(window)
    window.show_question(ids[6])
    _settle(window)
    assert table.viewport().grab().toImage() == ahead


def test_nothing_is_drawn_ahead_past_the_last_question(open_window, sample_db):
    window = open_window(sample_db)
    order = window.question_panel.order()
    window.show_question(window.session.by_pk[order[-1]]["id"])
    _settle(window)
    assert window.rankings.neighbours() == [order[-2]]


def _read_ahead(window) -> tuple:
    """The fourth question shown and the window left waiting until its next neighbour's view
    was read and drawn (one step a wait): that neighbour and the view kept for it."""
    window.show_question(window.question_ids()[3])
    _settle(window)
    for _ in range(4):
        _wait_for_input()
    following = window.rankings.neighbours()[0]
    return following, window.session._ahead[following][2]


def test_the_next_question_key_takes_the_view_read_ahead(open_window, sample_db):
    """The view the worker read to draw the next question's cells is the one the key shows:
    not built again on the GUI thread (the switch's biggest Python step after the cells)."""
    window = open_window(sample_db)
    following, ahead = _read_ahead(window)
    QTest.keyClick(window, Qt.Key.Key_J)
    _settle(window)
    assert window.session.current_pk == following and window.session.view is ahead
    fresh = window.session.view_of(window.session.question(), window.session.shown_systems())
    assert fresh == ahead  # exactly what the switch would have built


def test_a_view_read_ahead_is_dropped_once_anything_is_written(open_window, sample_db):
    """A judgement written after the neighbour was read (here on that neighbour, as a merge
    or an undo could) makes the key build the view anew: the judgement shows."""
    window = open_window(sample_db)
    following, ahead = _read_ahead(window)
    passage = ahead.rankings[window.session.system_name][0].passage_id
    window.session.project.add_judgement_lines(
        window.session.reviewer,
        [
            {
                "kind": "not_evidence",
                "value": True,
                "passage_id": passage,
                "question_id": window.session.by_pk[following]["id"],
            }
        ],
    )
    QTest.keyClick(window, Qt.Key.Key_J)
    _settle(window)
    assert window.session.current_pk == following and window.session.view is not ahead
    assert window.session.view.mine.get(("not_evidence", passage)) is True


def test_a_view_read_ahead_with_other_arguments_is_not_taken(open_window, sample_db):
    """The metrics pass can bring a new list of reviewers (set_overview) after the neighbour
    was read, with nothing written since and no other view shown: the key builds anew."""
    window = open_window(sample_db)
    following, ahead = _read_ahead(window)
    window.session.reviewers = [*window.session.reviewers, "someone new"]
    QTest.keyClick(window, Qt.Key.Key_J)
    _settle(window)
    assert window.session.current_pk == following and window.session.view is not ahead


def test_the_next_question_key_shows_its_first_passage_read_and_laid_out_ahead(
    open_window, sample_db
):
    """The reader's passage for the next question (its rank 1) was read with its view and
    laid out while the window waited: the key shows it in its own event, with no worker round
    trip, and the reader looks as when that passage is read on the spot."""
    window = open_window(sample_db)
    following, ahead = _read_ahead(window)
    reader = window.reader
    first = ahead.rankings[window.session.system_name][0].passage_pk
    assert reader.laid_out_ahead
    QTest.keyClick(window, Qt.Key.Key_J)
    assert window.session.current_pk == following
    assert not reader.pending and reader.passage_pk == first  # shown in the key's event
    assert not reader.laid_out_ahead  # the document laid out ahead is the one shown
    _settle(window)
    shown = reader.viewer.viewport().grab().toImage()
    reader.forget_ahead()
    window.session.view.opening = None  # read on the worker this time, laid out on the spot
    reader.show_passage(ahead.rankings[window.session.system_name][1].passage_pk)
    assert reader.settle()
    reader.show_passage(first)
    assert reader.pending and reader.settle()
    _settle(window)
    assert reader.viewer.viewport().grab().toImage() == shown


def test_any_switch_shows_the_passage_its_question_opens_on_in_the_switch_itself(
    open_window, sample_db
):
    """A question not read ahead (a jump in the list) has its opening passage, rank 1 of the
    system shown, read with its view: the reader shows it in the switch's event, as the
    worker would have read it. A passage picked elsewhere is read on the worker."""
    window = open_window(sample_db)
    reader = window.reader
    for qid in ("q09", "q02", "q07"):
        window.show_question(qid)
        view = window.session.view
        first = view.rankings[window.session.system_name][0]
        assert not reader.pending and reader.passage_pk == first.passage_pk
        assert view.opening == review.reading(
            window.session.project, first.passage_pk, review.reading_items(view)
        )
    window.select_passage(2)
    assert reader.pending and reader.settle()
    assert (
        reader.passage_pk == window.session.view.rankings[window.session.system_name][2].passage_pk
    )


def _evidence_next_key(window) -> tuple[int, object]:
    """The evidence text cells drawn on the spot for the next-question key, and the table's
    pixels after it."""
    cells = window.evidence_panel.text_cells
    before = cells.drawn
    QTest.keyClick(window, Qt.Key.Key_J)
    _settle(window)
    viewport = window.evidence_panel.table.viewport()
    viewport.repaint()
    return cells.drawn - before, viewport.grab().toImage()


def test_the_evidence_text_cells_of_the_next_question_are_drawn_while_idle(open_window, sample_db):
    """The next question's passage text cells in the evidence table are drawn while the window
    waits, with its rankings': the key copies them, and they look as drawn on the spot."""
    window = open_window(sample_db)
    ids = window.question_ids()
    window.show_question(ids[3])
    _settle(window)
    drawn, spot = _evidence_next_key(window)  # no idle moment: drawn on the spot
    assert drawn > 0
    window.show_question(ids[3])
    _settle(window)
    for _ in range(4):
        _wait_for_input()
    drawn, ahead = _evidence_next_key(window)
    assert drawn == 0 and ahead == spot


@pytest.mark.parametrize("start", [6, 7], ids=["alternatives-come", "alternatives-go"])
def test_the_evidence_text_cells_drawn_ahead_take_the_width_the_next_question_gives_them(
    open_window, sample_db, start
):
    """The sample's q08 has alternatives, q07 and q09 have none: the next question's text
    column is narrower (or wider) than this one's, and its cells are drawn ahead at that
    width, without dropping the cells on screen at this one."""
    window = open_window(sample_db)
    ids = window.question_ids()
    window.show_question(ids[start])
    _settle(window)
    shown = window.evidence_panel.table.columnWidth(window.evidence_panel.model.col_text)
    drawn, spot = _evidence_next_key(window)
    after = window.evidence_panel.table.columnWidth(window.evidence_panel.model.col_text)
    assert drawn > 0 and after != shown  # the text's width changed with the alternatives
    window.show_question(ids[start])
    _settle(window)
    for _ in range(4):
        _wait_for_input()
    kept = window.evidence_panel.text_cells.drawn
    window.evidence_panel.table.viewport().repaint()
    assert window.evidence_panel.text_cells.drawn == kept  # this question's cells still kept
    drawn, ahead = _evidence_next_key(window)
    assert drawn == 0 and ahead == spot
