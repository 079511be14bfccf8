"""The Agreement tab's reviewer list (issue 22): every reviewer with a line in the log, each
with a "machine" checkbox. Checking one writes a reviewer-mark line through the project
(Project.mark_reviewer: journaled, and undone with Ctrl+Z like any judgement); who is a machine
changes what counts on every question, so the window reads everything again from the
operation's change flags (the dock, the pool's "Machine says" suggestions, the metrics)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QSizePolicy

from desktop import review
from desktop.ui import operations


class ReviewerMarks(QListWidget):
    markWanted = Signal(str, bool)  # (reviewer, a machine)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setToolTip(
            self.tr(
                "Check a reviewer that is a machine (an LLM judge): its lines are kept and "
                "compared with the people's, never counted in the gold. Ctrl+Z undoes it."
            )
        )
        # the dock may be made as low as before the list came (its own scroll bar shows)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        self.itemChanged.connect(self._changed)

    def set_reviewers(self, people: list[str], machines: list[str]) -> None:
        """Everyone with a line in the log, the machines checked (no markWanted emitted)."""
        self.blockSignals(True)
        self.clear()
        for name in sorted({*people, *machines}):
            item = QListWidgetItem(name, self)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            machine = name in machines
            item.setCheckState(Qt.CheckState.Checked if machine else Qt.CheckState.Unchecked)
            item.setToolTip(self.tr("A machine") if machine else self.tr("A person"))
        self.blockSignals(False)

    def machines(self) -> list[str]:
        return [
            self.item(row).text()
            for row in range(self.count())
            if self.item(row).checkState() == Qt.CheckState.Checked
        ]

    def _changed(self, item: QListWidgetItem) -> None:
        self.markWanted.emit(item.text(), item.checkState() == Qt.CheckState.Checked)


def mark_reviewer(window, name: str, machine: bool | None, said: str | None = None) -> None:
    """Write the reviewer-mark line in the tasks worker (which also reads the mark it
    replaces: the GUI thread runs no query); once it is committed the session's
    undo history takes it and the window reads the gold and reviewers again (Changes). said: the
    status message (an undo or redo names itself)."""
    session = window.session
    if window.read_only or window.project is None:
        window.show_read_only()
        window.metrics_dock.show_reviewers()  # the checkbox as the log has it
        return
    at = review.next_at(session.history.last_at)

    def done(result: tuple[dict, bool | None]) -> None:
        row, before = result
        session.history.know_mark(name, before)  # the value an undo puts back
        session.history.record(row)
        window.commands.update_undo_actions()
        if said is not None:
            text = said
        elif machine:
            text = QCoreApplication.translate(
                "MainWindow", "{name} is marked as a machine: their lines no longer count"
            ).format(name=name)
        else:
            text = QCoreApplication.translate(
                "MainWindow", "{name} is a person again: their lines count"
            ).format(name=name)
        window.statusBar().showMessage(text, 8000)

    window.files.run_with_progress(
        QCoreApplication.translate("MainWindow", "Marking {name}…").format(name=name),
        operations.mark_op(name, machine, at),
        done,
        name="mark",
    )
