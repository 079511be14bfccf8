"""What an empty database (and the first run) shows: the reviewer's name, what is loaded so
far, the sample, and the import buttons in the order they are needed."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.common import shrinkable


class WelcomePanel(QWidget):
    reviewerNamed = Signal(str)

    def __init__(
        self,
        load_sample: Callable,
        import_dialog: Callable[[str], None],
        open_database: Callable,
        parent=None,
    ):
        super().__init__(parent)
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
        layout.addLayout(self._name_row())
        self.summary = shrinkable(QLabel())
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
        self.sample.clicked.connect(load_sample)
        layout.addWidget(self.sample)
        layout.addWidget(QLabel(self.tr("Or import your own files, in this order:")))
        layout.addLayout(self._import_grid(import_dialog))
        other = QPushButton(self.tr("Open another database…"))
        other.clicked.connect(open_database)
        layout.addWidget(other)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(box)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)

    def _name_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Your name as a reviewer:")))
        self.name = QLineEdit()
        self.name.setObjectName("reviewer-name")
        hint = self.tr("written with every judgement you make")
        self.name.setPlaceholderText(hint)
        # Wide enough to read its hint whole (the English one was cut off in the box).
        metrics = self.name.fontMetrics()
        self.name.setMinimumWidth(metrics.horizontalAdvance(hint) + metrics.averageCharWidth() * 3)
        self.name.editingFinished.connect(self._named)
        row.addWidget(self.name, 1)
        return row

    def _import_grid(self, import_dialog: Callable[[str], None]) -> QGridLayout:
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
            button.clicked.connect(lambda _=False, kind=kind: import_dialog(kind))
            grid.addWidget(button, i // 2, i % 2)
        return grid

    def _named(self) -> None:
        name = self.name.text().strip()
        if name:
            self.reviewerNamed.emit(name)

    def set_reviewer(self, name: str) -> None:
        if self.name.text().strip() != name:
            self.name.setText(name)

    def set_counts(self, info: dict) -> None:
        lines = [
            self.tr("Database: {path}").format(path=html.escape(str(info["database"]))),
            self.tr("Passages: {n}").format(n=info["passages"]),
            self.tr("Questions: {n}").format(n=info["questions"]),
            self.tr("Evidence items: {n}").format(n=info["evidence_items"]),
            self.tr("Systems: {names}").format(names=", ".join(info["systems"]) or "–"),
        ]
        self.summary.setText("<br>".join(lines))
