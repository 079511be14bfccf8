"""The status bar's word that the metrics are being brought up to date."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel


def _busy_text() -> str:
    # Translated under MainWindow, where the window said it before this label had a class.
    return QCoreApplication.translate("MainWindow", "Updating metrics…")


class MetricsBusyLabel(QLabel):
    """Keeps its size whether it says something or not: a status bar whose label grew and
    shrank as the metrics started and stopped laid the whole window out and repainted it
    twice a judgement (it also changed height by a pixel)."""

    def __init__(self, parent=None):
        super().__init__(_busy_text(), parent)
        self.setMinimumSize(self.sizeHint())
        self.setText("")

    def show_busy(self, busy: bool) -> None:
        self.setText(_busy_text() if busy else "")
