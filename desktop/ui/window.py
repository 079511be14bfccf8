"""The reviewer window (design section 9): questions on the left, the chosen system's top K
in the middle (two systems side by side in compare mode) with the selected passage below, the
gold evidence and the triage keys on the right, live metrics at the bottom.

Judgements are written on the GUI thread through Project.add_judgement (committed before it
returns) and only then shown. Everything slow runs in workers with their own Project."""

from __future__ import annotations

import hashlib
import html
import importlib.util
import sqlite3
from functools import partial
from pathlib import Path

from PySide6.QtCore import QByteArray, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QIntValidator, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QProgressDialog,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from db import StoreError
from desktop import review
from desktop.formats import InputError
from desktop.project import Project
from desktop.review import QuestionView, UndoHistory
from desktop.ui import app as ui_app
from desktop.ui import terms
from desktop.ui.dialogs import CorpusSearchDialog, ImportDialog, NoteDialog, ShortcutSheet
from desktop.ui.models import (
    AgreementModel,
    DisputeModel,
    EvidenceModel,
    MetricsModel,
    QuestionFilter,
    QuestionListModel,
    RankingModel,
)
from desktop.ui.tasks import Runner, Task
from desktop.ui.widgets import (
    CommittedLineEdit,
    HtmlDelegate,
    RecallCurve,
    SoftSelectionDelegate,
    highlighted_html,
    system_colour,
)

K_CHOICES = (5, 10, 20, 50, 100)
FILE_FILTERS = {
    "corpus": "*.jsonl *.csv *.tsv",
    "questions": "*.jsonl *.tsv",
    "gold": "*.jsonl *.qrels *.tsv",
    "run": "*.trec *.run *.jsonl *.csv",
    "judgements": "*.jsonl",
}


def _table(parent=None) -> QTableView:
    view = QTableView(parent)
    view.setItemDelegate(SoftSelectionDelegate(view))
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    view.setWordWrap(False)
    view.setAlternatingRowColors(True)
    view.horizontalHeader().setHighlightSections(False)
    return view


def _size_columns(view: QTableView, stretch: int, widths: dict[int, int]) -> None:
    """Column widths in average characters of the view's font, so that they follow the font
    size and screen scale; `stretch` takes the rest."""
    header = view.horizontalHeader()
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    char = view.fontMetrics().averageCharWidth()
    for column, chars in widths.items():
        header.resizeSection(column, char * chars + 12)
    header.setMinimumSectionSize(char * 3)


def _shrinkable(label: QLabel) -> QLabel:
    """A one-line label that may be cut rather than widen the window (1366 px must fit)."""
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    label.setMinimumWidth(label.fontMetrics().averageCharWidth() * 10)
    return label


class RankingPanel(QWidget):
    """One system's top K: a title and a table."""

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        _shrinkable(self.title)
        layout.addWidget(self.title)
        self.model = RankingModel(self)
        self.table = _table(self)
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(
            RankingModel.COL_TEXT, HtmlDelegate(RankingModel.HtmlRole, 2, self.table)
        )
        fm = self.fontMetrics()
        self.table.verticalHeader().setDefaultSectionSize(fm.lineSpacing() * 2 + 8)
        _size_columns(
            self.table,
            RankingModel.COL_TEXT,
            {
                RankingModel.COL_RANK: 3,
                RankingModel.COL_MARK: 2,
                RankingModel.COL_SCORE: 5,
                RankingModel.COL_PASSAGE: 16,
            },
        )
        layout.addWidget(self.table)


class EmptyState(QWidget):
    """What an empty database shows: what is loaded so far, the sample, import buttons."""

    def __init__(self, window: MainWindow):
        super().__init__(window)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        box = QWidget()
        box.setMaximumWidth(self.fontMetrics().averageCharWidth() * 90)
        layout = QVBoxLayout(box)
        title = QLabel(self.tr("Nothing to review yet"))
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        title.setFont(font)
        layout.addWidget(title)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.sample = QPushButton(
            self.tr("Load the sample project (대한민국헌법, 33 questions, 3 systems)")
        )
        self.sample.setObjectName("load-sample")
        self.sample.setDefault(True)
        self.sample.setMinimumHeight(self.fontMetrics().lineSpacing() * 3)
        font = self.sample.font()
        font.setBold(True)
        self.sample.setFont(font)
        self.sample.clicked.connect(window.load_sample)
        layout.addWidget(self.sample)
        layout.addWidget(QLabel(self.tr("Or import your own files, in this order:")))
        grid = QGridLayout()
        for i, (kind, text) in enumerate(
            (
                ("corpus", self.tr("1. Corpus…")),
                ("questions", self.tr("2. Questions…")),
                ("gold", self.tr("3. Gold evidence…")),
                ("run", self.tr("4. A system's run…")),
            )
        ):
            button = QPushButton(text)
            button.setObjectName(f"import-{kind}")
            button.clicked.connect(partial(window.import_dialog, kind))
            grid.addWidget(button, i // 2, i % 2)
        layout.addLayout(grid)
        other = QPushButton(self.tr("Open another database…"))
        other.clicked.connect(window.open_database_dialog)
        layout.addWidget(other)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(box)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)

    def set_counts(self, info: dict) -> None:
        lines = [
            self.tr("Database: {path}").format(path=html.escape(str(info["database"]))),
            self.tr("Passages: {n}").format(n=info["passages"]),
            self.tr("Questions: {n}").format(n=info["questions"]),
            self.tr("Evidence items: {n}").format(n=info["evidence_items"]),
            self.tr("Systems: {names}").format(names=", ".join(info["systems"]) or "–"),
        ]
        self.summary.setText("<br>".join(lines))


class MainWindow(QMainWindow):
    PAGE_EMPTY, PAGE_REVIEW = 0, 1

    def __init__(self, db_path, reviewer: str | None = None, parent=None):
        super().__init__(parent)
        self.settings = ui_app.settings()
        self.reviewer = reviewer or str(self.settings.value("reviewer", "") or "")
        if not self.reviewer:
            self.reviewer = ui_app.ask_reviewer(self) or "reviewer"
        self.blind = self.settings.value("blind", False, bool)
        self.k = int(self.settings.value("k", 5) or 5)
        self.db_path = Path(db_path)
        self.project: Project | None = None
        self.questions: list[dict] = []
        self.by_id: dict[str, dict] = {}
        self.by_pk: dict[int, dict] = {}
        self.systems: list[dict] = []
        self.system_name: str | None = None
        self.compare_name: str | None = None
        self.reviewers: list[str] = []
        self.history = UndoHistory()
        self.view: QuestionView | None = None
        self.current_pk: int | None = None
        self.overview: review.Overview | None = None
        self.board: review.Scoreboard | None = None
        self.generation = 0
        self.terms_: list[str] = []
        self.last_message = ""  # the latest error or report shown, for tests and the log
        self.message_box: QMessageBox | None = None
        self.progress_dialog: QProgressDialog | None = None
        self._active_ranking = 0
        self._switching = False
        self._first_layout = False
        self.tasks = Runner(self)  # imports, export, merge, search: anything at all
        self.metrics_tasks = Runner(
            self, threads=1
        )  # full pass and per-question refreshes, in order
        self.metrics_tasks.changed.connect(self._metrics_state)

        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self._build_central()
        self._build_metrics_dock()
        self._progress_label = QLabel()
        self.statusBar().addPermanentWidget(self._progress_label)
        self._restore_layout()
        self.open_database(self.db_path)

    # -- building ------------------------------------------------------------------------------

    def _action(self, text: str, slot, keys=(), checkable: bool = False, tip: str = "") -> QAction:
        action = QAction(text, self)
        if keys:
            action.setShortcuts([QKeySequence(k) for k in keys])
        action.setCheckable(checkable)
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)  # shortcuts work wherever focus is in the window
        return action

    def _build_actions(self) -> None:
        a = self._action
        self.act_new = a(
            self.tr("&New database…"), self.new_database_dialog, [QKeySequence.StandardKey.New]
        )
        self.act_open = a(
            self.tr("&Open database…"), self.open_database_dialog, [QKeySequence.StandardKey.Open]
        )
        self.act_import = {
            kind: a(text, partial(self.import_dialog, kind))
            for kind, text in (
                ("corpus", self.tr("Import &corpus…")),
                ("questions", self.tr("Import &questions…")),
                ("gold", self.tr("Import &gold…")),
                ("run", self.tr("Import &run…")),
                ("judgements", self.tr("Import &judgements…")),
            )
        }
        self.act_sample = a(self.tr("Load the &sample project"), self.load_sample)
        self.act_merge = a(self.tr("&Merge database…"), self.merge_dialog)
        self.act_export = a(self.tr("&Export report…"), self.export_dialog, ["Ctrl+E"])
        self.act_export_judgements = a(
            self.tr("Export my &judgements…"), self.export_judgements_dialog
        )
        self.act_quit = a(self.tr("&Quit"), self.close, [QKeySequence.StandardKey.Quit])

        self.act_core = a(self.tr("Mark the item core"), partial(self.mark_role, "core"), ["1"])
        self.act_supporting = a(
            self.tr("Mark the item supporting"), partial(self.mark_role, "supporting"), ["2"]
        )
        self.act_alternative = a(
            self.tr("Accept the passage as an alternative"), self.accept_alternative, ["A"]
        )
        self.act_not_evidence = a(
            self.tr("Mark the passage not evidence"), self.mark_not_evidence, ["X"]
        )
        self.act_answerable = a(
            self.tr("Question answerable"), partial(self.mark_answerable, True), ["Y"]
        )
        self.act_abstain = a(
            self.tr("Question to be abstained on"), partial(self.mark_answerable, False), ["B"]
        )
        self.act_note = a(self.tr("Write a note…"), self.write_note, ["N"])
        self.act_search = a(
            self.tr("Search the corpus…"), self.search_dialog, ["S", "Ctrl+Shift+F"]
        )
        self.act_undo = a(self.tr("&Undo"), self.undo, [QKeySequence.StandardKey.Undo])
        self.act_redo = a(self.tr("&Redo"), self.redo, ["Ctrl+Shift+Z", "Ctrl+Y"])
        self.act_next = a(self.tr("Next question"), partial(self.step_question, 1), ["J", "PgDown"])
        self.act_previous = a(
            self.tr("Previous question"), partial(self.step_question, -1), ["K", "PgUp"]
        )
        self.act_next_miss = a(self.tr("Next miss"), self.next_miss, ["M"])
        self.act_filter = a(
            self.tr("Filter questions"), self.focus_filter, [QKeySequence.StandardKey.Find]
        )
        self.act_compare = a(
            self.tr("Compare two systems"), self.toggle_compare, ["C"], checkable=True
        )
        self.act_adjudicate = [
            a(
                self.tr("Adjudicate: take reviewer {n}'s value").format(n=n),
                partial(self.adjudicate, n - 1),
                [f"Ctrl+{n}"],
            )
            for n in range(1, 5)
        ]
        self.act_blind = a(
            self.tr("&Blind mode (hide other reviewers)"),
            self.toggle_blind,
            checkable=True,
            tip=self.tr("Hide other reviewers' judgements so that your review is independent"),
        )
        self.act_blind.setChecked(self.blind)
        self.act_reviewer = a(self.tr("Change &reviewer name…"), self.change_reviewer)
        self.act_shortcuts = a(
            self.tr("&Keyboard shortcuts"), self.show_shortcuts, ["?", "Shift+?", "F1"]
        )
        self.act_about = a(self.tr("&About Recall Reviewer"), self.show_about)
        self.act_language = QActionGroup(self)
        self.act_language_items = {}
        current = ui_app.language(self.settings)
        for code, label in (("ko", "한국어"), ("en", "English")):
            action = QAction(label, self, checkable=True)
            action.setChecked(code == current)
            action.triggered.connect(partial(self.set_language, code))
            self.act_language.addAction(action)
            self.act_language_items[code] = action
        self.triage_actions = [
            self.act_core,
            self.act_supporting,
            self.act_alternative,
            self.act_not_evidence,
            self.act_answerable,
            self.act_abstain,
            self.act_note,
            self.act_search,
        ]

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        file_menu.addActions([self.act_new, self.act_open])
        file_menu.addSeparator()
        for action in self.act_import.values():
            file_menu.addAction(action)
        file_menu.addAction(self.act_sample)
        file_menu.addSeparator()
        file_menu.addActions([self.act_merge, self.act_export_judgements, self.act_export])
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)
        self.file_menu = file_menu
        view_menu = bar.addMenu(self.tr("&View"))
        view_menu.addActions([self.act_compare, self.act_filter, self.act_blind])
        self.metrics_menu_slot = view_menu
        language = view_menu.addMenu(self.tr("&Language"))
        language.addActions(list(self.act_language_items.values()))
        review_menu = bar.addMenu(self.tr("&Review"))
        review_menu.addActions(self.triage_actions)
        review_menu.addSeparator()
        review_menu.addActions([self.act_next, self.act_previous, self.act_next_miss])
        review_menu.addSeparator()
        review_menu.addActions(self.act_adjudicate[:2])
        review_menu.addSeparator()
        review_menu.addActions([self.act_undo, self.act_redo, self.act_reviewer])
        help_menu = bar.addMenu(self.tr("&Help"))
        help_menu.addActions([self.act_shortcuts, self.act_about])

    def _build_toolbar(self) -> None:
        bar = QToolBar(self.tr("Systems"))
        bar.setObjectName("systems-toolbar")
        bar.setMovable(False)
        self.addToolBar(bar)
        bar.addWidget(QLabel(self.tr("System") + " "))
        self.system_box = QComboBox()
        self.system_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.system_box.currentIndexChanged.connect(self._system_chosen)
        bar.addWidget(self.system_box)
        bar.addSeparator()
        bar.addWidget(QLabel(self.tr("Compare") + " "))
        self.compare_box = QComboBox()
        self.compare_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.compare_box.currentIndexChanged.connect(self._compare_chosen)
        bar.addWidget(self.compare_box)
        bar.addSeparator()
        bar.addWidget(QLabel("K "))
        self.k_box = QComboBox()
        self.k_box.setEditable(True)
        self.k_box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.k_box.setValidator(QIntValidator(1, 10000, self.k_box))
        for k in K_CHOICES:
            self.k_box.addItem(str(k))
        self.k_box.setCurrentText(str(self.k))
        self.k_box.setMinimumContentsLength(4)
        self.k_box.lineEdit().editingFinished.connect(self._k_edited)
        self.k_box.activated.connect(self._k_edited)
        self.k_box.setToolTip(self.tr("K: how many top results count (5, 10 or any number)"))
        bar.addWidget(self.k_box)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)
        self.reviewer_button = QToolButton()
        self.reviewer_button.setDefaultAction(self.act_reviewer)
        self.reviewer_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        bar.addWidget(self.reviewer_button)
        bar.addSeparator()
        bar.addWidget(QLabel(self.tr("Progress") + " "))
        self.progress = QProgressBar()
        self.progress.setFormat(self.tr("%v/%m done"))
        self.progress.setMaximumWidth(self.fontMetrics().averageCharWidth() * 22)
        self.progress.setTextVisible(True)
        bar.addWidget(self.progress)

    def _build_central(self) -> None:
        self.pages = QStackedWidget()
        self.empty = EmptyState(self)
        self.pages.addWidget(self.empty)
        review_page = QWidget()
        layout = QHBoxLayout(review_page)
        layout.setContentsMargins(4, 4, 4, 4)
        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.setObjectName("main-split")
        self.main_split.addWidget(self._build_questions())
        self.main_split.addWidget(self._build_middle())
        self.main_split.addWidget(self._build_right())
        self.main_split.setStretchFactor(0, 3)
        self.main_split.setStretchFactor(1, 6)
        self.main_split.setStretchFactor(2, 4)
        layout.addWidget(self.main_split)
        self.pages.addWidget(review_page)
        self.setCentralWidget(self.pages)

    def _build_questions(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel(self.tr("<b>Questions</b>"))
        layout.addWidget(title)
        self.filter_box = CommittedLineEdit(box)
        self.filter_box.setPlaceholderText(self.tr("Search questions…"))
        self.filter_box.setClearButtonEnabled(True)
        self.filter_box.committed.connect(self._filter_changed)
        layout.addWidget(self.filter_box)
        grid = QGridLayout()
        self.only_misses = QCheckBox(self.tr("Misses at K"))
        self.only_unreviewed = QCheckBox(self.tr("Not done"))
        self.only_disputed = QCheckBox(self.tr("Disagreements"))
        self.answerable_box = QComboBox()
        self.answerable_box.addItem(self.tr("All questions"), None)
        self.answerable_box.addItem(self.tr("Answerable"), True)
        self.answerable_box.addItem(self.tr("To abstain on"), False)
        for widget in (self.only_misses, self.only_unreviewed, self.only_disputed):
            widget.toggled.connect(self._filter_changed)
        self.answerable_box.currentIndexChanged.connect(self._filter_changed)
        grid.addWidget(self.only_misses, 0, 0)
        grid.addWidget(self.only_unreviewed, 0, 1)
        grid.addWidget(self.only_disputed, 1, 0)
        grid.addWidget(self.answerable_box, 1, 1)
        layout.addLayout(grid)
        self.question_model = QuestionListModel(self)
        self.question_table = _table(box)
        self.question_table.setModel(self.question_model)
        self.question_table.setSortingEnabled(True)
        self.question_table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        _size_columns(
            self.question_table,
            QuestionListModel.COL_TEXT,
            {
                QuestionListModel.COL_ID: 6,
                QuestionListModel.COL_ANSWERABLE: 4,
                QuestionListModel.COL_STATUS: 2,
                QuestionListModel.COL_FOUND: 5,
                QuestionListModel.COL_FLAG: 3,
            },
        )
        self.question_table.selectionModel().currentRowChanged.connect(self._question_clicked)
        # Sorting by a header click or a filter resets the list: keep the shown question.
        self.question_model.modelReset.connect(self._after_list_reset)
        layout.addWidget(self.question_table, 1)
        self.list_count = QLabel()
        layout.addWidget(self.list_count)
        return box

    def _build_middle(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        self.question_header = QLabel()
        self.question_header.setWordWrap(True)
        self.question_header.setTextFormat(Qt.TextFormat.RichText)
        self.question_header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.question_header)
        self.middle_split = QSplitter(Qt.Orientation.Vertical)
        self.middle_split.setObjectName("middle-split")
        rankings = QWidget()
        row = QHBoxLayout(rankings)
        row.setContentsMargins(0, 0, 0, 0)
        self.ranking_panels = [RankingPanel(rankings), RankingPanel(rankings)]
        for i, panel in enumerate(self.ranking_panels):
            panel.table.selectionModel().currentRowChanged.connect(partial(self._ranked_clicked, i))
            panel.table.clicked.connect(partial(self._ranked_focus, i))
            row.addWidget(panel)
        self.ranking_panels[1].hide()
        self.ranking_panels[1].setObjectName("compare-panel")
        self.middle_split.addWidget(rankings)
        viewer_box = QWidget()
        viewer_layout = QVBoxLayout(viewer_box)
        viewer_layout.setContentsMargins(0, 0, 0, 0)
        self.viewer_title = QLabel()
        self.viewer_title.setTextFormat(Qt.TextFormat.RichText)
        _shrinkable(self.viewer_title)
        viewer_layout.addWidget(self.viewer_title)
        self.viewer = QTextBrowser()
        self.viewer.setOpenLinks(False)
        self.viewer.anchorClicked.connect(self._viewer_link)
        viewer_layout.addWidget(self.viewer)
        self.middle_split.addWidget(viewer_box)
        self.middle_split.setStretchFactor(0, 3)
        self.middle_split.setStretchFactor(1, 2)
        layout.addWidget(self.middle_split, 1)
        return box

    def _build_right(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(self.tr("<b>Gold evidence</b>")))
        self.evidence_model = EvidenceModel(self)
        self.evidence_table = _table(box)
        self.evidence_table.setModel(self.evidence_model)
        # Two lines a row ("missed (found at 14)" wraps), and as tall as its rows: the space
        # below goes to notes and disagreements.
        self.evidence_table.setWordWrap(True)
        self.evidence_table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        fm = self.fontMetrics()
        self.evidence_table.verticalHeader().setDefaultSectionSize(fm.lineSpacing() * 2 + 8)
        header = self.evidence_table.horizontalHeader()
        header.setStretchLastSection(True)
        header.setMinimumSectionSize(fm.averageCharWidth() * 3)
        char = fm.averageCharWidth()
        header.resizeSection(EvidenceModel.COL_MARK, char * 3 + 8)
        header.resizeSection(EvidenceModel.COL_ROLE, char * 11 + 8)
        header.resizeSection(EvidenceModel.COL_PASSAGE, char * 9 + 8)
        header.setDefaultSectionSize(char * 12 + 8)
        self.evidence_table.selectionModel().currentRowChanged.connect(self._item_clicked)
        self.evidence_table.clicked.connect(self._item_focus)
        layout.addWidget(self.evidence_table)
        self.evidence_note = QLabel()
        self.evidence_note.setWordWrap(True)
        layout.addWidget(self.evidence_note)
        buttons = QGridLayout()
        for i, action in enumerate(self.triage_actions):
            button = QToolButton()
            button.setDefaultAction(action)
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            short = {
                self.act_core: self.tr("Core"),
                self.act_supporting: self.tr("Supporting"),
                self.act_alternative: self.tr("Alternative"),
                self.act_not_evidence: self.tr("Not evidence"),
                self.act_answerable: self.tr("Answerable"),
                self.act_abstain: self.tr("Abstain"),
                self.act_note: self.tr("Note"),
                self.act_search: self.tr("Search"),
            }[action]
            # The button shows the action's icon text; setText would be undone the next time
            # the action changes (enabled after a load, say).
            action.setIconText(f"{keys}  {short}")
            button.setToolTip(action.text())
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            button.setMinimumWidth(self.fontMetrics().averageCharWidth() * 6)
            buttons.addWidget(button, i // 4, i % 4)
        layout.addLayout(buttons)
        self.notes_view = QLabel()
        self.notes_view.setWordWrap(True)
        self.notes_view.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.notes_view)
        self.dispute_box = QWidget()
        dispute_layout = QVBoxLayout(self.dispute_box)
        dispute_layout.setContentsMargins(0, 0, 0, 0)
        dispute_layout.addWidget(QLabel(self.tr("<b>Open disagreements</b>")))
        self.dispute_model = DisputeModel(self)
        self.dispute_table = _table(self.dispute_box)
        self.dispute_table.setWordWrap(True)
        self.dispute_table.setModel(self.dispute_model)
        self.dispute_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.dispute_table.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        dispute_layout.addWidget(self.dispute_table)
        self.dispute_buttons = QHBoxLayout()
        dispute_layout.addLayout(self.dispute_buttons)
        self.dispute_hint = QLabel(
            self.tr("Ctrl+1, Ctrl+2 … write an adjudication with that reviewer's value.")
        )
        self.dispute_hint.setWordWrap(True)
        dispute_layout.addWidget(self.dispute_hint)
        layout.addWidget(self.dispute_box, 1)
        self.dispute_box.hide()
        self.right_stretch = QWidget()  # takes the room when there is no disagreement
        layout.addWidget(self.right_stretch, 1)
        legend = QLabel(
            self.tr(
                "● hit of an evidence item · ◐ hit through an alternative · ○ not evidence · "
                "◌ proposed alternative · × missed at K"
            )
        )
        legend.setWordWrap(True)
        legend.setStyleSheet("color: #6b6b6b")  # muted, still readable
        layout.addWidget(legend)
        return box

    def _fit_evidence_table(self) -> None:
        rows = max(2, min(self.evidence_model.rowCount(), 8))
        table = self.evidence_table
        height = (
            table.horizontalHeader().height()
            + rows * table.verticalHeader().defaultSectionSize()
            + 2 * table.frameWidth()
        )
        table.setFixedHeight(height)

    def _build_metrics_dock(self) -> None:
        dock = QDockWidget(self.tr("Metrics"), self)
        dock.setObjectName("metrics-dock")
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        tabs = QTabWidget()
        metrics_page = QWidget()
        metrics_layout = QVBoxLayout(metrics_page)
        metrics_layout.setContentsMargins(2, 2, 2, 2)
        self.metrics_state = QLabel()
        metrics_layout.addWidget(self.metrics_state)
        self.metrics_split = QSplitter(Qt.Orientation.Horizontal)
        self.metrics_split.setObjectName("metrics-split")
        self.metrics_model = MetricsModel(self)
        self.metrics_table = _table(metrics_page)
        self.metrics_table.setModel(self.metrics_model)
        self.metrics_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.metrics_split.addWidget(self.metrics_table)
        self.curve = RecallCurve()
        self.curve.title = self.tr("Recall@K, K = 1 … depth")
        self.curve.empty_text = self.tr("No runs yet")
        self.metrics_split.addWidget(self.curve)
        self.metrics_split.setStretchFactor(0, 3)
        self.metrics_split.setStretchFactor(1, 2)
        metrics_layout.addWidget(self.metrics_split, 1)
        tabs.addTab(metrics_page, self.tr("Metrics"))
        agreement_page = QWidget()
        agreement_layout = QVBoxLayout(agreement_page)
        self.agreement_label = QLabel()
        self.agreement_label.setWordWrap(True)
        agreement_layout.addWidget(self.agreement_label)
        self.agreement_model = AgreementModel(self)
        self.agreement_table = _table(agreement_page)
        self.agreement_table.setModel(self.agreement_model)
        self.agreement_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        agreement_layout.addWidget(self.agreement_table)
        policy = QLabel(
            self.tr(
                "Policy: a judgement counts at once while it is the only reviewer's in the "
                "database (marked “single”); with two or more reviewers a change counts "
                "when everyone who judged it agrees, or after an adjudication. Until then the "
                "imported gold stands."
            )
        )
        policy.setWordWrap(True)
        agreement_layout.addWidget(policy)
        tabs.addTab(agreement_page, self.tr("Agreement"))
        self.metrics_tabs = tabs
        dock.setWidget(tabs)
        dock.setTitleBarWidget(QWidget())  # the tabs name it; a title bar would only take room
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        self.metrics_dock = dock
        self.metrics_menu_slot.addAction(dock.toggleViewAction())

    # -- layout memory ---------------------------------------------------------------------------

    def _db_key(self) -> str:
        return hashlib.sha1(str(self.db_path.resolve()).encode()).hexdigest()[:16]

    def _restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            screen = QApplication.primaryScreen()
            if screen is not None:
                area = screen.availableGeometry()
                self.resize(int(area.width() * 0.92), int(area.height() * 0.9))
            self._first_layout = True
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        for name, split in (
            ("main", self.main_split),
            ("middle", self.middle_split),
            ("metrics", self.metrics_split),
        ):
            value = self.settings.value(f"window/split-{name}")
            if isinstance(value, QByteArray) and not value.isEmpty():
                split.restoreState(value)

    def _save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("window/split-main", self.main_split.saveState())
        self.settings.setValue("window/split-middle", self.middle_split.saveState())
        self.settings.setValue("window/split-metrics", self.metrics_split.saveState())
        if self.current_pk is not None and self.current_pk in self.by_pk:
            self.settings.setValue(
                f"last-question/{self._db_key()}", self.by_pk[self.current_pk]["id"]
            )
        self.settings.sync()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if getattr(self, "_first_layout", False):
            # No saved layout: share the width and height out by proportion, not pixels.
            self._first_layout = False
            QTimer.singleShot(0, self._default_layout)

    def _default_layout(self) -> None:
        width = self.main_split.width() or self.width()
        self.main_split.setSizes([int(width * 0.25), int(width * 0.43), int(width * 0.32)])
        self.resizeDocks([self.metrics_dock], [int(self.height() * 0.27)], Qt.Orientation.Vertical)
        height = self.middle_split.height() or self.height()
        self.middle_split.setSizes([int(height * 0.6), int(height * 0.4)])
        total = self.metrics_split.width() or width
        self.metrics_split.setSizes([int(total * 0.6), int(total * 0.4)])

    def closeEvent(self, event: QCloseEvent) -> None:
        self._save_layout()
        self.tasks.cancel()
        self.metrics_tasks.cancel()
        self.tasks.wait(10000)
        self.metrics_tasks.wait(10000)
        if self.project is not None:
            self.project.close()
            self.project = None
        super().closeEvent(event)

    # -- opening and loading -------------------------------------------------------------------

    def open_database(self, path) -> bool:
        path = Path(path)
        try:
            project = Project(path)
        except (StoreError, sqlite3.DatabaseError, OSError) as error:
            self.show_error(self.tr("Cannot open the database"), str(error))
            if self.project is None:
                self.pages.setCurrentIndex(self.PAGE_EMPTY)
            return False
        self.metrics_tasks.cancel()
        self.tasks.cancel()
        if self.project is not None:
            if self.current_pk is not None and self.current_pk in self.by_pk:
                self.settings.setValue(
                    f"last-question/{self._db_key()}", self.by_pk[self.current_pk]["id"]
                )
            self.project.close()
        self.project = project
        self.db_path = path
        self.settings.setValue("last-database", str(path))
        self.current_pk = None
        self.view = None
        self.reload(restore=True)
        return True

    def reload(self, restore: bool = False) -> None:
        """Read questions and systems again (after opening, an import or a merge)."""
        self.questions = self.project.questions()
        self.by_id = {q["id"]: q for q in self.questions}
        self.by_pk = {q["pk"]: q for q in self.questions}
        self.systems = self.project.systems()
        self.reviewers = review.reviewers(self.project)
        self.history = review.history(self.project, self.reviewer)
        self._update_title()
        self._fill_system_boxes()
        self.board = None
        self.overview = None
        self.metrics_model.set_board(None)
        self.question_model.set_questions(self.questions)
        self.question_model.set_found(self._found, self.k)
        self._apply_blind_ui()
        self._update_undo_actions()
        self.metrics_dock.setVisible(bool(self.questions))
        if not self.questions:
            self.empty.set_counts(self.project.info())
            self.pages.setCurrentIndex(self.PAGE_EMPTY)
            self._set_triage_enabled(False)
            self.generation += 1
            self._update_progress()
            return
        if self.pages.currentIndex() != self.PAGE_REVIEW:
            # Coming from the empty page the focus would fall into the search box, where the
            # triage keys type text instead of judging.
            self.pages.setCurrentIndex(self.PAGE_REVIEW)
            self.question_table.setFocus()
        self._set_triage_enabled(True)
        target = None
        if restore:
            last = self.settings.value(f"last-question/{self._db_key()}")
            target = self.by_id.get(str(last)) if last else None
        if target is None and self.current_pk in self.by_pk:
            target = self.by_pk[self.current_pk]
        if target is None:
            pk = self.question_model.pk_at(0)
            target = self.by_pk[pk] if pk is not None else self.questions[0]
        self.current_pk = None
        self.show_question(target["id"])
        self.start_full_pass()

    def _fill_system_boxes(self) -> None:
        names = [s["name"] for s in self.systems]
        wanted = self.system_name or str(self.settings.value(f"system/{self._db_key()}", "") or "")
        compare = self.compare_name
        self._switching = True
        self.system_box.clear()
        self.system_box.addItems(names)
        self.compare_box.clear()
        self.compare_box.addItem(self.tr("(none)"), None)
        for name in names:
            self.compare_box.addItem(name, name)
        self.system_name = wanted if wanted in names else (names[0] if names else None)
        if self.system_name:
            self.system_box.setCurrentText(self.system_name)
        self.compare_name = compare if compare in names and compare != self.system_name else None
        self.compare_box.setCurrentIndex(
            self.compare_box.findData(self.compare_name) if self.compare_name else 0
        )
        self.act_compare.setChecked(self.compare_name is not None)
        self.act_compare.setEnabled(len(names) >= 2)
        self._switching = False

    def _update_title(self) -> None:
        title = f"{self.db_path.name} — {self.reviewer}"
        if self.blind:
            title += " — " + self.tr("blind mode")
        self.setWindowTitle(title)
        self.act_reviewer.setText(self.tr("Reviewer: {name}").format(name=self.reviewer))

    def _set_triage_enabled(self, enabled: bool) -> None:
        for action in [
            *self.triage_actions,
            self.act_next,
            self.act_previous,
            self.act_next_miss,
            self.act_export,
            *self.act_adjudicate,
        ]:
            action.setEnabled(enabled)

    # -- the question list -----------------------------------------------------------------------

    def _found(self, pk: int):
        if self.board is None or self.system_name is None:
            return None
        return self.board.found(self.system_name, pk, self.k)

    def _filter_changed(self, *_args) -> None:
        spec = QuestionFilter(
            text=self.filter_box.text().strip(),
            misses=self.only_misses.isChecked(),
            unreviewed=self.only_unreviewed.isChecked(),
            disputed=self.only_disputed.isChecked() and not self.blind,
            answerable=self.answerable_box.currentData(),
        )
        self.question_model.set_filter(spec)
        self._after_list_reset()

    def _after_list_reset(self) -> None:
        """Keep the current question selected after the list was filtered or sorted."""
        self._select_in_list(self.current_pk)
        self._update_progress()

    def _select_in_list(self, pk: int | None) -> None:
        if pk is None:
            return
        row = self.question_model.row_of(pk)
        selection = self.question_table.selectionModel()
        self._switching = True
        try:
            if row < 0:
                selection.clearSelection()
            else:
                index = self.question_model.index(row, QuestionListModel.COL_ID)
                selection.setCurrentIndex(
                    index,
                    selection.SelectionFlag.ClearAndSelect | selection.SelectionFlag.Rows,
                )
                self.question_table.scrollTo(index)
        finally:
            self._switching = False

    def _question_clicked(self, current, _previous=None) -> None:
        if self._switching or not current.isValid():
            return
        pk = self.question_model.pk_at(current.row())
        if pk is not None and pk != self.current_pk:
            self._render(pk)

    def _update_progress(self) -> None:
        total = self.question_model.total()
        self.progress.setFormat(self.tr("%v/%m done") if total else "")
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(
            self.question_model.done_count() if self.question_model.loaded else 0
        )
        self.list_count.setText(
            self.tr("{shown} of {total} questions").format(
                shown=self.question_model.visible_count(), total=total
            )
        )

    # -- showing a question ---------------------------------------------------------------------

    def show_question(self, question_id: str) -> bool:
        question = self.by_id.get(question_id)
        if question is None:
            return False
        self._render(question["pk"])
        self._select_in_list(question["pk"])
        return True

    def _shown_systems(self) -> list[dict]:
        by_name = {s["name"]: s for s in self.systems}
        shown = [by_name[self.system_name]] if self.system_name in by_name else []
        if self.compare_name in by_name and self.compare_name != self.system_name:
            shown.append(by_name[self.compare_name])
        return shown

    def _render(self, pk: int, keep_selection: bool = False) -> None:
        question = self.by_pk.get(pk)
        if question is None or self.project is None:
            return
        self.metrics_tasks.hold()  # the metrics pass waits while the reviewer moves
        same = pk == self.current_pk
        item_row = self.evidence_table.currentIndex().row() if keep_selection and same else -1
        rank_rows = (
            [p.table.currentIndex().row() for p in self.ranking_panels]
            if keep_selection and same
            else [-1, -1]
        )
        self.current_pk = pk
        systems = self._shown_systems()
        view = review.question_view(
            self.project, question, systems, self.k, self.reviewer, self.blind, self.reviewers
        )
        self.view = view
        self.terms_ = review.question_terms(question["text"])
        self._render_header(view)
        names = [s["name"] for s in systems]
        for i, panel in enumerate(self.ranking_panels):
            if i < len(names):
                name = names[i]
                panel.model.set_rows(view.rankings.get(name, []), view.items, self.terms_)
                colour = system_colour(
                    next((j for j, s in enumerate(self.systems) if s["name"] == name), 0)
                ).name()
                depth = view.depth.get(name, 0)
                panel.title.setText(
                    self.tr(
                        "<b>Top {k}</b> — <span style='color:{colour}'>■</span> {system} "
                        "({depth} results)"
                    ).format(k=self.k, colour=colour, system=html.escape(name), depth=depth)
                )
                panel.setVisible(True)
            else:
                panel.model.set_rows([], [], [])
                panel.setVisible(i == 0)
                if i == 0:
                    panel.title.setText(self.tr("<b>No runs imported yet</b>"))
        # Side by side, each ranking gets half the room: the score moves to the tooltip.
        for panel in self.ranking_panels:
            panel.table.setColumnHidden(RankingModel.COL_SCORE, len(names) > 1)
        self.evidence_model.set_items(view.items, names, self.k, self.reviewer)
        header = self.evidence_table.horizontalHeader()
        fm = self.evidence_table.fontMetrics()
        for i, name in enumerate(names):
            width = max(fm.horizontalAdvance(name), fm.averageCharWidth() * 10) + 16
            header.resizeSection(EvidenceModel.COL_FIRST_SYSTEM + i, width)
        if not view.items:
            if view.answerable:
                self.evidence_note.setText(
                    self.tr(
                        "No evidence items for this question: it is reported apart, "
                        "not averaged in."
                    )
                )
            else:
                self.evidence_note.setText(
                    self.tr(
                        "No evidence: this question should be abstained on "
                        "(reported apart, not averaged in)."
                    )
                )
        else:
            missed = view.missed(names[0]) if names else []
            self.evidence_note.setText(
                self.tr("{missed} of {n} items missed at K = {k} by {system}.").format(
                    missed=len(missed), n=len(view.items), k=self.k, system=names[0]
                )
                if names
                else ""
            )
        self._fit_evidence_table()
        self._render_notes(view)
        self._render_disputes(view)
        # Select the evidence item and passage to act on: the first miss, the top passage.
        if item_row < 0 or item_row >= len(view.items):
            missed = view.missed(names[0]) if names else []
            item_row = missed[0] if missed else (0 if view.items else -1)
        if item_row >= 0:
            self.evidence_table.selectRow(item_row)
        for i, panel in enumerate(self.ranking_panels):
            row = rank_rows[i] if rank_rows[i] >= 0 else 0
            if panel.model.rowCount():
                panel.table.selectRow(min(row, panel.model.rowCount() - 1))
        if not keep_selection or not same:
            self._show_ranked(self._active_ranking if self._active_ranking < len(names) else 0)

    def _render_header(self, view: QuestionView) -> None:
        badge = self.tr("answerable") if view.answerable else self.tr("to abstain on")
        if view.answerable_status:
            badge += f" ({terms.decision(view.answerable_status, short=True)})"
        if view.answerable != view.imported_answerable:
            badge += " ← " + (
                self.tr("imported: answerable")
                if view.imported_answerable
                else self.tr("imported: abstain")
            )
        colour = "#007a4d" if view.answerable else "#b36b00"
        self.question_header.setText(
            f"<span style='font-size:large'><b>{html.escape(view.id)}</b> "
            f"{highlighted_html(view.text, [])}</span> "
            f"&nbsp;<span style='color:{colour}'>[{html.escape(badge)}]</span>"
        )

    def _render_notes(self, view: QuestionView) -> None:
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

    def _render_disputes(self, view: QuestionView) -> None:
        disputes = [] if self.blind else view.disputes
        self.dispute_model.set_disputes(disputes)
        while self.dispute_buttons.count():
            widget = self.dispute_buttons.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        for n, who in enumerate(self.dispute_model.reviewers[:4], 1):
            button = QPushButton(self.tr("Take {name}'s value (Ctrl+{n})").format(name=who, n=n))
            button.setObjectName(f"adjudicate-{n}")
            button.clicked.connect(partial(self.adjudicate, n - 1))
            self.dispute_buttons.addWidget(button)
        self.dispute_box.setVisible(bool(disputes))
        self.right_stretch.setVisible(not disputes)
        if disputes:
            self.dispute_table.selectRow(0)

    def _ranked_focus(self, panel: int, _index=None) -> None:
        self._active_ranking = panel
        self._show_ranked(panel)

    def _ranked_clicked(self, panel: int, current, _previous=None) -> None:
        if current.isValid() and self.ranking_panels[panel].table.hasFocus():
            self._active_ranking = panel
            self._show_ranked(panel)

    def _show_ranked(self, panel: int) -> None:
        table = self.ranking_panels[panel].table
        row = self.ranking_panels[panel].model.row(table.currentIndex().row())
        if row is not None:
            self.show_passage(row.passage_pk)
        elif self.view and self.view.items:
            self._item_focus()
        else:
            self.viewer.clear()
            self.viewer_title.clear()

    def _item_clicked(self, current, _previous=None) -> None:
        if current.isValid() and self.evidence_table.hasFocus():
            self._item_focus()

    def _item_focus(self, _index=None) -> None:
        item = self.selected_item()
        if item is not None:
            self.show_passage(item.primary_pk)

    def show_passage(self, passage_pk: int) -> None:
        """The whole passage with the question's terms marked, between its neighbours."""
        passage, before, after = review.passage_context(self.project, passage_pk, 1)
        if passage is None:
            self.viewer.clear()
            return
        import json

        meta = json.loads(passage["meta"]) if passage["meta"] else {}
        source = review.source_label(passage["title"], meta, limit=6)
        self.viewer_title.setText(
            self.tr("<b>{passage}</b> {source} — whole passage, its neighbours greyed").format(
                passage=html.escape(passage["id"]), source=html.escape(source)
            )
        )
        parts = []
        for p in before:
            parts.append(
                f"<p style='color:#808080'><a href='passage:{p['pk']}'>{html.escape(p['id'])}</a> "
                f"{highlighted_html(p['text'], [], 600)}</p>"
            )
        parts.append(f"<p>{highlighted_html(passage['text'], self.terms_)}</p>")
        for p in after:
            parts.append(
                f"<p style='color:#808080'><a href='passage:{p['pk']}'>{html.escape(p['id'])}</a> "
                f"{highlighted_html(p['text'], [], 600)}</p>"
            )
        self.viewer.setHtml("".join(parts))
        if before:
            # Start at the passage itself, not at the neighbour above it.
            QTimer.singleShot(0, self._scroll_viewer)
        self.viewer_passage_pk = passage_pk

    def _scroll_viewer(self) -> None:
        block = self.viewer.document().findBlockByNumber(1)
        if block.isValid():
            layout = self.viewer.document().documentLayout()
            self.viewer.verticalScrollBar().setValue(int(layout.blockBoundingRect(block).top()))

    def _viewer_link(self, url) -> None:
        text = url.toString()
        if text.startswith("passage:"):
            self.show_passage(int(text.split(":", 1)[1]))

    # -- selections ------------------------------------------------------------------------

    def selected_item(self):
        if self.view is None:
            return None
        return self.evidence_model.item(self.evidence_table.currentIndex().row())

    def selected_passage(self):
        """The retrieved passage to act on: the current row of the ranking last used."""
        panels = [p for p in self.ranking_panels if p.isVisible() and p.model.rowCount()]
        if not panels:
            return None
        panel = (
            self.ranking_panels[self._active_ranking]
            if self.ranking_panels[self._active_ranking] in panels
            else panels[0]
        )
        return panel.model.row(panel.table.currentIndex().row())

    def select_item(self, row: int) -> None:
        self.evidence_table.selectRow(row)

    def select_passage(self, row: int, panel: int = 0) -> None:
        self._active_ranking = panel
        self.ranking_panels[panel].table.selectRow(row)
        self._show_ranked(panel)

    def current_question_id(self) -> str | None:
        return self.by_pk[self.current_pk]["id"] if self.current_pk in self.by_pk else None

    def question_ids(self) -> list[str]:
        return [q["id"] for q in self.questions]

    # -- systems and K ---------------------------------------------------------------------

    def _system_chosen(self, index: int) -> None:
        if self._switching or index < 0:
            return
        self.set_system(self.system_box.itemText(index))

    def set_system(self, name: str) -> None:
        if name not in [s["name"] for s in self.systems]:
            return
        self.system_name = name
        self.settings.setValue(f"system/{self._db_key()}", name)
        if self.compare_name == name:
            self.compare_name = None
        self._sync_boxes()
        self.question_model.set_found(self._found, self.k)
        self._after_list_reset()
        if self.current_pk is not None:
            self._render(self.current_pk, keep_selection=True)

    def _compare_chosen(self, index: int) -> None:
        if self._switching or index < 0:
            return
        self.set_compare(self.compare_box.itemData(index))

    def set_compare(self, name: str | None) -> None:
        names = [s["name"] for s in self.systems]
        self.compare_name = name if name in names and name != self.system_name else None
        self._sync_boxes()
        if self.current_pk is not None:
            self._render(self.current_pk, keep_selection=True)

    def toggle_compare(self) -> None:
        if self.compare_name:
            self.set_compare(None)
            return
        others = [s["name"] for s in self.systems if s["name"] != self.system_name]
        remembered = str(self.settings.value("compare", "") or "")
        self.set_compare(remembered if remembered in others else (others[0] if others else None))
        if self.compare_name:
            self.settings.setValue("compare", self.compare_name)

    def _sync_boxes(self) -> None:
        self._switching = True
        if self.system_name:
            self.system_box.setCurrentText(self.system_name)
        self.compare_box.setCurrentIndex(
            self.compare_box.findData(self.compare_name) if self.compare_name else 0
        )
        self.act_compare.setChecked(self.compare_name is not None)
        self._switching = False

    def _k_edited(self, *_args) -> None:
        text = self.k_box.currentText().strip()
        if text.isdigit() and int(text) >= 1:
            self.set_k(int(text))

    def set_k(self, k: int) -> None:
        if k == self.k:
            return
        self.k = k
        self.settings.setValue("k", k)
        self.k_box.setCurrentText(str(k))
        self.question_model.set_found(self._found, k)
        self._after_list_reset()
        if self.current_pk is not None:
            self._render(self.current_pk, keep_selection=True)
        if self.board is None or k not in self.board.ks:
            self.start_full_pass()
        else:
            self._show_metrics()

    # -- metrics in workers ----------------------------------------------------------------

    def window_ks(self) -> list[int]:
        return sorted({*review.WINDOW_KS, self.k})

    def start_full_pass(self) -> None:
        """Every system over every question, in a worker; supersedes any pass under way."""
        if self.project is None:
            return
        self.generation += 1
        generation = self.generation
        self.metrics_tasks.cancel("full")
        reviewer, blind, ks = self.reviewer, self.blind, self.window_ks()

        def work(project, progress):
            return review.overview(project, reviewer, blind, ks, progress)

        self.metrics_tasks.start(
            self.db_path,
            work,
            name="full",
            on_done=partial(self._overview_ready, generation),
            on_failed=partial(self._metrics_failed, generation),
            on_progress=self._metrics_progress,
        )

    def _metrics_progress(self, done: int, total: int, phase: str | None = None) -> None:
        if total:
            self.metrics_state.setText(
                self.tr("Updating metrics… {p}%").format(p=done * 100 // total)
            )

    def _metrics_failed(self, generation: int, error) -> None:
        if generation == self.generation:
            self.metrics_state.setText(
                self.tr("Metrics could not be computed: {error}").format(error=error)
            )

    def _overview_ready(self, generation: int, result: review.Overview) -> None:
        if generation != self.generation:
            return  # a newer pass is coming
        self.overview = result
        self.board = result.board
        self.reviewers = result.reviewers
        self.question_model.set_summaries(result.summaries)
        self.question_model.set_found(self._found, self.k)
        self._after_list_reset()
        self.metrics_model.set_board(self.board)
        self.agreement_model.set_agreement(result.agreement)
        self._show_metrics()

    def _refresh_question_later(self, question: dict) -> None:
        """Rescore one question after a judgement on it, in the metrics queue."""
        generation = self.generation
        reviewer, blind = self.reviewer, self.blind
        ks = list(self.board.ks) if self.board else self.window_ks()
        reviewers = list(self.reviewers)

        def work(project, progress):
            refreshed = review.refresh_question(project, question, reviewer, blind, ks, reviewers)
            return refreshed, (None if blind else project.agreement())

        self.metrics_tasks.start(
            self.db_path,
            work,
            name="question",
            on_done=partial(self._question_ready, generation, question["pk"]),
            on_failed=partial(self._metrics_failed, generation),
        )

    def _question_ready(self, generation: int, pk: int, result) -> None:
        (summary, entries), agreement = result
        if generation != self.generation or self.board is None:
            return
        for system, entry in entries.items():
            if system in self.board.entries:
                self.board.set(system, pk, entry)
        self.question_model.update_summary(summary)
        if self.overview is not None:
            self.overview.summaries[pk] = summary
            if agreement is not None:
                self.overview.agreement = agreement
                self.agreement_model.set_agreement(agreement)
        self.metrics_model.refresh()
        row = self.question_model.row_of(pk)
        if row >= 0:
            self.question_model.dataChanged.emit(
                self.question_model.index(row, 0),
                self.question_model.index(row, QuestionListModel.COLUMNS - 1),
            )
        self._show_metrics()

    def _show_metrics(self) -> None:
        if self.board is None:
            return
        colours = {s: system_colour(i) for i, s in enumerate(self.board.systems)}
        self.curve.set_curves(
            {s: self.board.curve(s) for s in self.board.systems}, colours, self.window_ks()
        )
        self._update_progress()
        overview = self.overview
        if overview is not None:
            self._metrics_summary()
            agreement = overview.agreement
            if self.blind:
                self.agreement_label.setText(
                    self.tr("Blind mode: agreement is hidden until you leave it.")
                )
            else:
                self.agreement_label.setText(
                    self.tr("Reviewers: {names}. Open disagreements: {n}.").format(
                        names=", ".join(overview.reviewers) or "–",
                        n=agreement.get("disagreements", 0),
                    )
                )

    def _metrics_summary(self) -> None:
        overview = self.overview
        if overview is None:
            return
        text = self.tr(
            "Mean over {n} questions with evidence; {m} without evidence are reported apart."
        ).format(n=overview.evaluated, m=overview.without_evidence)
        if self.blind:
            text += " " + self.tr("Blind mode: only your own judgements are applied.")
        if self.metrics_tasks.busy():
            text = self.tr("Updating metrics…") + " " + text
        self.metrics_state.setText(text)

    def _metrics_state(self) -> None:
        busy = self.metrics_tasks.busy()
        self._progress_label.setText(self.tr("Updating metrics…") if busy else "")
        if not busy:
            self._metrics_summary()

    def metrics_busy(self) -> bool:
        return self.metrics_tasks.busy()

    # -- judgements ------------------------------------------------------------------------

    def judge(
        self,
        kind: str,
        value,
        passage_id: str = "",
        settles: str | None = None,
        system: str | None = None,
        question: dict | None = None,
    ) -> dict | None:
        """Append one judgement line (committed before this returns), then show it."""
        question = question or self.by_pk.get(self.current_pk)
        if question is None or self.project is None:
            return None
        try:
            row = self.project.add_judgement(
                self.reviewer,
                question["id"],
                kind,
                value,
                passage_id=passage_id,
                settles=settles,
                system=system,
                at=review.next_at(self.history.last_at),
            )
        except (ValueError, sqlite3.Error) as error:
            self.show_error(self.tr("The judgement was not saved"), str(error))
            return None
        self.history.record(row)
        new_reviewer = self.reviewer not in self.reviewers
        if new_reviewer:
            # A second reviewer appearing changes what counts everywhere (single → pending).
            self.reviewers = sorted({*self.reviewers, self.reviewer})
        if question["pk"] == self.current_pk:
            self._render(question["pk"], keep_selection=True)
        if new_reviewer or self.board is None:
            self.start_full_pass()
        else:
            self._refresh_question_later(question)
        self._update_undo_actions()
        self.statusBar().showMessage(
            self.tr("Saved: {kind} {passage} → {value} ({question})").format(
                kind=terms.kind(settles or kind),
                passage=passage_id,
                value=terms.value_text(settles or kind, value),
                question=question["id"],
            ),
            8000,
        )
        return row

    def _mine(self, kind: str, passage_id: str):
        return self.view.mine.get((kind, passage_id)) if self.view else None

    def mark_role(self, role: str) -> None:
        item = self.selected_item()
        if item is None:
            self.statusBar().showMessage(self.tr("Select an evidence item first"), 5000)
            return
        if self._mine("role", item.primary_id) == role:
            self.statusBar().showMessage(
                self.tr("You already marked {passage} {role}").format(
                    passage=item.primary_id, role=terms.role(role)
                ),
                5000,
            )
            return
        self.judge("role", role, passage_id=item.primary_id, system=None)

    def accept_alternative(self) -> None:
        item, passage = self.selected_item(), self.selected_passage()
        if item is None or passage is None:
            self.statusBar().showMessage(
                self.tr("Select an evidence item and a retrieved passage first"), 5000
            )
            return
        self.add_alternative(passage.passage_id, item)

    def add_alternative(self, passage_id: str, item) -> bool:
        if self.view is None:
            return False
        if any(i.primary_id == passage_id for i in self.view.items):
            self.statusBar().showMessage(
                self.tr("{passage} is itself an evidence item").format(passage=passage_id), 5000
            )
            return False
        if self._mine("alternative", passage_id) == item.primary_id:
            # Pressing A again on your own alternative withdraws it.
            return self.judge("alternative", None, passage_id=passage_id) is not None
        return self.judge("alternative", item.primary_id, passage_id=passage_id) is not None

    def mark_not_evidence(self) -> None:
        passage = self.selected_passage()
        if passage is None:
            return
        if self.view and any(i.primary_pk == passage.passage_pk for i in self.view.items):
            self.statusBar().showMessage(
                self.tr(
                    "{passage} is an evidence item's primary passage and stays evidence; "
                    "mark its role instead"
                ).format(passage=passage.passage_id),
                6000,
            )
            return
        value = None if self._mine("not_evidence", passage.passage_id) else True
        self.judge("not_evidence", value, passage_id=passage.passage_id)

    def mark_answerable(self, answerable: bool) -> None:
        if self.view is None:
            return
        if self._mine("answerable", "") is answerable:
            self.statusBar().showMessage(self.tr("Already recorded"), 4000)
            return
        self.judge("answerable", answerable)

    def write_note(self) -> None:
        if self.view is None:
            return
        item = (
            self.selected_item() if self.evidence_table.hasFocus() or self._note_on_item() else None
        )
        if item is not None:
            target = self.tr("Note on evidence item {passage} of {question} ({system})").format(
                passage=item.primary_id, question=self.view.id, system=self.system_name or "–"
            )
            passage_id, system = item.primary_id, self.system_name
        else:
            target = self.tr("Note on question {question}").format(question=self.view.id)
            passage_id, system = "", None
        existing = next(
            (
                n.text
                for n in reversed(self.view.notes)
                if n.reviewer == self.reviewer and n.passage_id == passage_id
            ),
            "",
        )
        dialog = NoteDialog(target, existing, self)
        self.note_dialog = dialog
        question = self.by_pk[self.current_pk]
        dialog.accepted.connect(
            partial(self._save_note, dialog, question, existing, passage_id, system)
        )
        dialog.open()  # window-modal, and the event loop keeps running

    def _save_note(self, dialog: NoteDialog, question, existing, passage_id, system) -> None:
        text = dialog.text()
        if text != existing:
            self.judge(
                "note", text or None, passage_id=passage_id, system=system, question=question
            )

    def _note_on_item(self) -> bool:
        """A note goes on the selected item when it is missed at K (a miss note), else on
        the question."""
        item = self.selected_item()
        if item is None or not self.system_name:
            return False
        return not self.evidence_model.found(item, self.system_name).at(self.k)

    def search_dialog(self) -> None:
        if self.view is None:
            return
        dialog = CorpusSearchDialog(
            self.view.items,
            self.search_corpus,
            lambda passage, item: self.add_alternative(passage["id"], item),
            max(self.evidence_table.currentIndex().row(), 0),
            self,
        )
        self.search = dialog
        dialog.open()

    def search_corpus(self, text: str, on_done) -> Task:
        """Search in a worker: a LIKE scan over a million passages takes a while."""
        self.tasks.cancel("search")

        def work(project, progress):
            return review.search_corpus(project, text)

        return self.tasks.start(
            self.db_path,
            work,
            name="search",
            on_done=on_done,
            on_failed=lambda error: self.show_error(self.tr("Search failed"), str(error)),
        )

    def adjudicate(self, reviewer_index: int) -> None:
        """Settle the selected disagreement with one reviewer's value (one key: Ctrl+n)."""
        if self.blind or not self.dispute_model.disputes:
            self.statusBar().showMessage(self.tr("No open disagreement on this question"), 5000)
            return
        row = max(self.dispute_table.currentIndex().row(), 0)
        dispute = self.dispute_model.disputes[row]
        reviewers = self.dispute_model.reviewers
        if reviewer_index >= len(reviewers) or reviewers[reviewer_index] not in dispute.values:
            return
        value = dispute.values[reviewers[reviewer_index]]
        self.judge("adjudication", value, passage_id=dispute.passage_id, settles=dispute.kind)

    def undo(self) -> None:
        self._replay(self.history.undo_line(), self.tr("Undone"))

    def redo(self) -> None:
        self._replay(self.history.redo_line(), self.tr("Redone"))

    def _replay(self, line: dict | None, what: str) -> None:
        if line is None:
            self.statusBar().showMessage(
                self.tr("Nothing to undo")
                if what == self.tr("Undone")
                else self.tr("Nothing to redo"),
                4000,
            )
            return
        question = self.by_id.get(line["question_id"])
        if question is None:
            return
        if question["pk"] != self.current_pk:
            self.show_question(question["id"])
        kind = line["kind"]
        row = self.judge(
            kind,
            line["value"],
            passage_id=line["passage_id"],
            settles=line["settles"],
            system=line["system"],
            question=question,
        )
        if row is not None:
            self.statusBar().showMessage(
                f"{what}: {terms.kind(line['settles'] or kind)} {line['passage_id']} "
                f"({question['id']})",
                8000,
            )

    def _update_undo_actions(self) -> None:
        self.act_undo.setEnabled(self.history.can_undo())
        self.act_redo.setEnabled(self.history.can_redo())

    # -- navigation ------------------------------------------------------------------------

    def step_question(self, step: int) -> None:
        order = self.question_model.order() or self.question_model.all_order()
        if not order:
            return
        if self.current_pk in order:
            i = order.index(self.current_pk) + step
        else:
            i = 0 if step > 0 else len(order) - 1
        if 0 <= i < len(order):
            self.show_question(self.by_pk[order[i]]["id"])

    def next_miss(self) -> None:
        """The next evidence item missed at K by the chosen system: in this question after
        the selected item, else the first miss of the next question that has one."""
        if self.view is None or not self.system_name:
            return
        missed = self.view.missed(self.system_name)
        current = self.evidence_table.currentIndex().row()
        later = [i for i in missed if i > current]
        if later:
            self.evidence_table.selectRow(later[0])
            self._item_focus()
            return
        order = self.question_model.order() or self.question_model.all_order()
        start = order.index(self.current_pk) + 1 if self.current_pk in order else 0
        for pk in order[start:] + order[:start]:
            if pk == self.current_pk:
                continue
            found = self._found(pk)
            if found is None and self.board is None:
                found = self._found_now(pk)
            if found and found[0] < found[1]:
                self.show_question(self.by_pk[pk]["id"])
                return
        self.statusBar().showMessage(
            self.tr("No other question has a miss at K = {k}").format(k=self.k), 5000
        )

    def _found_now(self, pk: int):
        view = review.question_view(
            self.project,
            self.by_pk[pk],
            self._shown_systems()[:1],
            self.k,
            self.reviewer,
            self.blind,
            self.reviewers,
        )
        if not view.items or not self.system_name:
            return None
        return len(view.items) - len(view.missed(self.system_name)), len(view.items)

    def focus_filter(self) -> None:
        self.filter_box.setFocus()
        self.filter_box.selectAll()

    # -- modes -----------------------------------------------------------------------------

    def toggle_blind(self, checked: bool | None = None) -> None:
        self.set_blind(self.act_blind.isChecked() if checked is None else bool(checked))

    def set_blind(self, blind: bool) -> None:
        self.blind = blind
        self.settings.setValue("blind", blind)
        self.act_blind.setChecked(blind)
        self._apply_blind_ui()
        self._update_title()
        if self.current_pk is not None:
            self._render(self.current_pk, keep_selection=True)
        self._filter_changed()
        self.start_full_pass()

    def _apply_blind_ui(self) -> None:
        self.only_disputed.setEnabled(not self.blind)
        self.metrics_tabs.setTabEnabled(1, not self.blind)
        tip = self.tr("Hidden in blind mode") if self.blind else ""
        self.only_disputed.setToolTip(tip)
        for action in self.act_adjudicate:
            action.setEnabled(not self.blind and bool(self.questions))

    def change_reviewer(self) -> None:
        name, ok = QInputDialog.getText(
            self,
            self.tr("Reviewer"),
            self.tr("Your name as a reviewer:"),
            QLineEdit.EchoMode.Normal,
            self.reviewer,
        )
        if ok and name.strip():
            self.set_reviewer(name.strip())

    def set_reviewer(self, name: str) -> None:
        self.reviewer = name
        self.settings.setValue("reviewer", name)
        self.reviewers = review.reviewers(self.project)
        self.history = review.history(self.project, name)
        self._update_title()
        self._update_undo_actions()
        if self.current_pk is not None:
            self._render(self.current_pk, keep_selection=True)
        self.start_full_pass()

    def set_language(self, code: str) -> None:
        self.settings.setValue("language", code)
        self.show_info(
            self.tr("Language"),
            self.tr("The language changes the next time the window opens.")
            + "\n"
            + (
                "다음에 창을 열 때 한국어로 바뀝니다."
                if code == "ko"
                else "The window will be in English the next time it opens."
            ),
        )

    def show_shortcuts(self) -> None:
        actions = [
            *self.triage_actions,
            self.act_next,
            self.act_previous,
            self.act_next_miss,
            self.act_compare,
            self.act_filter,
            *self.act_adjudicate[:2],
            self.act_undo,
            self.act_redo,
            self.act_export,
            self.act_shortcuts,
        ]
        sheet = ShortcutSheet(actions, self)
        self.shortcut_sheet = sheet
        sheet.open()

    def show_about(self) -> None:
        from desktop import __version__

        QMessageBox.about(
            self,
            self.tr("About Recall Reviewer"),
            self.tr(
                "Recall Reviewer {version}: review retrieval runs against gold evidence "
                "and report Recall@K."
            ).format(version=__version__),
        )

    # -- messages --------------------------------------------------------------------------

    def show_error(self, title: str, text: str) -> None:
        self._message(QMessageBox.Icon.Critical, title, text)

    def show_info(self, title: str, text: str) -> None:
        self._message(QMessageBox.Icon.Information, title, text)

    def _message(self, icon, title: str, text: str) -> None:
        # open(), not exec(): the window keeps running (and tests can read the box).
        self.last_message = text
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message_box = box
        box.open()

    # -- long work with a progress dialog ---------------------------------------------------

    def run_with_progress(self, label: str, work, on_done, name: str = "long") -> Task:
        dialog = QProgressDialog(label, self.tr("Cancel"), 0, 1000, self)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(300)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setValue(0)
        dialog.setMinimumWidth(self.fontMetrics().averageCharWidth() * 60)
        self.progress_dialog = dialog

        def finish() -> None:
            dialog.reset()
            dialog.close()
            if self.progress_dialog is dialog:
                self.progress_dialog = None

        def done(result) -> None:
            finish()
            on_done(result)

        def failed(error) -> None:
            finish()
            if isinstance(error, (InputError, StoreError)):
                self.show_error(self.tr("Nothing was changed"), str(error))
            else:
                self.show_error(
                    self.tr("Something went wrong; nothing was changed"),
                    f"{type(error).__name__}: {error}",
                )

        def cancelled() -> None:
            finish()
            self.statusBar().showMessage(self.tr("Cancelled; nothing was changed"), 8000)
            self.last_message = "cancelled"

        def progress(value: int, total: int, phase: str | None = None) -> None:
            if total > 0:
                dialog.setValue(min(999, value * 1000 // total))
            if phase:  # say what the bar is waiting for (the search index, the commit)
                dialog.setLabelText(f"{label}\n{terms.phase(phase)}")

        task = self.tasks.start(
            self.db_path,
            work,
            name=name,
            on_done=done,
            on_failed=failed,
            on_progress=progress,
            on_cancelled=cancelled,
        )
        dialog.canceled.connect(task.cancel)
        return task

    # -- imports ---------------------------------------------------------------------------

    def import_dialog(self, kind: str) -> None:
        start = str(self.settings.value("last-import-folder", "") or "")
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Import {kind}").format(kind=kind),
            start,
            f"{FILE_FILTERS[kind]};;*",
        )
        if not path:
            return
        self.settings.setValue("last-import-folder", str(Path(path).parent))
        has_corpus = bool(self.project and review.has_corpus(self.project))
        dialog = ImportDialog(kind, path, has_corpus, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.start_import(kind, path, **dialog.options())

    def start_import(
        self,
        kind: str,
        path,
        fmt=None,
        encoding=None,
        system=None,
        replace=False,
        name=None,
        unit=None,
        chunk_size=None,
        overlap=None,
    ) -> Task:
        path = str(path)

        def work(project, progress):
            return project.import_file(
                kind,
                path,
                fmt=fmt,
                encoding=encoding,
                system=system,
                replace=replace,
                name=name,
                chunk_size=chunk_size,
                overlap=overlap,
                unit=unit,
                progress=progress,
            )

        return self.run_with_progress(
            self.tr("Importing {file}…").format(file=Path(path).name),
            work,
            self._import_done,
            name="import",
        )

    def _import_done(self, report) -> None:
        self.show_info(self.tr("Imported"), "\n".join(report.lines()))
        self.statusBar().showMessage(report.lines()[0] if report.lines() else "", 8000)
        self.reload()

    def load_sample(self) -> Task:
        from desktop.sample import load_sample

        def work(project, progress):
            return list(load_sample(project, progress))

        def done(lines) -> None:
            self.statusBar().showMessage(self.tr("Sample project loaded"), 8000)
            self.last_message = "\n".join(lines)
            self.reload()

        return self.run_with_progress(
            self.tr("Loading the sample project…"), work, done, name="import"
        )

    # -- databases, merge, export ----------------------------------------------------------

    def new_database_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("New database"), str(self.db_path.parent), "*.db"
        )
        if path:
            if not path.endswith(".db"):
                path += ".db"
            self.open_database(path)

    def open_database_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open database"), str(self.db_path.parent), "*.db;;*"
        )
        if path:
            self.open_database(path)

    def merge_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Merge another reviewer's database"), str(self.db_path.parent), "*.db;;*"
        )
        if path:
            self.start_merge(path)

    def start_merge(self, path) -> Task:
        path = str(path)

        def work(project, progress):
            return project.merge(path)

        def done(report) -> None:
            self.show_info(self.tr("Merged"), "\n".join(report.lines()))
            self.reload()

        return self.run_with_progress(
            self.tr("Merging {file}…").format(file=Path(path).name), work, done, name="merge"
        )

    def export_dialog(self) -> None:
        if importlib.util.find_spec("desktop.report") is None:
            self.show_error(
                self.tr("Export report"),
                self.tr("The Excel report is not part of this build (desktop.report is missing)."),
            )
            return
        start = str(self.settings.value("last-export-folder", "") or self.db_path.parent)
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export report"), str(Path(start) / "recall-report.xlsx"), "*.xlsx"
        )
        if not path:
            return
        if not path.lower().endswith(".xlsx"):
            path += ".xlsx"
        self.settings.setValue("last-export-folder", str(Path(path).parent))
        self.start_export(path)

    def start_export(self, path, ks=None) -> Task | None:
        try:
            from desktop.report import write_report
        except ImportError as error:
            self.show_error(
                self.tr("Export report"),
                self.tr("The Excel report is not available: {error}").format(error=error),
            )
            return None
        ks = ks or self.window_ks()
        path = str(path)

        def work(project, progress):
            return write_report(project, path, ks, progress=progress)

        def done(result) -> None:
            self.show_info(self.tr("Report written"), str(result or path))

        return self.run_with_progress(
            self.tr("Writing {file}…").format(file=Path(path).name), work, done, name="export"
        )

    def export_judgements_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Export my judgements"),
            str(self.db_path.parent / f"judgements-{self.reviewer}.jsonl"),
            "*.jsonl",
        )
        if not path:
            return
        reviewer = self.reviewer

        def work(project, progress):
            return project.export_judgements(path, reviewer)

        def done(n) -> None:
            self.show_info(
                self.tr("Exported"),
                self.tr("Wrote {n} judgements to {path}").format(n=n, path=path),
            )

        self.run_with_progress(self.tr("Exporting…"), work, done, name="export")

    # -- for tests and the bench -----------------------------------------------------------

    def repaint_now(self) -> None:
        """Lay out and paint what changed, now (the bench times up to here)."""
        QApplication.sendPostedEvents()
        self.repaint()

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        return QSize(fm.averageCharWidth() * 200, fm.lineSpacing() * 45)
