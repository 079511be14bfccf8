"""The toolbar: the system shown, the one compared with, K, the reviewer and the progress."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIntValidator
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QProgressBar,
    QSizePolicy,
    QToolBar,
    QToolButton,
    QWidget,
)

from desktop.ui.session import ReviewSession

K_CHOICES = (5, 10, 20, 50, 100)


def _box() -> QComboBox:
    box = QComboBox()
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(12)  # a long system name is cut, not the window widened
    return box


class SystemsToolbar(QToolBar):
    def __init__(self, session: ReviewSession, reviewer: QAction, parent=None):
        super().__init__(self.tr("Systems"), parent)
        self.session = session
        self._syncing = False
        self.setObjectName("systems-toolbar")
        self.setMovable(False)
        self.addWidget(QLabel(self.tr("System") + " "))
        self.system_box = _box()
        self.system_box.currentIndexChanged.connect(self._system_chosen)
        self.addWidget(self.system_box)
        self.addSeparator()
        self.addWidget(QLabel(self.tr("Compare") + " "))
        self.compare_box = _box()
        self.compare_box.currentIndexChanged.connect(self._compare_chosen)
        self.addWidget(self.compare_box)
        self.addSeparator()
        self.addWidget(QLabel("K "))
        self.addWidget(self._k_box())
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.addWidget(spacer)
        button = QToolButton()
        button.setDefaultAction(reviewer)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.addWidget(button)
        self.addSeparator()
        self.addWidget(QLabel(self.tr("Progress") + " "))
        self.progress = QProgressBar()
        self.progress.setFormat(self.tr("%v/%m done"))
        self.progress.setMaximumWidth(self.fontMetrics().averageCharWidth() * 22)
        self.progress.setTextVisible(True)
        self.progress.setToolTip(
            self.tr(
                "A question counts as reviewed once its answerability is set (Y or B) and "
                "every evidence item that some system misses at K has a role given (1 or 2, "
                "or added with E or R); an imported role alone is not a review."
            )
        )
        self.addWidget(self.progress)
        session.dataReloaded.connect(self.fill)
        session.systemsChanged.connect(self.sync)
        session.kChanged.connect(lambda k: self.k_box.setCurrentText(str(k)))

    def _k_box(self) -> QComboBox:
        self.k_box = QComboBox()
        self.k_box.setEditable(True)
        self.k_box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.k_box.setValidator(QIntValidator(1, 10000, self.k_box))
        for k in K_CHOICES:
            self.k_box.addItem(str(k))
        self.k_box.setCurrentText(str(self.session.k))
        self.k_box.setMinimumContentsLength(4)
        self.k_box.lineEdit().editingFinished.connect(self._k_edited)
        self.k_box.activated.connect(self._k_edited)
        self.k_box.setToolTip(self.tr("K: how many top results count (5, 10 or any number)"))
        return self.k_box

    def fill(self) -> None:
        names = self.session.system_names()
        self._syncing = True
        self.system_box.clear()
        self.system_box.addItems(names)
        for i, name in enumerate(names):
            self.system_box.setItemData(i, name, Qt.ItemDataRole.ToolTipRole)
        self.compare_box.clear()
        self.compare_box.addItem(self.tr("(none)"), None)
        for name in names:
            self.compare_box.addItem(name, name)
        self._syncing = False
        self.sync()

    def sync(self) -> None:
        self._syncing = True
        session = self.session
        if session.system_name:
            self.system_box.setCurrentText(session.system_name)
        self.compare_box.setCurrentIndex(
            self.compare_box.findData(session.compare_name) if session.compare_name else 0
        )
        self._syncing = False

    def show_progress(self, done: int, total: int) -> None:
        self.progress.setFormat(self.tr("%v/%m done") if total else "")
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)

    def _system_chosen(self, index: int) -> None:
        if not self._syncing and index >= 0:
            self.session.set_system(self.system_box.itemText(index))

    def _compare_chosen(self, index: int) -> None:
        if not self._syncing and index >= 0:
            self.session.set_compare(self.compare_box.itemData(index))

    def _k_edited(self, *_args) -> None:
        text = self.k_box.currentText().strip()
        if text.isdigit() and int(text) >= 1:
            self.window().set_k(int(text))
