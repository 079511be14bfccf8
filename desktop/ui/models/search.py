"""Corpus search results: the first page as the search returns it, later pages fetched from
the query worker as the reviewer scrolls (canFetchMore/fetchMore)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from PySide6.QtCore import QAbstractTableModel, Qt

from desktop import review
from desktop.ui.models.base import (
    ROOT,
    USER,
)
from desktop.ui.widgets import highlighted_html


class SearchResultsModel(QAbstractTableModel):
    """Passages a corpus search found, `total` in all, of which `rows` are fetched so far.
    `fetch(offset)` asks for the page from offset; its rows come back through `add_page`."""

    COL_PASSAGE, COL_SOURCE, COL_TEXT = range(3)
    PassageRole = USER
    HtmlRole = USER + 1
    PAGE = 50

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[dict] = []
        self.total = 0
        self._terms: list[str] = []
        self._fetch: Callable[[int], None] | None = None
        self._asked = False  # a page is on its way: ask once

    def set_page(
        self,
        total: int,
        rows: Sequence[dict],
        terms_: Sequence[str],
        fetch: Callable[[int], None] | None = None,
    ) -> None:
        """A new search's first page."""
        self.beginResetModel()
        self.rows, self.total, self._terms = list(rows), total, list(terms_)
        self._fetch, self._asked = fetch, False
        self.endResetModel()

    def add_page(self, offset: int, rows: Sequence[dict]) -> None:
        """A later page; one that no longer fits (a new search began) is dropped."""
        if offset == len(self.rows) and rows:
            self.beginInsertRows(ROOT, offset, offset + len(rows) - 1)
            self.rows.extend(rows)
            self.endInsertRows()
        self._asked = False  # only now: a view asking during the insertion waits its turn

    def canFetchMore(self, parent=ROOT) -> bool:
        return not parent.isValid() and self._fetch is not None and len(self.rows) < self.total

    def fetchMore(self, parent=ROOT) -> None:
        if self.canFetchMore(parent) and not self._asked:
            self._asked = True
            self._fetch(len(self.rows))

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else 3

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (self.tr("Passage"), self.tr("Source"), self.tr("Text"))[section]

    def passage(self, row: int) -> dict | None:
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self.rows):
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
            return p["excerpt"]
        if role == self.HtmlRole and column == self.COL_TEXT:
            return highlighted_html(p["excerpt"], self._terms)
        return None
