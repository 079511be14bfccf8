"""The question list: a search box, filters, every question with its status, and a count."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QGridLayout, QLabel, QVBoxLayout, QWidget

from desktop.ui.common import review_table, set_review_model, shrinkable, size_columns
from desktop.ui.models import QuestionFilter, QuestionListModel
from desktop.ui.session import ReviewSession
from desktop.ui.widgets import CommittedLineEdit, opaque

# What the question column always has room for: six Hangul syllables, the widest characters
# a question is written in (about two words).
QUESTION_SHOWN = "가나다라마바"
# The ID column's width in average characters: at least, and at most (longer ids are elided).
ID_COLUMN_CHARS = (6, 14)


class QuestionListPanel(QWidget):
    chosen = Signal(int)  # the reviewer picked question pk in the list
    countsChanged = Signal(int, int)  # (done, total), for the progress bar

    def __init__(self, session: ReviewSession, parent=None):
        super().__init__(parent)
        self.session = session
        self._selecting = False
        opaque(self)  # the list scrolled to a question repaints the list, not the window
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(self.tr("<b>Questions</b>")))
        self.filter_box = CommittedLineEdit(self)
        self.filter_box.setPlaceholderText(self.tr("Search questions…"))
        self.filter_box.setClearButtonEnabled(True)
        self.filter_box.committed.connect(self.apply_filter)
        layout.addWidget(self.filter_box)
        layout.addLayout(self._filters())
        self.model = QuestionListModel(self)
        self.table = review_table(
            self,
            coloured=(QuestionListModel.COL_FOUND,),  # found at K: green, amber, red
        )
        set_review_model(self.table, self.model)
        self.table.setSortingEnabled(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)  # question text reads on
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        size_columns(
            self.table,
            QuestionListModel.COL_TEXT,
            {
                QuestionListModel.COL_ID: ID_COLUMN_CHARS[0],
                QuestionListModel.COL_ANSWERABLE: 4,
                QuestionListModel.COL_STATUS: 2,
                QuestionListModel.COL_FOUND: 5,
                QuestionListModel.COL_FLAG: 3,
                QuestionListModel.COL_POOL: 3,
            },
        )
        self._keep_room()
        self.table.selectionModel().currentRowChanged.connect(self._clicked)
        # Sorting by a header click or a filter resets the list: keep the shown question.
        self.model.modelReset.connect(self.after_reset)
        layout.addWidget(self.table, 1)
        self.count = shrinkable(QLabel())
        layout.addWidget(self.count)
        session.dataReloaded.connect(self._reloaded)
        session.questionChanged.connect(self.select)
        session.kChanged.connect(self._found_changed)
        session.systemsChanged.connect(self._found_changed)
        session.scoresChanged.connect(self._scores_changed)
        session.blindChanged.connect(self._blind_changed)
        session.poolCounted.connect(lambda: self._scores_changed(-1))

    def _keep_room(self) -> None:
        """The list never so narrow that the question column's header is cut, or that it
        shows fewer than QUESTION_SHOWN characters of a Korean question (its short header
        alone left a character or two at 1366x768)."""
        header = self.table.horizontalHeader()
        title = str(self.model.headerData(QuestionListModel.COL_TEXT, Qt.Orientation.Horizontal))
        self.table.setMinimumWidth(
            sum(header.sectionSize(c) for c in range(self.model.columnCount()))
            - header.sectionSize(QuestionListModel.COL_TEXT)
            + max(
                header.fontMetrics().horizontalAdvance(title),
                self.table.fontMetrics().horizontalAdvance(QUESTION_SHOWN + "…"),
            )
            + 12
            + self.table.style().pixelMetric(self.table.style().PixelMetric.PM_ScrollBarExtent)
            + 2 * self.table.frameWidth()
        )

    def _filters(self) -> QGridLayout:
        grid = QGridLayout()
        self.only_misses = QCheckBox(self.tr("Misses at K"))
        self.only_unreviewed = QCheckBox(self.tr("Not done"))
        self.only_disputed = QCheckBox(self.tr("Disagreements"))
        self.only_unjudged = QCheckBox(self.tr("Unjudged left"))
        self.only_unjudged.setToolTip(self.tr("Questions whose pool has unjudged passages"))
        self.answerable_box = QComboBox()
        self.answerable_box.addItem(self.tr("All questions"), None)
        self.answerable_box.addItem(self.tr("Answerable"), True)
        self.answerable_box.addItem(self.tr("To abstain on"), False)
        for widget in (
            self.only_misses,
            self.only_unreviewed,
            self.only_disputed,
            self.only_unjudged,
        ):
            widget.toggled.connect(self.apply_filter)
        self.answerable_box.currentIndexChanged.connect(self.apply_filter)
        grid.addWidget(self.only_misses, 0, 0)
        grid.addWidget(self.only_unreviewed, 0, 1)
        grid.addWidget(self.only_disputed, 1, 0)
        grid.addWidget(self.answerable_box, 1, 1)
        grid.addWidget(self.only_unjudged, 2, 0)
        return grid

    # -- following the session -------------------------------------------------------------

    def _reloaded(self) -> None:
        # set_questions filters and sorts once; nothing else here may do it again (5,000
        # questions at open).
        self.model.set_questions(self.session.questions)
        self.model.set_found(self.session.found, self.session.k)
        self._disputes_allowed(not self.session.blind)
        self._fit_ids()

    def _fit_ids(self) -> None:
        """The ID column as wide as the widest id, up to ID_COLUMN_CHARS (six characters
        for every project cut MS MARCO's seven-digit ids to '104…'); a longer id is cut in
        the middle, and the question column keeps its room (_keep_room)."""
        fm = self.table.fontMetrics()
        char = fm.averageCharWidth()
        least, most = ID_COLUMN_CHARS
        widest = max(
            map(fm.horizontalAdvance, (q["id"] for q in self.session.questions)), default=0
        )
        before = self.table.columnWidth(QuestionListModel.COL_ID)
        chars = max(least, min(most, -(-widest // char)))  # whole characters, rounded up
        size_columns(self.table, QuestionListModel.COL_TEXT, {QuestionListModel.COL_ID: chars})
        if self.table.columnWidth(QuestionListModel.COL_ID) != before:
            self._keep_room()
        room, middle = char * most, Qt.TextElideMode.ElideMiddle
        self.model.set_id_room(
            (lambda text: fm.elidedText(text, middle, room)) if widest > room else None
        )

    def _found_changed(self, *_args) -> None:
        self.model.set_found(self.session.found, self.session.k)
        self.after_reset()

    def _scores_changed(self, pk: int) -> None:
        overview = self.session.overview
        if overview is None:
            return
        if pk < 0:
            self.model.set_summaries(overview.summaries)
            self.model.set_found(self.session.found, self.session.k)
            self.after_reset()
        elif pk in overview.summaries:
            self.model.update_summary(overview.summaries[pk])  # one dataChanged for the row
            self.update_counts()

    def _blind_changed(self, blind: bool) -> None:
        self._disputes_allowed(not blind)
        self.apply_filter()

    def _disputes_allowed(self, allowed: bool) -> None:
        self.only_disputed.setEnabled(allowed)
        self.only_disputed.setToolTip("" if allowed else self.tr("Hidden in blind mode"))

    # -- the list --------------------------------------------------------------------------

    def apply_filter(self, *_args) -> None:
        spec = QuestionFilter(
            text=self.filter_box.text().strip(),
            misses=self.only_misses.isChecked(),
            unreviewed=self.only_unreviewed.isChecked(),
            disputed=self.only_disputed.isChecked() and not self.session.blind,
            answerable=self.answerable_box.currentData(),
            unjudged=self.only_unjudged.isChecked(),
        )
        self.model.set_filter(spec)
        self.after_reset()

    def after_reset(self) -> None:
        """Keep the current question selected after the list was filtered or sorted."""
        self.select(self.session.current_pk)
        self.update_counts()

    def select(self, pk: int | None) -> None:
        if pk is None:
            return
        row = self.model.row_of(pk)
        selection = self.table.selectionModel()
        self._selecting = True
        try:
            if row < 0:
                selection.clearSelection()
            else:
                index = self.model.index(row, QuestionListModel.COL_ID)
                selection.setCurrentIndex(
                    index,
                    selection.SelectionFlag.ClearAndSelect | selection.SelectionFlag.Rows,
                )
                self.table.scrollTo(index)
        finally:
            self._selecting = False

    def _clicked(self, current, _previous=None) -> None:
        if self._selecting or not current.isValid():
            return
        pk = self.model.pk_at(current.row())
        if pk is not None and pk != self.session.current_pk:
            self.chosen.emit(pk)

    def update_counts(self) -> None:
        total = self.model.total()
        self.count.setText(
            self.tr("{shown} of {total} questions").format(
                shown=self.model.visible_count(), total=total
            )
        )
        self.countsChanged.emit(self.model.done_count() if self.model.loaded else 0, total)

    def order(self) -> list[int]:
        """The questions in the order shown (all of them when the filter hides every one)."""
        return self.model.order() or self.model.all_order()

    def focus_filter(self) -> None:
        self.filter_box.setFocus()
        self.filter_box.selectAll()
