"""Qt models over the review data: column constants, custom roles, resets for reloads,
dataChanged for partial updates, and lazy fetching where a table can be long."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from desktop import gold, review
from desktop.review import DONE, Found, ItemState, RankedRow, Scoreboard, Summary
from desktop.ui import terms
from desktop.ui.widgets import HIT, MISS, highlighted_html, system_colour

USER = Qt.ItemDataRole.UserRole
ROOT = QModelIndex()  # the invisible root: every table here is flat
GREEN = QColor("#007a4d")
RED = QColor("#c0392b")
GREY = QColor("#8a8a8a")
AMBER = QColor("#b36b00")
EXCERPT_CHARS = 160  # of an evidence item's text in its row
TOOLTIP_CHARS = 1500  # of the text on hover


def _natural(text: str) -> list:
    return [int(p) if p.isdigit() else p.casefold() for p in re.split(r"(\d+)", text)]


# -- questions ----------------------------------------------------------------------------------


@dataclass
class QuestionFilter:
    text: str = ""
    misses: bool = False  # has an evidence item missed at K by the chosen system
    unreviewed: bool = False  # not done by this reviewer
    disputed: bool = False  # has an open disagreement
    answerable: bool | None = None  # None: both

    def uses_scores(self) -> bool:
        return self.misses

    def uses_summaries(self) -> bool:
        return self.unreviewed or self.disputed or self.answerable is not None


class QuestionListModel(QAbstractTableModel):
    """Every question with its status, filtered and sorted here (not by a proxy) so that the
    view can fetch the filtered rows lazily, a page at a time."""

    COL_ID, COL_TEXT, COL_ANSWERABLE, COL_STATUS, COL_FOUND, COL_FLAG = range(6)
    COLUMNS = 6
    SortRole = USER
    PkRole = USER + 1
    SummaryRole = USER + 2
    PAGE = 500

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[Summary] = []
        self._at: dict[int, int] = {}  # question pk -> index in _rows
        self._order: list[int] = []  # indices in _rows, filtered and sorted
        self._row_of: dict[int, int] = {}  # question pk -> row in _order
        self._fetched = 0
        self.filter = QuestionFilter()
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._found: Callable[[int], tuple[int, int] | None] = lambda pk: None
        self.k = 5
        self.loaded = False  # summaries from a full pass have arrived

    # loading
    def set_questions(self, questions: Sequence[dict]) -> None:
        self.beginResetModel()
        self._rows = [
            Summary(q["pk"], q["id"], q["text"], bool(q["answerable"]), -1, "", 0)
            for q in questions
        ]
        self._at = {s.pk: i for i, s in enumerate(self._rows)}
        self.loaded = False
        self._refilter()
        self.endResetModel()

    def set_summaries(self, summaries: dict[int, Summary]) -> None:
        for pk, summary in summaries.items():
            i = self._at.get(pk)
            if i is not None:
                self._rows[i] = summary
        self.loaded = True
        if self.filter.uses_summaries() or self._sort_uses_summaries():
            self.refresh_filter()
        else:
            self._changed_all()

    def update_summary(self, summary: Summary) -> None:
        i = self._at.get(summary.pk)
        if i is None:
            return
        self._rows[i] = summary
        row = self._row_of.get(summary.pk)
        if row is not None and row < self._fetched:
            # A row that no longer passes the filter stays until the filter is applied again,
            # so it does not vanish under the reviewer's cursor.
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.COLUMNS - 1))

    def set_found(self, found: Callable[[int], tuple[int, int] | None], k: int) -> None:
        self._found = found
        self.k = k
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, self.COL_FOUND, self.COL_FOUND)
        if self.filter.uses_scores() or (self._sort and self._sort[0] == self.COL_FOUND):
            self.refresh_filter()
        elif self._fetched:
            self.dataChanged.emit(
                self.index(0, self.COL_FOUND), self.index(self._fetched - 1, self.COL_FOUND)
            )

    def _changed_all(self) -> None:
        if self._fetched:
            self.dataChanged.emit(self.index(0, 0), self.index(self._fetched - 1, self.COLUMNS - 1))

    def _sort_uses_summaries(self) -> bool:
        return bool(self._sort) and self._sort[0] in (
            self.COL_ANSWERABLE,
            self.COL_STATUS,
            self.COL_FLAG,
        )

    # filtering and sorting
    def set_filter(self, spec: QuestionFilter) -> None:
        self.filter = spec
        self.refresh_filter()

    def refresh_filter(self) -> None:
        self.beginResetModel()
        self._refilter()
        self.endResetModel()

    def _passes(self, s: Summary) -> bool:
        f = self.filter
        if f.text:
            haystack = f"{s.id} {s.text}".casefold()
            if not all(word in haystack for word in f.text.casefold().split()):
                return False
        if f.unreviewed and s.status == DONE:
            return False
        if f.disputed and not s.disputed:
            return False
        if f.answerable is not None and s.answerable != f.answerable:
            return False
        if f.misses:
            found = self._found(s.pk)
            if found is None or found[0] >= found[1]:
                return False
        return True

    def _key(self, column: int) -> Callable[[Summary], object]:
        if column == self.COL_ID:
            return lambda s: _natural(s.id)
        if column == self.COL_TEXT:
            return lambda s: s.text.casefold()
        if column == self.COL_ANSWERABLE:
            return lambda s: s.answerable
        if column == self.COL_STATUS:
            return lambda s: review.STATUSES.index(s.status) if s.status in review.STATUSES else -1
        if column == self.COL_FOUND:

            def found(s: Summary) -> float:
                value = self._found(s.pk)
                return -1.0 if value is None else value[0] / value[1]

            return found
        return lambda s: s.disputed

    def _refilter(self) -> None:
        order = [i for i, s in enumerate(self._rows) if self._passes(s)]
        if self._sort is not None:
            column, direction = self._sort
            key = self._key(column)
            order.sort(
                key=lambda i: key(self._rows[i]),
                reverse=direction == Qt.SortOrder.DescendingOrder,
            )
        self._order = order
        self._row_of = {self._rows[i].pk: row for row, i in enumerate(order)}
        self._fetched = min(self.PAGE, len(order))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort = (column, order)
        self.refresh_filter()

    # lazy fetching
    def canFetchMore(self, parent=ROOT) -> bool:
        return not parent.isValid() and self._fetched < len(self._order)

    def fetchMore(self, parent=ROOT) -> None:
        if parent.isValid():
            return
        more = min(self.PAGE, len(self._order) - self._fetched)
        if more <= 0:
            return
        self.beginInsertRows(QModelIndex(), self._fetched, self._fetched + more - 1)
        self._fetched += more
        self.endInsertRows()

    def row_of(self, pk: int) -> int:
        """The row showing a question, fetching up to it; -1 when filtered out."""
        row = self._row_of.get(pk, -1)
        while row >= self._fetched and self.canFetchMore():
            self.fetchMore()
        return row

    def pk_at(self, row: int) -> int | None:
        if 0 <= row < len(self._order):
            return self._rows[self._order[row]].pk
        return None

    def order(self) -> list[int]:
        """Question pks in the list's order (filtered and sorted), fetched or not."""
        return [self._rows[i].pk for i in self._order]

    def all_order(self) -> list[int]:
        return [s.pk for s in self._rows]

    def summary(self, pk: int) -> Summary | None:
        i = self._at.get(pk)
        return self._rows[i] if i is not None else None

    def total(self) -> int:
        return len(self._rows)

    def visible_count(self) -> int:
        return len(self._order)

    def done_count(self) -> int:
        return sum(1 for s in self._rows if s.status == DONE)

    # table
    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else self._fetched

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else self.COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                self.COL_ID: self.tr("ID"),
                self.COL_TEXT: self.tr("Question"),
                self.COL_ANSWERABLE: self.tr("Ans."),
                self.COL_STATUS: "√",
                self.COL_FOUND: f"@{self.k}",
                self.COL_FLAG: "※",
            }.get(section)
        if role == Qt.ItemDataRole.ToolTipRole:
            return {
                self.COL_ANSWERABLE: self.tr("Answerable, or to be abstained on"),
                self.COL_STATUS: self.tr(
                    "Your review: untouched, in progress (•) or done (√: answerability "
                    "settled and every evidence item has a role)"
                ),
                self.COL_FOUND: self.tr(
                    "Evidence items the chosen system finds in its top {k}, of all items"
                ).format(k=self.k),
                self.COL_FLAG: self.tr("Open disagreements between reviewers"),
            }.get(section)
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= self._fetched:
            return None
        s = self._rows[self._order[index.row()]]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(s, column)
        if role == self.PkRole:
            return s.pk
        if role == self.SummaryRole:
            return s
        if role == self.SortRole:
            return self._key(column)(s)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == self.COL_TEXT:
                return s.text
            if column == self.COL_STATUS:
                return terms.status(s.status)
            if column == self.COL_FLAG and s.disputed:
                return self.tr("{n} open disagreements").format(n=s.disputed)
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == self.COL_FOUND:
                found = self._found(s.pk)
                if found:
                    return QBrush(
                        GREEN if found[0] == found[1] else RED if found[0] == 0 else AMBER
                    )
            if column == self.COL_ANSWERABLE and not s.answerable:
                return QBrush(AMBER)
            if column == self.COL_FLAG:
                return QBrush(RED)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            self.COL_ANSWERABLE,
            self.COL_STATUS,
            self.COL_FOUND,
            self.COL_FLAG,
        ):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def _display(self, s: Summary, column: int):
        if column == self.COL_ID:
            return s.id
        if column == self.COL_TEXT:
            return s.text.replace("\n", " ")
        if column == self.COL_ANSWERABLE:
            return "√" if s.answerable else self.tr("abstain")
        if column == self.COL_STATUS:
            return {review.IN_PROGRESS: "•", DONE: "√"}.get(s.status, "")
        if column == self.COL_FOUND:
            found = self._found(s.pk)
            if found is None:
                return "–" if self.loaded and s.items == 0 else ""
            return f"{found[0]}/{found[1]}"
        if column == self.COL_FLAG:
            return f"※{s.disputed}" if s.disputed else ""
        return None


# -- one system's top K -------------------------------------------------------------------------


class RankingModel(QAbstractTableModel):
    """One system's top K. The passage cell has two lines: its id (with the evidence item it
    stands for when it hits one through an alternative) and where it comes from."""

    COL_RANK, COL_MARK, COL_SCORE, COL_PASSAGE, COL_TEXT = range(5)
    COLUMNS = 5
    RowRole = USER
    HtmlRole = USER + 1
    SNIPPET = 320  # characters of passage text in a row; the viewer below shows it whole

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[RankedRow] = []
        self.items: list[ItemState] = []
        self._html: list[str] = []
        self._terms: list[str] = []

    def set_rows(
        self, rows: Sequence[RankedRow], items: Sequence[ItemState], terms_: Sequence[str]
    ) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.items = list(items)
        self._terms = list(terms_)
        self._html = [""] * len(self.rows)
        self.endResetModel()

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

    def mark(self, r: RankedRow) -> str:
        if r.items:
            return "●" if r.primary else "◐"
        if r.proposed_for:
            return "◌"
        return "○"

    def evidence_text(self, r: RankedRow) -> str:
        """The evidence items a row finds: their ids, '→ id' through an alternative."""
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
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        r = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.COL_RANK:
                return r.rank
            if column == self.COL_MARK:
                return self.mark(r)
            if column == self.COL_SCORE:
                return "" if r.score is None else f"{r.score:.2f}"
            if column == self.COL_PASSAGE:
                evidence = self.evidence_text(r)
                first = r.passage_id
                if evidence and evidence != r.passage_id:
                    first += " " + evidence.replace(r.passage_id, "").strip(" ,")
                return f"{first}\n{review.source_label(r.title, r.meta)}"
            if column == self.COL_TEXT:
                text = r.text.replace("\n", " ")
                return text[: self.SNIPPET]
        if role == self.HtmlRole and column == self.COL_TEXT:
            if not self._html[index.row()]:
                self._html[index.row()] = highlighted_html(
                    r.text.replace("\n", " "), self._terms, self.SNIPPET
                )
            return self._html[index.row()]
        if role == self.RowRole:
            return r
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == self.COL_MARK:
                if r.items:
                    return self.tr("Evidence") if r.primary else self.tr("Alternative evidence")
                if r.proposed_for:
                    return self.tr(
                        "Proposed as an alternative for {passage}; not in force yet"
                    ).format(passage=r.proposed_for)
                if r.not_evidence:
                    return self.tr("Judged not evidence")
                return self.tr("Not evidence")
            if column == self.COL_PASSAGE:
                parts = [r.passage_id, r.title or ""]
                if r.score is not None:
                    parts.append(self.tr("score {score:.3f}").format(score=r.score))
                parts += [f"{k}: {v}" for k, v in r.meta.items()]
                return "\n".join(p for p in parts if p)
            if column == self.COL_TEXT:
                return r.text[:2000]
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == self.COL_MARK:
                return QBrush(GREEN if r.items else AMBER if r.proposed_for else GREY)
            if r.not_evidence:
                return QBrush(GREY)
        if role == Qt.ItemDataRole.BackgroundRole and r.items:
            return QBrush(HIT)
        if role == Qt.ItemDataRole.FontRole and r.not_evidence and column == self.COL_PASSAGE:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            self.COL_RANK,
            self.COL_MARK,
            self.COL_SCORE,
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


# -- the gold evidence --------------------------------------------------------------------------


class EvidenceModel(QAbstractTableModel):
    """Evidence items with their role and, per shown system, where they are found. In compare
    mode an item one system finds at K and the other misses is coloured in both columns."""

    COL_MARK, COL_ROLE, COL_PASSAGE, COL_FIRST_SYSTEM = range(4)
    ItemRole = USER
    ContrastRole = USER + 1  # True when the shown systems disagree on finding the item at K

    def __init__(self, parent=None):
        super().__init__(parent)
        self.items: list[ItemState] = []
        self.systems: list[str] = []
        self.k = 5
        self.reviewer = ""
        self.texts: dict[int, str] = {}

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

    def item(self, row: int) -> ItemState | None:
        return self.items[row] if 0 <= row < len(self.items) else None

    def rowCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent=ROOT) -> int:
        return 0 if parent.isValid() else self.col_text + 1

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
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

    def found(self, item: ItemState, system: str) -> Found:
        return item.found.get(system, Found(None, None, False))

    def contrast(self, item: ItemState) -> bool:
        if len(self.systems) < 2:
            return False
        return len({self.found(item, s).at(self.k) for s in self.systems}) > 1

    def status_text(self, item: ItemState, system: str) -> str:
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
        if not index.isValid() or index.row() >= len(self.items):
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
            return item.primary_id
        if system is not None:
            return self.status_text(item, system)
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


# -- metrics ------------------------------------------------------------------------------------


class MetricsModel(QAbstractTableModel):
    COL_SYSTEM, COL_EVALUATED, COL_FIRST_MEASURE = range(3)
    SystemRole = USER

    def __init__(self, parent=None):
        super().__init__(parent)
        self.board: Scoreboard | None = None
        self.labels: list[str] = []
        self._means: dict[str, dict[str, float | None]] = {}
        self._best: dict[str, float] = {}

    def set_board(self, board: Scoreboard | None) -> None:
        self.beginResetModel()
        self.board = board
        self.labels = list(board.labels) if board else []
        self._recompute()
        self.endResetModel()

    def refresh(self) -> None:
        """The board's sums moved (one question was rescored): new values, same shape."""
        self._recompute()
        if self.board and self.board.systems:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self.board.systems) - 1, self.columnCount() - 1)
            )

    def _recompute(self) -> None:
        self._means = {s: self.board.means(s) for s in self.board.systems} if self.board else {}
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
            if role == Qt.ItemDataRole.DisplayRole:
                return system
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
        if role == Qt.ItemDataRole.FontRole and value is not None and len(self._means) > 1:
            if abs(value - self._best.get(label, -1)) < 1e-12:
                font = QFont()
                font.setBold(True)
                return font
        return None


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


# -- corpus search ------------------------------------------------------------------------------


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
        self.beginInsertRows(QModelIndex(), self._fetched, self._fetched + more - 1)
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
