"""The pool queue's text cells drawn ahead for the next key (issue 23). A pool key takes the
picked passage out of the queue: every row under it moves up one, so each shows the other
alternate colour and the next one is selected, and the rich-text delegate, which keeps its
cells by look, has none of them kept; it drew each one on the key's frame (about half a
millisecond a cell, most of the queue's paint). They are drawn here into the delegate's kept
pixmaps as they will look after the key, once the queue shown has been painted, so that the
key's frame only copies them."""

from __future__ import annotations

from PySide6.QtCore import QObject, QRect, QTimer
from PySide6.QtWidgets import QStyleOptionViewItem, QTableView

from desktop.ui.cells import HtmlDelegate, cell_option, table_option


class CellsAfterKey(QObject):
    def __init__(self, table: QTableView, delegate: HtmlDelegate, column: int, parent=None):
        super().__init__(parent)
        self.table, self.delegate, self.column = table, delegate, column
        # Started when the queue or its pick changed: runs once that change is painted
        # (posted paints go before timers), never in the key's own frame.
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)
        self._todo: list[tuple[QStyleOptionViewItem, int]] | None = None

    def schedule(self) -> None:
        self._todo = None  # worked out at the first step, from the queue as then shown
        self._timer.start()

    @property
    def pending(self) -> bool:
        """Cells are still to be drawn ahead (tests)."""
        return self._timer.isActive()

    def _step(self) -> None:
        """One cell a pass of the event loop: a key, or the reader's passage arriving, waits
        for half a millisecond at most, not for a queue's worth of cells."""
        if self._todo is None:
            self._todo = self._cells()
        if self._todo:
            option, row = self._todo.pop(0)
            self.delegate.prepare(option, self.table.model().index(row, self.column))
        if self._todo:
            self._timer.start()

    def draw(self) -> None:
        """Every cell the next key shows, at once."""
        for option, row in self._cells():
            self.delegate.prepare(option, self.table.model().index(row, self.column))

    def _cells(self) -> list[tuple[QStyleOptionViewItem, int]]:
        """Each visible row from the picked one down, as the table will paint it once the
        picked row is taken out: the row below in its place, selected at the picked row."""
        table, model = self.table, self.table.model()
        picked = table.currentIndex().row()
        if not table.isVisible() or picked < 0 or picked + 1 >= model.rowCount():
            return []
        viewport = table.viewport()
        last = table.rowAt(viewport.height() - 1)
        last = model.rowCount() - 2 if last < 0 else min(last, model.rowCount() - 2)
        size = table.visualRect(model.index(picked, self.column)).size()
        if size.isEmpty():
            return []
        base = table_option(table)
        # The focus frame is drawn on the current cell, in the column selectRow makes current.
        current = table.currentIndex().column() == self.column
        cells = []
        for row in range(max(picked, table.rowAt(0)), last + 1):
            rect = QRect(0, 0, size.width(), size.height())
            option = cell_option(table, base, rect, row, row == picked, row == picked and current)
            cells.append((option, row + 1))
        return cells
