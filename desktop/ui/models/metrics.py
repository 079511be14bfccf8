"""Every system's mean metrics."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, Qt
from PySide6.QtGui import QBrush, QFont

from desktop.evaluation.metrics import JUDGED_ENOUGH
from desktop.review import Scoreboard, SpanScoring
from desktop.ui import terms
from desktop.ui.models.base import AMBER, GREY, ROOT, USER
from desktop.ui.widgets import system_colour


class MetricsModel(QAbstractTableModel):
    COL_SYSTEM, COL_EVALUATED, COL_FIRST_MEASURE = range(3)
    SystemRole = USER

    def __init__(self, parent=None):
        super().__init__(parent)
        self.board: Scoreboard | None = None
        self.labels: list[str] = []
        self._means: dict[str, dict[str, float | None]] = {}
        self._best: dict[str, float] = {}
        self._evaluated: dict[str, int] = {}  # questions each system is averaged over
        self.span_scoring: SpanScoring | None = (
            None  # the span rule's pass: which figures are greyed
        )

    def set_board(self, board: Scoreboard | None, span: SpanScoring | None = None) -> None:
        self.beginResetModel()
        self.board = board
        self.span_scoring = span
        self.labels = list(board.labels) if board else []
        self._recompute()
        self.endResetModel()

    def refresh(self) -> None:
        """The board's sums moved (one question was rescored): new values, same shape. The
        views repaint only when a mean moved (most judgements move none)."""
        shown = (self._means, self._evaluated)
        self._recompute()
        if self.board and self.board.systems and (self._means, self._evaluated) != shown:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self.board.systems) - 1, self.columnCount() - 1)
            )

    def _recompute(self) -> None:
        self._means = {s: self.board.means(s) for s in self.board.systems} if self.board else {}
        self._evaluated = {s: self.board.evaluated(s) for s in self._means}
        self._best = {}
        for label in self.labels:
            values = [m[label] for m in self._means.values() if m[label] is not None]
            if values:
                self._best[label] = max(values)

    def value(self, system: str, label: str) -> float | None:
        return self._means.get(system, {}).get(label)

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() or not self.board else len(self.board.systems)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else self.COL_FIRST_MEASURE + len(self.labels)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if section >= self.COL_FIRST_MEASURE:
            label = self.labels[section - self.COL_FIRST_MEASURE]
            if role == Qt.ItemDataRole.DisplayRole:
                return terms.measure_label(label)
            if role == Qt.ItemDataRole.ToolTipRole:
                return terms.measure_tip(label)
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.tr("System") if section == self.COL_SYSTEM else "n"
        if role == Qt.ItemDataRole.ToolTipRole and section == self.COL_EVALUATED:
            return self.tr("Questions with evidence, averaged over")
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not self.board:
            return None
        system = self.board.systems[index.row()]
        column = index.column()
        if role == self.SystemRole:
            return system
        if column == self.COL_SYSTEM:
            if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                return system  # the tooltip: the whole name where the column elides it
            if role == Qt.ItemDataRole.DecorationRole:
                return system_colour(index.row())
            return None
        if column == self.COL_EVALUATED:
            if role == Qt.ItemDataRole.DisplayRole:
                return self.board.evaluated(system)
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        label = self.labels[column - self.COL_FIRST_MEASURE]
        value = self._means[system][label]
        if role == Qt.ItemDataRole.DisplayRole:
            return "–" if value is None else f"{value:.3f}"
        if role == USER + 1:
            return value
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        why = self.span_scoring.why_greyed(system, label) if self.span_scoring else None
        if why is not None and role == Qt.ItemDataRole.ToolTipRole:
            return terms.greyed(why)
        if why is not None and role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(GREY)  # not a fair figure of this run: the tooltip says why
        if role == Qt.ItemDataRole.ForegroundRole and label.startswith("Judged@"):
            # Too little judged: this system's numbers may still move (the dock says so).
            return QBrush(AMBER) if value is not None and value < JUDGED_ENOUGH else None
        if role == Qt.ItemDataRole.FontRole and value is not None and len(self._means) > 1:
            if why is not None:
                return None  # a greyed figure is never the best one shown
            if abs(value - self._best.get(label, -1)) < 1e-12:
                font = QFont()
                font.setBold(True)
                return font
        return None
