"""One system's top K for the current question."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, Qt
from PySide6.QtGui import QBrush, QFont

from desktop import review
from desktop.review import ItemState, RankedRow
from desktop.ui import terms
from desktop.ui.models.base import (
    AMBER,
    GREEN,
    GREY,
    PAINTED_ROLES,
    ROOT,
    USER,
)
from desktop.ui.widgets import HIT, highlighted_html


class RankingModel(QAbstractTableModel):
    """One system's top K. The passage cell has two lines: its id (with the evidence item it
    stands for when it hits one through an alternative) and where it comes from."""

    COL_RANK, COL_MARK, COL_SCORE, COL_PASSAGE, COL_TEXT = range(5)
    COLUMNS = 5
    RowRole = USER
    HtmlRole = USER + 1
    RIGHT_ALIGNED = (0, 1, 2)  # rank, mark, score
    ROLES = frozenset((*PAINTED_ROLES, RowRole, HtmlRole))  # the roles served
    SNIPPET = 320  # characters of passage text in a row; the viewer below shows it whole

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[RankedRow] = []
        self.items: list[ItemState] = []
        self._html: list[str] = []
        self._terms: list[str] = []
        self.system = ""
        self.k = 0
        self.only: frozenset[int] = frozenset()  # items only this system finds at K
        self._only_rows: list[bool] = []
        self.compact = False  # one line a row: the passage cell without its source

    def set_rows(
        self, rows: Sequence[RankedRow], items: Sequence[ItemState], terms_: Sequence[str]
    ) -> None:
        rows, items, terms_ = list(rows), list(items), list(terms_)
        if (rows, items, terms_) == (self.rows, self.items, self._terms):
            return  # a judgement that changes nothing this ranking shows: no reset, no repaint
        self.beginResetModel()
        self.rows = rows
        self.items = items
        self._terms = terms_
        self._html = [""] * len(self.rows)
        self._only_rows = self._flags(self.only)
        self.endResetModel()

    def update_rows(self, rows: Sequence[RankedRow], items: Sequence[ItemState]) -> bool:
        """The same passages with new marks (a key's judgement: not evidence, a proposed
        alternative, an item's role): only the rows that changed are repainted, the table is
        not reset. False when the passages are other ones."""
        rows, items = list(rows), list(items)
        if [r.passage_pk for r in rows] != [r.passage_pk for r in self.rows]:
            return False
        if len(items) != len(self.items):
            return False
        # An item's role shows in the rows that cover it (on another chunking).
        pairs = enumerate(zip(items, self.items, strict=True))
        roles = {i for i, (a, b) in pairs if a.role != b.role}
        changed = [
            n
            for n, (a, b) in enumerate(zip(rows, self.rows, strict=True))
            if a != b or roles.intersection(i for i, _ in a.coverage)
        ]
        self.rows, self.items = rows, items
        for n in changed:
            self._html[n] = ""
            self.dataChanged.emit(self.index(n, 0), self.index(n, self.COLUMNS - 1))
        return True

    def set_compact(self, compact: bool) -> None:
        if compact != self.compact:
            self.compact = compact
            if self.rows:
                column = self.COL_PASSAGE
                self.dataChanged.emit(self.index(0, column), self.index(len(self.rows) - 1, column))

    def set_only(self, only: set[int], system: str, k: int) -> None:
        """The evidence items this system alone finds in its top k among all systems: their
        rows get the mark ◆ (◈ through an alternative); one dataChanged for the column."""
        self.system, self.k = system, k
        only = frozenset(only)
        if only == self.only:
            return
        self.only = only
        self._only_rows = self._flags(only)
        if self.rows:
            column = self.COL_MARK
            self.dataChanged.emit(self.index(0, column), self.index(len(self.rows) - 1, column))

    def _flags(self, only: frozenset[int]) -> list[bool]:
        return [bool(only) and any(i in only for i in r.items) for r in self.rows]

    def only_found(self, index: int) -> bool:
        return 0 <= index < len(self._only_rows) and self._only_rows[index]

    def row(self, index: int) -> RankedRow | None:
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else self.COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return {
            self.COL_RANK: self.tr("Rank"),
            self.COL_MARK: "",
            self.COL_SCORE: self.tr("Score"),
            self.COL_PASSAGE: self.tr("Passage"),
            self.COL_TEXT: self.tr("Text"),
        }.get(section)

    def mark(self, r: RankedRow, only: bool = False) -> str:
        # a passage of another chunking covering θ of an item finds it itself (no alternative)
        primary = r.primary or bool(r.coverage)
        if r.items and only:
            return "◆" if primary else "◈"
        if r.items:
            return "●" if primary else "◐"
        if r.proposed_for:
            return "◌"
        return "○"

    def _stands_for(self, r: RankedRow) -> str:
        """The items a row finds other than as itself ("→ art-066": through an alternative);
        "" for a passage of another chunking, whose coverage its text cell says first."""
        evidence = "" if r.coverage else self.evidence_text(r)
        if not evidence or evidence == r.passage_id:
            return ""
        return evidence.replace(r.passage_id, "").strip(" ,")

    def evidence_text(self, r: RankedRow) -> str:
        """The evidence items a row finds: their ids, '→ id' through an alternative; on
        another chunking, each item it covers and how much ("핵심 1: 82%")."""
        if r.coverage:
            return ", ".join(
                f"{terms.role(self.items[i].role)} {i + 1}: {cov:.0%}" for i, cov in r.coverage
            )
        parts = []
        for i in r.items:
            item = self.items[i]
            parts.append(
                item.primary_id if item.primary_pk == r.passage_pk else f"→ {item.primary_id}"
            )
        if r.proposed_for and not r.items:
            parts.append(f"→ {r.proposed_for}?")
        return ", ".join(parts)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role not in self.ROLES or not index.isValid() or index.row() >= len(self.rows):
            return None
        r = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_MARK:
                return self.mark(r, self._only_rows[index.row()])
            return self._display(r, column)
        if role == self.HtmlRole and column == self.COL_TEXT:
            return self._markup(index.row(), r)
        if role == self.RowRole:
            return r
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == self.COL_MARK and self._only_rows[index.row()]:
                return self.tr(
                    "Evidence only {system} finds in its top {k}: no other system does"
                ).format(system=self.system, k=self.k)
            return self._tooltip(r, column)
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == self.COL_MARK:
                return QBrush(GREEN if r.items else AMBER if r.proposed_for else GREY)
            return QBrush(GREY) if r.not_evidence else None
        if role == Qt.ItemDataRole.BackgroundRole and r.items:
            return QBrush(HIT)
        if role == Qt.ItemDataRole.FontRole and r.not_evidence and column == self.COL_PASSAGE:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.RIGHT_ALIGNED:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, r: RankedRow, column: int):
        if column == self.COL_RANK:
            return r.rank
        if column == self.COL_SCORE:
            return "" if r.score is None else f"{r.score:.2f}"
        if column == self.COL_PASSAGE:
            stands_for = self._stands_for(r)
            if self.compact:  # one line: the source is in the tooltip
                return f"{r.passage_id} {stands_for}" if stands_for else r.passage_id
            # Its id, then the items it stands for in as an alternative ("→ art-066") or else
            # where it comes from. On one line with its id, "art-069 → art-066" was cut to
            # "art-06…t-066" in the column; the source stays in the tooltip.
            return f"{r.passage_id}\n{stands_for or review.source_label(r.title, r.meta)}"
        if column == self.COL_TEXT:
            text = r.text.replace("\n", " ")[: self.SNIPPET]
            return f"[{self.evidence_text(r)}] {text}" if r.coverage else text
        return None

    def _markup(self, row: int, r: RankedRow) -> str:
        # Prepared once per row and kept: the delegate asks on every paint.
        if not self._html[row]:
            self._html[row] = highlighted_html(r.text.replace("\n", " "), self._terms, self.SNIPPET)
            if r.coverage:  # on another chunking: what this passage covers, first in view
                covers = html.escape(self.evidence_text(r))
                self._html[row] = f"<b style='color:#007a55'>[{covers}]</b> " + self._html[row]
        return self._html[row]

    def _tooltip(self, r: RankedRow, column: int):
        if column == self.COL_MARK:
            if r.coverage:  # a passage of another chunking: found by coverage, not by id
                return self.tr("Covers part of an evidence item: {items}").format(
                    items=self.evidence_text(r)
                )
            if r.items:
                return self.tr("Evidence") if r.primary else self.tr("Alternative evidence")
            if r.proposed_for:
                return self.tr("Proposed as an alternative for {passage}; not in force yet").format(
                    passage=r.proposed_for
                )
            if r.not_evidence:
                return self.tr("Judged not evidence")
            return self.tr("Not evidence")
        if column == self.COL_PASSAGE:
            parts = [r.passage_id, self._stands_for(r), r.title or ""]
            if r.score is not None:
                parts.append(self.tr("score {score:.3f}").format(score=r.score))
            parts += [f"{k}: {v}" for k, v in r.meta.items()]
            return "\n".join(p for p in parts if p)
        if column == self.COL_TEXT:
            return r.text[:2000]
        return None
