"""A grid of buttons that reflows: as many columns as the widest button's whole text allows
in the width it is given, so that no label is cut (the triage buttons at 1366 px, in English
as in Korean, with one system or two)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QAbstractButton, QGridLayout, QSizePolicy, QWidget


class ReflowGrid(QWidget):
    def __init__(self, buttons: Sequence[QAbstractButton], parent=None):
        super().__init__(parent)
        self.buttons = list(buttons)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        for button in self.buttons:
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.columns = 0
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._place(max(1, min(4, len(self.buttons))))

    def cell_width(self) -> int:
        """The widest button's own width: its text, icon and margins, uncut."""
        return max((b.sizeHint().width() for b in self.buttons), default=0)

    def columns_for(self, width: int) -> int:
        spacing = max(self.grid.horizontalSpacing(), 0)
        cell = self.cell_width() + spacing
        return max(1, min(len(self.buttons), (width + spacing) // max(cell, 1)))

    def _place(self, columns: int) -> None:
        if columns == self.columns:
            return
        self.columns = columns
        for button in self.buttons:
            self.grid.removeWidget(button)
        for i, button in enumerate(self.buttons):
            button.setMinimumWidth(button.sizeHint().width())
            self.grid.addWidget(button, i // columns, i % columns)
        for column in range(self.grid.columnCount()):
            self.grid.setColumnStretch(column, 1 if column < columns else 0)
        self.updateGeometry()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place(self.columns_for(event.size().width()))

    def minimumSizeHint(self):
        hint = super().minimumSizeHint()
        hint.setWidth(self.cell_width())
        return hint
