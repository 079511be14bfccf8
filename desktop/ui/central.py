"""The window's widgets laid out (its central pages) and the question header: built once by
MainWindow, which keeps the panels as its attributes."""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui import actions, terms
from desktop.ui.candidates import CandidateRunner
from desktop.ui.common import shrinkable
from desktop.ui.evidence import EvidencePanel
from desktop.ui.picking import PassageTabs
from desktop.ui.pool_panel import PoolPanel
from desktop.ui.question_list import QuestionListPanel
from desktop.ui.ranking import RankingsArea
from desktop.ui.reader import PassageReader
from desktop.ui.span_keys import SpanKeys
from desktop.ui.welcome import WelcomePanel
from desktop.ui.widgets import LayoutSlot, highlighted_html, opaque, text_lines_height
from desktop.ui.worker import Worker


def build_central(window) -> None:
    """The window's pages: the welcome page, and the review page with the question list on
    the left, the rankings (or pool) above the reader in the middle, the evidence on the
    right; the panels become the window's attributes."""
    session = window.session
    window.pages = QStackedWidget()
    window.empty = WelcomePanel(
        window.files.load_sample, window.files.import_dialog, window.files.open_database_dialog
    )
    window.empty.reviewerNamed.connect(window.set_reviewer)
    window.pages.addWidget(window.empty)
    window.question_panel = QuestionListPanel(session)
    window.question_panel.chosen.connect(lambda pk: window.session.show(pk))
    window.question_panel.countsChanged.connect(window.toolbar.show_progress)
    window.evidence_panel = EvidencePanel(
        session, actions.buttons(window.actions_), window.commands.adjudicate
    )
    # The reader's worker reads ahead the views of the questions the keys go to next.
    window.rankings = RankingsArea(session, window.question_panel.order, window.reading)
    window.reader = PassageReader(session, window.reading)
    window.span_keys = SpanKeys(window, window.reader)
    window.pool_panel = PoolPanel(
        session,
        lambda: window.question_panel.order(),
        Worker(window.db_path, window, "pools"),  # the queue across questions
    )
    window.middle_tabs = PassageTabs(window.rankings, window.pool_panel, window.reader)
    window.rankings.nothingChosen.connect(lambda: _reader_fallback(window))
    window.rankings.nextViewRead.connect(
        lambda view, terms_: window.reader.lay_out_ahead(view.opening, terms_)
    )
    window.rankings.viewDrawnAhead.connect(window.evidence_panel.draw_ahead)
    window.pool_panel.questionWanted.connect(
        lambda pk: window.show_question(session.by_pk[pk]["id"])
    )
    window.pool_panel.nextQuestionWanted.connect(window.gold.next_pool_question)
    # Said after the judgement's own "Saved" message, not under it.
    window.pool_panel.emptied.connect(lambda: QTimer.singleShot(0, window.gold.pool_done))
    window.evidence_panel.itemChosen.connect(window.reader.show_passage)
    window.alternatives = CandidateRunner(window, window)
    window.pages.addWidget(_review_page(window, _middle(window)))
    window.setCentralWidget(window.pages)


def _middle(window) -> QWidget:
    """The question header above the rankings (or pool) and the reader."""
    middle = QWidget()
    layout = QVBoxLayout(middle)
    layout.setContentsMargins(0, 0, 0, 0)
    window.question_header = shrinkable(QLabel())
    window.question_header.setWordWrap(True)
    window.question_header.setTextFormat(Qt.TextFormat.RichText)
    window.question_header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    # Two lines, always: a question switch then repaints the header, not the whole layout.
    big = window.question_header.font()
    big.setPointSizeF(big.pointSizeF() * 1.25)
    window.question_header.setFixedHeight(text_lines_height(big, 2))
    window.question_header.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    layout.addWidget(LayoutSlot(window.question_header))
    window.middle_split = QSplitter(Qt.Orientation.Vertical)
    window.middle_split.setObjectName("middle-split")
    window.middle_split.addWidget(LayoutSlot(window.middle_tabs))  # the pool count: no relayout
    window.middle_split.addWidget(window.reader)
    window.middle_split.setStretchFactor(0, 1)
    window.middle_split.setStretchFactor(1, 1)
    layout.addWidget(window.middle_split, 1)
    return middle


def _review_page(window, middle: QWidget) -> QWidget:
    """The question list, the middle and the evidence column side by side."""
    page = QWidget()
    row = QHBoxLayout(page)
    row.setContentsMargins(4, 4, 4, 4)
    window.main_split = QSplitter(Qt.Orientation.Horizontal)
    window.main_split.setObjectName("main-split")
    # The evidence column scrolls rather than make the window taller than the screen (many
    # items, notes and disagreements at 768 px).
    right = QScrollArea()
    right.setWidget(window.evidence_panel)
    right.setWidgetResizable(True)
    right.setFrameShape(QScrollArea.Shape.NoFrame)
    right.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    opaque(right)  # its scroll bar, moved by a question's rows, repaints the column alone
    # In compare mode the reader moves under the evidence (LayoutMemory.mode_changed), so
    # that both rankings get the middle's height.
    window.right_split = QSplitter(Qt.Orientation.Vertical)
    window.right_split.setObjectName("right-split")
    window.right_split.addWidget(right)
    for i, (widget, stretch) in enumerate(
        ((window.question_panel, 2), (middle, 6), (window.right_split, 3))
    ):
        window.main_split.addWidget(widget)
        window.main_split.setStretchFactor(i, stretch)
    row.addWidget(window.main_split)
    return page


def show_header(label: QLabel, view) -> None:
    """The question's id, text and answerability badge above the rankings."""
    badge = (
        QCoreApplication.translate("MainWindow", "answerable")
        if view.answerable
        else QCoreApplication.translate("MainWindow", "to abstain on")
    )
    if view.answerable_status:
        badge += f" ({terms.decision(view.answerable_status, short=True)})"
    if view.answerable != view.imported_answerable:
        badge += " ← " + (
            QCoreApplication.translate("MainWindow", "imported: answerable")
            if view.imported_answerable
            else QCoreApplication.translate("MainWindow", "imported: abstain")
        )
    colour = "#007a4d" if view.answerable else "#b36b00"
    # A zero-width space after each character of the id lets a long id wrap, never widen.
    shown_id = "\u200b".join(html.escape(view.id[:400]))
    label.setText(
        f"<span style='font-size:large'><b>{shown_id}</b> "
        f"{highlighted_html(view.text, [])}</span> "
        f"&nbsp;<span style='color:{colour}'>[{html.escape(badge)}]</span>"
    )
    label.setToolTip(f"{view.id}\n{view.text}")


def _reader_fallback(window) -> None:
    """No ranked passage to show (an empty top K): the selected evidence item instead."""
    item = window.selected_item()
    if item is not None:
        window.reader.show_passage(item.primary_pk)
    else:
        window.reader.clear()
