"""The pool queue: unjudged passages of the current question (and, across questions, of the
next ones), in the order they are to be judged."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, Qt

from desktop.gold.pool import PoolEntry
from desktop.review.suggestions import Suggestion
from desktop.ui import terms
from desktop.ui.models.base import ROOT, TOOLTIP_CHARS, USER
from desktop.ui.widgets import highlighted_html


@dataclass(frozen=True)
class PoolRow:
    """One unjudged passage as the queue shows it, prepared ahead of painting."""

    question_pk: int
    question_id: str
    entry: PoolEntry
    title: str
    text: str  # an excerpt, one line
    suggestion: Suggestion | None = None  # a machine's verdict, G adopts it (not in blind mode)

    @property
    def passage_pk(self) -> int:
        return self.entry.passage_pk

    @property
    def passage_id(self) -> str:
        return self.entry.passage_id


class PoolModel(QAbstractTableModel):
    COL_QUESTION, COL_PASSAGE, COL_SYSTEMS, COL_RANK, COL_BY, COL_MACHINE, COL_TEXT = range(7)
    COLUMNS = 7
    RowRole = USER
    HtmlRole = USER + 1
    ROLES = frozenset(
        (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
            Qt.ItemDataRole.TextAlignmentRole,
            RowRole,
            HtmlRole,
        )
    )

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[PoolRow] = []
        self.blind = False
        self._html: list[str] = []
        self._terms: list[str] = []
        # question pk -> {passage pk: [(item primary id, score)]}: the pool passages that are
        # candidate alternatives of an item, as the candidates worker found them (issue 21)
        self.marks: dict[int, dict[int, list[tuple[str, float]]]] = {}

    def set_rows(self, rows: Sequence[PoolRow], blind: bool, terms_: Sequence[str]) -> None:
        if (list(rows), blind, list(terms_)) == (self.rows, self.blind, self._terms):
            return  # as shown (the queue moved on at the key as its build has it): no repaint
        self.beginResetModel()
        self.rows = list(rows)
        self.blind = blind
        self._terms = list(terms_)
        self._html = [""] * len(self.rows)
        self.endResetModel()

    def drop(self, index: int) -> None:
        """Take one row out (a passage judged: it leaves the queue before the pool is read
        again), the rows after it moving up."""
        self.beginRemoveRows(ROOT, index, index)
        del self.rows[index]
        del self._html[index]
        self.endRemoveRows()

    def set_marks(self, question_pk: int, marks: dict[int, list[tuple[str, float]]]) -> None:
        """Mark the question's passages that are candidates of one of its items (≈)."""
        if self.marks.get(question_pk, {}) == marks:
            return
        self.marks[question_pk] = marks
        rows = [i for i, r in enumerate(self.rows) if r.question_pk == question_pk]
        if rows:
            column = self.COL_PASSAGE
            self.dataChanged.emit(self.index(rows[0], column), self.index(rows[-1], column))

    def candidate_of(self, r: PoolRow) -> list[tuple[str, float]]:
        return self.marks.get(r.question_pk, {}).get(r.passage_pk, [])

    def row(self, index: int) -> PoolRow | None:
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def row_of(self, question_pk: int, passage_pk: int) -> int:
        return next(
            (
                i
                for i, r in enumerate(self.rows)
                if r.question_pk == question_pk and r.passage_pk == passage_pk
            ),
            -1,
        )

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else self.COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                self.COL_QUESTION: self.tr("Question"),
                self.COL_PASSAGE: self.tr("Passage"),
                self.COL_SYSTEMS: self.tr("Systems"),
                self.COL_RANK: self.tr("Best"),
                self.COL_BY: self.tr("Retrieved by"),
                self.COL_MACHINE: self.tr("Machine says"),
                self.COL_TEXT: self.tr("Text"),
            }.get(section)
        if role == Qt.ItemDataRole.ToolTipRole:
            return {
                self.COL_SYSTEMS: self.tr("How many systems have the passage in their top D"),
                self.COL_RANK: self.tr("Its best rank in any system"),
                self.COL_BY: self.tr("Hidden in blind mode"),
                self.COL_MACHINE: self.tr("A machine's judgement: G makes it your own"),
            }.get(section)
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role not in self.ROLES or not index.isValid() or index.row() >= len(self.rows):
            return None
        r = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(r, column)
        if role == self.RowRole:
            return r
        if role == self.HtmlRole and column == self.COL_TEXT:
            return self._markup(index.row(), r)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(r, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            self.COL_SYSTEMS,
            self.COL_RANK,
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, r: PoolRow, column: int):
        if column == self.COL_QUESTION:
            return r.question_id
        if column == self.COL_PASSAGE:
            return f"≈ {r.passage_id}" if self.candidate_of(r) else r.passage_id
        if column == self.COL_SYSTEMS:
            return r.entry.systems
        if column == self.COL_RANK:
            return r.entry.best_rank
        if column == self.COL_BY:
            return "" if self.blind else ", ".join(r.entry.retrieved_by)
        if column == self.COL_MACHINE:
            return self._suggestion(r)
        if column == self.COL_TEXT:
            return r.text
        return None

    def _suggestion(self, r: PoolRow) -> str:
        s = r.suggestion
        if s is None or self.blind:
            return ""
        if s.kind == "not_evidence":
            verdict = self.tr("not evidence")
        else:
            verdict = terms.role(s.role) if s.role else self.tr("evidence")
        return f"{s.machine}: {verdict}"

    def _markup(self, row: int, r: PoolRow) -> str:
        # Prepared once per row and kept: the delegate asks on every paint.
        if not self._html[row]:
            self._html[row] = highlighted_html(r.text, self._terms)
        return self._html[row]

    def _tooltip(self, r: PoolRow, column: int):
        if column == self.COL_PASSAGE:
            items = ", ".join(f"{item} ({score:.2f})" for item, score in self.candidate_of(r))
            alike = self.tr("≈ A candidate alternative of {items}").format(items=items)
            return "\n".join(p for p in (r.passage_id, r.title, alike if items else "") if p)
        if column == self.COL_BY and not self.blind:
            return "\n".join(r.entry.retrieved_by)
        if column == self.COL_TEXT:
            return r.text[:TOOLTIP_CHARS]
        return None
