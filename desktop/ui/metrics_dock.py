"""The metrics dock: every system's means and Recall curve, and the reviewers' agreement.
Closable and floatable; View → Metrics shows it again, and the window remembers."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.evaluation.metrics import JUDGED_ENOUGH, unsettled_by_system
from desktop.ui.common import review_table, shrinkable
from desktop.ui.comparison import ComparisonPanel
from desktop.ui.models import AgreementModel, MetricsModel
from desktop.ui.models.base import AMBER
from desktop.ui.reviewer_marks import ReviewerMarks
from desktop.ui.session import ReviewSession
from desktop.ui.team_words import team_text
from desktop.ui.widgets import LayoutSlot, RecallCurve, system_colour

AGREEMENT_TAB, COMPARISON_TAB = 1, 2
MAX_SYSTEM_ROWS = 10  # systems the dock's default height makes room for, screen allowing
SYSTEM_CHARS = 28  # the widest the system column grows, in average characters


class MetricsDock(QDockWidget):
    agreementWanted = Signal()  # the agreement tab was opened: bring it up to date

    def __init__(self, session: ReviewSession, parent=None):
        super().__init__(self.tr("Metrics"), parent)
        self.session = session
        self.busy = False
        self.setObjectName("metrics-dock")
        self.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.tabs = QTabWidget()
        self.tabs.addTab(self._metrics_page(), self.tr("Metrics"))
        self.tabs.addTab(self._agreement_page(), self.tr("Agreement"))
        self.comparison = ComparisonPanel(session)
        self.tabs.addTab(self.comparison, self.tr("Comparison"))
        self.tabs.currentChanged.connect(self._tab_changed)
        self.setWidget(self.tabs)
        self.toggleViewAction().setText(self.tr("&Metrics"))
        session.scoresChanged.connect(self._scores_changed)
        session.blindChanged.connect(self._blind_changed)

    def _metrics_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(2, 2, 2, 2)
        top = QHBoxLayout()
        self.state = shrinkable(QLabel())
        self.state.setWordWrap(True)  # two lines in a narrow dock rather than a cut one
        top.addWidget(self.state, 2)
        # Where a system's Judged@K is under metrics.JUDGED_ENOUGH (issue 13): on the same
        # line, so that the table keeps its rows. It counts the systems and names none (the
        # table shows which, in amber; the tooltip lists them): a list of eight systems took
        # four lines at 1366x768 and left the table no row.
        self.unsettled = shrinkable(QLabel())
        self.unsettled.setObjectName("unsettled-note")
        self.unsettled.setStyleSheet(f"color: {AMBER.name()}")
        self.unsettled.setWordWrap(True)
        # In a slot: a pool key changes the note's figures, and a new text of as many lines
        # laid out and repainted the whole dock and the window's dock edges.
        self.unsettled_slot = LayoutSlot(self.unsettled)
        self.unsettled_slot.setAutoFillBackground(False)  # the tab page's lighter colour shows
        self.unsettled_slot.hide()
        top.addWidget(self.unsettled_slot, 3)
        layout.addLayout(top)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.setObjectName("metrics-split")
        self.model = MetricsModel(self)
        self.table = review_table(page)
        self.table.setModel(self.model)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # A long system name is elided (its tooltip is whole) instead of widening its column
        # until the measures are scrolled out of view; the measures' columns are far narrower.
        header.setMaximumSectionSize(self.table.fontMetrics().averageCharWidth() * SYSTEM_CHARS)
        # One line a system, so that the dock's few lines hold as many systems as they can.
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.viewport().installEventFilter(self)
        # Rows in view are counted once the layout has settled: counted in the event, they
        # were read from a geometry the next layout pass changed without a resize event
        # ("4 of 8 systems in view" under a table that showed two).
        self._count_rows = QTimer(self)
        self._count_rows.setSingleShot(True)
        self._count_rows.setInterval(0)
        self._count_rows.timeout.connect(self.show_hidden_rows)
        self.model.modelReset.connect(self._count_rows.start)
        self.split.addWidget(self.table)
        self.curve = RecallCurve()
        self.curve.title = self.tr("Recall@K, K = 1 … depth")
        self.curve.empty_text = self.tr("No runs yet")
        self.split.addWidget(self.curve)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        layout.addWidget(self.split, 1)
        # Said when some system's row is out of view (the best one may be the last).
        self.hidden_rows = shrinkable(QLabel())
        self.hidden_rows.setObjectName("hidden-rows")
        self.hidden_rows.setWordWrap(True)
        self.hidden_rows.hide()
        layout.addWidget(self.hidden_rows)
        return page

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._count_rows.start()
        return super().eventFilter(watched, event)

    def rows_in_view(self) -> int:
        table = self.table
        area = table.viewport().rect()
        rects = (table.visualRect(self.model.index(r, 0)) for r in range(self.model.rowCount()))
        return sum(1 for rect in rects if area.contains(rect))

    def show_hidden_rows(self) -> None:
        rows = self.model.rowCount()
        if not rows or not self.table.isVisible():
            return
        shown = self.rows_in_view()
        self.hidden_rows.setVisible(shown < rows)
        if shown < rows:
            self.hidden_rows.setText(
                self.tr(
                    "{shown} of {n} systems in view: scroll the table, or press T for the tall view"
                ).format(shown=shown, n=rows)
            )

    def wanted_height(self) -> int:
        """The dock's height with every system's row in view (up to MAX_SYSTEM_ROWS)."""
        rows = min(max(self.model.rowCount(), len(self.session.systems), 1), MAX_SYSTEM_ROWS)
        table = self.table
        line = self.fontMetrics().lineSpacing()
        return (
            line
            + 8  # the dock's title
            + self.tabs.tabBar().sizeHint().height()
            + 2 * line
            + 12  # the state line, wrapped
            + table.horizontalHeader().sizeHint().height()
            + rows * table.verticalHeader().defaultSectionSize()
            + self.style().pixelMetric(self.style().PixelMetric.PM_ScrollBarExtent)
            + 2 * table.frameWidth()
            + 12
        )

    def _agreement_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.agreement_label = shrinkable(QLabel())
        self.agreement_label.setWordWrap(True)
        layout.addWidget(self.agreement_label)
        self.agreement_model = AgreementModel(self)
        self.agreement_table = review_table(page)
        self.agreement_table.setModel(self.agreement_model)
        self.agreement_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # every reviewer, the machines checked (issue 22), beside the pairs' agreement
        self.reviewer_marks = ReviewerMarks(page)
        marks = QVBoxLayout()
        marks.addWidget(shrinkable(QLabel(self.tr("Machines (checked):"))))
        marks.addWidget(self.reviewer_marks, 1)
        width = self.fontMetrics().averageCharWidth() * 24
        self.reviewer_marks.setMaximumWidth(width)
        row = QHBoxLayout()
        row.addLayout(marks)
        row.addWidget(self.agreement_table, 1)
        layout.addLayout(row)
        policy = shrinkable(QLabel())
        policy.setWordWrap(True)
        policy.setText(
            self.tr(
                "Policy: a judgement counts at once while it is the only reviewer's in the "
                "database (marked “single”); with two or more reviewers a change counts "
                "when everyone who judged it agrees, or after an adjudication. Until then the "
                "imported gold stands."
            )
        )
        layout.addWidget(policy)
        return page

    def agreement_shown(self) -> bool:
        return self.isVisible() and self.tabs.currentIndex() == AGREEMENT_TAB

    def comparison_shown(self) -> bool:
        return self.isVisible() and self.tabs.currentIndex() == COMPARISON_TAB

    def _tab_changed(self, index: int) -> None:
        if index == AGREEMENT_TAB:
            self.agreementWanted.emit()
        elif index == COMPARISON_TAB:
            self.comparison.wanted.emit()

    # -- following the session -------------------------------------------------------------

    def clear(self) -> None:
        self.model.set_board(None)

    def _scores_changed(self, pk: int) -> None:
        session = self.session
        if session.board is None:
            return
        if pk < 0:
            span = session.overview.span if session.overview is not None else None
            self.model.set_board(session.board, span)
        else:
            self.model.refresh()
        if session.overview is not None:
            self.agreement_model.set_agreement(session.overview.agreement)
        self.show_scores()

    def set_agreement(self, agreement: dict) -> None:
        if self.session.overview is not None:
            self.session.overview.agreement = agreement
        self.agreement_model.set_agreement(agreement)
        self.show_scores()

    def show_scores(self) -> None:
        board, overview = self.session.board, self.session.overview
        if board is None:
            return
        colours = {s: system_colour(i) for i, s in enumerate(board.systems)}
        self.curve.set_curves(
            {s: board.curve(s) for s in board.systems}, colours, self.session.window_ks()
        )
        if overview is None:
            return
        self.show_state()
        if self.session.blind:
            self.agreement_label.setText(
                self.tr("Blind mode: agreement is hidden until you leave it.")
            )
        else:
            self.agreement_label.setText(
                self.tr("Reviewers: {names}. Open disagreements: {n}.").format(
                    names=", ".join(overview.reviewers) or "–",
                    n=overview.agreement.get("disagreements", 0),
                )
                + " "
                + team_text(overview.agreement)
            )
        self.show_reviewers()

    def show_reviewers(self) -> None:
        """The reviewer list as the log has it (people and machines, effective.is_machine)."""
        people = self.session.overview.reviewers if self.session.overview else []
        self.reviewer_marks.set_reviewers(people, self.session.machines)

    def show_state(self) -> None:
        overview = self.session.overview
        if overview is None:
            return
        text = self.tr(
            "Mean over {n} questions with evidence; {m} without evidence are reported apart."
        ).format(n=overview.evaluated, m=overview.without_evidence)
        if overview.span is not None:
            text += " " + self.span_note(overview.span)
        if self.session.blind:
            text += " " + self.tr("Blind mode: only your own judgements are applied.")
        if self.busy:
            text = self.tr("Updating metrics…") + " " + text
        self.state.setText(text)
        self.show_unsettled()

    def span_note(self, span) -> str:
        """θ, the budgets and which runs are scored by coverage (design section 10)."""
        text = self.tr("Coverage θ = {theta:g}").format(theta=span.setting.theta)
        if span.setting.budgets:
            text += " · " + ", ".join(f"@{b}ch" for b in span.setting.budgets)
        across = sorted(s for s in span.systems if span.across(s))
        if across:
            text += " · " + self.tr("found by coverage (another chunking): {names}").format(
                names=", ".join(across)
            )
        return text + "."

    def show_unsettled(self) -> None:
        board = self.session.board
        shown = board.unsettled() if board is not None else []
        self.unsettled_slot.setVisible(bool(shown))
        if shown:
            by_system = unsettled_by_system(shown)
            parts = ", ".join(f"{s} ({', '.join(v)})" for s, v in by_system.items())
            share = f"{JUDGED_ENOUGH:.0%}"
            self.unsettled.setText(
                "※ "
                + self.tr(
                    "{n} of {m} systems have under {share} of their top K judged (amber in "
                    "the table): their numbers may still move as the pool is judged"
                ).format(n=len(by_system), m=len(board.systems), share=share)
            )
            self.unsettled.setToolTip(
                self.tr(
                    "Numbers may still move as the pool is judged (under {share} of the top K "
                    "judged): {parts}"
                ).format(share=share, parts=parts)
            )

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        if not busy:
            self.show_state()

    def show_progress(self, done: int, total: int, _phase=None) -> None:
        if total:
            self.state.setText(self.tr("Updating metrics… {p}%").format(p=done * 100 // total))

    def show_failure(self, error) -> None:
        self.state.setText(self.tr("Metrics could not be computed: {error}").format(error=error))

    def _blind_changed(self, blind: bool) -> None:
        self.tabs.setTabEnabled(AGREEMENT_TAB, not blind)
