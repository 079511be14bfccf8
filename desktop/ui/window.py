"""The reviewer window (design section 9), assembled from its panels: the question list on
the left, the shown systems' top K above the passage reader in the middle (two rankings stacked
in compare mode), the gold evidence on the right, the metrics in a dock below.

The review session holds who reviews and what is shown and tells the panels; judgements are
written on the GUI thread (committed before they show); everything slow is an operation on a
long-lived worker (desktop.ui.operations)."""

from __future__ import annotations

import hashlib
import sqlite3
from functools import partial
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QInputDialog,
    QLineEdit,
    QMainWindow,
    QMessageBox,
)

from db import StoreError
from desktop.app.terminal import printable
from desktop.project import Project
from desktop.ui import actions, settings_store
from desktop.ui.actions import ADJUDICATE, ALWAYS, JUDGE, REVIEW
from desktop.ui.busy_label import MetricsBusyLabel
from desktop.ui.central import build_central, show_header
from desktop.ui.commands import ReviewCommands
from desktop.ui.files import FileCommands
from desktop.ui.folder_warning import warn_shared_folder
from desktop.ui.gold_commands import GoldCommands
from desktop.ui.guard import DatabaseGuard
from desktop.ui.journal_warning import JournalWarning
from desktop.ui.layout_memory import LayoutMemory
from desktop.ui.menus import Menus
from desktop.ui.metrics_dock import MetricsDock
from desktop.ui.reviewer_marks import mark_reviewer
from desktop.ui.scoring import MetricsRunner
from desktop.ui.session import ReviewSession
from desktop.ui.toolbar import SystemsToolbar
from desktop.ui.worker import Worker

GUI_WAIT = 3.0  # seconds a judgement waits for another program's write lock


class MainWindow(QMainWindow):
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
        self.reading = Worker(self.db_path, self, "reading")  # the reader's passage
        self.guard = DatabaseGuard(self)
        self.guard.paused = self.tasks.busy  # our own import's commits are not "elsewhere"
        self.guard.changedElsewhere.connect(self._changed_elsewhere)
        # One object per concern, as Vorta composes one class per tab: the reviewer's commands,
        # building the gold, files and operations. The actions call into them.
        self.commands = ReviewCommands(self)
        self.gold = GoldCommands(self)
        self.files = FileCommands(self)
        # A key acts on what the previous key left: a judged question's build, or a passage
        # being read, still coming is shown first (a fast reviewer never judges a stale view).
        self.menus = Menus(
            self,
            (self, self.commands, self.gold, self.files),
            lambda: (self.metrics.settle(), self.pool_panel.settle(), self.reader.settle()),
        )
        self.actions_ = self.menus.actions
        for key, action in self.actions_.items():
            setattr(self, f"act_{key}", action)
        self.act_blind.setChecked(self.session.blind)
        self.menus.build()
        self.view_menu = self.menus.view_menu
        self.toolbar = SystemsToolbar(self.session, self.act_reviewer, self)
        self.addToolBar(self.toolbar)
        build_central(self)
        self.metrics_dock = MetricsDock(self.session, self)
        self.metrics_dock.reviewer_marks.markWanted.connect(partial(mark_reviewer, self))
        self.metrics = MetricsRunner(self.session, self.metrics_dock, self.db_path, self)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.metrics_dock)
        self.view_menu.insertAction(self.act_compare, self.metrics_dock.toggleViewAction())
        busy = MetricsBusyLabel()
        self.metrics.busyChanged.connect(busy.show_busy)
        self.statusBar().addPermanentWidget(busy)
        self.journal_warning = JournalWarning(self)
        self.statusBar().addPermanentWidget(self.journal_warning)
        self._connect_session()
        self.layout_memory = LayoutMemory(self)
        self.layout_memory.restore()
        self.open_database(self.db_path)

    # -- building --------------------------------------------------------------------------

    def _connect_session(self) -> None:
        session = self.session
        # Connected after the panels: by now they show the new view.
        session.viewChanged.connect(self._view_shown)
        session.blindChanged.connect(self._blind_changed)
        session.reviewerChanged.connect(lambda _name: self._update_title())
        session.kChanged.connect(lambda k: self.metrics.k_changed(k))
        session.poolDepthChanged.connect(lambda _depth: self.metrics.count_pool())
        session.judgementsChanged.connect(lambda _pk: self.journal_warning.check(self.project))
        session.judgementShown.connect(lambda view: show_header(self.question_header, view))

    # -- shortcuts to the panels (tests and the bench read these) -----------------------------

    def workers(self) -> tuple:  # every long-lived thread the window runs operations on
        others = (self.pool_panel.worker, self.alternatives.worker, *self.metrics.workers())
        return (self.tasks, self.queries, self.reading, *others)

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
        for worker in self.workers():
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
        for worker in self.workers():
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
        self.commands.update_undo_actions()

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
        self.metrics.hold()  # the passes on all questions wait while the reviewer moves
        # Candidate alternatives (a second's search at a million passages) after the frame.
        self.alternatives.worker.defer()
        self.session.show(question["pk"])
        return True

    def _view_shown(self, view, keep: bool) -> None:
        show_header(self.question_header, view)
        if not keep:
            self.middle_tabs.show_picked()

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

    # -- metrics ---------------------------------------------------------------------------

    def start_full_pass(self) -> None:
        self.metrics.full_pass()

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
