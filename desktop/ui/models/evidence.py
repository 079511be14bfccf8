"""The current question's gold evidence items."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, Qt
from PySide6.QtGui import QBrush, QFont

from desktop.gold import effective as gold
from desktop.review import Found, ItemState
from desktop.ui import terms
from desktop.ui.common import elide_middle
from desktop.ui.models.base import (
    AMBER,
    EXCERPT_CHARS,
    GREEN,
    PAINTED_ROLES,
    RED,
    ROOT,
    TOOLTIP_CHARS,
    USER,
)
from desktop.ui.widgets import HIT, MISS

ID_CHARS = 24  # of a passage id shown in its cell


class EvidenceModel(QAbstractTableModel):
    """Evidence items with their role and, per shown system, where they are found. In compare
    mode an item one system finds at K and the other misses is coloured in both columns."""

    COL_MARK, COL_ROLE, COL_PASSAGE, COL_FIRST_SYSTEM = range(4)
    ItemRole = USER
    ContrastRole = USER + 1  # True when the shown systems disagree on finding the item at K
    TextRole = USER + 2  # the passage text's excerpt, in its column alone: the cell kept drawn
    ROLES = frozenset((*PAINTED_ROLES, ItemRole, ContrastRole, TextRole))  # the roles served

    def __init__(self, parent=None):
        super().__init__(parent)
        self.items: list[ItemState] = []
        self.systems: list[str] = []
        self.k = 5
        self.reviewer = ""
        self.texts: dict[int, str] = {}
        self.only: dict[str, set[int]] = {}  # system -> items it alone finds at K

    @property
    def col_alternatives(self) -> int:
        return self.COL_FIRST_SYSTEM + len(self.systems)

    @property
    def col_text(self) -> int:
        return self.col_alternatives + 1

    def set_items(
        self,
        items: Sequence[ItemState],
        systems: Sequence[str],
        k: int,
        reviewer: str,
        texts: dict[int, str] | None = None,
    ) -> None:
        """texts: each primary passage's text by its key (an excerpt shows; all on hover)."""
        self.beginResetModel()
        self.items = list(items)
        self.systems = list(systems)
        self.k = k
        self.reviewer = reviewer
        self.texts = {pk: " ".join(t.split()) for pk, t in (texts or {}).items()}
        self.endResetModel()

    def update_items(self, items: Sequence[ItemState]) -> bool:
        """The same items with new roles or values (a key's judgement): only the rows that
        changed are repainted, the table is not reset. False when the items are other ones."""
        items = list(items)
        if [i.primary_pk for i in items] != [i.primary_pk for i in self.items]:
            return False
        changed = [row for row, (a, b) in enumerate(zip(items, self.items, strict=True)) if a != b]
        self.items = items
        for row in changed:
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        return True

    def set_only(self, only: dict[str, set[int]]) -> None:
        """Items only one system finds at K among all: "◆" beside its "found at"."""
        if only == self.only:
            return
        self.only = only
        if self.items and self.systems:
            first, last = self.COL_FIRST_SYSTEM, self.col_alternatives - 1
            self.dataChanged.emit(self.index(0, first), self.index(len(self.items) - 1, last))

    def only_by(self, item: ItemState, system: str) -> bool:
        return item.index in self.only.get(system, ())

    def item(self, row: int) -> ItemState | None:
        return self.items[row] if 0 <= row < len(self.items) else None

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else self.col_text + 1

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.ToolTipRole and self._is_system(section):
            return self.systems[section - self.COL_FIRST_SYSTEM]  # whole, where it is elided
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if section == self.col_text:
            return self.tr("Text")
        if section == self.COL_MARK:
            return ""
        if section == self.COL_ROLE:
            return self.tr("Role")
        if section == self.COL_PASSAGE:
            return self.tr("Passage")
        if section == self.col_alternatives:
            return self.tr("Alternatives")
        return self.systems[section - self.COL_FIRST_SYSTEM]

    def _is_system(self, section: int) -> bool:
        return 0 <= section - self.COL_FIRST_SYSTEM < len(self.systems)

    def found(self, item: ItemState, system: str) -> Found:
        return item.found.get(system, Found(None, None, False))

    def contrast(self, item: ItemState) -> bool:
        if len(self.systems) < 2:
            return False
        return len({self.found(item, s).at(self.k) for s in self.systems}) > 1

    def status_text(self, item: ItemState, system: str) -> str:
        text = self._status(item, system)
        cov = item.coverage.get(system)  # a system on another chunking (design section 10)
        if cov is None:
            return text
        return text + " · " + self.tr("{share} covered").format(share=f"{cov:.0%}")

    def _status(self, item: ItemState, system: str) -> str:
        f = self.found(item, system)
        if f.at(self.k):
            if f.through_alternative:
                return self.tr("found at {rank} via {passage}").format(rank=f.rank, passage=f.via)
            return self.tr("found at {rank}").format(rank=f.rank)
        if f.rank is not None:
            return self.tr("missed (found at {rank})").format(rank=f.rank)
        return self.tr("missed (not retrieved)")

    def mark(self, item: ItemState) -> str:
        if not self.systems:
            return ""
        f = self.found(item, self.systems[0])
        if f.at(self.k):
            return "◐" if f.through_alternative else "●"
        return "×"

    def role_text(self, item: ItemState) -> str:
        text = terms.role(item.role)
        if item.role_status:
            text += f" ({terms.decision(item.role_status, short=True)})"
        return text

    def role_tip(self, item: ItemState) -> str:
        lines = [self.tr("Imported: {role}").format(role=terms.role(item.imported_role))]
        if item.role_status:
            lines.append(terms.decision(item.role_status))
        for who, value in sorted(item.votes.items()):
            lines.append(f"{who}: {terms.value_text('role', value)}")
        return "\n".join(lines)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role not in self.ROLES or not index.isValid() or index.row() >= len(self.items):
            return None
        item = self.items[index.row()]
        column = index.column()
        system = None
        if self.COL_FIRST_SYSTEM <= column < self.col_alternatives:
            system = self.systems[column - self.COL_FIRST_SYSTEM]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(item, column, system)
        if role == self.ItemRole:
            return item
        if role == self.ContrastRole:
            return self.contrast(item)
        if role == self.TextRole:
            return self._display(item, column, None) if column == self.col_text else None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(item, column, system)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._foreground(item, column, system)
        if role == Qt.ItemDataRole.BackgroundRole and system is not None and self.contrast(item):
            return QBrush(HIT if self.found(item, system).at(self.k) else MISS)
        if role == Qt.ItemDataRole.FontRole and system is not None and self.contrast(item):
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.COL_MARK:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def _display(self, item: ItemState, column: int, system: str | None):
        if column == self.COL_MARK:
            return self.mark(item)
        if column == self.COL_ROLE:
            return self.role_text(item)
        if column == self.COL_PASSAGE:
            return elide_middle(item.primary_id, ID_CHARS)  # the whole id on hover
        if system is not None:
            text = self.status_text(item, system)
            return f"{text} ◆" if self.only_by(item, system) else text
        if column == self.col_alternatives:
            shown = [pid for _, pid in item.alternatives]
            shown += [f"{pid}?" for pid in item.proposed]
            return ", ".join(shown)
        if column == self.col_text:
            return self.texts.get(item.primary_pk, "")[:EXCERPT_CHARS]
        return None

    def _tooltip(self, item: ItemState, column: int, system: str | None):
        if column == self.COL_PASSAGE:
            return item.primary_id
        if column == self.col_text:
            text = self.texts.get(item.primary_pk, "")
            return "\n".join(textwrap.wrap(text[:TOOLTIP_CHARS], 60)) or None
        if column == self.COL_ROLE:
            return self.role_tip(item)
        if system is not None and self.only_by(item, system):
            return self.tr(
                "◆ Only {system} finds this item in its top {k} among all systems"
            ).format(system=system, k=self.k)
        if system is not None and self.contrast(item):
            if self.found(item, system).at(self.k):
                return self.tr("Only {system} finds this item in its top {k}").format(
                    system=system, k=self.k
                )
            return self.tr("{system} misses this item; the other system finds it").format(
                system=system
            )
        if column == self.col_alternatives and item.proposed:
            return self.tr("A question mark: proposed, not in force yet")
        return None

    def _foreground(self, item: ItemState, column: int, system: str | None):
        if column == self.COL_MARK:
            return QBrush(RED if self.mark(item) == "×" else GREEN)
        if column == self.COL_ROLE and item.role_status in (gold.DISPUTED, gold.PENDING):
            return QBrush(AMBER)
        if system is not None and not self.found(item, system).at(self.k):
            return QBrush(RED)
        return None
