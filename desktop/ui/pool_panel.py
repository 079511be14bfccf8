"""The pool queue (issue 13): the current question's unjudged passages, those some system has
in its top D that no one judged yet, to be worked through one by one. Across questions it goes
on into the next questions' pools, in the question list's order. Picking a passage shows it in
the reader; after a judgement the next unjudged one is picked by itself.

The next questions' pools are read on a worker (operations.next_pools_op) and kept while they
hold: a judgement changes only its own question's pool, which comes in its view; a reload,
a merge or import, or a change of depth, blind mode or reviewer drops them all."""

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
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop import review
from desktop.review import QuestionView
from desktop.ui import operations
from desktop.ui.common import review_table, shrinkable, size_columns
from desktop.ui.models.pool import PoolModel, PoolRow
from desktop.ui.operations import NextPool
from desktop.ui.pool_ahead import CellsAfterKey
from desktop.ui.session import ReviewSession
from desktop.ui.widgets import HtmlDelegate, LayoutSlot
from desktop.ui.worker import Worker, wait_shown

EXCERPT_CHARS = 240  # of a passage's text in its row; the reader shows all of it
ACROSS_QUESTIONS = 5  # further questions with unjudged passages shown across questions
ACROSS_LOOKED_AT = 200  # questions looked at for them, at most, per change


class PoolPanel(QWidget):
    passageChosen = Signal(object)  # the PoolRow picked (in the current question)
    questionWanted = Signal(int)  # a passage of another question was picked: show it
    nextQuestionWanted = Signal()  # "next question with unjudged passages"
    countChanged = Signal(int)  # unjudged passages left in the current question
    emptied = Signal()  # a judgement has just taken the current question's last one

    def __init__(
        self, session: ReviewSession, order: Callable[[], list[int]], worker: Worker, parent=None
    ):
        super().__init__(parent)
        self.session = session
        self.order = order  # question pks in the question list's order
        self.worker = worker  # reads the next questions' pools (operations.next_pools_op)
        self._next: dict[int, NextPool] = {}  # question pk -> its pool, while it holds
        self._generation = 0  # counts the times _next was dropped: older reads are stale
        self._reviewers = tuple(session.reviewers)  # whose lines _next was read with
        self._asked: tuple[QuestionView, bool] | None = None  # shown when its pools arrive
        self.active = False  # the reader and the judgement keys follow this panel
        self._selecting = False
        self._wanted: tuple[int, int] | None = None  # (question, passage) to pick next
        self._pending: QuestionView | None = None  # shown while the panel was hidden
        # (judged row, its index, the row picked at the key, the view's items then): the
        # queue moved on at the key, before the judged question's build came back
        self._ahead: tuple[PoolRow, int, PoolRow, list] | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._header())
        self.model = PoolModel(self)
        self.table = review_table(self)
        self.table.setModel(self.model)
        delegate = HtmlDelegate(PoolModel.HtmlRole, 1, self.table)
        self.table.setItemDelegateForColumn(PoolModel.COL_TEXT, delegate)
        # The cells the next key shows, drawn once the queue or its pick changed was painted.
        self.after_key = CellsAfterKey(self.table, delegate, PoolModel.COL_TEXT, self)
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
        self.table.selectionModel().currentRowChanged.connect(self.after_key.schedule)
        layout.addWidget(self.table, 1)
        layout.addLayout(self._empty_row())
        session.viewChanged.connect(self.show_view)
        session.blindChanged.connect(lambda _blind: self._columns())
        # What the next questions' pools hold depends on these; a judgement only on its own.
        session.dataReloaded.connect(self.forget)
        for changed in (session.blindChanged, session.reviewerChanged, session.poolDepthChanged):
            changed.connect(lambda _value: self.forget())
        session.judgementsChanged.connect(self._judged)

    def _header(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.title = shrinkable(QLabel())
        self.title.setTextFormat(Qt.TextFormat.RichText)
        # Its count changes with every key: the slot keeps that from laying the panel out.
        row.addWidget(LayoutSlot(self.title), 1)
        self.across = QCheckBox(self.tr("Across questions"))
        self.across.setToolTip(self.tr("Go on into the next questions' pools, in list order"))
        self.across.toggled.connect(self._across_toggled)
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

    def _across_toggled(self, _on: bool) -> None:
        # The current question's view is the same: only the queue is shown again.
        if self.session.view is not None:
            self.show_view(self.session.view, True)

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
        missing, wanted = self._missing(view.pk) if self.across.isChecked() else ([], 0)
        unread = review.unread_pool(view)  # built while the queue was behind the rankings
        if missing or unread:
            self._ask(view, keep, missing, wanted, unread)
            return
        self._asked = None
        self._fill(view, keep)

    def _fill(self, view: QuestionView, keep: bool) -> None:
        ahead, self._ahead = self._ahead, None
        before = self.current() if keep else None
        before_row = self.table.currentIndex().row()
        shown = before  # the passage the reader has, or is reading
        if ahead is not None and keep and before == ahead[2]:
            # Moved on at the key: pick as the judged passage's rows would have, so that a
            # queue that did not change as foreseen is followed still.
            before, before_row = ahead[0], ahead[1]
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
        if not (keep and self.active) or picked == shown and not read_anew(ahead, view):
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
        blind = self.session.blind
        pools = [(view.pk, view.id, view.pool, view.excerpts, {} if blind else view.suggestions)]
        if self.across.isChecked():
            pools += [
                (p.pk, p.id, p.entries, p.excerpts, {} if blind else p.suggestions)
                for p in self._next_pools(view.pk)
            ]
        rows = []
        for pk, qid, entries, excerpts, suggested in pools:
            for e in self.session.pool_order(qid, entries):
                title, text = excerpts.get(e.passage_pk, ("", ""))
                text = (text or "")[:EXCERPT_CHARS].replace("\n", " ")
                hint = suggested.get((qid, e.passage_id))
                rows.append(PoolRow(pk, qid, e, title or "", text, hint))
        return rows

    # -- the next questions' pools, read on the worker ----------------------------------------

    def _looked_at(self, current: int) -> list[int]:
        """The questions after the current one, in list order, not known to be empty."""
        order = self.order()
        start = order.index(current) + 1 if current in order else 0
        summaries = self.session.overview.summaries if self.session.overview else {}
        return [
            pk
            for pk in order[start : start + ACROSS_LOOKED_AT]
            if summaries.get(pk) is None or summaries[pk].unjudged != 0
        ]

    def _next_pools(self, current: int) -> list[NextPool]:
        """The kept pools of the next questions that have unjudged passages, in list order."""
        out = []
        for pk in self._looked_at(current):
            kept = self._next.get(pk)
            if kept is not None and kept.entries:
                out.append(kept)
                if len(out) == ACROSS_QUESTIONS:
                    break
        return out

    def _missing(self, current: int) -> tuple[list[int], int]:
        """The questions still to read before the queue across questions can be shown, and
        how many of them must have passages left (those found before them count)."""
        found = 0
        looked_at = self._looked_at(current)
        for n, pk in enumerate(looked_at):
            kept = self._next.get(pk)
            if kept is None:
                return [q for q in looked_at[n:] if q not in self._next], ACROSS_QUESTIONS - found
            found += bool(kept.entries)
            if found == ACROSS_QUESTIONS:
                break
        return [], 0

    def _ask(
        self, view: QuestionView, keep: bool, missing: list[int], wanted: int, unread: list[int]
    ) -> None:
        """Read on the worker, not the GUI thread, what the queue needs before it is shown:
        the excerpts unread of the view's pool and the next questions' pools missing."""
        session = self.session
        asked, generation = (view, keep), self._generation
        self._asked = asked
        self.worker.cancel("pools")
        next_pools = operations.next_pools_op(
            [session.by_pk[pk] for pk in missing],
            wanted + 1,  # one more: moving on to the next question needs no wait
            session.reviewer,
            session.blind,
            session.reviewers,
            session.pool_depth,
            EXCERPT_CHARS,
            session.marks,
        )
        self.worker.start(
            "pools",
            operations.pool_reads_op(unread, next_pools),
            on_done=lambda done: self._arrived(asked, generation, *done.result),
            on_failed=lambda _error: self._arrived(asked, generation, {}, []),
        )

    def _arrived(self, asked: tuple, generation: int, excerpts: dict, pools: list) -> None:
        view, keep = asked
        view.excerpts.update(excerpts)  # kept in the view: not read again
        if generation == self._generation:
            self._next.update((p.pk, p) for p in pools)
        if asked is not self._asked:
            return  # another view was shown since
        self._asked = None
        if generation != self._generation:
            self.show_view(view, keep)
            return
        self._fill(view, keep)  # what could not be read is left out of the queue
        if self.active and not keep:
            self.show_current()  # brought to the front or switched to: the reader follows

    def _judged(self, pk: int) -> None:
        if tuple(self.session.reviewers) != self._reviewers:
            self.forget()  # a new reviewer of the gold: what counts changes everywhere
        else:
            self._next.pop(pk, None)  # its pool comes in its view
        self._move_ahead(pk)

    def _move_ahead(self, pk: int) -> None:
        """The passage picked was just judged: the queue drops it and the next one it holds
        is picked and read now, while the question's build runs on its worker (the build's
        queue is then followed: _fill). Not when the question's pool is done: moving on to
        the next question waits for the build."""
        self._ahead = None
        judged, index, view = self.current(), self.table.currentIndex().row(), self.session.view
        if not self.active or self.pending or judged is None or view is None:
            return
        if judged.question_pk != pk or pk != view.pk or not just_judged(view, judged):
            return
        after = self.after(judged)
        if after is None:
            return
        self._ahead = (judged, index, after, review.reading_items(view))
        self._selecting = True  # the row taken out moves the current one: not a pick
        try:
            drop_laid_out(self.table, self.model, index)
        finally:
            self._selecting = False
        self._select(index)
        self._say(view, self.left())
        self.passageChosen.emit(after)

    def forget(self) -> None:
        """Drop the next questions' pools: they are read again when next shown."""
        self._next.clear()
        self._generation += 1
        self._reviewers = tuple(self.session.reviewers)

    @property
    def moved_on(self) -> bool:
        """The last key's judged passage left the queue and the next one is shown: the
        judged question's build is not waited for."""
        return self._ahead is not None

    @property
    def pending(self) -> bool:
        """A view waits for the next questions' pools (the queue shown is not its own yet)."""
        return self._asked is not None

    def settle(self, msecs: int = 5000) -> bool:
        """Wait until the queue asked for is shown (a key acts on it; tests); True when it is."""
        return wait_shown(self.worker, lambda: self.pending, msecs)

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

    def after(self, row: PoolRow) -> PoolRow | None:
        """The passage a judgement of this one moves on to at the key: the next in its
        question's pool, or None."""
        index = self.model.row_of(row.question_pk, row.passage_pk)
        after = self.model.row(index + 1) if index >= 0 else None
        return after if after is not None and after.question_pk == row.question_pk else None

    def current(self) -> PoolRow | None:
        return self.model.row(self.table.currentIndex().row())

    def show_current(self) -> None:
        """Tell the reader which passage is picked (the panel was brought forward)."""
        if self.pending:
            return  # the rows shown are not the view's yet: picked when they arrive
        picked = self.current()
        if picked is not None and picked.question_pk == self.session.current_pk:
            self.passageChosen.emit(picked)

    def left(self) -> int:
        """Unjudged passages left in the current question."""
        return sum(1 for r in self.model.rows if r.question_pk == self.session.current_pk)


def drop_laid_out(table: QTableView, model: PoolModel, index: int) -> None:
    """Take a row out of the queue and lay the queue out now: Qt's delayed layout of a row
    taken out ran inside the key's paint, and the update it asked for there came as a second
    frame repainting the whole queue and its scroll bar (beside the judged question's build
    by then)."""
    model.drop(index)
    table.doItemsLayout()


def just_judged(view: QuestionView, row: PoolRow) -> bool:
    """The reviewer's own line on the passage, as the key wrote it in the view, takes it out
    of the pool (a role, not evidence, an alternative)."""
    return any(
        view.mine.get((kind, row.passage_id)) for kind in ("role", "not_evidence", "alternative")
    )


def read_anew(ahead: tuple | None, view: QuestionView) -> bool:
    """The passage picked at the key was read with the items before the judgement: read
    again when the judgement changed them (an E makes the judged passage an item, whose span
    its document then marks)."""
    return ahead is not None and review.reading_items(view) != ahead[3]
