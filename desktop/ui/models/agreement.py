"""Agreement between pairs of reviewers."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, Qt

from desktop.ui import terms
from desktop.ui.models.base import (
    ROOT,
)


class AgreementModel(QAbstractTableModel):
    COL_REVIEWERS, COL_KIND, COL_ITEMS, COL_AGREEMENT, COL_KAPPA = range(5)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.pairs: list[dict] = []

    def set_agreement(self, agreement: dict | None) -> None:
        self.beginResetModel()
        self.pairs = list((agreement or {}).get("pairs", []))
        self.endResetModel()

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.pairs)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else 5

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            self.tr("Reviewers"),
            self.tr("Kind"),
            self.tr("Items both judged"),
            self.tr("Agreement"),
            self.tr("Cohen's κ"),
        )[section]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        p = self.pairs[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_REVIEWERS:
                return " / ".join(p["reviewers"])
            if column == self.COL_KIND:
                return terms.kind(p["kind"])
            if column == self.COL_ITEMS:
                return p["items"]
            if column == self.COL_AGREEMENT:
                return f"{p['agreement']:.1%}"
            return "–" if p["kappa"] is None else f"{p['kappa']:.3f}"
        if role == Qt.ItemDataRole.ToolTipRole and column == self.COL_KAPPA and p["kappa"] is None:
            return self.tr("Undefined: both reviewers always gave the same single value")
        return None
