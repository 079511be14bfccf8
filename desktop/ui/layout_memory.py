"""The window's layout remembered between runs: geometry, docks (the metrics dock's being
hidden included), splitters; and, with nothing saved yet, sizes by proportion of the screen."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtWidgets import QApplication, QSplitter

SPLITS = ("main", "middle", "metrics")


class LayoutMemory:
    def __init__(self, window):
        self.window = window
        self.settings = window.settings
        self._first = False

    def _splits(self) -> dict[str, QSplitter]:
        w = self.window
        return dict(zip(SPLITS, (w.main_split, w.middle_split, w.metrics_dock.split), strict=True))

    def restore(self) -> None:
        window, settings = self.window, self.settings
        geometry = settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            window.restoreGeometry(geometry)
        else:
            screen = QApplication.primaryScreen()
            if screen is not None:
                area = screen.availableGeometry()
                window.resize(int(area.width() * 0.92), int(area.height() * 0.9))
            self._first = True
        state = settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            window.restoreState(state)
        for name, split in self._splits().items():
            value = settings.value(f"window/split-{name}")
            if isinstance(value, QByteArray) and not value.isEmpty():
                split.restoreState(value)

    def save(self) -> None:
        window, settings = self.window, self.settings
        settings.setValue("window/geometry", window.saveGeometry())
        settings.setValue("window/state", window.saveState())
        if window.session.questions:
            settings.setValue("window/metrics-shown", window.metrics_dock.isVisibleTo(window))
        for name, split in self._splits().items():
            settings.setValue(f"window/split-{name}", split.saveState())

    def metrics_shown(self) -> bool:
        return self.settings.value("window/metrics-shown", True, bool)

    def shown(self) -> None:
        if self._first:
            # No saved layout: share the width and height out by proportion, not pixels.
            self._first = False
            QTimer.singleShot(0, self._default)

    def _default(self) -> None:
        w = self.window
        width = w.main_split.width() or w.width()
        w.main_split.setSizes([int(width * 0.2), int(width * 0.5), int(width * 0.3)])
        w.resizeDocks([w.metrics_dock], [int(w.height() * 0.18)], Qt.Orientation.Vertical)
        height = w.middle_split.height() or w.height()
        w.middle_split.setSizes([int(height * 0.5), int(height * 0.5)])
        total = w.metrics_dock.split.width() or width
        w.metrics_dock.split.setSizes([int(total * 0.6), int(total * 0.4)])
