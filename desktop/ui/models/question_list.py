"""The question list: every question with its status, filtered and sorted here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, Qt
from PySide6.QtGui import QBrush

from desktop import review
from desktop.review import DONE, Summary
from desktop.ui import terms
from desktop.ui.models.base import (
    AMBER,
    GREEN,
    RED,
    ROOT,
    USER,
    natural,
)


@dataclass
class QuestionFilter:
    text: str = ""
    misses: bool = False  # has an evidence item missed at K by the chosen system
    unreviewed: bool = False  # not done by this reviewer
    disputed: bool = False  # has an open disagreement
    answerable: bool | None = None  # None: both
    unjudged: bool = False  # its pool has unjudged passages left

    def uses_scores(self) -> bool:
        return self.misses

    def uses_summaries(self) -> bool:
        return self.unreviewed or self.disputed or self.answerable is not None or self.unjudged


class QuestionListModel(QAbstractTableModel):
    """Every question with its status, filtered and sorted here (not by a proxy) so that the
    view can fetch the filtered rows lazily, a page at a time."""

    COL_ID, COL_TEXT, COL_ANSWERABLE, COL_STATUS, COL_FOUND, COL_FLAG, COL_POOL = range(7)
    COLUMNS = 7
    SortRole = USER
    PkRole = USER + 1
    SummaryRole = USER + 2
    PAGE = 500
    ROLES = frozenset(
        (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
            Qt.ItemDataRole.ForegroundRole,
            Qt.ItemDataRole.TextAlignmentRole,
            SortRole,
            PkRole,
            SummaryRole,
        )
    )

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[Summary] = []
        self._at: dict[int, int] = {}  # question pk -> index in _rows
        self._order: list[int] = []  # indices in _rows, filtered and sorted
        self._row_of: dict[int, int] = {}  # question pk -> row in _order
        # The pks in _order, made when the order changes: every question key asks for them
        # (its neighbours, the next one), and making them each time cost 0.3 ms at 5,000.
        self._pks: tuple[int, ...] = ()
        self._fetched = 0
        self.filter = QuestionFilter()
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._found: Callable[[int], tuple[int, int] | None] = lambda pk: None
        self.k = 5
        self.loaded = False  # summaries from a full pass have arrived
        # Ids wider than the ID column are cut in the middle (set_id_room), made once per
        # question: the view's own elision cuts their ends, and the ends tell them apart
        # ("질문-2024-00…" on every row).
        self._id_room: Callable[[str], str] | None = None
        self._ids_shown: dict[int, str] = {}

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

    def set_id_room(self, elide: Callable[[str], str] | None) -> None:
        """How an id too wide for its column is shown (None: as it is, all fit)."""
        if elide is None and self._id_room is None:
            return  # every id shown whole, as before: nothing to repaint
        self._id_room, self._ids_shown = elide, {}
        if self._fetched:
            self.dataChanged.emit(
                self.index(0, self.COL_ID), self.index(self._fetched - 1, self.COL_ID)
            )

    def _changed_all(self) -> None:
        if self._fetched:
            self.dataChanged.emit(self.index(0, 0), self.index(self._fetched - 1, self.COLUMNS - 1))

    def _sort_uses_summaries(self) -> bool:
        return bool(self._sort) and self._sort[0] in (
            self.COL_ANSWERABLE,
            self.COL_STATUS,
            self.COL_FLAG,
            self.COL_POOL,
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
            if not all(word in haystack for word in review.search_terms(f.text.casefold())):
                return False
        if f.unreviewed and s.status == DONE:
            return False
        if f.disputed and not s.disputed:
            return False
        if f.answerable is not None and s.answerable != f.answerable:
            return False
        if f.unjudged and s.unjudged == 0:  # not counted yet (-1): kept
            return False
        if f.misses:
            found = self._found(s.pk)
            if found is None or found[0] >= found[1]:
                return False
        return True

    def _key(self, column: int) -> Callable[[Summary], object]:
        if column == self.COL_ID:
            return lambda s: natural(s.id)
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
        if column == self.COL_POOL:
            return lambda s: s.unjudged
        # the disagreement queue's order: more reviewers split, more moved metrics, more open
        return lambda s: (s.dispute_rank, s.disputed)

    def _refilter(self) -> None:
        order = [i for i, s in enumerate(self._rows) if self._passes(s)]
        if self._sort is None and self.filter.disputed:
            # Only disagreements, no order chosen: the queue, the one that matters most first.
            key = self._key(self.COL_FLAG)
            order.sort(key=lambda i: key(self._rows[i]), reverse=True)
        if self._sort is not None:
            column, direction = self._sort
            key = self._key(column)
            order.sort(
                key=lambda i: key(self._rows[i]),
                reverse=direction == Qt.SortOrder.DescendingOrder,
            )
        self._order = order
        self._pks = tuple(self._rows[i].pk for i in order)
        self._row_of = {pk: row for row, pk in enumerate(self._pks)}
        self._fetched = min(self.PAGE, len(order))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        # column -1: the view's "no sort indicator", the questions' own order
        self._sort = (column, order) if column >= 0 else None
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
        self.beginInsertRows(ROOT, self._fetched, self._fetched + more - 1)
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
        return list(self._pks)

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
                self.COL_POOL: self.tr("Pool"),
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
                self.COL_POOL: self.tr(
                    "Unjudged passages in the systems' top D for this question (the pool)"
                ),
            }.get(section)
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        # Views ask for a dozen roles a cell on every paint: the unused ones leave at once.
        if role not in self.ROLES or not index.isValid() or index.row() >= self._fetched:
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
            if column == self.COL_ID and self._id_room is not None:
                return s.id
            if column == self.COL_TEXT:
                return s.text
            if column == self.COL_STATUS:
                return terms.status(s.status)
            if column == self.COL_FLAG and s.disputed:
                return self.tr("{n} open disagreements").format(n=s.disputed)
            if column == self.COL_POOL and s.unjudged > 0:
                return self.tr("{n} unjudged passages in the pool").format(n=s.unjudged)
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
            self.COL_POOL,
        ):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def _display(self, s: Summary, column: int):
        if column == self.COL_ID:
            if self._id_room is None:
                return s.id
            shown = self._ids_shown.get(s.pk)
            if shown is None:
                shown = self._ids_shown[s.pk] = self._id_room(s.id)
            return shown
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
        if column == self.COL_POOL:
            return str(s.unjudged) if s.unjudged > 0 else ""
        return None
