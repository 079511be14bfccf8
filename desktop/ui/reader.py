"""The passage reader: the whole passage with the question's terms marked, between its
neighbours (greyed, each a link to read it)."""

from __future__ import annotations

import html
import json

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QTextBrowser, QVBoxLayout, QWidget

from desktop import review
from desktop.ui.common import shrinkable
from desktop.ui.session import ReviewSession
from desktop.ui.widgets import highlighted_html

NEIGHBOUR_CHARS = 600


class PassageReader(QWidget):
    # A neighbour was followed: (passage pk, passage id), now the passage the keys act on
    # (evidence no system retrieved is often beside evidence that one did).
    neighbourChosen = Signal(int, str)

    def __init__(self, session: ReviewSession, parent=None):
        super().__init__(parent)
        self.session = session
        self.passage_pk: int | None = None
        self.passage_id: str | None = None
        self.neighbour_pks: list[int] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = shrinkable(QLabel())
        self.title.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.title)
        self.viewer = QTextBrowser()
        self.viewer.setOpenLinks(False)
        self.viewer.anchorClicked.connect(self._link)
        layout.addWidget(self.viewer)

    def clear(self) -> None:
        self.viewer.clear()
        self.title.clear()
        self.passage_pk = self.passage_id = None

    def show_passage(self, passage_pk: int) -> None:
        passage, before, after = review.passage_context(self.session.project, passage_pk, 1)
        if passage is None:
            self.clear()
            return
        meta = json.loads(passage["meta"]) if passage["meta"] else {}
        source = review.source_label(passage["title"], meta, limit=6)
        self.title.setText(
            self.tr("<b>{passage}</b> {source} — whole passage, its neighbours greyed").format(
                passage=html.escape(passage["id"]), source=html.escape(source)
            )
        )
        self.title.setToolTip(passage["id"])
        parts = [self._neighbour(p) for p in before]
        parts.append(f"<p>{highlighted_html(passage['text'], self.session.terms)}</p>")
        parts += [self._neighbour(p) for p in after]
        self.viewer.setHtml("".join(parts))
        if before:
            # Start at the passage itself, not at the neighbour above it.
            QTimer.singleShot(0, self._scroll)
        self.passage_pk, self.passage_id = passage_pk, passage["id"]
        self.neighbour_pks = [p["pk"] for p in (*before, *after)]  # their links, in order

    @staticmethod
    def _neighbour(p: dict) -> str:
        return (
            f"<p style='color:#808080'><a href='passage:{p['pk']}'>{html.escape(p['id'])}</a> "
            f"{highlighted_html(p['text'], [], NEIGHBOUR_CHARS)}</p>"
        )

    def _scroll(self) -> None:
        block = self.viewer.document().findBlockByNumber(1)
        if block.isValid():
            layout = self.viewer.document().documentLayout()
            self.viewer.verticalScrollBar().setValue(int(layout.blockBoundingRect(block).top()))

    def _link(self, url) -> None:
        text = url.toString()
        if text.startswith("passage:"):
            self.show_neighbour(int(text.split(":", 1)[1]))

    def show_neighbour(self, passage_pk: int) -> None:
        self.show_passage(passage_pk)
        if self.passage_pk == passage_pk:
            self.neighbourChosen.emit(passage_pk, self.passage_id)
