"""Small widget helpers shared by the panels: a review table, column widths in characters, a
label that may be cut rather than widen the window."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QSizePolicy, QTableView

from desktop.ui.widgets import SoftSelectionDelegate


def review_table(
    parent=None, coloured: tuple[int, ...] = (), kind: type[QTableView] = QTableView
) -> QTableView:
    """A table of rows to review. Cells are drawn by Qt's own delegate (no Python per cell:
    a question switch repaints a few hundred cells) under a light selection that keeps the
    text readable; the `coloured` columns, whose text colour means something (a hit's green, a
    miss's red), keep it when selected through the soft-selection delegate."""
    view = kind(parent)
    palette = view.palette()
    base = palette.color(QPalette.ColorRole.Base)
    light = QColor(palette.color(QPalette.ColorRole.Highlight))
    tint = QColor(
        (base.red() * 185 + light.red() * 70) // 255,
        (base.green() * 185 + light.green() * 70) // 255,
        (base.blue() * 185 + light.blue() * 70) // 255,
    )
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        palette.setColor(group, QPalette.ColorRole.Highlight, tint)
        palette.setColor(
            group, QPalette.ColorRole.HighlightedText, palette.color(QPalette.ColorRole.Text)
        )
    view.setPalette(palette)
    soft = SoftSelectionDelegate(view)
    for column in coloured:
        view.setItemDelegateForColumn(column, soft)
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


def set_review_model(view: QTableView, model) -> None:
    """Give a review table its model, and its column header a selection of its own. The
    header shares the view's selection by default, and a row's selection spans every
    column: each new row selected (every question switch) repainted the whole header, which
    highlights nothing (its sections' highlighting is off)."""
    view.setModel(model)
    header = view.horizontalHeader()
    header.setSelectionModel(QItemSelectionModel(model, header))


def size_columns(view: QTableView, stretch: int, widths: dict[int, int]) -> None:
    """Column widths in average characters of the view's font, so that they follow the font
    size and screen scale; `stretch` takes the rest."""
    header = view.horizontalHeader()
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    char = view.fontMetrics().averageCharWidth()
    model = view.model()
    for column, chars in widths.items():
        # Never narrower than the header's own words ("Rank", "순위"): a header is not cut.
        title = str(model.headerData(column, Qt.Orientation.Horizontal) or "") if model else ""
        words = header.fontMetrics().horizontalAdvance(title) + 12
        header.resizeSection(column, max(char * chars + 12, words))
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
