"""The window's layout remembered between runs: geometry, docks (the metrics dock's being
hidden included), splitters; and, with nothing saved yet, sizes by proportion of the screen."""

from __future__ import annotations

import re

from PySide6.QtCore import QByteArray, QEvent, Qt, QTimer
from PySide6.QtWidgets import QApplication, QSplitter

from desktop.ui.ranking import FIT_ROWS

SPLITS = ("main", "middle", "metrics")
COMPARE_RIGHT = "window/split-right-compare"  # the evidence over the reader in compare mode
READER_LINES = 7  # of passage text the reader keeps by default under the evidence


class LayoutMemory:
    def __init__(self, window):
        self.window = window
        self.settings = window.settings
        self._first = False
        # Where the reader is, per mode, as the reviewer left it: under the ranking (the
        # middle split) with one system, under the evidence (the right split) in compare mode.
        self._compare = False
        self._sizes: dict[bool, list[int]] = {}
        self._main_before: list[int] | None = None  # the columns before compare widened one
        self._metrics_height: int | None = None  # the dock's height before its tall view
        value = str(self.settings.value(COMPARE_RIGHT, "") or "")
        if re.fullmatch(r"\d+,\d+", value):
            self._sizes[True] = [int(n) for n in value.split(",")]
        window.session.systemsChanged.connect(self.mode_changed)
        # The dock closed while tall: the tall view ends with it (T shows it tall again).
        window.metrics_dock.toggleViewAction().toggled.connect(self._dock_toggled)

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
        self._sizes[self._compare] = self._reader_split().sizes()
        for name, split in self._splits().items():
            if name == "middle" and self._compare:
                continue  # the reader is under the evidence: the saved one-system state stands
            settings.setValue(f"window/split-{name}", split.saveState())
        if True in self._sizes:
            settings.setValue(COMPARE_RIGHT, ",".join(map(str, self._sizes[True])))

    def _reader_split(self) -> QSplitter:
        w = self.window
        return w.right_split if self._compare else w.middle_split

    def mode_changed(self) -> None:
        """Compare mode on or off. With two rankings the reader moves under the evidence, so
        that both top K lists get the middle's whole height; each mode keeps its own split
        sizes (remembered, or by default the evidence's own height and the rest to read)."""
        w = self.window
        compare = w.session.compare_name is not None
        if compare == self._compare:
            return
        self._sizes[self._compare] = self._reader_split().sizes()
        self._compare = compare
        split = self._reader_split()
        split.addWidget(w.reader)  # taken out of the other split
        sizes = self._sizes.get(compare)
        if sizes and len(sizes) == split.count():
            split.setSizes(sizes)
        elif compare:
            total = sum(split.sizes()) or split.height()
            reader = READER_LINES * w.reader.fontMetrics().lineSpacing() + 40
            evidence = min(w.evidence_panel.sizeHint().height(), max(total - reader, total // 2))
            split.setSizes([evidence, total - evidence])
        if compare:
            half = sum(w.rankings.sizes()) // 2
            w.rankings.setSizes([half, half])
            # After the evidence table has its second system's column (the view comes next).
            QTimer.singleShot(0, self._widen_evidence)
        elif self._main_before is not None:
            w.main_split.setSizes(self._main_before)
            self._main_before = None

    def _widen_evidence(self) -> None:
        """Compare mode: the evidence column takes from the middle (whose rows are one line
        now) what its passage text needs beside two systems' columns, not a sliver."""
        w = self.window
        if w.session.compare_name is None:
            return
        sizes = w.main_split.sizes()
        scroll = w.style().pixelMetric(w.style().PixelMetric.PM_ScrollBarExtent)
        short = w.evidence_panel.wanted_width() + scroll + 8 - sizes[2]
        give = min(short, sizes[1] - sum(sizes) * 7 // 20)  # the middle keeps 35%
        if give > 0:
            self._main_before = sizes
            w.main_split.setSizes([sizes[0], sizes[1] - give, sizes[2] + give])

    def _default_when_shown(self, _index: int) -> None:
        if self.window.main_split.isVisible():
            self.window.pages.currentChanged.disconnect(self._default_when_shown)
            QTimer.singleShot(0, self._default)  # after the page's own layout, as at a show

    def metrics_shown(self) -> bool:
        return self.settings.value("window/metrics-shown", True, bool)

    def shown(self) -> None:
        if self._first:
            # No saved layout: share the width and height out by proportion, not pixels.
            self._first = False
            QTimer.singleShot(0, self._default)

    def _default(self) -> None:
        w = self.window
        if not w.main_split.isVisible():
            # First run, on the welcome page: sizes given to the hidden columns were lost when
            # they appeared (the evidence column came as a sliver): shared out once shown.
            w.pages.currentChanged.connect(self._default_when_shown)
            return
        width = w.main_split.width() or w.width()
        w.main_split.setSizes([int(width * 0.2), int(width * 0.5), int(width * 0.3)])
        # Every system's row in view where the screen allows (the rankings keep five rows).
        w.resizeDocks([w.metrics_dock], [w.metrics_dock.wanted_height()], Qt.Orientation.Vertical)
        height = w.middle_split.height() or w.height()
        # The ranking a little taller than the reader: at 768 px half the height showed only
        # two or three of the top 5 rows; the reader still shows a passage and its neighbours.
        w.middle_split.setSizes([int(height * 0.6), int(height * 0.4)])
        total = w.metrics_dock.split.width() or width
        w.metrics_dock.split.setSizes([int(total * 0.6), int(total * 0.4)])

    def _dock_toggled(self, shown: bool) -> None:
        w = self.window
        if not shown and w.act_metrics_tall.isChecked():
            w.act_metrics_tall.setChecked(False)
            for panel in w.rankings.panels:
                panel.fit_rows(FIT_ROWS)

    def tall_metrics(self, tall: bool) -> None:
        """The metrics dock raised to most of the window's height (every system, the
        comparison's rows), and back to the height it had."""
        w = self.window
        dock = w.metrics_dock
        shown = dock.isVisible()
        for panel in w.rankings.panels:  # the top 5's floor gives way while the dock is tall
            panel.fit_rows(1 if tall else FIT_ROWS)
        if tall:
            self._metrics_height = dock.height() if shown else None
            available = w.centralWidget().height() + (dock.height() if shown else 0)
            dock.show()
            dock.raise_()
            height = int(available * 0.75)
        else:
            height = self._metrics_height or dock.wanted_height()
        # Once the layouts have taken in the rankings' new floor: each level's request is
        # posted as the level below is laid out, so deliver them down the nesting.
        for _level in range(12):
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        w.resizeDocks([dock], [height], Qt.Orientation.Vertical)
