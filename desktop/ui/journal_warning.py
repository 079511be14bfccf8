"""The window's word for a judgement journal that could not be written (db/journal.py): a
warning in the status bar that stays until a later write succeeds. The judgements themselves
are committed to the database; only their second copy, the journal, is behind."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel


class JournalWarning(QLabel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setStyleSheet("QLabel { color: white; background: #b3261e; padding: 1px 6px; }")
        self.hide()

    def check(self, project) -> None:
        """Show or hide the warning after a commit or an open: the journal's latest write
        (in this process, the window's or an import's) failed, or not."""
        problem = project.journal_problem() if project is not None else None
        if problem is None:
            self.hide()
            return
        self.setText(self.tr("Judgement journal not written: judgements are only in the database"))
        self.setToolTip(
            self.tr(
                "The judgement journal beside the database could not be written:\n{problem}"
            ).format(problem=problem)
        )
        self.show()
