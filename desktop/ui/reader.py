"""The passage reader: the whole passage with the question's terms marked, between its
neighbours (greyed, each a link to read it)."""

from __future__ import annotations

import html
import json

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QTextBrowser, QVBoxLayout, QWidget

from desktop import review
from desktop.gold import span_snap
from desktop.ui import document_text, operations, terms
from desktop.ui.after_frame import AfterFrame
from desktop.ui.common import shrinkable
from desktop.ui.session import ReviewSession
from desktop.ui.widgets import LayoutSlot, highlighted_html, opaque
from desktop.ui.worker import Worker, wait_shown

NEIGHBOUR_CHARS = 600
# The read ahead's operation on the reading worker, which the rankings share: their own
# "ahead" (the next questions' views) is cancelled at each question's rebuild, this one not.
READ_AHEAD = "next passage"
GRAPH_NAMES = 30  # of each part of a graph context listed; the rest in the saved file


def between(reading: review.Reading, terms_: list[str]) -> str:
    """The passage's markup, its question's terms marked, between its neighbours."""
    parts = [_neighbour(p) for p in reading.before]
    parts.append(f"<p>{highlighted_html(reading.passage['text'], terms_)}</p>")
    parts += [_neighbour(p) for p in reading.after]
    return "".join(parts)


def _neighbour(p: dict) -> str:
    return (
        f"<p style='color:#808080'><a href='passage:{p['pk']}'>{html.escape(p['id'])}</a> "
        f"{highlighted_html(p['text'], [], NEIGHBOUR_CHARS)}</p>"
    )


class PassageReader(QWidget):
    # A neighbour was followed: (passage pk, passage id), now the passage the keys act on
    # (evidence no system retrieved is often beside evidence that one did).
    neighbourChosen = Signal(int, str)

    def __init__(self, session: ReviewSession, worker: Worker, parent=None):
        super().__init__(parent)
        self.session = session
        self.worker = worker  # reads what is shown (operations.read_op)
        self._asked: tuple | None = None  # (passage pk, centre, a neighbour) being read
        # (passage pk, items, reading): the passage likely next, read ahead (the pool's)
        self._ahead: tuple[int, list, review.Reading | None] | None = None
        self.passage_pk: int | None = None
        self.passage_id: str | None = None
        self.neighbour_pks: list[int] = []
        self._window = None  # review.DocumentWindow shown, when the passage has a span
        self._origin = 0  # where its text starts in the viewer's document
        self._target: int | None = None  # the document position to scroll to
        self._document: QTextDocument | None = None  # the one shown, once a passage was
        # ((markup, width), document): the passage read ahead, laid out while it waits
        self._laid_ahead: tuple[tuple[str, int], QTextDocument] | None = None
        opaque(self)  # a new passage repaints the reader, not the window behind it
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = shrinkable(QLabel())
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)  # a second line in a narrow column, never a cut one
        self._title_slot = LayoutSlot(self.title)
        layout.addWidget(self._title_slot)  # laid out again only when its lines change
        # A graph retriever's context besides its sources: why it chose what it chose.
        self.graph = shrinkable(QLabel())
        self.graph.setObjectName("graph-context")
        self.graph.setWordWrap(True)
        self.graph.setTextFormat(Qt.TextFormat.RichText)
        self.graph.hide()
        layout.addWidget(self.graph)
        session.viewChanged.connect(self.show_graph)
        session.dataReloaded.connect(self.forget_ahead)  # its text may have changed
        self.viewer = QTextBrowser()
        self.viewer.setOpenLinks(False)
        self.viewer.anchorClicked.connect(self._link)
        layout.addWidget(self.viewer)
        # The document is laid out after setHtml, bit by bit: the scroll range grows as it is,
        # so the scroll to the passage is made again each time, until the reviewer scrolls.
        self._scroll_pending = False
        self._after_frame = AfterFrame(self)
        bar = self.viewer.verticalScrollBar()
        bar.rangeChanged.connect(lambda _low, _high: self._scroll())
        bar.actionTriggered.connect(self._scrolled_by_hand)

    def clear(self) -> None:
        self.worker.cancel("read")
        self._asked = None
        self._scroll_pending = False
        self.viewer.clear()
        self.title.clear()
        self.passage_pk = self.passage_id = None
        self._window = self._target = None

    @property
    def in_document(self) -> bool:
        """The passage is shown inside its document (it has a span), not between neighbours."""
        return self._window is not None

    @property
    def pending(self) -> bool:
        """A passage was asked for and is still being read."""
        return self._asked is not None

    def settle(self, msecs: int = 5000) -> bool:
        """Wait until the passage asked for is shown (tests and the bench); True when it is."""
        return wait_shown(self.worker, lambda: self.pending, msecs)

    def show_passage(self, passage_pk: int, centre: int | None = None) -> None:
        """The passage inside its document when it has a span (centre: the document offset
        to lay the text out around, when the reviewer moved through it), else between its
        neighbours; read on the worker and shown when it arrives (the latest asked wins),
        or at once when it was read with the question's view (the passage it opens on) or
        read ahead with the items it is shown with."""
        view, ahead, items = self.session.view, self._ahead, self._items()
        kept = (view.opening if view else None, ahead[2] if ahead else None)
        read = next(
            (r for r in kept if r and r.passage_pk == passage_pk and r.items == items), None
        )
        if read is None or centre is not None:
            self._ask(passage_pk, centre, neighbour=False)
            return
        self.worker.cancel("read")
        self._asked = asked = (passage_pk, None, False)
        self._arrived(asked, read)

    def read_ahead(self, passage_pk: int | None) -> None:
        """Read the passage likely asked for next (after a pool key), to show it at once
        then; the latest read ahead is kept."""
        items, ahead = self._items(), self._ahead
        if passage_pk is None or (ahead is not None and ahead[:2] == (passage_pk, items)):
            return
        self.worker.cancel(READ_AHEAD)
        self._drop_laid_ahead()  # laid out for the passage read ahead before
        self._ahead = ahead = (passage_pk, items, None)
        self.worker.start(
            READ_AHEAD,
            operations.read_op(passage_pk, items),
            on_done=lambda done: self._read_ahead(ahead, done.result),
        )

    def lay_out_ahead(self, reading: review.Reading | None, terms_: list[str]) -> None:
        """The next question's opening passage (read with its view) laid out after this frame
        in that question's terms: the key that goes there puts in a document laid out."""
        if reading is not None and reading.passage is not None and reading.window is None:
            self._after_frame(lambda: self._keep_laid_out(between(reading, terms_)))

    def _read_ahead(self, ahead: tuple, reading: review.Reading) -> None:
        if ahead is self._ahead:
            self._ahead = (*ahead[:2], reading)
            # Laid out after the frame this arrives in, off the key's: the key only puts it in.
            self._after_frame(lambda: self._lay_out_read_ahead(ahead[0], reading))

    def _lay_out_read_ahead(self, passage_pk: int, reading: review.Reading) -> None:
        ahead = self._ahead
        if ahead is None or ahead[0] != passage_pk or ahead[2] is not reading:
            return
        if reading.passage is None or reading.window is not None:
            return  # a passage in its document is laid out when shown
        self._keep_laid_out(between(reading, self.session.terms))

    def _keep_laid_out(self, markup: str) -> None:
        width = self.viewer.viewport().width()
        self._drop_laid_ahead()
        self._laid_ahead = ((markup, width), self._laid_out(markup, width))

    def _drop_laid_ahead(self) -> None:
        if self._laid_ahead is not None:
            self._laid_ahead[1].setParent(None)  # Python's now: freed with the tuple
            self._laid_ahead = None

    @property
    def laid_out_ahead(self) -> bool:
        """The next passage's document is laid out, waiting for the key (tests)."""
        return self._laid_ahead is not None

    def forget_ahead(self) -> None:
        self.worker.cancel(READ_AHEAD)
        self._ahead = None
        self._drop_laid_ahead()

    def _ask(self, passage_pk: int, centre: int | None, neighbour: bool) -> None:
        self.worker.cancel("read")
        asked = (passage_pk, centre, neighbour)
        self._asked = asked
        self.worker.start(
            "read",
            operations.read_op(passage_pk, self._items(), centre),
            on_done=lambda done: self._arrived(asked, done.result),
            on_failed=lambda error: self._failed(asked, error),
        )

    def _arrived(self, asked: tuple, reading: review.Reading) -> None:
        if asked is not self._asked:
            return  # another passage was asked for since
        self._asked = None
        self._show(reading)
        # The title's slot measures the new title now, before the paint that shows it:
        # measuring a rich-text label lays it out again, which after that paint would
        # repaint the title in a pass of its own.
        QCoreApplication.sendPostedEvents(self._title_slot, QEvent.Type.LayoutRequest)
        self._scroll()  # again, in the view the new title left
        if asked[2] and self.passage_pk == reading.passage_pk:
            self.neighbourChosen.emit(reading.passage_pk, self.passage_id)

    def _failed(self, asked: tuple, error: Exception) -> None:
        if asked is self._asked:
            self.clear()
            self.title.setText(
                html.escape(self.tr("Cannot read the passage: {error}").format(error=error))
            )

    def _show(self, reading: review.Reading) -> None:
        passage, before, after = reading.passage, reading.before, reading.after
        if passage is None:
            self.clear()
            return
        meta = json.loads(passage["meta"]) if passage["meta"] else {}
        source = review.source_label(passage["title"], meta, limit=6)
        if reading.window is not None:
            self._show_in_document(passage, source, reading.window, reading.centre)
            return
        self._window = self._target = None
        self.title.setText(
            self.tr("<b>{passage}</b> {source} — whole passage, its neighbours greyed").format(
                passage=html.escape(passage["id"]), source=html.escape(source)
            )
        )
        self.title.setToolTip(passage["id"])
        # Open on the passage itself, with the end of the neighbour above it in view: the
        # document is laid out whole before it is shown, so the view is scrolled before its
        # first paint (not painted at the top and then again).
        self._scroll_pending = bool(before)
        self._show_document(between(reading, self.session.terms))
        if before:
            self._scroll()
            QTimer.singleShot(0, self._scroll)  # again once the scroll bar has its range
        self.passage_pk, self.passage_id = reading.passage_pk, passage["id"]
        self.neighbour_pks = [p["pk"] for p in (*before, *after)]  # their links, in order

    def _show_in_document(self, passage: dict, source: str, window, centre: int | None) -> None:
        start, end = window.passage
        self.title.setText(
            self.tr(
                "<b>{passage}</b> {source} — in document {document} ({start}–{end} of {n} "
                "characters): gold spans underlined, the part covering them shaded"
            ).format(
                passage=html.escape(passage["id"]),
                source=html.escape(source),
                document=html.escape(window.document_id),
                start=start,
                end=end,
                n=window.document_length,
            )
        )
        self.title.setToolTip(passage["id"])
        doc = self._new_document()
        origin = document_text.fill(doc, window, self._gold_label, self.session.terms)
        self._window, self._origin = window, origin
        if centre is None:
            self._target = document_text.passage_position(window, origin)
        else:  # where the reviewer was reading, in the text laid out anew
            units = span_snap.utf16_length(window.text[: max(0, centre - window.offset)])
            self._target = origin + units
        self._scroll_pending = True
        self._show_document(doc)
        self._scroll()
        QTimer.singleShot(0, self._scroll)  # again once the scroll bar has its range
        self.passage_pk, self.passage_id = passage["pk"], passage["id"]
        self.neighbour_pks = []

    def _items(self) -> list[tuple[int, str | None, list[int]]]:
        """The current question's evidence items: (position, role, passage keys)."""
        return review.reading_items(self.session.view)

    @staticmethod
    def _gold_label(span) -> str:
        return f"{terms.role(span.role)} {span.item + 1}"

    def selected_span(self) -> tuple[str, int, int] | None:
        """The reviewer's selection as (document id, start, end) in code points of the
        document, snapped to whole characters (desktop.gold.span_snap), or None (nothing
        selected, or the passage is not shown in its document)."""
        window, cursor = self._window, self.viewer.textCursor()
        if window is None or not cursor.hasSelection():
            return None
        limit = span_snap.utf16_length(window.text)
        low = min(max(cursor.selectionStart() - self._origin, 0), limit)
        high = min(max(cursor.selectionEnd() - self._origin, 0), limit)
        start = span_snap.code_points(window.text, low, forward=False)
        end = span_snap.code_points(window.text, high, forward=True)
        if start >= end:
            return None
        start, end = span_snap.snap(window.text, start, end)  # never inside a character
        return window.document_id, window.offset + start, window.offset + end

    def show_graph(self, view, _keep: bool = False) -> None:
        """The entities, relationships and report titles of the shown systems' contexts."""
        lines = []
        for system, parts in view.graph.items():
            listed = [
                f"{label}: {html.escape(', '.join(parts.get(part, [])[:GRAPH_NAMES]))}"
                for part, label in (
                    ("entities", self.tr("entities")),
                    ("relationships", self.tr("relationships")),
                    ("reports", self.tr("reports")),
                )
                if parts.get(part)
            ]
            lines.append(f"<b>{html.escape(system)}</b> — " + " · ".join(listed))
        self.graph.setText("<br>".join(lines))
        self.graph.setToolTip(self.tr("What the graph retriever's context held besides its text"))
        self.graph.setVisible(bool(lines))

    def _new_document(self) -> QTextDocument:
        """An empty document in the viewer's font and margins, to fill and lay out here."""
        shown = self.viewer.document()
        doc = QTextDocument(self.viewer)
        doc.setDefaultFont(self.viewer.font())
        doc.setDocumentMargin(shown.documentMargin())
        doc.setDefaultStyleSheet(shown.defaultStyleSheet())
        return doc

    def _show_document(self, content: str | QTextDocument) -> None:
        """Put in a document built and laid out here, off the paint path, in the viewer's
        font and at its width, in place of the one shown (markup, or a document filled)."""
        width = self.viewer.viewport().width()
        if isinstance(content, QTextDocument):
            doc = content
        elif self._laid_ahead is not None and self._laid_ahead[0] == (content, width):
            doc, self._laid_ahead = self._laid_ahead[1], None  # laid out while it waited
        else:
            doc = self._laid_out(content, width)
        doc.setTextWidth(width)
        doc.size()  # lays the whole document out now
        previous = self._document
        self.viewer.setDocument(doc)  # Qt deletes only the viewer's first, its own
        if previous is not None:
            # Python's now: freed as this function returns, with or without an event loop
            # to run a deleteLater (the bench has none).
            previous.setParent(None)
        self._document = doc

    def _laid_out(self, markup: str, width: int) -> QTextDocument:
        doc = self._new_document()
        doc.setHtml(markup)
        doc.setTextWidth(width)
        doc.size()
        return doc

    def _scroll(self) -> None:
        if not self._scroll_pending:
            return
        if self._target is not None:
            self._scroll_to(self._target)
            return
        block = self.viewer.document().findBlockByNumber(1)  # the passage, after one neighbour
        if not block.isValid():
            return
        rect = self.viewer.document().documentLayout().blockBoundingRect(block)
        # Up to two lines of the neighbour above while the passage still fits whole below
        # them; a passage taller than the view starts below one line of it, so that the
        # reviewer sees it goes on from the neighbour.
        spare = self.viewer.viewport().height() - rect.height()
        self.viewer.verticalScrollBar().setValue(int(max(self._line_top(block, spare), 0)))

    def _scroll_to(self, position: int) -> None:
        """The line holding this document position two lines below the top of the view."""
        doc = self.viewer.document()
        block = doc.findBlock(position)
        if not block.isValid() or block.layout() is None:
            return
        lines = block.layout()
        line = lines.lineForTextPosition(position - block.position())
        top = doc.documentLayout().blockBoundingRect(block).top()
        y = top + (line.y() if line.isValid() else 0)
        above = 2 * self.viewer.fontMetrics().lineSpacing()
        # Start on a whole line: the highest line top within `above` of the target's line
        # (lines are paragraphs apart, so y - above alone cuts a line in half).
        tops = self._line_tops(block.previous()) + self._line_tops(block)
        whole = [t for t in tops if y - above <= t <= y]
        self.viewer.verticalScrollBar().setValue(int(max(min(whole, default=y - above), 0)))

    def _line_tops(self, block) -> list[float]:
        """Where each line of a block begins in the document, top to bottom."""
        lines = block.layout() if block.isValid() else None
        if lines is None:
            return []
        top = self.viewer.document().documentLayout().blockBoundingRect(block).top()
        return [top + lines.lineAt(n).y() for n in range(lines.lineCount())]

    def _line_top(self, block, spare: float) -> float:
        """Where the view starts, on a whole line (never half a line of the neighbour, also
        where the end of the document holds the view back): with
        `spare` room beside the passage, the higher of the neighbour's last two lines that
        still leaves the passage whole in view, else just below its last line; a passage
        taller than the view (spare < 0) opens below the neighbour's last line."""
        start = self.viewer.document().documentLayout().blockBoundingRect(block).top()
        previous = block.previous()
        tops = self._line_tops(previous)
        if not tops:
            return start
        bottom = self.viewer.verticalScrollBar().maximum()
        if start > bottom:  # the document ends before the view would: a whole line above it
            return max((y for y in tops if y <= bottom), default=bottom)
        if spare < 0:
            return tops[-1]
        fitting = [y for y in tops[-2:] if start - y <= spare]
        if fitting:
            return fitting[0]
        last = previous.layout().lineAt(previous.layout().lineCount() - 1)
        return min(start, tops[-1] + last.height())

    def _scrolled_by_hand(self, _action: int) -> None:
        self._scroll_pending = False

    def _link(self, url) -> None:
        text = url.toString()
        if text.startswith("passage:"):
            self.show_neighbour(int(text.split(":", 1)[1]))
        elif text.startswith("document:") and self._window is not None:
            # on through a long document: the text laid out around where the window ended
            later = text == "document:later"
            centre = self._window.end if later else self._window.offset
            self.show_passage(self.passage_pk, centre)

    def show_neighbour(self, passage_pk: int) -> None:
        """A neighbour followed: shown, then the passage the keys act on (neighbourChosen)."""
        self._ask(passage_pk, None, neighbour=True)
