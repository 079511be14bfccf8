"""Imports, the sample, merge and export as operations with a progress dialog, and the
databases' open and new dialogs. An object MainWindow owns."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialog, QFileDialog, QProgressDialog

from db import StoreError
from desktop import review
from desktop.app import paths
from desktop.readers import InputError
from desktop.readers.kinds import FILE_PATTERNS as FILE_FILTERS
from desktop.ui import operations, terms
from desktop.ui.dialogs import ImportDialog, kind_name
from desktop.ui.worker import CommittedError


class FileCommands:
    """Owned by MainWindow (one object per concern): uses the window's session, its `tasks`
    worker and its messages."""

    def __init__(self, window):
        self.window = window

    def run_with_progress(self, label: str, work, on_done, name: str = "long"):
        """Run an operation in the tasks worker behind a progress dialog; on success the
        session takes its Changes, then on_done gets its result."""
        dialog = QProgressDialog(
            label, QCoreApplication.translate("MainWindow", "Cancel"), 0, 1000, self.window
        )
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(300)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setValue(0)
        dialog.setMinimumWidth(self.window.fontMetrics().averageCharWidth() * 60)
        self.window.progress_dialog = dialog

        def finish() -> None:
            dialog.reset()
            dialog.close()
            if self.window.progress_dialog is dialog:
                self.window.progress_dialog = None

        def done(outcome) -> None:
            finish()
            self.apply_changes(outcome.changes)
            on_done(outcome.result)

        def failed(error) -> None:
            finish()
            self._operation_failed(error)

        def cancelled() -> None:
            finish()
            self.window.statusBar().showMessage(
                QCoreApplication.translate("MainWindow", "Cancelled; nothing was changed"), 8000
            )
            self.window.last_message = "cancelled"

        def progress(value: int, total: int, phase: str | None = None) -> None:
            if total > 0:
                dialog.setValue(min(999, value * 1000 // total))
            if phase:
                dialog.setLabelText(f"{label}\n{terms.phase(phase)}")

        op = self.window.tasks.start(
            name,
            work,
            on_done=done,
            on_failed=failed,
            on_progress=progress,
            on_cancelled=cancelled,
        )
        dialog.canceled.connect(op.cancel)
        return op

    def _operation_failed(self, error) -> None:
        if isinstance(error, CommittedError):
            # It committed: never "nothing was changed", and the new data is shown.
            self.apply_changes(error.changes)
            self.window.show_error(
                QCoreApplication.translate(
                    "MainWindow", "Saved, but something went wrong afterwards"
                ),
                QCoreApplication.translate(
                    "MainWindow", "The changes were saved. Then: {error}"
                ).format(error=error.error),
            )
        elif isinstance(error, (InputError, StoreError)):
            self.window.show_error(
                QCoreApplication.translate("MainWindow", "Nothing was changed"), str(error)
            )
        else:
            self.window.show_error(
                QCoreApplication.translate(
                    "MainWindow", "Something went wrong; nothing was changed"
                ),
                f"{type(error).__name__}: {error}",
            )

    def apply_changes(self, changes: operations.Changes) -> None:
        """Refresh only what the operation changed: new questions, systems or texts read
        everything again; the gold and the reviewers alone keep the question list and the
        systems, and show the current question again and run the full metrics pass."""
        window = self.window
        if changes.questions or changes.systems or changes.texts:
            window.reload()
        elif changes.gold or changes.reviewers:
            window.guard.seen()  # our own commits are not "changed elsewhere"
            window.journal_warning.check(window.project)
            window.pool_panel.forget()  # lines on any question: the next pools are read again
            session = window.session
            session.reread_reviewers()
            # No number from before is shown: the list's and the dock's wait for the pass.
            window.metrics_dock.clear()
            window.question_model.set_questions(session.questions)
            window.question_model.set_found(session.found, session.k)
            if changes.scores and session.questions:
                window.start_full_pass()

    # -- imports ---------------------------------------------------------------------------

    def import_dialog(self, kind: str) -> None:
        if self.window.read_only:  # loading data needs no reviewer name, only the lock
            self.window.show_read_only()
            return
        start = self.dialog_folder()
        named = kind_name(kind)
        path, _ = QFileDialog.getOpenFileName(
            self.window,
            QCoreApplication.translate("MainWindow", "Import {kind}").format(kind=named),
            start,
            QCoreApplication.translate("MainWindow", "{kind} files ({patterns})").format(
                kind=named, patterns=FILE_FILTERS[kind]
            )
            + ";;"
            + QCoreApplication.translate("MainWindow", "All files (*)"),
        )
        if not path:
            return
        self.remember_folder(path)
        has_corpus = bool(self.window.project and review.has_corpus(self.window.project))
        dialog = ImportDialog(kind, path, has_corpus, self.window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.start_import(kind, path, **dialog.options())

    def import_folder_dialog(self) -> None:
        """A GraphRAG output folder or a LightRAG store as a chunking (design section 11)."""
        if self.window.read_only:
            self.window.show_read_only()
            return
        folder = QFileDialog.getExistingDirectory(
            self.window,
            QCoreApplication.translate("MainWindow", "Import a GraphRAG or LightRAG folder"),
            self.dialog_folder(),
        )
        if not folder:
            return
        self.remember_folder(folder)
        dialog = ImportDialog("corpus", folder, False, self.window)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.start_import("corpus", folder, **dialog.options())

    def start_import(self, kind: str, path, **options):
        return self.run_with_progress(
            QCoreApplication.translate("MainWindow", "Importing {file}…").format(
                file=Path(path).name
            ),
            operations.import_op(kind, path, options),
            self._import_done,
            name="import",
        )

    def _import_done(self, report) -> None:
        kind = kind_name(report.kind) if report.kind in FILE_FILTERS else report.kind
        headline = QCoreApplication.translate(
            "MainWindow", "Import finished: {kind}, {n} rows from {file}."
        ).format(kind=kind, n=f"{report.rows:,}", file=Path(report.path).name)
        self.window.show_info(
            QCoreApplication.translate("MainWindow", "Imported"), _with_details(headline, report)
        )
        self.window.statusBar().showMessage(headline, 8000)

    def load_sample(self):
        if self.window.read_only:  # loading data needs no reviewer name, only the lock
            self.window.show_read_only()
            return None

        def done(lines) -> None:
            self.window.statusBar().showMessage(
                QCoreApplication.translate("MainWindow", "Sample project loaded"), 8000
            )
            self.window.last_message = "\n".join(lines)

        return self.run_with_progress(
            QCoreApplication.translate("MainWindow", "Loading the sample project…"),
            operations.sample_op(),
            done,
            name="import",
        )

    # -- databases, merge, export ----------------------------------------------------------

    def dialog_folder(self) -> str:
        """Where a file dialog opens: the last folder the reviewer chose a file in, else the
        home folder (never the hidden data folder the default database lives in)."""
        last = str(self.window.settings.value("last-folder", "") or "")
        return last if last and Path(last).is_dir() else str(Path.home())

    def remember_folder(self, path) -> None:
        self.window.settings.setValue("last-folder", str(Path(path).parent))

    def new_database_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self.window,
            QCoreApplication.translate("MainWindow", "New database"),
            self.dialog_folder(),
            "*.db",
        )
        if path:
            self.remember_folder(path)
            if not path.endswith(".db"):
                path += ".db"
            self.window.open_database(path)

    def open_database_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window,
            QCoreApplication.translate("MainWindow", "Open database"),
            self.dialog_folder(),
            "*.db;;*",
        )
        if path:
            self.remember_folder(path)
            self.window.open_database(path)

    def merge_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window,
            QCoreApplication.translate("MainWindow", "Merge another reviewer's database"),
            self.dialog_folder(),
            "*.db;;*",
        )
        if path:
            self.remember_folder(path)
            self.start_merge(path)

    def start_merge(self, path):
        if self.window.read_only:  # loading data needs no reviewer name, only the lock
            self.window.show_read_only()
            return None
        return self.run_with_progress(
            QCoreApplication.translate("MainWindow", "Merging {file}…").format(
                file=Path(path).name
            ),
            operations.merge_op(path),
            lambda report: self.window.show_info(
                QCoreApplication.translate("MainWindow", "Merged"),
                _with_details(
                    QCoreApplication.translate(
                        "MainWindow", "Merge finished: {n} judgements added from {file}."
                    ).format(n=f"{report.rows:,}", file=Path(path).name),
                    report,
                ),
            ),
            name="merge",
        )

    def export_dialog(self) -> None:
        if importlib.util.find_spec("desktop.report") is None:
            self.window.show_error(
                QCoreApplication.translate("MainWindow", "Export report"),
                QCoreApplication.translate(
                    "MainWindow",
                    "The Excel report is not part of this build (desktop.report is missing).",
                ),
            )
            return
        start = self.dialog_folder()
        path, _ = QFileDialog.getSaveFileName(
            self.window,
            QCoreApplication.translate("MainWindow", "Export report"),
            str(Path(start) / "recall-report.xlsx"),
            "*.xlsx",
        )
        if not path:
            return
        if not path.lower().endswith(".xlsx"):
            path += ".xlsx"
        self.remember_folder(path)
        self.start_export(path)

    def start_export(self, path, ks=None):
        try:
            work = operations.export_report_op(path, ks or self.window.session.window_ks())
        except ImportError as error:
            self.window.show_error(
                QCoreApplication.translate("MainWindow", "Export report"),
                QCoreApplication.translate(
                    "MainWindow", "The Excel report is not available: {error}"
                ).format(error=error),
            )
            return None
        return self.run_with_progress(
            QCoreApplication.translate("MainWindow", "Writing {file}…").format(
                file=Path(path).name
            ),
            work,
            lambda result: self.window.show_info(
                QCoreApplication.translate("MainWindow", "Report written"),
                QCoreApplication.translate("MainWindow", "The report is saved:\n{file}").format(
                    file=str(result or path)
                ),
            ),
            name="export",
        )

    def export_judgements_dialog(self) -> None:
        reviewer = self.window.session.reviewer
        path, _ = QFileDialog.getSaveFileName(
            self.window,
            QCoreApplication.translate("MainWindow", "Export my judgements"),
            # The name may hold `../` or `/`: made safe, the suggestion stays in this folder.
            str(self.window.db_path.parent / f"judgements-{paths.safe_file_name(reviewer)}.jsonl"),
            "*.jsonl",
        )
        if not path:
            return
        self.run_with_progress(
            QCoreApplication.translate("MainWindow", "Exporting…"),
            operations.export_judgements_op(path, reviewer),
            lambda n: self.window.show_info(
                QCoreApplication.translate("MainWindow", "Exported"),
                QCoreApplication.translate("MainWindow", "Wrote {n} judgements to {path}").format(
                    n=n, path=path
                ),
            ),
            name="export",
        )


def _with_details(headline: str, report) -> str:
    """A finished import or merge in the UI's language, then its details as the command
    line prints them (the same words in a log or a bug report)."""
    lines = report.lines()
    if not lines:
        return headline
    details = QCoreApplication.translate("MainWindow", "Details (as the command line prints them):")
    return headline + "\n\n" + details + "\n" + "\n".join(lines)
