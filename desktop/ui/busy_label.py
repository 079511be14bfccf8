"""The status bar's word that the metrics are being brought up to date."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QLabel

SHOWN_AFTER_MS = 400  # a judgement's scores come sooner: no word flashes and goes each key


def _busy_text() -> str:
    # Translated under MainWindow, where the window said it before this label had a class.
    return QCoreApplication.translate("MainWindow", "Updating metrics…")


class MetricsBusyLabel(QLabel):
    """Says "Updating metrics…" while the metrics take longer than a moment to come.

    Its text never changes, so neither does its size: a label that was given a new text (or
    none) asked the status bar, and through it the window, for a new layout, and the window
    repainted its status bar and the edges between its docks each time the metrics started
    and stopped, twice a judgement. The text is drawn or not (one repaint of the label), and
    only once the metrics have been busy for SHOWN_AFTER_MS: the scores of one judged
    question usually come before, and the key then repaints none of the status bar for it."""

    def __init__(self, parent=None):
        super().__init__(_busy_text(), parent)
        self.setMinimumSize(self.sizeHint())
        self.shown = False  # the text is drawn
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(SHOWN_AFTER_MS)
        self._later.timeout.connect(lambda: self._show(True))

    def show_busy(self, busy: bool) -> None:
        if not busy:
            self._later.stop()
            self._show(False)
        elif not self.shown and not self._later.isActive():
            self._later.start()

    def _show(self, shown: bool) -> None:
        if shown != self.shown:
            self.shown = shown
            self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if self.shown:
            super().paintEvent(event)
