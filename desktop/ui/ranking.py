"""The rankings: one panel per system shown, each a title and its top K. In compare mode the
two are stacked, so that each keeps the whole width for the passage text."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import partial

from PySide6.QtCore import QAbstractEventDispatcher, Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop import review
from desktop.review import ItemState, QuestionView, RankedRow
from desktop.ui.cells import draw_rows_ahead
from desktop.ui.common import review_table, set_review_model, shrinkable, size_columns
from desktop.ui.models import RankingModel
from desktop.ui.operations import Changes, Done
from desktop.ui.session import ReviewSession
from desktop.ui.widgets import HtmlDelegate, LayoutSlot, system_colour, text_lines_height
from desktop.ui.worker import Worker

TEXT_LINES = 2  # lines of passage text a ranking row shows; the reader shows all of it
COMPACT_LINES = 1  # in compare mode, where two rankings share the height
FIT_ROWS = 5  # rows a ranking always shows without scrolling (the top 5 at 1366x768)


class RankingPanel(QWidget):
    """One system's top K: a title and a table."""

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = shrinkable(QLabel())
        self.title.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(LayoutSlot(self.title))  # a new title repaints the title alone
        self.model = RankingModel(self)
        self.ahead = RankingModel(self)  # never shown: the next question's rows, drawn ahead
        # The mark keeps its colour (a hit's green) when its row is selected.
        self.table = review_table(self, coloured=(RankingModel.COL_MARK,))
        set_review_model(self.table, self.model)
        self.delegate = HtmlDelegate(RankingModel.HtmlRole, TEXT_LINES, self.table)
        self.table.setItemDelegateForColumn(RankingModel.COL_TEXT, self.delegate)
        self.table.verticalHeader().setDefaultSectionSize(self.row_height(TEXT_LINES))
        self.fit_rows(FIT_ROWS)
        size_columns(
            self.table,
            RankingModel.COL_TEXT,
            {
                RankingModel.COL_RANK: 3,
                RankingModel.COL_MARK: 2,
                RankingModel.COL_SCORE: 5,
                RankingModel.COL_PASSAGE: 12,
            },
        )
        # Scores as printed ("%.2f"), up to three digits before the point and a sign: BM25
        # scores of 100 and more, negative log-probabilities.
        widest = self.table.fontMetrics().horizontalAdvance("-000.00")
        self.table.horizontalHeader().resizeSection(RankingModel.COL_SCORE, widest + 16)
        layout.addWidget(self.table)

    def current_row(self):
        return self.model.row(self.table.currentIndex().row())

    def row_height(self, lines: int) -> int:
        text = max(text_lines_height(self.font(), lines), self.fontMetrics().lineSpacing() * lines)
        return text + (4 if lines == COMPACT_LINES else 6)

    def set_compact(self, compact: bool) -> None:
        """Compare mode: one line a row (the reader shows the whole passage), so that both
        systems' top K fit above it."""
        lines = COMPACT_LINES if compact else TEXT_LINES
        self.delegate.lines = lines
        self.model.set_compact(compact)
        self.table.verticalHeader().setDefaultSectionSize(self.row_height(lines))
        self.fit_rows(FIT_ROWS)

    def draw_ahead(
        self, rows: Sequence[RankedRow], items: Sequence[ItemState], terms_: Sequence[str]
    ) -> None:
        """Draw the text cells of rows about to be shown (a question a key goes to next) into
        the delegate's kept pixmaps, each as this table will paint it once the question is
        shown: its first row selected and current (QTableView's drawCell states)."""
        table = self.table
        if not self.isVisible():
            return
        self.ahead.set_rows(rows, items, terms_)
        # The focus frame is drawn on the current cell, in the column selectRow makes current.
        left = table.horizontalHeader().logicalIndexAt(
            table.viewport().width() if table.isRightToLeft() else 0
        )
        column = RankingModel.COL_TEXT
        draw_rows_ahead(table, self.delegate, self.ahead, column, 0, left == column)

    def fit_rows(self, rows: int) -> None:
        """The table never shorter than its header and `rows` rows: the splitters above and
        below give way instead, so that the top K is read without scrolling."""
        table = self.table
        height = (
            table.horizontalHeader().sizeHint().height()
            + rows * table.verticalHeader().defaultSectionSize()
            + 2 * table.frameWidth()
        )
        table.setMinimumHeight(height)


class RankingsArea(QSplitter):
    """The shown systems' rankings; says which passage the reviewer is looking at."""

    passageChosen = Signal(int)  # passage pk
    nothingChosen = Signal()  # no row to show: the reader falls back to the evidence
    # The next question's view read ahead, and its terms: the reader lays out the passage
    # it opens on (PassageReader.lay_out_ahead).
    nextViewRead = Signal(object, list)
    # A neighbour's view whose cells were just drawn ahead: the evidence table draws its own.
    viewDrawnAhead = Signal(object)

    def __init__(
        self,
        session: ReviewSession,
        order: Callable[[], list[int]] = list,
        worker: Worker | None = None,
        parent=None,
    ):
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setObjectName("rankings-split")
        self.session = session
        self.order = order  # question pks in the list's order: the keys' next and previous
        self.worker = worker  # reads the views of the questions drawn ahead
        self._ahead: list[int] | None = []  # questions to draw ahead; None: not looked up yet
        self._read: tuple | None = None  # (terms, systems, view) read, to draw when idle
        if worker is not None:
            # Drawing ahead runs only when the event loop is about to wait for input (never
            # while events are pending), a step at a time: a key pressed meanwhile goes first.
            QAbstractEventDispatcher.instance().aboutToBlock.connect(self._draw_ahead)
        self.active = 0  # the panel last used
        self.panels = [RankingPanel(self), RankingPanel(self)]
        for i, panel in enumerate(self.panels):
            panel.table.selectionModel().currentRowChanged.connect(partial(self._row_changed, i))
            panel.table.clicked.connect(partial(self.focus_panel, i))
            self.addWidget(panel)
        self.panels[1].hide()
        self.panels[1].setObjectName("compare-panel")
        session.viewChanged.connect(self.show_view)
        session.judgementShown.connect(self.show_judged)
        session.scoresChanged.connect(self._scores_changed)
        session.systemsChanged.connect(self._mode_changed)

    def _mode_changed(self) -> None:
        compare = self.session.compare_name is not None
        if not compare:
            # Hidden now, not at the next view: its two-line rows' height would push the
            # reader's split away as the reader comes back under the ranking.
            self.panels[1].hide()
        for panel in self.panels:
            panel.set_compact(compare)

    def show_view(self, view: QuestionView, keep: bool) -> None:
        rows = [p.table.currentIndex().row() if keep else -1 for p in self.panels]
        names = [s["name"] for s in self.session.shown_systems()]
        for i, panel in enumerate(self.panels):
            self._fill(panel, i, names[i] if i < len(names) else None, view)
        for panel, row in zip(self.panels, rows, strict=True):
            if panel.model.rowCount():
                panel.table.selectRow(min(max(row, 0), panel.model.rowCount() - 1))
        if self.active >= max(len(names), 1):
            self.active = 0
        self.show_only_found()
        self._ahead, self._read = None, None
        if self.worker is not None:
            self.worker.cancel("ahead")

    def show_judged(self, view: QuestionView) -> None:
        """The key's judgement in the key's event: the rows whose marks it changed are
        repainted in place; the question's rebuild follows through show_view."""
        names = [s["name"] for s in self.session.shown_systems()]
        for i, panel in enumerate(self.panels):
            name = names[i] if i < len(names) else None
            rows = view.rankings.get(name, []) if name else []
            if name is not None and not panel.model.update_rows(rows, view.items):
                self._fill(panel, i, name, view)

    def neighbours(self) -> list[int]:
        """The questions the next and previous keys go to from the one shown."""
        order, current = self.order(), self.session.current_pk
        if current not in order:
            return []
        i = order.index(current)
        return [order[j] for j in (i + 1, i - 1) if 0 <= j < len(order)]

    def _draw_ahead(self) -> None:
        """Each time the window goes idle: the neighbour's view that arrived drawn (its visible
        text cells), and the next neighbour's view asked of the worker, whose answer wakes
        the window for the next step."""
        if not self.isVisible() or self.worker.busy("ahead"):
            return
        if self._read is not None:
            (terms_, systems, view), self._read = self._read, None
            for panel, system in zip(self.panels, systems, strict=False):
                panel.draw_ahead(view.rankings.get(system["name"], []), view.items, terms_)
            self.viewDrawnAhead.emit(view)
        if self._ahead is None:
            self._ahead = self.neighbours()
        if not self._ahead:  # both neighbours drawn, or none: the usual idle moment
            return
        next_one = self.neighbours()[:1] == self._ahead[:1]  # the next key's (or the only one)
        question = self.session.by_pk.get(self._ahead.pop(0))
        systems = self.session.shown_systems()
        if question is None or not systems or self.session.project is None:
            return
        terms_ = review.question_terms(question["text"])
        read = self.session.view_reader(question, systems)
        mark = self.session.project.reads.write_mark()
        serial = self.session.serial
        arrived = partial(self._arrived, serial, terms_, systems, mark, read, next_one)
        self.worker.start(
            "ahead",
            lambda project, _progress: Done(read(project), Changes("query")),
            on_done=lambda done: arrived(done.result),
            on_failed=lambda _error: None,  # nothing drawn ahead: drawn when shown
        )

    def _arrived(self, serial: int, terms_, systems, mark, read, next_one: bool, view) -> None:
        if serial == self.session.serial:  # still the question it was read from
            self._read = (terms_, systems, view)
            self.session.keep_ahead(serial, mark, read, view)  # the switch to it needs no read
            if next_one:
                self.nextViewRead.emit(view, terms_)

    def show_only_found(self) -> None:
        """Mark the rows whose evidence only their system finds (from the board's ranks)."""
        only = self.session.only_found()
        names = [s["name"] for s in self.session.shown_systems()]
        for i, panel in enumerate(self.panels):
            name = names[i] if i < len(names) else ""
            panel.model.set_only(only.get(name, set()), name, self.session.k)

    def _scores_changed(self, pk: int) -> None:
        if pk < 0 or pk == self.session.current_pk:
            self.show_only_found()

    def _fill(self, panel: RankingPanel, i: int, name: str | None, view: QuestionView) -> None:
        if name is None:
            panel.model.set_rows([], [], [])
            panel.setVisible(i == 0)
            if i == 0:
                panel.title.setText(self.tr("<b>No runs imported yet</b>"))
            return
        panel.model.set_rows(view.rankings.get(name, []), view.items, self.session.terms)
        colour = system_colour(self.session.system_index(name)).name()
        panel.title.setText(
            self.tr(
                "<b>Top {k}</b> — <span style='color:{colour}'>■</span> {system} ({depth} results)"
            ).format(
                k=self.session.k,
                colour=colour,
                system=html.escape(name),
                depth=view.depth.get(name, 0),
            )
        )
        panel.setVisible(True)

    def focus_panel(self, i: int, _index=None) -> None:
        self.active = i
        self.show_current(i)

    def _row_changed(self, i: int, current, _previous=None) -> None:
        if current.isValid() and self.panels[i].table.hasFocus():
            self.active = i
            self.show_current(i)

    def show_current(self, i: int) -> None:
        row = self.panels[i].current_row()
        if row is not None:
            self.passageChosen.emit(row.passage_pk)
        else:
            self.nothingChosen.emit()

    def select(self, row: int, panel: int = 0) -> None:
        self.active = panel
        self.panels[panel].table.selectRow(row)
        self.show_current(panel)

    def selected(self):
        """The retrieved passage to act on: the current row of the ranking last used."""
        panels = [p for p in self.panels if p.isVisible() and p.model.rowCount()]
        if not panels:
            return None
        panel = self.panels[self.active] if self.panels[self.active] in panels else panels[0]
        return panel.current_row()
