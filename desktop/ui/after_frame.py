"""Work held back until the frame already asked for has been painted (issue 23).

A zero timer does not wait for it: Qt delivers QTimer.singleShot(0, ...) as a posted event of
normal priority, and a widget's update() posts the window's update request at low priority,
so the timer's work ran first and the frame was painted after it (a judged question's build
started on its worker took the GIL from the key's painting). An event posted at that same
low priority comes after the update request already posted: after the paint."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt

_AFTER_FRAME = QEvent.Type(QEvent.registerEventType())
_LOW = Qt.EventPriority.LowEventPriority.value  # the update request's (postEvent takes an int)


class AfterFrame(QObject):
    """Runs each work given after the paints asked for before it, in the order given."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._waiting: deque[Callable[[], None]] = deque()

    def __call__(self, work: Callable[[], None]) -> None:
        self._waiting.append(work)
        QCoreApplication.postEvent(self, QEvent(_AFTER_FRAME), _LOW)

    def customEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        if event.type() == _AFTER_FRAME and self._waiting:
            self._waiting.popleft()()
