"""Candidate alternatives in the window (issue 21): the selected evidence item's candidates in
the evidence panel, and the pool queue's marks on passages that are candidates of an item.

Both are built on a worker of their own as named operations ("item": one item's candidates,
when an item is selected or its question's view changes; "pool": the pool's marks, with each
view), since a similarity search takes up to about 100 ms at a million passages; the panels
show what arrives and never query. A candidate picked is the passage the judgement keys act
on, so A accepts it as an alternative of the selected item; H dismisses it (a `dismissed`
line, the reviewer's own: it is not listed again for that reviewer and item)."""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QHeaderView, QLabel, QVBoxLayout, QWidget

from desktop.gold import candidates as rule
from desktop.readers.judgements import DISMISSED
from desktop.review import candidates as found_for
from desktop.review.candidates import ItemCandidates
from desktop.ui.common import review_table, shrinkable
from desktop.ui.models.candidates import CandidateModel
from desktop.ui.operations import Changes, Done
from desktop.ui.widgets import HtmlDelegate, opaque, text_lines_height
from desktop.ui.worker import Worker

ROW_LINES = 5  # a row: score and where it comes from, the systems, the text's first lines
ROWS_SHOWN = 2  # the table's height in rows at most; more scroll (the list is best first)
LOOKING_AFTER_MS = 400  # most lists come sooner: "looking…" would flash and go each switch


def _title_label(parent=None) -> QLabel:
    label = shrinkable(QLabel(parent))
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setWordWrap(True)
    return label


class TitleBox(QWidget):
    """The panel's title, a word-wrapped label in a box of its own that asks for a new layout
    only when the title's height changes. A QLabel given a new text asks its parent's layout
    for one whatever its size; in the panel's layout that climbed to the evidence column,
    which was laid out again and repainted with each list that came. While a list is awaited
    the box keeps its height (`held`), so that a shorter title in between moves nothing.

    Its size is measured on a twin label that is never shown (`ruler`): a rich-text label
    asked its height for a width lays its text out at that width and repaints itself, so
    that measuring the shown one painted the title once more after each change."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.label = _title_label(self)
        self.ruler = _title_label()
        self.setSizePolicy(self.label.sizePolicy())  # its height for its width, as the label's
        self.setMinimumWidth(self.label.minimumWidth())
        self._held = 0

    def set_text(self, text: str, hold: bool = False) -> bool:
        """The new title; true when it asked for a new layout (its height changed)."""
        width = self.width()
        before = self.heightForWidth(width)
        self._held = self.height() if hold else 0
        if text != self.label.text():
            self.ruler.setFont(self.font())
            self.ruler.setText(text)
            self.label.setText(text)
            # Its text laid out now, before the paint: laid out inside the paint, it asked for
            # one paint more (a label lays out its text when it is measured or painted).
            self.label.heightForWidth(self.label.width())
        moved = not self.isVisible() or self.heightForWidth(width) != before
        if moved:
            self.updateGeometry()
        return moved

    def text(self) -> str:
        return self.label.text()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's name)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt's name)
        return max(self.ruler.heightForWidth(width), self._held)

    def sizeHint(self):  # noqa: N802 (Qt's name)
        return self.ruler.sizeHint()

    def minimumSizeHint(self):  # noqa: N802 (Qt's name)
        return self.ruler.minimumSizeHint()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        self.label.setGeometry(self.rect())
        self.label.heightForWidth(self.label.width())  # laid out now, as in set_text

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.FontChange:  # the ruler has no parent to follow
            self.ruler.setFont(self.font())
            self.updateGeometry()
        super().changeEvent(event)


class CandidatesPanel(QWidget):
    """The list under the evidence items: title, state line and the candidates, best first."""

    candidateChosen = Signal(object)  # the Candidate picked

    def __init__(self, parent=None):
        super().__init__(parent)
        opaque(self)  # candidates arriving after the switch repaint this panel alone
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        self.title = TitleBox(self)
        layout.addWidget(self.title)
        self._looking_for = ""  # the item whose list is awaited
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(LOOKING_AFTER_MS)
        self._later.timeout.connect(lambda: self.looking(self._looking_for))
        self.model = CandidateModel(self)
        self.table = review_table(self)
        self.table.setModel(self.model)
        self.table.setWordWrap(True)
        self.table.setItemDelegateForColumn(
            CandidateModel.COL_CANDIDATE,
            HtmlDelegate(CandidateModel.HtmlRole, ROW_LINES, self.table),
        )
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(CandidateModel.COL_CANDIDATE, QHeaderView.ResizeMode.Stretch)
        self.row_height = text_lines_height(self.font(), ROW_LINES) + 6
        self.table.verticalHeader().setDefaultSectionSize(self.row_height)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        # A click on the row already current picks it again (the reader may show another
        # passage since); a click on another row is picked once, as it becomes current.
        self._current_at_press = -1
        self.table.viewport().installEventFilter(self)
        self.table.clicked.connect(self._clicked)
        layout.addWidget(self.table)
        self.nothing_for(None)

    def say(
        self, text: str, found: ItemCandidates | None = None, blind: bool = False, hold=False
    ) -> None:
        """The title's state text and the list (none unless found); hold: a list is awaited,
        the table keeps its room and the title its height until it comes."""
        title = self.tr("Candidate alternatives")  # outside the f-string, where lupdate sees it
        name = f"<b>{html.escape(title)}</b>"
        moved = self.title.set_text(f"{name} · {text}" if text else name, hold)
        if found != self.model.found or blind != self.model.blind:
            self.model.set_candidates(found, blind)  # a reset repaints the list: only if new
        if hold:
            return
        self._later.stop()
        shown = min(len(found.candidates), ROWS_SHOWN) if found else 0
        room = (self.table.isVisible(), self.table.height())
        if shown:  # as tall as its rows, up to ROWS_SHOWN: no empty room under one candidate
            header = self.table.horizontalHeader().sizeHint().height()
            frame = 2 * self.table.frameWidth()
            self.table.setFixedHeight(header + self.row_height * shown + frame)
        self.table.setVisible(bool(shown))
        if moved or room != (self.table.isVisible(), self.table.height()):
            self._lay_out_now()

    def _lay_out_now(self) -> None:
        """The panel and the column around it laid out now, before the paint the new title
        asked for, as Qt lays out a widget's parents when it shows it. Left to the layout
        requests, each posted by the level under it after that paint's request, the column
        grew or shrank a pass later and its scroll bar came or went one more pass later:
        the column was painted three times."""
        widget = self
        while widget is not None:
            QCoreApplication.sendPostedEvents(widget, QEvent.Type.LayoutRequest)
            widget = widget.parentWidget()

    def nothing_for(self, item) -> None:
        """No item selected, or one given as a span (no passage of its own to be like)."""
        if item is None:
            self.say(
                self.tr("Select an evidence item to see passages that say the same elsewhere.")
            )
        else:
            self.say(self.tr("An item given as a span has no candidates of its own."))

    def pick_first(self) -> str:
        return self.tr("Select a candidate alternative first")

    def pending(self, item_id: str) -> None:
        """Another item's list is searched: the list shown goes at once (A and H act on the
        list shown, never on the previous item's), its room stays for the new one, and
        "looking…" is said only if the search takes longer than a moment. Said at once,
        then replaced by the list, it laid the evidence column out and repainted it twice."""
        self._looking_for = item_id
        self.say("", hold=True)
        self._later.start()

    def looking(self, item_id: str) -> None:
        text = self.tr("looking for passages like {item}…").format(item=item_id)
        self.say(html.escape(text), hold=True)

    def show_found(self, found: ItemCandidates, blind: bool = False) -> None:
        shown = len(found.candidates)
        if shown:
            text = self.tr("like {item} elsewhere: {n} (A accepts, H dismisses)").format(
                n=shown, item=found.item_id
            )
        else:
            text = self.tr("none for {item} (similarity {threshold:.2f} or more)").format(
                item=found.item_id, threshold=rule.THRESHOLD
            )
        if found.dismissed:
            text += " · " + self.tr("{n} you dismissed are not listed").format(n=found.dismissed)
        self.say(html.escape(text), found, blind)

    def current(self):
        return self.model.candidate(self.table.currentIndex().row())

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress:  # before the press moves the row
            self._current_at_press = self.table.currentIndex().row()
        return super().eventFilter(watched, event)

    def _clicked(self, index) -> None:
        if index.row() == self._current_at_press:
            self._row_changed(index)

    def _row_changed(self, current, _previous=None) -> None:
        picked = self.model.candidate(current.row()) if current.isValid() else None
        if picked is not None:
            self.candidateChosen.emit(picked)


def item_op(question: dict, item, known, systems, k: int, reviewer: str, kept: dict):
    """One item's candidates for the reviewer (desktop.review.candidates.item_candidates);
    kept: the rule's search per item passage, reused while the data is the same (only this
    worker's thread reads and fills it)."""

    def work(project, _progress) -> Done:
        found = kept.get(item[0])
        if found is None:
            found = kept[item[0]] = rule.candidates(project.reads, item[0], found_for.SEARCHED)
        built = found_for.item_candidates(
            project, question, item, known, systems, k, reviewer, found
        )
        return Done(built, Changes("query"))

    return work


def pool_op(question: dict, items, pool, reviewer: str, scored: dict):
    """The pool passages that are candidates of one of the question's items; scored: the
    pairs checked before, kept (only this worker's thread reads and fills it)."""
    return lambda project, _progress: Done(
        found_for.pool_marks(project, question, items, pool, reviewer, scored), Changes("query")
    )


class CandidateRunner(QObject):
    """Starts the candidate operations as the session and the evidence selection change, and
    hands their results to the evidence panel's list and the pool queue."""

    def __init__(self, window, parent=None):
        super().__init__(parent)
        self.window = window
        self.session = window.session
        self.panel: CandidatesPanel = window.evidence_panel.candidates
        self.worker = Worker(window.db_path, self, "candidates")
        self._asked: tuple[object, int | None] = (None, None)  # (view, item) last asked about
        self._shown_pk: int | None = None  # the question whose item's candidates are listed
        self._kept: dict[int, list[dict]] = {}
        self._scored: dict[int, dict[int, float | None]] = {}
        self.session.viewChanged.connect(self._view_changed)
        self.session.dataReloaded.connect(self._reloaded)
        window.evidence_panel.table.selectionModel().currentRowChanged.connect(
            lambda *_: self._item_changed()
        )
        self.panel.candidateChosen.connect(
            lambda c: window.middle_tabs.pick(c.passage_pk, c.passage_id)
        )

    def _reloaded(self) -> None:
        """New data (an import, a merge, another database): nothing kept still holds."""
        self._kept, self._scored = {}, {}
        self._asked = (None, None)
        self.window.pool_panel.model.marks.clear()  # other questions' ≈ marks: read again

    def _view_changed(self, view, _keep: bool) -> None:
        self._item_changed()
        self._pool_marks(view)

    def _item_changed(self) -> None:
        view, item = self.session.view, self.window.evidence_panel.selected()
        asked = (view, item.primary_pk if item is not None else None)
        if view is None or self._is_current(asked):
            return
        again = self._asked[0] is not None and self._asked[0].pk == view.pk == self._shown_pk
        again = again and asked[1] == self._asked[1]
        self._asked = asked
        self.worker.cancel("item")
        if item is None or item.given_as_span:
            self.panel.nothing_for(item)
            return
        if not again:
            # The same item of a question judged again keeps its list until the new one
            # comes (most often the same): "looking…" in between laid out and repainted
            # the whole evidence column twice a judgement.
            self.panel.pending(item.primary_id)
        known = {i.primary_pk for i in view.items} | {pk for pk, _ in item.alternatives}
        question = self.session.question(view.pk)
        self.worker.start(
            "item",
            item_op(
                question,
                (item.primary_pk, item.primary_id),
                known,
                list(self.session.systems),
                self.session.k,
                self.session.reviewer,
                self._kept,
            ),
            on_done=lambda done: self._item_ready(asked, done.result),
            on_failed=lambda error: self.panel.say(html.escape(str(error))),
        )

    def _item_ready(self, asked, found: ItemCandidates) -> None:
        if self._is_current(asked):
            self._shown_pk = asked[0].pk
            self.panel.show_found(found, self.session.blind)

    def _is_current(self, asked: tuple) -> bool:
        """asked (view, item) is still what the panel shows: not a view or item since."""
        return asked[0] is self._asked[0] and asked[1] == self._asked[1]

    def _pool_marks(self, view) -> None:
        self.worker.cancel("pool")
        items = [(i.primary_pk, i.primary_id) for i in view.items if not i.given_as_span]
        pool = [e.passage_pk for e in view.pool]
        question = self.session.question(view.pk)
        if question is None or not items or not pool:
            self.window.pool_panel.model.set_marks(view.pk, {})
            return
        self.worker.start(
            "pool",
            pool_op(question, items, pool, self.session.reviewer, self._scored),
            on_done=lambda done: self.window.pool_panel.model.set_marks(view.pk, done.result),
        )

    def dismiss(self) -> None:
        """H: the candidate picked is dismissed for the selected item (a `dismissed` line)."""
        candidate, item = self.panel.current(), self.window.selected_item()
        found = self.panel.model.found
        if candidate is None or item is None or found is None:
            self.window.commands.say(self.panel.pick_first())
            return
        if found.item_pk != item.primary_pk:
            return  # the list is still the previous item's
        rows = self.window.commands.judge(DISMISSED, item.primary_id, candidate.passage_id)
        if rows:
            self.panel.model.remove(candidate.passage_id)
