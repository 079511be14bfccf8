"""Work held back until the key's frame is painted (issue 23): a judged question's build and
the results applied after it start once the frame that shows the key's effect has been
painted. A zero timer ran them before that paint: Qt posts a window's update request at low
priority, and QTimer.singleShot(0, ...) is a posted event of normal priority."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QLabel

from desktop.ui.after_frame import AfterFrame
from tests.ui.test_ui_pool import pool_of, to_pool
from tests.ui.test_ui_pool_key import hold_builder
from tests.ui.uihelpers import idle


class _Events(QObject):
    """Counts the events of one kind a widget gets."""

    def __init__(self, widget, kind: QEvent.Type):
        super().__init__(widget)
        self.widget, self.kind, self.seen = widget, kind, 0
        widget.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
        if obj is self.widget and event.type() == self.kind:
            self.seen += 1
        return False


class _Paints(QObject):
    """Appends 'paint' to a list at each paint of one widget."""

    def __init__(self, widget, order: list):
        super().__init__()
        self.widget, self.order = widget, order
        widget.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
        if obj is self.widget and event.type() == QEvent.Type.Paint:
            self.order.append("paint")
        return False


def _builds_logged(window, monkeypatch, order: list) -> None:
    builder = window.metrics.builder
    start = builder.start

    def logged(name, *args, **kwargs):
        order.append(name)
        return start(name, *args, **kwargs)

    monkeypatch.setattr(builder, "start", logged)


def test_work_after_the_frame_runs_after_the_paint_asked_for_before_it(qtbot):
    label = QLabel("before")
    qtbot.addWidget(label)
    order: list = []
    paints = _Paints(label, order)
    label.show()
    qtbot.waitUntil(lambda: "paint" in order, timeout=2000)  # its first frame, on exposure
    QApplication.sendPostedEvents()
    order.clear()
    after = AfterFrame()
    label.setText("after")  # asks for a paint
    after(lambda: order.append("first"))
    after(lambda: order.append("second"))
    qtbot.waitUntil(lambda: "second" in order, timeout=2000)
    assert order == ["paint", "first", "second"]
    del paints


def test_a_judged_build_starts_after_the_frame_that_shows_the_key(
    sample_db, open_window, qtbot, monkeypatch
):
    window = open_window(sample_db)
    window.show_question("q03")
    idle(qtbot, window)
    window.select_item(0)
    idle(qtbot, window)
    QApplication.sendPostedEvents()
    order: list = []
    paints = _Paints(window.evidence_panel.table.viewport(), order)
    _builds_logged(window, monkeypatch, order)
    qtbot.keyClick(window, Qt.Key.Key_2)  # supporting: shown at the key
    assert window.session.keyed is not None
    qtbot.waitUntil(lambda: "judged" in order, timeout=3000)
    assert order[0] == "paint", order
    idle(qtbot, window)
    del paints


def test_a_pool_key_build_starts_after_the_frame_that_moves_the_queue_on(
    sample_db, open_window, qtbot, monkeypatch
):
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    entries = pool_of(sample_db, "q05")
    QApplication.sendPostedEvents()
    order: list = []
    paints = _Paints(panel.table.viewport(), order)
    _builds_logged(window, monkeypatch, order)
    qtbot.keyClick(window, Qt.Key.Key_X)
    assert panel.current().passage_id == entries[1].passage_id  # moved on at the key
    qtbot.waitUntil(lambda: "judged" in order, timeout=3000)
    assert order[0] == "paint", order
    idle(qtbot, window)
    del paints


def test_a_pool_key_lays_the_queue_out_before_its_frame(sample_db, open_window, qtbot):
    """The row taken out is laid out in the key's event. Qt's delayed layout of it ran
    inside the key's paint of the queue, and the update that asked for there (an UpdateLater)
    painted the whole queue and its scroll bar again in a second frame."""
    window = open_window(sample_db)
    panel = to_pool(window, qtbot, "q05")
    QApplication.sendPostedEvents()
    later = _Events(panel.table.viewport(), QEvent.Type.UpdateLater)
    release = hold_builder(window)  # no build arrives to paint the queue meanwhile
    try:
        qtbot.keyClick(window, Qt.Key.Key_X)
        for _ in range(5):
            QApplication.sendPostedEvents()
            QApplication.processEvents()
        assert later.seen == 0
    finally:
        release.set()
    idle(qtbot, window)
