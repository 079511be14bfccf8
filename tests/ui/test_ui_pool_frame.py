"""A pool key within a frame (issue 23): the key's frame draws none of the queue's text
cells. The rows under the judged one move up (each with the other alternate colour, the next
one selected); their cells were drawn ahead, as they look after the key, once the queue was
painted, and the frame only copies them, with the pixels cells drawn on the spot have."""

from __future__ import annotations

import threading

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication

from desktop.ui.models.pool import PoolModel
from tests.ui.test_ui_pool import to_pool
from tests.ui.uihelpers import idle


def _delegate(window):
    return window.pool_panel.table.itemDelegateForColumn(PoolModel.COL_TEXT)


def _after_the_queue_was_painted(window, qtbot) -> None:
    """The window between two keys: the queue painted, then the event loop run on."""
    idle(qtbot, window)
    QApplication.sendPostedEvents()
    qtbot.waitUntil(lambda: not window.pool_panel.after_key.pending, timeout=3000)


def _key_frame(window, qtbot, key) -> int:
    """The cells the queue's delegate drew itself for the key's frame (its posted paints and
    a repaint of every visible row; no timer runs, so nothing is drawn ahead meanwhile)."""
    delegate = _delegate(window)
    before = delegate.drawn
    qtbot.keyClick(window, key)
    window.repaint_now()
    window.pool_panel.table.viewport().repaint()
    return delegate.drawn - before


def test_a_pool_key_frame_copies_the_cells_drawn_ahead(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    assert len(panel.model.rows) > 3
    for key in (Qt.Key.Key_X, Qt.Key.Key_E, Qt.Key.Key_X):
        _after_the_queue_was_painted(window, qtbot)
        moved = panel.current()
        assert _key_frame(window, qtbot, key) == 0
        assert panel.current() != moved  # the queue moved at the key
        idle(qtbot, window)


def test_cells_drawn_ahead_look_as_cells_drawn_on_the_spot(sample_db, open_window, qtbot):
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    _after_the_queue_was_painted(window, qtbot)
    assert _key_frame(window, qtbot, Qt.Key.Key_X) == 0
    viewport = panel.table.viewport()
    ahead = viewport.grab().toImage()
    # Two other widths and back: the delegate keeps the cells of two widths only, so every
    # cell is drawn anew.
    width = window.width()
    for wider in (40, 80):
        window.resize(width + wider, window.height())
        window.repaint_now()
    delegate = _delegate(window)
    before = delegate.drawn
    window.resize(width, window.height())
    window.repaint_now()
    assert viewport.grab().toImage() == ahead
    assert delegate.drawn > before  # drawn anew at this width, not copied


def test_nothing_is_drawn_ahead_behind_the_rankings(sample_db, open_window, qtbot):
    """The queue hidden behind the rankings draws nothing: the keys act on the rankings."""
    window = open_window(sample_db)
    window.show_question("q05")
    idle(qtbot, window)
    delegate = _delegate(window)
    before = delegate.drawn
    window.pool_panel.after_key.draw()
    assert delegate.drawn == before


def test_a_question_rebuild_does_not_cancel_the_read_ahead(sample_db, open_window, qtbot):
    """The rankings share the reading worker and cancel their own reads ahead (the next
    questions' views) at each rebuild of the question: the reader's read ahead goes on."""
    window = open_window(sample_db)
    to_pool(window, qtbot, "q05")
    reader = window.reader
    qtbot.waitUntil(lambda: reader.laid_out_ahead, timeout=3000)
    release = threading.Event()
    window.reading.start("held", lambda _project, _progress: release.wait(20))
    try:
        qtbot.keyClick(window, Qt.Key.Key_X)
        qtbot.waitUntil(lambda: len(window.reading.operations) == 2, timeout=3000)
        window.reading.cancel("ahead")  # what the rankings do when the build comes back
    finally:
        release.set()
    qtbot.waitUntil(lambda: reader.laid_out_ahead, timeout=3000)


def test_the_cells_are_drawn_ahead_one_a_pass(sample_db, open_window, qtbot):
    """A cell each pass of the event loop: a key or the reader's passage coming meanwhile
    waits for one cell at most, not for the queue's worth."""
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    _after_the_queue_was_painted(window, qtbot)
    width = window.width()  # another width: nothing drawn is kept for it
    window.resize(width + 40, window.height())
    for _ in range(3):  # painted at that width (the cells shown, drawn on the spot)
        QApplication.sendPostedEvents()
        QApplication.processEvents()
    assert not panel.after_key.pending
    delegate = _delegate(window)
    before = delegate.drawn
    panel.after_key.schedule()
    QApplication.processEvents()
    assert delegate.drawn - before <= 1 and panel.after_key.pending
    qtbot.waitUntil(lambda: not panel.after_key.pending, timeout=3000)
    assert delegate.drawn - before > 1


class _LayoutRequests(QObject):
    def __init__(self, widget):
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, _watched, event):  # noqa: N802 (Qt's name)
        self.count += event.type() == QEvent.Type.LayoutRequest
        return False


def test_a_pool_key_lays_out_nothing_of_the_queue_but_its_title(sample_db, open_window, qtbot):
    """The queue's title counts what is left: its new text is measured in its slot, and the
    panel, its table and the tab's pages are not laid out again (the panel was, each key)."""
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    _after_the_queue_was_painted(window, qtbot)
    requests = _LayoutRequests(panel)
    for key in (Qt.Key.Key_X, Qt.Key.Key_E, Qt.Key.Key_X):
        title, view = panel.title.text(), window.session.view
        qtbot.keyClick(window, key)
        qtbot.waitUntil(lambda v=view: window.session.view is not v and not window.session.keyed)
        _after_the_queue_was_painted(window, qtbot)
        assert panel.title.text() != title
    assert requests.count == 0
