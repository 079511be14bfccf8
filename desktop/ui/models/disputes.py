"""The current question's open disagreements."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, Qt

from desktop import review
from desktop.ui import terms
from desktop.ui.models.base import (
    ROOT,
    USER,
)


class DisputeModel(QAbstractTableModel):
    """Open disagreements of one question: what is disputed, then each reviewer's value with
    their note, side by side (one column per reviewer)."""

    COL_WHAT = 0
    DisputeRole = USER

    def __init__(self, parent=None):
        super().__init__(parent)
        self.disputes: list[review.Dispute] = []
        self.reviewers: list[str] = []

    def set_disputes(self, disputes: Sequence[review.Dispute]) -> None:
        self.beginResetModel()
        self.disputes = list(disputes)
        self.reviewers = sorted({r for d in self.disputes for r in d.values})
        self.endResetModel()

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.disputes)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else 1 + len(self.reviewers)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if section == self.COL_WHAT:
            return self.tr("Disputed")
        return f"{section}. {self.reviewers[section - 1]} (Ctrl+{section})"

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        d = self.disputes[index.row()]
        column = index.column()
        if role == self.DisputeRole:
            return d
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_WHAT:
                what = terms.kind(d.kind)
                return f"{what} · {d.passage_id}" if d.passage_id else what
            who = self.reviewers[column - 1]
            if who not in d.values:
                return ""
            text = terms.value_text(d.kind, d.values[who])
            note = d.notes.get(who)
            return f"{text}\n“{note}”" if note else text
        if role == Qt.ItemDataRole.ToolTipRole and column > 0:
            who = self.reviewers[column - 1]
            return d.notes.get(who) or None
        return None
