"""Corpus search results, fetched a page at a time."""

from __future__ import annotations

import json
from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, Qt

from desktop import review
from desktop.ui.models.base import (
    ROOT,
    USER,
)
from desktop.ui.widgets import highlighted_html


class SearchResultsModel(QAbstractTableModel):
    """Passages a corpus search found, shown a page at a time."""

    COL_PASSAGE, COL_SOURCE, COL_TEXT = range(3)
    PassageRole = USER
    HtmlRole = USER + 1
    PAGE = 50

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[dict] = []
        self._fetched = 0
        self._terms: list[str] = []

    def set_rows(self, rows: Sequence[dict], terms_: Sequence[str]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self._terms = list(terms_)
        self._fetched = min(self.PAGE, len(self.rows))
        self.endResetModel()

    def canFetchMore(self, parent=ROOT) -> bool:
        return not parent.isValid() and self._fetched < len(self.rows)

    def fetchMore(self, parent=ROOT) -> None:
        more = min(self.PAGE, len(self.rows) - self._fetched)
        if parent.isValid() or more <= 0:
            return
        self.beginInsertRows(ROOT, self._fetched, self._fetched + more - 1)
        self._fetched += more
        self.endInsertRows()

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else self._fetched

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else 3

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (self.tr("Passage"), self.tr("Source"), self.tr("Text"))[section]

    def passage(self, row: int) -> dict | None:
        return self.rows[row] if 0 <= row < self._fetched else None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= self._fetched:
            return None
        p = self.rows[index.row()]
        column = index.column()
        if role == self.PassageRole:
            return p
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_PASSAGE:
                return p["id"]
            if column == self.COL_SOURCE:
                meta = json.loads(p["meta"]) if p.get("meta") else {}
                return review.source_label(p.get("title"), meta)
            return p["text"].replace("\n", " ")[:300]
        if role == self.HtmlRole and column == self.COL_TEXT:
            return highlighted_html(p["text"].replace("\n", " "), self._terms, 300)
        return None
