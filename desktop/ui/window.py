"""The reviewer window (design section 9), assembled from its panels: the question list on
the left, the shown systems' top K above the passage reader in the middle (two rankings stacked
in compare mode), the gold evidence on the right, the metrics in a dock below.

The review session holds who reviews and what is shown and tells the panels; judgements are
written on the GUI thread (committed before they show); everything slow is an operation on a
long-lived worker (desktop.ui.operations)."""

from __future__ import annotations

import hashlib
import html
import sqlite3
from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from db import StoreError
from desktop.app.terminal import printable
from desktop.project import Project
from desktop.ui import actions, settings_store, terms
from desktop.ui.actions import ADJUDICATE, ALWAYS, JUDGE, REVIEW
from desktop.ui.commands import ReviewCommands
from desktop.ui.common import shrinkable
from desktop.ui.dialogs import ShortcutSheet
from desktop.ui.evidence import EvidencePanel
from desktop.ui.files import FileCommands
from desktop.ui.folder_warning import warn_shared_folder
from desktop.ui.gold_commands import GoldCommands
from desktop.ui.guard import DatabaseGuard
from desktop.ui.journal_warning import JournalWarning
from desktop.ui.layout_memory import LayoutMemory
from desktop.ui.metrics_dock import MetricsDock
from desktop.ui.operations import Worker
from desktop.ui.picking import PassageTabs
from desktop.ui.pool_panel import PoolPanel
from desktop.ui.question_list import QuestionListPanel
from desktop.ui.ranking import RankingsArea
from desktop.ui.reader import PassageReader
from desktop.ui.scoring import MetricsRunner
from desktop.ui.session import ReviewSession
from desktop.ui.toolbar import SystemsToolbar
from desktop.ui.welcome import WelcomePanel
from desktop.ui.widgets import highlighted_html, text_lines_height

GUI_WAIT = 3.0  # seconds a judgement waits for another program's write lock


class MainWindow(ReviewCommands, GoldCommands, FileCommands, QMainWindow):
    PAGE_EMPTY, PAGE_REVIEW = 0, 1

    def __init__(self, db_path, reviewer: str | None = None, parent=None):
        super().__init__(parent)
        self.settings = settings_store.settings()
        name = reviewer or str(self.settings.value("reviewer", "") or "")
        self.session = ReviewSession(self.settings, name, self)
        self.db_path = Path(db_path)
        self.project: Project | None = None
        self.last_message = ""  # the latest error or report shown, for tests and the log
        self.message_box: QMessageBox | None = None
        self.progress_dialog = None
        self.tasks = Worker(self.db_path, self, "tasks")  # imports, export, merge
        self.queries = Worker(self.db_path, self, "queries")  # corpus search
        self.guard = DatabaseGuard(self)
        self.guard.paused = self.tasks.busy  # our own import's commits are not "elsewhere"
        self.guard.changedElsewhere.connect(self._changed_elsewhere)
        self.actions_ = actions.build(self)
        for key, action in self.actions_.items():
            setattr(self, f"act_{key}", action)
        self.act_blind.setChecked(self.session.blind)
        self._build_menus()
        self.toolbar = SystemsToolbar(self.session, self.act_reviewer, self)
        self.addToolBar(self.toolbar)
        self._build_central()
        self.metrics_dock = MetricsDock(self.session, self)
        self.metrics = MetricsRunner(self.session, self.metrics_dock, self.db_path, self)
        self.metrics.busyChanged.connect(self._metrics_state)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.metrics_dock)
        self.view_menu.insertAction(self.act_compare, self.metrics_dock.toggleViewAction())
        self._progress_label = QLabel()
        self.statusBar().addPermanentWidget(self._progress_label)
        self.journal_warning = JournalWarning(self)
        self.statusBar().addPermanentWidget(self.journal_warning)
        self._connect_session()
        self.layout_memory = LayoutMemory(self)
        self.layout_memory.restore()
        self.open_database(self.db_path)

    # -- building --------------------------------------------------------------------------

    def _build_menus(self) -> None:
        bar = self.menuBar()
        for title, names in actions.MENUS:
            menu = bar.addMenu(actions.tr(title))
            for name in names:
                if name == "-":
                    menu.addSeparator()
                else:
                    menu.addAction(self.actions_[name])
            if names[0] == "compare":
                self.view_menu = menu
                language = menu.addMenu(self.tr("&Language"))
                self.act_language_items = {}
                current = settings_store.language(self.settings)
                for code, label in (("ko", "한국어"), ("en", "English")):
                    action = language.addAction(label)
                    action.setCheckable(True)
                    action.setChecked(code == current)
                    action.triggered.connect(lambda _=False, code=code: self.set_language(code))
                    self.act_language_items[code] = action

    def _build_central(self) -> None:
        session = self.session
        self.pages = QStackedWidget()
        self.empty = WelcomePanel(self.load_sample, self.import_dialog, self.open_database_dialog)
        self.empty.reviewerNamed.connect(self.set_reviewer)
        self.pages.addWidget(self.empty)
        self.question_panel = QuestionListPanel(session)
        self.question_panel.chosen.connect(lambda pk: self.session.show(pk))
        self.question_panel.countsChanged.connect(self.toolbar.show_progress)
        self.evidence_panel = EvidencePanel(
            session, actions.buttons(self.actions_), self.adjudicate
        )
        self.rankings = RankingsArea(session)
        self.reader = PassageReader(session)
        self.pool_panel = PoolPanel(session, lambda: self.question_panel.order())
        self.middle_tabs = PassageTabs(self.rankings, self.pool_panel, self.reader)
        self.rankings.nothingChosen.connect(self._reader_fallback)
        self.pool_panel.questionWanted.connect(
            lambda pk: self.show_question(session.by_pk[pk]["id"])
        )
        self.pool_panel.nextQuestionWanted.connect(self.next_pool_question)
        # Said after the judgement's own "Saved" message, not under it.
        self.pool_panel.emptied.connect(lambda: QTimer.singleShot(0, self.pool_done))
        self.evidence_panel.itemChosen.connect(self.reader.show_passage)
        middle = QWidget()
        layout = QVBoxLayout(middle)
        layout.setContentsMargins(0, 0, 0, 0)
        self.question_header = shrinkable(QLabel())
        self.question_header.setWordWrap(True)
        self.question_header.setTextFormat(Qt.TextFormat.RichText)
        self.question_header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Two lines, always: a question switch then repaints the header, not the whole layout.
        big = self.question_header.font()
        big.setPointSizeF(big.pointSizeF() * 1.25)
        self.question_header.setFixedHeight(text_lines_height(big, 2))
        self.question_header.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.question_header)
        self.middle_split = QSplitter(Qt.Orientation.Vertical)
        self.middle_split.setObjectName("middle-split")
        self.middle_split.addWidget(self.middle_tabs)
        self.middle_split.addWidget(self.reader)
        self.middle_split.setStretchFactor(0, 1)
        self.middle_split.setStretchFactor(1, 1)
        layout.addWidget(self.middle_split, 1)
        page = QWidget()
        row = QHBoxLayout(page)
        row.setContentsMargins(4, 4, 4, 4)
        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.setObjectName("main-split")
        # The evidence column scrolls rather than make the window taller than the screen (many
        # items, notes and disagreements at 768 px).
        right = QScrollArea()
        right.setWidget(self.evidence_panel)
        right.setWidgetResizable(True)
        right.setFrameShape(QScrollArea.Shape.NoFrame)
        right.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # In compare mode the reader moves under the evidence (LayoutMemory.mode_changed), so
        # that both rankings get the middle's height.
        self.right_split = QSplitter(Qt.Orientation.Vertical)
        self.right_split.setObjectName("right-split")
        self.right_split.addWidget(right)
        for i, (widget, stretch) in enumerate(
            ((self.question_panel, 2), (middle, 6), (self.right_split, 3))
        ):
            self.main_split.addWidget(widget)
            self.main_split.setStretchFactor(i, stretch)
        row.addWidget(self.main_split)
        self.pages.addWidget(page)
        self.setCentralWidget(self.pages)

    def _connect_session(self) -> None:
        session = self.session
        # Connected after the panels: by now they show the new view.
        session.viewChanged.connect(self._view_shown)
        session.blindChanged.connect(self._blind_changed)
        session.reviewerChanged.connect(lambda _name: self._update_title())
        session.kChanged.connect(lambda k: self.metrics.k_changed(k))
        session.poolDepthChanged.connect(lambda _depth: self.metrics.count_pool())
        session.judgementsChanged.connect(lambda _pk: self.journal_warning.check(self.project))

    # -- shortcuts to the panels (tests and the bench read these) -----------------------------

    @property
    def view(self):
        return self.session.view

    @property
    def evidence_model(self):
        return self.evidence_panel.model

    @property
    def question_model(self):
        return self.question_panel.model

    @property
    def metrics_model(self):
        return self.metrics_dock.model

    @property
    def ranking_panels(self):
        return self.rankings.panels

    # -- layout memory ---------------------------------------------------------------------

    def _db_key(self) -> str:
        return hashlib.sha1(str(self.db_path.resolve()).encode()).hexdigest()[:16]

    def _remember_question(self) -> None:
        current = self.session.current_id()
        if current is not None:
            self.settings.setValue(f"last-question/{self._db_key()}", current)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.layout_memory.shown()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.tasks.busy() and not self._confirm_cancel():
            event.ignore()
            return
        self.layout_memory.save()
        self._remember_question()
        self.settings.sync()
        self.guard.stop()
        for worker in (self.tasks, self.queries, *self.metrics.workers()):
            worker.stop(10000)
        self._close_project()
        super().closeEvent(event)

    def _confirm_cancel(self) -> bool:
        """Closing while an import (or another operation) runs: cancel it, or keep working."""
        answer = QMessageBox.question(
            self,
            self.tr("An operation is running"),
            self.tr("Cancel it and close? A cancelled import changes nothing."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    # -- opening and loading ---------------------------------------------------------------

    def open_database(self, path) -> bool:
        path = Path(path)
        try:
            # A judgement is written on this thread: wait briefly for another program's lock,
            # then say it was not saved (a StoreBusy), rather than freeze the window.
            project = Project(path, wait=GUI_WAIT)
        except (StoreError, sqlite3.DatabaseError, OSError) as error:
            self.show_error(self.tr("Cannot open the database"), printable(error))
            if self.project is None:
                self.pages.setCurrentIndex(self.PAGE_EMPTY)
            return False
        self.metrics.forget()
        for worker in (self.tasks, self.queries, *self.metrics.workers()):
            worker.cancel()
            worker.set_database(path)
        if self.project is not None:
            self._remember_question()
        self._close_project()
        self.project = project
        self.db_path = path
        if not self.guard.open(path, project):
            self._tell_read_only(path)
        warn_shared_folder(self, path)
        self.settings.setValue("last-database", str(path))
        self.session.current_pk = None
        try:
            self.session.load(project, self._db_key(), opened=True)
            self.reload(restore=True, read=False)
        except (StoreError, sqlite3.DatabaseError) as error:
            # A damaged file can open and fail at its first read: the same one line as the
            # command line, and the window back on its empty page.
            self._close_project()
            self.pages.setCurrentIndex(self.PAGE_EMPTY)
            self.show_error(self.tr("Cannot open the database"), printable(error))
            return False
        return True

    def _close_project(self) -> None:
        self.guard.release()
        if self.project is not None:
            self.project.close()
            self.project = None

    def _tell_read_only(self, path: Path) -> None:
        self.show_info(
            self.tr("Opened read-only"),
            self.tr(
                "{path} is open in another Recall Reviewer window. This window shows it "
                "read-only, and follows the changes made there."
            ).format(path=path),
        )

    def writable(self) -> bool:
        return not self.read_only and bool(self.session.reviewer)

    def show_read_only(self) -> None:
        self.statusBar().showMessage(
            self.tr("Read-only: another window has this database open"), 6000
        )

    def reload(self, restore: bool = False, read: bool = True) -> None:
        """Read questions and systems again (after opening, an import or a merge), show the
        question to work on and start the metrics pass."""
        session = self.session
        if read:
            session.load(self.project, self._db_key())
        self.guard.seen()
        self.journal_warning.check(self.project)
        self.metrics_dock.clear()
        self._update_title()
        self._apply_states()
        if not session.questions:
            self.empty.set_counts(self.project.info())
            self.empty.set_reviewer(session.reviewer)
            self.pages.setCurrentIndex(self.PAGE_EMPTY)
            self.metrics_dock.hide()
            self.metrics.forget()
            return
        if self.pages.currentIndex() != self.PAGE_REVIEW:
            # Coming from the welcome page the focus would fall into a text box, where the
            # triage keys type text instead of judging.
            self.pages.setCurrentIndex(self.PAGE_REVIEW)
            self.question_panel.table.setFocus()
            self.metrics_dock.setVisible(self.layout_memory.metrics_shown())
        self.show_question(self._target(restore)["id"])
        if not session.reviewer:
            self.statusBar().showMessage(
                self.tr("No reviewer name yet: the first judging key asks for it"), 0
            )
        self.start_full_pass()

    def _target(self, restore: bool) -> dict:
        session = self.session
        target = None
        if restore:
            last = self.settings.value(f"last-question/{self._db_key()}")
            target = session.by_id.get(str(last)) if last else None
        if target is None and session.current_pk in session.by_pk:
            target = session.by_pk[session.current_pk]
        if target is None:
            pk = self.question_model.pk_at(0)
            target = session.by_pk[pk] if pk is not None else session.questions[0]
        return target

    def _apply_states(self) -> None:
        states = {ALWAYS}
        if self.session.questions:
            states.add(REVIEW)
            # Without a reviewer name the judging keys stay live: they ask for it (judge_lines).
            if not self.read_only:
                states.add(JUDGE)
                if not self.session.blind:
                    states.add(ADJUDICATE)
        actions.enable(self.actions_, states)
        self.act_compare.setEnabled(len(self.session.systems) >= 2)
        self.act_compare.setChecked(self.session.compare_name is not None)
        self.metrics_dock.tabs.setTabEnabled(1, not self.session.blind)
        self.update_undo_actions()

    def _update_title(self) -> None:
        reviewer = self.session.reviewer or self.tr("no reviewer named")
        title = f"{self.db_path.name} — {reviewer}"
        if self.session.blind:
            title += " — " + self.tr("blind mode")
        if self.read_only:
            title += " — " + self.tr("read-only")
        self.setWindowTitle(title)
        self.act_reviewer.setText(self.tr("Reviewer: {name}").format(name=reviewer))

    # -- another program's changes ---------------------------------------------------------

    def _changed_elsewhere(self) -> None:
        """Another connection (another window, the command line) committed: read it again."""
        self.reload()
        self.statusBar().showMessage(self.tr("The database was changed elsewhere: reloaded"), 6000)

    def check_changed_elsewhere(self) -> bool:
        return self.guard.check()

    @property
    def read_only(self) -> bool:
        return self.guard.read_only

    # -- showing a question ----------------------------------------------------------------

    def show_question(self, question_id: str) -> bool:
        question = self.session.by_id.get(question_id)
        if question is None:
            return False
        self.metrics.worker.hold()  # the metrics pass waits while the reviewer moves
        self.session.show(question["pk"])
        return True

    def _view_shown(self, view, keep: bool) -> None:
        self._show_header(view)
        if not keep:
            self.middle_tabs.show_picked()

    def _reader_fallback(self) -> None:
        item = self.selected_item()
        if item is not None:
            self.reader.show_passage(item.primary_pk)
        else:
            self.reader.clear()

    def _show_header(self, view) -> None:
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
        # A zero-width space after each character of the id lets a long id wrap, never widen.
        shown_id = "\u200b".join(html.escape(view.id[:400]))
        self.question_header.setText(
            f"<span style='font-size:large'><b>{shown_id}</b> "
            f"{highlighted_html(view.text, [])}</span> "
            f"&nbsp;<span style='color:{colour}'>[{html.escape(badge)}]</span>"
        )
        self.question_header.setToolTip(f"{view.id}\n{view.text}")

    def selected_item(self):
        return self.evidence_panel.selected() if self.session.view else None

    def selected_passage(self):
        """The passage the judgement keys act on, or None (see PassageTabs.selected)."""
        return self.middle_tabs.selected()

    def select_item(self, row: int) -> None:
        self.evidence_panel.select(row)

    def select_passage(self, row: int, panel: int = 0) -> None:
        self.rankings.select(row, panel)

    def current_question_id(self) -> str | None:
        return self.session.current_id()

    def question_ids(self) -> list[str]:
        return [q["id"] for q in self.session.questions]

    # -- systems, K, modes -----------------------------------------------------------------

    def set_system(self, name: str) -> None:
        self.session.set_system(name)

    def set_compare(self, name: str | None) -> None:
        self.session.set_compare(name)
        self.act_compare.setChecked(self.session.compare_name is not None)

    def toggle_compare(self) -> None:
        self.set_compare(None if self.session.compare_name else self.session.compare_candidate())

    def toggle_metrics_tall(self) -> None:
        self.layout_memory.tall_metrics(self.act_metrics_tall.isChecked())

    def set_k(self, k: int) -> None:
        self.session.set_k(k)

    def toggle_blind(self) -> None:
        self.set_blind(self.act_blind.isChecked())

    def set_blind(self, blind: bool) -> None:
        self.act_blind.setChecked(blind)
        self.session.set_blind(blind)

    def _blind_changed(self, _blind: bool) -> None:
        self._update_title()
        self._apply_states()
        self.start_full_pass()

    def change_reviewer(self) -> None:
        name, ok = QInputDialog.getText(
            self,
            self.tr("Reviewer"),
            self.tr("Your name as a reviewer:"),
            QLineEdit.EchoMode.Normal,
            self.session.reviewer,
        )
        if ok and name.strip():
            self.set_reviewer(name.strip())

    def set_reviewer(self, name: str) -> None:
        self.session.set_reviewer(name)
        self.empty.set_reviewer(name)
        self._apply_states()
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
        self.shortcut_sheet = ShortcutSheet(actions.sheet(self.actions_), self)
        self.shortcut_sheet.open()

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

    # -- metrics ---------------------------------------------------------------------------

    def start_full_pass(self) -> None:
        self.metrics.full_pass()

    def _metrics_state(self, busy: bool) -> None:
        self._progress_label.setText(self.tr("Updating metrics…") if busy else "")

    def metrics_busy(self) -> bool:
        return self.metrics.busy() or self.metrics.counting()

    # -- messages --------------------------------------------------------------------------

    def show_error(self, title: str, text: str) -> None:
        self._message(QMessageBox.Icon.Critical, title, text)

    def show_info(self, title: str, text: str) -> None:
        self._message(QMessageBox.Icon.Information, title, text)

    def _message(self, icon, title: str, text: str) -> None:
        # open(), not exec(): the window keeps running (and tests can read the box).
        self.last_message = text
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # ids and file names are never markup
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message_box = box
        box.open()

    # -- for tests and the bench -----------------------------------------------------------

    def _set_triage_enabled(self, enabled: bool) -> None:
        actions.enable(self.actions_, {ALWAYS, REVIEW, JUDGE, ADJUDICATE} if enabled else {ALWAYS})

    def repaint_now(self) -> None:
        """Lay out and paint what changed, now (the bench times up to here)."""
        # Layout requests may post the paints they cause: deliver those too. No forced repaint
        # of the whole window: only what a change made dirty is drawn.
        QApplication.sendPostedEvents()
        QApplication.sendPostedEvents()

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        return QSize(fm.averageCharWidth() * 200, fm.lineSpacing() * 45)
