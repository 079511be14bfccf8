"""Small widget helpers shared by the panels: a review table, column widths in characters, a
label that may be cut rather than widen the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QSizePolicy, QTableView

from desktop.ui.widgets import SoftSelectionDelegate


def review_table(parent=None) -> QTableView:
    view = QTableView(parent)
    view.setItemDelegate(SoftSelectionDelegate(view))
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    view.setWordWrap(False)
    view.setAlternatingRowColors(True)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # ids keep their start and end
    view.horizontalHeader().setHighlightSections(False)
    # Ignored width: no cell text, however long, can widen the window.
    view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)
    return view


def size_columns(view: QTableView, stretch: int, widths: dict[int, int]) -> None:
    """Column widths in average characters of the view's font, so that they follow the font
    size and screen scale; `stretch` takes the rest."""
    header = view.horizontalHeader()
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    char = view.fontMetrics().averageCharWidth()
    for column, chars in widths.items():
        header.resizeSection(column, char * chars + 12)
    header.setMinimumSectionSize(char * 3)


def shrinkable(label: QLabel) -> QLabel:
    """A label that may be cut rather than widen the window (1366 px must fit)."""
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    label.setMinimumWidth(label.fontMetrics().averageCharWidth() * 10)
    return label


def elide_middle(text: str, limit: int = 60) -> str:
    """A long id cut in the middle (its start and end are what tell ids apart)."""
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return f"{text[:half]}…{text[-half:]}"
