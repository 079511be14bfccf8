"""The evidence panel: the question's gold items (role, where each shown system finds it, the
passage text), the triage buttons, the notes and the open disagreements."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from functools import partial

from PySide6.QtCore import QAbstractEventDispatcher, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.review import QuestionView
from desktop.ui import terms
from desktop.ui.candidates import CandidatesPanel
from desktop.ui.cells import KeptTextDelegate, draw_rows_ahead, keep_shown
from desktop.ui.common import review_table, set_review_model, shrinkable
from desktop.ui.models import DisputeModel, EvidenceModel
from desktop.ui.reflow import ReflowGrid
from desktop.ui.session import ReviewSession
from desktop.ui.widgets import text_lines_height

SYSTEM_COLUMNS = (EvidenceModel.COL_FIRST_SYSTEM, EvidenceModel.COL_FIRST_SYSTEM + 1)
# The passage text's column with one system shown or two (after the alternatives).
TEXT_COLUMNS = (EvidenceModel.COL_FIRST_SYSTEM + 2, EvidenceModel.COL_FIRST_SYSTEM + 3)
MIN_ROWS, MAX_ROWS = 2, 8  # the table's height in rows, so that most switches keep the layout
# The most rows the table keeps once a question needed them (_fit): most questions have one to
# three items, and a taller table kept for them all would push the keys' buttons and the
# candidates below the fold (in compare mode, where the reader shares the column, at once).
KEPT_ROWS = 3
# The fewest average characters the passage text's column keeps a line when the other columns
# take the table's width (compare mode with alternatives, in a narrow column): the
# alternatives' column gives up the room (their ids cut short), where Qt's stretch of the
# last section had it take the room from the text, down to 18 pixels (stretch_text).
TEXT_CHARS_AT_LEAST = 8
# The widest a system's column grows, in average characters: "missed (found at 14)" wraps to
# two lines, as the rows have; a longer name is elided in its header.
SYSTEM_COLUMN_CHARS = 14


def _label(rich: bool = False) -> QLabel:
    label = shrinkable(QLabel())
    label.setWordWrap(True)
    if rich:
        label.setTextFormat(Qt.TextFormat.RichText)
    return label


class EvidenceTable(QTableView):
    """The evidence table, narrowed or widened by its column's scroll bar as the column's
    height changes. A resize repaints the whole table already; the last column's stretch
    to the new width would also have it repaint itself again on a timer, after that paint.
    The passage text's column is stretched here (stretch_text), not by Qt's stretch of the
    last section, which also took the room from, or gave it to, the column before it."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.horizontalHeader().sectionResized.connect(self._column_resized)

    def resizeEvent(self, event) -> None:
        with self.columns_held():
            super().resizeEvent(event)
            self.stretch_text()

    def _column_resized(self, column: int, _old: int, _new: int) -> None:
        """Another column's edge dragged by the reviewer: the text takes the room left."""
        model = self.model()
        if isinstance(model, EvidenceModel) and column != model.col_text:
            self.stretch_text()

    def stretch_text(self) -> None:
        """The passage text's column takes the room the other columns leave, never less than
        TEXT_CHARS_AT_LEAST: the alternatives' column, when shown, gives up what it must
        (down to the header's least), else the text runs past the table's edge."""
        model, header = self.model(), self.horizontalHeader()
        if not isinstance(model, EvidenceModel):
            return
        column = model.col_alternatives
        shown = 0 if self.isColumnHidden(column) else header.sectionSize(column)
        alternatives, text = self.widths(shown)
        if alternatives != shown:
            header.resizeSection(column, alternatives)
        header.resizeSection(model.col_text, text)

    def alternatives_width(self) -> int:
        """The alternatives' column's width on a question that shows it (_size_columns gives
        it that again on each, whatever a narrower table took from it)."""
        return self.horizontalHeader().defaultSectionSize()

    def text_width(self, alternatives: bool) -> int:
        """The passage text's width on a question that shows the alternatives or not, the
        other columns as they are (draw_ahead's, for the question it draws)."""
        return self.widths(self.alternatives_width() if alternatives else 0)[1]

    def widths(self, alternatives: int) -> tuple[int, int]:
        """The alternatives' column's width and the passage text's when the alternatives are
        `alternatives` wide (0: hidden), the other columns as they are (stretch_text's rule;
        draw_ahead's for a question that shows the alternatives or not)."""
        model, header = self.model(), self.horizontalHeader()
        fixed = (model.col_text, model.col_alternatives)
        others = (c for c in range(model.columnCount()) if c not in fixed)
        room = self.viewport().width() - alternatives
        room -= sum(header.sectionSize(c) for c in others if not self.isColumnHidden(c))
        least = self.fontMetrics().averageCharWidth() * TEXT_CHARS_AT_LEAST
        if room < least and alternatives:
            given = min(least - room, alternatives - header.minimumSectionSize())
            if given > 0:
                alternatives -= given
                room += given
        return alternatives, max(room, least)

    @contextmanager
    def columns_held(self, hold: bool = True):
        """While the columns change (a switch's reset gives every column its default width,
        then the systems' widths, the alternatives shown or not, the last column stretched to
        a new table width), the header's signals are held: each change would have the table
        repaint itself once more on a timer, after the switch's paint, although the model's
        reset (or the table's resize) repaints it whole in that paint already."""
        header = self.horizontalHeader()
        blocked = header.blockSignals(hold or header.signalsBlocked())
        try:
            yield
        finally:
            header.blockSignals(blocked)


class EvidencePanel(QWidget):
    itemChosen = Signal(int)  # the primary passage pk of the item the reviewer picked

    def __init__(
        self,
        session: ReviewSession,
        buttons: Sequence[tuple[QAction, str]],
        adjudicate: Callable[[int], None],
        parent=None,
    ):
        super().__init__(parent)
        # Laid out top down, it grows or shrinks at the bottom (disagreements shown or hidden,
        # the candidates' list): a resize repaints what it uncovers, not the whole column.
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        self.session = session
        self._adjudicate = adjudicate
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(self.tr("<b>Gold evidence</b>")))
        self.model = EvidenceModel(self)
        self._ahead_model = EvidenceModel(self)  # never shown: a next question's, drawn ahead
        self.table = self._table()
        layout.addWidget(self.table)
        self.note = _label()
        self.note.setFixedHeight(self.fontMetrics().lineSpacing() * 2 + 4)
        layout.addWidget(self.note)
        layout.addWidget(self._buttons(buttons))
        self.notes_view = _label(rich=True)
        layout.addWidget(self.notes_view)
        self._dispute_names: list[str] = []  # whose values the buttons under them take
        self._reselecting = False  # the judged item selected again: the reader has it
        self._shown: tuple | None = None  # what the table's rows were made from
        self._rows = MIN_ROWS  # the table's height in rows (_fit)
        session.dataReloaded.connect(self._forget_rows)
        self.dispute_box = self._disputes()
        layout.addWidget(self.dispute_box, 1)
        self.dispute_box.hide()
        # Under the disagreements, whose buttons settle what counts now and stay in view.
        self.candidates = CandidatesPanel(self)  # filled by the window's CandidateRunner
        layout.addWidget(self.candidates)
        self.stretch = QWidget()  # takes the room when there is no disagreement
        layout.addWidget(self.stretch, 1)
        legend = _label()
        legend.setText(terms.legend())
        legend.setStyleSheet("color: #6b6b6b")  # muted, still readable
        layout.addWidget(legend)
        session.viewChanged.connect(self.show_view)
        session.judgementShown.connect(self.show_judged)
        session.scoresChanged.connect(self._scores_changed)
        self._unkept = False  # text cells shown since the window last waited for input
        # Kept when the event loop is about to wait for input, never while events are pending.
        QAbstractEventDispatcher.instance().aboutToBlock.connect(self._keep_cells)

    def _table(self):
        # The mark, the role's status and where each system finds the item keep their colours.
        coloured = (EvidenceModel.COL_MARK, EvidenceModel.COL_ROLE)
        table = review_table(self, coloured=coloured + SYSTEM_COLUMNS, kind=EvidenceTable)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)  # the excerpt reads on; ids are cut
        # in the middle by the model
        # The excerpt's cells laid out once and kept (the model gives their text in TextRole
        # alone; the other cell of these columns, the alternatives, stays Qt's own).
        self.text_cells = KeptTextDelegate(EvidenceModel.TextRole, parent=table)
        for column in TEXT_COLUMNS:
            table.setItemDelegateForColumn(column, self.text_cells)
        set_review_model(table, self.model)
        # Two lines a row: the passage text's excerpt wraps, and so does "missed (found at 14)".
        table.setWordWrap(True)
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        fm = self.fontMetrics()
        rows = max(text_lines_height(self.font(), 2), fm.lineSpacing() * 2)
        table.verticalHeader().setDefaultSectionSize(rows + 6)
        header = table.horizontalHeader()
        # No stretch of the last section: the table stretches the passage text itself.
        # A system's name longer than its column is cut in the middle (its tooltip is whole):
        # "GraphRAG-…-gpt4o" still says which run it is.
        header.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        char = fm.averageCharWidth()
        header.setMinimumSectionSize(char * 3)
        header.resizeSection(EvidenceModel.COL_MARK, char * 3 + 8)
        # The widest role word in the UI's language, whole ("supporting", "보조").
        roles = (terms.role(r) for r in ("core", "supporting"))
        header.resizeSection(
            EvidenceModel.COL_ROLE, max(char * 9, *(fm.horizontalAdvance(r) for r in roles)) + 12
        )
        header.resizeSection(EvidenceModel.COL_PASSAGE, char * 9 + 8)
        header.setDefaultSectionSize(char * 12 + 8)
        table.selectionModel().currentRowChanged.connect(self._clicked)
        table.clicked.connect(self.focus_item)
        return table

    def _buttons(self, buttons: Sequence[tuple[QAction, str]]) -> ReflowGrid:
        tools = []
        for action, short in buttons:
            button = QToolButton()
            button.setDefaultAction(action)
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            # The button shows the action's icon text; setText would be undone the next time
            # the action changes (enabled after a load, say).
            action.setIconText(f"{keys}  {short}")
            button.setToolTip(action.text())
            tools.append(button)
        # As many columns as the whole labels allow: more rows rather than a cut word.
        self.triage = ReflowGrid(tools)
        return self.triage

    def _disputes(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(self.tr("<b>Open disagreements</b>")))
        self.dispute_model = DisputeModel(self)
        self.dispute_table = review_table(box)
        self.dispute_table.setWordWrap(True)
        self.dispute_table.setModel(self.dispute_model)
        self.dispute_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.dispute_table.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        layout.addWidget(self.dispute_table)
        self.dispute_buttons = QHBoxLayout()
        layout.addLayout(self.dispute_buttons)
        hint = _label()
        hint.setText(self.tr("Ctrl+1, Ctrl+2 … write an adjudication with that reviewer's value."))
        layout.addWidget(hint)
        layout.addStretch(1)  # the room left goes below the buttons, not into the table
        return box

    # -- showing a question ----------------------------------------------------------------

    def show_view(self, view: QuestionView, keep: bool) -> None:
        row = self.table.currentIndex().row() if keep else -1
        before = self.selected() if keep else None
        names = [s["name"] for s in self.session.shown_systems()]
        texts = view.item_texts()
        shown = (view.items, names, self.session.k, self.session.reviewer, texts)
        # A view whose items show as they did (a pool passage struck, a note) keeps the
        # table: a reset repainted it and its header whole.
        changed = shown != self._shown
        self._shown = shown
        self._unkept = True
        if changed:
            self._show_items(view, names, texts)
        self.model.set_only(self.session.only_found())
        self.note.setText(self._summary(view, names))
        self._fit()
        self._show_notes(view)
        self._show_disputes(view)
        self._lay_out_column()
        if row < 0 or row >= len(view.items):
            row = _first_row(view, names)
        if row >= 0:
            # The item judged, selected again in its question's new view, is in the reader
            # already: read and laid out again, it was repainted whole with each key.
            again = before is not None and before.primary_pk == view.items[row].primary_pk
            self._reselecting = again
            try:
                self.table.selectRow(row)
            finally:
                self._reselecting = False
        if changed:
            # Its rows laid out now, at the table's new height: left to the reset's timer,
            # that layout ran inside the coming paint and asked for a second one.
            self.table.doItemsLayout()

    def draw_ahead(self, view: QuestionView) -> None:
        """Draw the passage text cells of a question the keys may go to next into the kept
        pixmaps, as the table will paint them once it shows that question: at the text's width
        there (the columns otherwise as now), the row show_view selects selected."""
        names = [s["name"] for s in self.session.shown_systems()]
        ahead, table = self._ahead_model, self.table
        if not self.isVisible() or not view.items or len(names) != len(self.model.systems):
            return
        texts = view.item_texts()
        ahead.set_items(view.items, names, self.session.k, self.session.reviewer, texts)
        selected = _first_row(view, names)
        # The text as wide as that question will have it (_size_columns): a question with
        # alternatives narrows it, one without widens it.
        width = table.text_width(_shows_alternatives(view))
        draw_rows_ahead(table, self.text_cells, ahead, ahead.col_text, selected, False, width)

    def _keep_cells(self) -> None:
        """The passage text's cells on screen kept while the window waits: the table's next
        paint of them (a judgement's, the question seen again) copies them. Drawn in the
        switch's own paint, a new question's cells are not kept then (copying them into a
        pixmap costs more than drawing them, and most are painted once)."""
        if self._unkept and self.isVisible():
            self._unkept = False
            keep_shown(self.table, self.text_cells, self.model.col_text)

    def _lay_out_column(self) -> None:
        """The panel laid out now (the table's new height, the notes' lines, the
        disagreements shown or hidden), in the switch's event: its scroll area's request,
        posted from here, then comes before the switch's paint. Left to the panel's own
        request, delivered with that paint's, the buttons moved and the scroll bar came or
        went a pass later, and the whole column was painted again at its new width."""
        if self.isVisible():
            self.layout().activate()

    def show_judged(self, view: QuestionView) -> None:
        """The key's judgement in the key's event: the judged rows' roles and values are
        repainted in place (no reset, the selection kept), with the notes and summary it
        changed; the question's rebuild follows through show_view. A disagreement the key
        opens or settles shows in the role's cell now; the box listing it, whose buttons are
        made and laid out (most of the key's time in this panel at a million passages),
        comes with the rebuild, after the key's frame."""
        names = [s["name"] for s in self.session.shown_systems()]
        if self._shown is None or not self.model.update_items(view.items):
            self.show_view(view, True)
            return
        self._shown = (view.items, *self._shown[1:])
        self.note.setText(self._summary(view, names))
        self._show_notes(view)

    def _show_items(self, view: QuestionView, names: list[str], texts: dict) -> None:
        # The header's signals are held through the reset unless the columns' count changes
        # (one system or two): the table then lays its columns out anew on that signal.
        with self.table.columns_held(len(self.model.systems) == len(names)):
            self.model.set_items(view.items, names, self.session.k, self.session.reviewer, texts)
            self.model.set_only(self.session.only_found())
            self._size_columns(names, _shows_alternatives(view))

    def _size_columns(self, names: list[str], alternatives: bool) -> None:
        """The systems' columns as wide as their names, up to SYSTEM_COLUMN_CHARS (a long
        name is elided: a 240-pixel column left the text of the items three characters a
        line); the room goes to the passage text unless some item has alternatives to show."""
        header = self.table.horizontalHeader()
        fm = self.table.fontMetrics()
        widest = fm.averageCharWidth() * SYSTEM_COLUMN_CHARS
        with self.table.columns_held():
            for i, name in enumerate(names):
                width = (
                    min(max(fm.horizontalAdvance(name), fm.averageCharWidth() * 10), widest) + 16
                )
                header.resizeSection(EvidenceModel.COL_FIRST_SYSTEM + i, width)
            for column in range(self.model.columnCount()):  # hidden sections outlive a reset
                self.table.setColumnHidden(
                    column, column == self.model.col_alternatives and not alternatives
                )
            if alternatives:  # its width again, whatever the narrower table took from it
                header.resizeSection(self.model.col_alternatives, self.table.alternatives_width())
            # The last column takes the room the others leave now, not on the header's timer
            # (a second paint after the switch's). resizeSections(mode) did not stretch it: it
            # kept the width the question before left it, its end cut off beside the
            # alternatives, then narrow with empty room beside it on the questions after.
            self.table.stretch_text()

    def _scores_changed(self, pk: int) -> None:
        if pk < 0 or pk == self.session.current_pk:
            self.model.set_only(self.session.only_found())

    def _summary(self, view: QuestionView, names: list[str]) -> str:
        if not view.items:
            if view.answerable:
                return self.tr(
                    "No evidence items for this question: it is reported apart, not averaged in."
                )
            return self.tr(
                "No evidence: this question should be abstained on "
                "(reported apart, not averaged in)."
            )
        if not names:
            return ""
        return self.tr("{missed} of {n} items missed at K = {k} by {system}.").format(
            missed=len(view.missed(names[0])), n=len(view.items), k=view.k, system=names[0]
        )

    def wanted_width(self) -> int:
        """The width at which the passage text column keeps about 18 characters beside the
        other columns (in compare mode two systems' columns take the room)."""
        header = self.table.horizontalHeader()
        last = self.model.columnCount() - 1
        fixed = sum(header.sectionSize(c) for c in range(last) if not self.table.isColumnHidden(c))
        text = self.table.fontMetrics().averageCharWidth() * 18
        return fixed + text + 2 * self.table.frameWidth()

    def _fit(self) -> None:
        """The table as tall as the most items of a question shown since the data was read,
        up to KEPT_ROWS: it grows to that and does not shrink back on a switch, so that the
        summary, the buttons and the rest of the column stay where they are from one
        question to the next (sized to each question's items, all of them moved on most
        switches: laid out and painted again each time, and the keys' buttons jumping under
        the reviewer's eyes). A question of more items has its rows, up to MAX_ROWS (more
        scroll), for as long as it is shown."""
        self._rows = max(self._rows, min(self.model.rowCount(), KEPT_ROWS))
        rows = max(self._rows, min(self.model.rowCount(), MAX_ROWS))
        table = self.table
        height = (
            table.horizontalHeader().height()
            + rows * table.verticalHeader().defaultSectionSize()
            + 2 * table.frameWidth()
        )
        table.setFixedHeight(height)

    def _forget_rows(self) -> None:
        self._rows = MIN_ROWS  # other questions: the height starts again from theirs

    def _show_notes(self, view: QuestionView) -> None:
        if not view.notes:
            self.notes_view.setText("")
            return
        lines = []
        for note in view.notes[-6:]:
            where = f" · {html.escape(note.passage_id)}" if note.passage_id else ""
            system = f" · {html.escape(note.system)}" if note.system else ""
            lines.append(
                f"<b>{html.escape(note.reviewer)}</b>{where}{system}: {html.escape(note.text)}"
            )
        self.notes_view.setText(self.tr("<b>Notes</b>") + "<br>" + "<br>".join(lines))

    def _show_disputes(self, view: QuestionView) -> None:
        disputes = [] if self.session.blind else view.disputes
        if disputes == self.dispute_model.disputes:
            # A judgement on another item: the table and its buttons stay. Its rows are
            # measured again (the column may have another width than at their first view).
            if disputes:
                self._fit_disputes()
            return
        self.dispute_model.set_disputes(disputes)
        names = self.dispute_model.reviewers[:4]
        # Hidden with the box when there is no disagreement, not deleted: the next question's
        # disagreement between the same reviewers shows the same buttons again.
        if names and names != self._dispute_names:
            self._dispute_names = names
            self._dispute_buttons(names)
        if disputes and self.dispute_box.isHidden():
            self._make_room(self.dispute_box)
        self.dispute_box.setVisible(bool(disputes))
        self.stretch.setVisible(not disputes)
        self.setMinimumHeight(0)  # the room made is the layout's own from now on
        if disputes:
            self._fit_disputes()
            self.dispute_table.selectRow(0)

    def _make_room(self, coming: QWidget) -> None:
        """The column made as tall as it will be with `coming` shown, before it is: Qt lays
        out the widgets above one it shows at once, at the column's height then, and a column
        too short for the new widget had them squeezed up, then laid out again at the height
        its scroll area gave it (the keys' buttons moved and painted twice). The room is held
        as a minimum height: the scroll area sizes the column, and a plain resize was undone
        at once."""
        width = self.width()
        spacing = max(self.layout().spacing(), 0)
        hint = coming.heightForWidth(width) if coming.hasHeightForWidth() else -1
        needed = self.layout().heightForWidth(width) + spacing
        needed += hint if hint >= 0 else coming.sizeHint().height()
        if needed > self.height():
            self.setMinimumHeight(needed)

    def _dispute_buttons(self, names: list[str]) -> None:
        """One button per reviewer in the disagreements, made anew only when they change:
        buttons deleted and made again laid the evidence column out and repainted it whole."""
        while self.dispute_buttons.count():
            widget = self.dispute_buttons.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        buttons = []
        for n, who in enumerate(names, 1):
            button = QPushButton(self.tr("Take {name}'s value (Ctrl+{n})").format(name=who, n=n))
            button.setObjectName(f"adjudicate-{n}")
            button.clicked.connect(partial(self._adjudicate, n - 1))
            buttons.append(button)
        if buttons:
            self.dispute_buttons.addWidget(ReflowGrid(buttons))  # a long name wraps, uncut

    def _fit_disputes(self) -> None:
        """The disagreement table as tall as its rows (up to four), so that the buttons to
        settle them follow right under it, in view."""
        table = self.dispute_table
        table.resizeRowsToContents()
        rows = sum(table.rowHeight(r) for r in range(min(self.dispute_model.rowCount(), 4)))
        header = table.horizontalHeader().sizeHint().height()
        table.setFixedHeight(header + rows + 2 * table.frameWidth())

    # -- selections ------------------------------------------------------------------------

    def _clicked(self, current, _previous=None) -> None:
        if current.isValid() and self.table.hasFocus() and not self._reselecting:
            self.focus_item()

    def focus_item(self, _index=None) -> None:
        item = self.selected()
        if item is not None:
            self.itemChosen.emit(item.primary_pk)

    def selected(self):
        return self.model.item(self.table.currentIndex().row())

    def select(self, row: int) -> None:
        self.table.selectRow(row)

    def current_dispute(self):
        if not self.dispute_model.disputes:
            return None
        return self.dispute_model.disputes[max(self.dispute_table.currentIndex().row(), 0)]


def _shows_alternatives(view: QuestionView) -> bool:
    """The table's alternatives' column is shown: some item has alternatives or proposed ones."""
    return any(item.alternatives or item.proposed for item in view.items)


def _first_row(view: QuestionView, names: list[str]) -> int:
    """The evidence item a question opens on, to act on: its first miss by the first system
    shown, else its first item (-1: none)."""
    missed = view.missed(names[0]) if names else []
    return missed[0] if missed else (0 if view.items else -1)
