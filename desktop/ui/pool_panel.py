"""The pool queue (issue 13): the current question's unjudged passages, those some system has
in its top D that no one judged yet, to be worked through one by one. Across questions it goes
on into the next questions' pools, in the question list's order. Picking a passage shows it in
the reader; after a judgement the next unjudged one is picked by itself."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.review import QuestionView
from desktop.review.suggestions import suggestions
from desktop.review.views import with_pool_excerpts
from desktop.ui.common import review_table, shrinkable, size_columns
from desktop.ui.models.pool import PoolModel, PoolRow
from desktop.ui.session import ReviewSession
from desktop.ui.widgets import HtmlDelegate

EXCERPT_CHARS = 240  # of a passage's text in its row; the reader shows all of it
ACROSS_QUESTIONS = 5  # further questions with unjudged passages shown across questions
ACROSS_LOOKED_AT = 200  # questions looked at for them, at most, per change


class PoolPanel(QWidget):
    passageChosen = Signal(object)  # the PoolRow picked (in the current question)
    questionWanted = Signal(int)  # a passage of another question was picked: show it
    nextQuestionWanted = Signal()  # "next question with unjudged passages"
    countChanged = Signal(int)  # unjudged passages left in the current question
    emptied = Signal()  # a judgement has just taken the current question's last one

    def __init__(self, session: ReviewSession, order: Callable[[], list[int]], parent=None):
        super().__init__(parent)
        self.session = session
        self.order = order  # question pks in the question list's order
        self.active = False  # the reader and the judgement keys follow this panel
        self._selecting = False
        self._wanted: tuple[int, int] | None = None  # (question, passage) to pick next
        self._pending: QuestionView | None = None  # shown while the panel was hidden
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._header())
        self.model = PoolModel(self)
        self.table = review_table(self)
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(
            PoolModel.COL_TEXT, HtmlDelegate(PoolModel.HtmlRole, 1, self.table)
        )
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        size_columns(
            self.table,
            PoolModel.COL_TEXT,
            {
                PoolModel.COL_QUESTION: 8,
                PoolModel.COL_PASSAGE: 12,
                PoolModel.COL_SYSTEMS: 8,
                PoolModel.COL_RANK: 6,
                PoolModel.COL_BY: 14,
                PoolModel.COL_MACHINE: 14,
            },
        )
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        layout.addWidget(self.table, 1)
        layout.addLayout(self._empty_row())
        session.viewChanged.connect(self.show_view)
        session.blindChanged.connect(lambda _blind: self._columns())

    def _header(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.title = shrinkable(QLabel())
        self.title.setTextFormat(Qt.TextFormat.RichText)
        row.addWidget(self.title, 1)
        self.across = QCheckBox(self.tr("Across questions"))
        self.across.setToolTip(self.tr("Go on into the next questions' pools, in list order"))
        self.across.toggled.connect(lambda _on: self.session.refresh())
        self.shuffled = QCheckBox(self.tr("My own order"))
        self.shuffled.setToolTip(
            self.tr(
                "A shuffled order fixed for you, against position bias (else: most systems "
                "first, then best rank)"
            )
        )
        self.shuffled.setChecked(self.session.pool_shuffled)
        self.shuffled.toggled.connect(lambda on: self.session.set_pool(shuffled=on))
        self.depth = QSpinBox()
        self.depth.setRange(1, 1000)
        self.depth.setValue(self.session.pool_depth)
        self.depth.setPrefix(self.tr("Depth "))
        self.depth.setToolTip(self.tr("The pool: every passage in some system's top D"))
        self.depth.editingFinished.connect(lambda: self.session.set_pool(depth=self.depth.value()))
        for widget in (self.across, self.shuffled, self.depth):
            row.addWidget(widget)
        return row

    def _empty_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.empty = shrinkable(QLabel())
        self.empty.setWordWrap(True)
        row.addWidget(self.empty, 1)
        self.next_button = QPushButton(self.tr("Next question with unjudged passages"))
        self.next_button.setAutoDefault(False)
        self.next_button.clicked.connect(self.nextQuestionWanted.emit)
        row.addWidget(self.next_button)
        return row

    # -- following the session -------------------------------------------------------------

    def show_view(self, view: QuestionView, keep: bool) -> None:
        if not self.isVisible():
            # Behind the rankings: the count is kept, the queue is filled when it is shown.
            self._pending = view
            self.countChanged.emit(len(view.pool))
            return
        self._pending = None
        before = self.current() if keep else None
        before_row = self.table.currentIndex().row()
        left = self.left()
        rows = self._rows(view)
        self.model.set_rows(rows, self.session.blind, self.session.terms)
        self._columns()
        own = sum(1 for r in rows if r.question_pk == view.pk)
        self._say(view, own)
        if keep and left and not own:
            self.emptied.emit()
        row = self._row_to_pick(before, before_row)
        self._select(row)
        picked = self.current()
        if not (keep and self.active) or picked == before:
            return
        if picked is not None and picked.question_pk != view.pk:
            # This question's pool is done: on to the next one's, after this change is shown.
            QTimer.singleShot(0, lambda: self._want(picked))
        elif picked is not None:
            self.passageChosen.emit(picked)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._pending is not None:
            self.show_view(self._pending, False)

    def _row_to_pick(self, before: PoolRow | None, before_row: int) -> int:
        if not self.model.rows:
            return -1
        if self._wanted is not None:
            row = self.model.row_of(*self._wanted)
            self._wanted = None
            if row >= 0:
                return row
        if before is not None:
            row = self.model.row_of(before.question_pk, before.passage_pk)
            # Judged: the passage after it has moved up into its row.
            return row if row >= 0 else min(max(before_row, 0), len(self.model.rows) - 1)
        return 0

    def _rows(self, view: QuestionView) -> list[PoolRow]:
        pools = [(view.pk, view.id, view.pool)]
        if self.across.isChecked():
            pools += self._next_pools(view.pk)
        # The current question's excerpts come in its view; the next questions' (the
        # "across" option) are read here.
        others = [e.passage_pk for _, _, entries in pools[1:] for e in entries]
        excerpts = dict(with_pool_excerpts(self.session.project, view).excerpts)
        if others:
            excerpts.update(self.session.project.reads.passage_excerpts(others, EXCERPT_CHARS))
        rows = []
        for pk, qid, entries in pools:
            suggested = self._suggestions(view if pk == view.pk else qid)
            for e in self.session.pool_order(qid, entries):
                title, text = excerpts.get(e.passage_pk, ("", ""))
                text = (text or "")[:EXCERPT_CHARS].replace("\n", " ")
                hint = suggested.get((qid, e.passage_id))
                rows.append(PoolRow(pk, qid, e, title or "", text, hint))
        return rows

    def _suggestions(self, question: QuestionView | str) -> dict:
        """The machines' verdicts on the question's passages (none in blind mode): the current
        question's come in its view; the next questions' (the "across" option) are read here."""
        if self.session.blind:
            return {}
        if isinstance(question, QuestionView):
            return question.suggestions
        return suggestions(self.session.project.reads.judgements(question_id=question))

    def _next_pools(self, current: int) -> list[tuple[int, str, list]]:
        """The pools of the next questions that have unjudged passages, in list order."""
        order = self.order()
        start = order.index(current) + 1 if current in order else 0
        summaries = self.session.overview.summaries if self.session.overview else {}
        out = []
        for pk in order[start : start + ACROSS_LOOKED_AT]:
            summary = summaries.get(pk)
            if summary is not None and summary.unjudged == 0:
                continue  # known to be empty: not read again
            question = self.session.by_pk[pk]
            entries = self.session.pool_of(question)
            if entries:
                out.append((pk, question["id"], entries))
                if len(out) == ACROSS_QUESTIONS:
                    break
        return out

    def _columns(self) -> None:
        self.table.setColumnHidden(PoolModel.COL_QUESTION, not self.across.isChecked())
        self.table.setColumnHidden(PoolModel.COL_BY, self.session.blind)
        suggested = any(r.suggestion for r in self.model.rows)
        self.table.setColumnHidden(PoolModel.COL_MACHINE, self.session.blind or not suggested)

    def _say(self, view: QuestionView, own: int) -> None:
        depth = self.session.pool_depth
        # Rich text: an id that looks like markup is shown as the text it is.
        self.title.setText(
            self.tr("<b>Unjudged pool</b> of {question}: {n} left (top {depth})").format(
                question=html.escape(view.id), n=own, depth=depth
            )
        )
        if own:
            self.empty.setText(
                self.tr("Judge each passage: E core, R supporting, A alternative, X not evidence")
            )
        else:
            self.empty.setText(
                self.tr(
                    "Every passage in the systems' top {depth} for this question is judged."
                ).format(depth=depth)
            )
        self.next_button.setVisible(not own)
        self.countChanged.emit(own)

    # -- picking ---------------------------------------------------------------------------

    def _select(self, row: int) -> None:
        self._selecting = True
        try:
            if row < 0:
                self.table.clearSelection()
                self.table.setCurrentIndex(self.model.index(-1, 0))
            else:
                self.table.selectRow(row)
                self.table.scrollTo(self.model.index(row, 0))
        finally:
            self._selecting = False

    def _row_changed(self, current, _previous=None) -> None:
        if self._selecting or not current.isValid():
            return
        self.choose(current.row())

    def _want(self, row: PoolRow) -> None:
        self._wanted = (row.question_pk, row.passage_pk)
        self.questionWanted.emit(row.question_pk)

    def choose(self, row: int) -> None:
        """The reviewer picked a row: read it, switching question first if it is another's."""
        picked = self.model.row(row)
        if picked is None:
            return
        if self.table.currentIndex().row() != row:
            self._select(row)
        if picked.question_pk != self.session.current_pk:
            self._want(picked)
        else:
            self.passageChosen.emit(picked)

    def current(self) -> PoolRow | None:
        return self.model.row(self.table.currentIndex().row())

    def show_current(self) -> None:
        """Tell the reader which passage is picked (the panel was brought forward)."""
        picked = self.current()
        if picked is not None and picked.question_pk == self.session.current_pk:
            self.passageChosen.emit(picked)

    def left(self) -> int:
        """Unjudged passages left in the current question."""
        return sum(1 for r in self.model.rows if r.question_pk == self.session.current_pk)
