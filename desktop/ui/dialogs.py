"""Dialogs: import options, a note, corpus search, the shortcut sheet."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop import readers, review
from desktop.readers.kinds import GRAPH_FORMATS, GRAPH_IMPORTS
from desktop.review import ItemState
from desktop.search import words
from desktop.ui import terms
from desktop.ui.models import SearchResultsModel
from desktop.ui.widgets import CommittedLineEdit, HtmlDelegate, highlighted_html

ENCODINGS = (("utf-8", "UTF-8"), ("cp949", "CP949 / EUC-KR"), ("utf-16", "UTF-16"))


def _chars(widget: QWidget, n: int) -> int:
    return widget.fontMetrics().averageCharWidth() * n


def kind_name(kind: str) -> str:
    """An import kind in the UI language (context "ImportDialog")."""
    names = {
        "corpus": QCoreApplication.translate("ImportDialog", "corpus"),
        "questions": QCoreApplication.translate("ImportDialog", "questions"),
        "gold": QCoreApplication.translate("ImportDialog", "gold"),
        "run": QCoreApplication.translate("ImportDialog", "run"),
        "judgements": QCoreApplication.translate("ImportDialog", "judgements"),
    }
    return names[kind]


class ImportDialog(QDialog):
    """Format and encoding for one file (chosen, or taken from the extension and the bytes),
    and what else the kind needs: a system name for a run, chunking for a corpus, whether
    judgements are a machine's."""

    def __init__(self, kind: str, path: str | Path, has_corpus: bool = False, parent=None):
        super().__init__(parent)
        self.kind = kind
        self.path = Path(path)
        self.setWindowTitle(self.tr("Import {kind}").format(kind=self._kind_name()))
        form = QFormLayout()
        name = QLabel(self.path.name)
        name.setToolTip(str(self.path))
        form.addRow(self.tr("File"), name)
        self._format_rows(form, kind)
        self._kind_rows(form, kind, has_corpus)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Import"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.setMinimumWidth(_chars(self, 60))

    def _format_rows(self, form: QFormLayout, kind: str) -> None:
        """Format (from the extension unless chosen) and encoding (sniffed from the bytes)."""
        self.format = QComboBox()
        folder = self.path.is_dir()  # a graph retriever's output folder (kinds.GRAPH_IMPORTS)
        try:
            detected = None if folder else readers.pick_format(self.path, kind, None)
            if detected:
                label = self.tr("From the extension ({fmt})").format(fmt=detected)
                self.format.addItem(label, None)
        except readers.InputError:
            detected = None
        graph = GRAPH_FORMATS if GRAPH_IMPORTS.get(kind) == ("folder" if folder else "file") else ()
        for fmt in (() if folder else readers.ACCEPTED[kind]) + graph:
            self.format.addItem(fmt, fmt)
        if detected is None:
            self.format.setCurrentIndex(0)
        form.addRow(self.tr("Format"), self.format)

        self.encoding = QComboBox()
        for code, label in ENCODINGS:
            self.encoding.addItem(label, code)
        sniffed = "utf-8" if folder else review.sniff_encoding(self.path)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        if sniffed and sniffed != "utf-8":
            self.encoding.setCurrentIndex([c for c, _ in ENCODINGS].index(sniffed))
            self.hint.setText(
                self.tr("This file is not UTF-8; it looks like {encoding}.").format(
                    encoding=dict(ENCODINGS)[sniffed]
                )
            )
        elif sniffed is None:
            self.hint.setText(self.tr("This file is not UTF-8; choose its encoding."))
        form.addRow(self.tr("Encoding"), self.encoding)
        if self.hint.text():
            form.addRow("", self.hint)

    def _kind_rows(self, form: QFormLayout, kind: str, has_corpus: bool) -> None:
        """A run's system name; a corpus's name, chunking and whether it replaces one."""
        self.system = QLineEdit(self.path.stem)
        self.corpus_name = QLineEdit(self.path.stem)
        self.unit = QLineEdit()
        self.unit.setPlaceholderText(self.tr("for example 문단, tokens, 조"))
        self.chunk_size = QSpinBox()
        self.overlap = QSpinBox()
        for spin in (self.chunk_size, self.overlap):
            spin.setRange(0, 1_000_000)
            spin.setSpecialValueText(self.tr("not recorded"))
        self.replace = QCheckBox(
            self.tr("Replace the loaded corpus (removes the imported gold and runs)")
        )
        self.machine = QCheckBox(
            self.tr("A machine's judgements (an LLM judge): compared, never counted in the gold")
        )
        if kind == "judgements":
            form.addRow("", self.machine)
        if kind == "run":
            form.addRow(self.tr("System name"), self.system)
        if kind == "corpus":
            form.addRow(self.tr("Corpus name"), self.corpus_name)
            form.addRow(self.tr("Chunk unit"), self.unit)
            form.addRow(self.tr("Chunk size"), self.chunk_size)
            form.addRow(self.tr("Overlap"), self.overlap)
            if has_corpus:
                form.addRow("", self.replace)

    def _kind_name(self) -> str:
        return kind_name(self.kind)

    def options(self) -> dict:
        out: dict = {"fmt": self.format.currentData(), "encoding": self.encoding.currentData()}
        if out["encoding"] == "utf-8":
            out["encoding"] = None  # the reader's default also accepts a BOM
        if out["fmt"] in GRAPH_FORMATS:  # the tool's own files (desktop/project_graph.py)
            out = {"fmt": out["fmt"]}
            if self.kind == "corpus":
                out["chunking"] = self.corpus_name.text().strip() or self.path.name
            else:
                out["system"] = self.system.text().strip() or self.path.stem
            return out
        if self.kind == "run":
            out["system"] = self.system.text().strip() or self.path.stem
        if self.kind == "judgements" and self.machine.isChecked():
            out["machine"] = True
        if self.kind == "corpus":
            out.update(
                name=self.corpus_name.text().strip() or None,
                unit=self.unit.text().strip() or None,
                chunk_size=self.chunk_size.value() or None,
                overlap=self.overlap.value() or None,
                replace=self.replace.isChecked(),
            )
        return out


class NoteDialog(QDialog):
    def __init__(self, target: str, text: str = "", parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Note"))
        layout = QVBoxLayout(self)
        label = QLabel(target)
        label.setWordWrap(True)
        layout.addWidget(label)
        self.editor = QPlainTextEdit(text)
        self.editor.setMinimumSize(_chars(self, 50), self.fontMetrics().lineSpacing() * 6)
        layout.addWidget(self.editor)
        hint = QLabel(self.tr("An empty note withdraws your earlier note."))
        hint.setEnabled(False)
        layout.addWidget(hint)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def text(self) -> str:
        return self.editor.toPlainText().strip()


class CorpusSearchDialog(QDialog):
    """Search the whole corpus and add a found passage as an alternative for an evidence
    item, or as a new core or supporting item (evidence no system retrieved). Searching runs
    in a worker: `search(text, offset, on_done, order, like=None)` gives on_done `(total,
    rows)`, one page from offset, best first or in corpus order, of the chunking chosen (a
    keyword `chunking`, None for all), or (like: a passage key) the
    passages most like that one; `add(passage, item)` and `add_evidence(passage, role)` write
    the judgements."""

    def __init__(
        self,
        items: Sequence[ItemState],
        search: Callable[..., None],
        add: Callable[[dict, ItemState], bool],
        selected_item: int = 0,
        parent=None,
        add_evidence: Callable[[dict, str], bool] | None = None,
        chunkings: Sequence[str] = (),
    ):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Search the corpus"))
        self._search, self._add, self._add_evidence = search, add, add_evidence
        self.items = list(items)
        self._serial = 0
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.box = CommittedLineEdit(self)
        self.box.setPlaceholderText(self.tr("Words that must all appear (Enter searches now)"))
        self.box.committed.connect(self.run_search)
        top.addWidget(self.box, 1)
        self.corpus_order = QCheckBox(self.tr("Corpus order"))
        self.corpus_order.setToolTip(self.tr("List the passages in corpus order, not best first"))
        self.corpus_order.toggled.connect(lambda _on: self.run_search(self.box.text()))
        top.addWidget(self.corpus_order)
        top.addWidget(self._chunking_box(chunkings))
        self.like_button = QPushButton(self.tr("More like this"))
        self.like_button.setAutoDefault(False)
        self.like_button.setToolTip(self.tr("The passages most like the selected one"))
        self.like_button.clicked.connect(self.more_like_this)
        top.addWidget(self.like_button)
        layout.addLayout(top)
        self.status = QLabel(self.tr("Every word must appear; the best matches come first."))
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self._results_table())
        self.preview = QTextBrowser()
        split.addWidget(self.preview)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout.addWidget(split, 1)
        layout.addLayout(self._target_row(selected_item))
        add_action = QAction(self)
        add_action.setShortcut(QKeySequence(Qt.Modifier.CTRL | Qt.Key.Key_Return))
        add_action.triggered.connect(self.add_selected)
        self.addAction(add_action)
        self.resize(_chars(self, 110), self.fontMetrics().lineSpacing() * 32)

    def _chunking_box(self, chunkings: Sequence[str]) -> QComboBox:
        """Which chunking's passages to search, the gold's (the first) by default: the same
        text cut three ways is otherwise found three times. Hidden with one chunking."""
        self.chunking_box = QComboBox()
        self.chunking_box.addItem(self.tr("All chunkings"), None)
        for name in chunkings:
            self.chunking_box.addItem(name, name)
        self.chunking_box.setCurrentIndex(1 if chunkings else 0)
        self.chunking_box.setToolTip(self.tr("Search the passages of this chunking"))
        self.chunking_box.setVisible(len(chunkings) > 1)
        self.chunking_box.currentIndexChanged.connect(lambda _i: self.run_search(self.box.text()))
        return self.chunking_box

    def chunking(self) -> str | None:
        """The chunking searched, or None for every chunking."""
        return self.chunking_box.currentData() if self.chunking_box.isVisibleTo(self) else None

    def _results_table(self) -> QTableView:
        self.model = SearchResultsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setItemDelegateForColumn(
            SearchResultsModel.COL_TEXT, HtmlDelegate(SearchResultsModel.HtmlRole, 2, self.table)
        )
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().lineSpacing() * 2 + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(SearchResultsModel.COL_TEXT, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(SearchResultsModel.COL_PASSAGE, _chars(self, 14))
        header.resizeSection(SearchResultsModel.COL_SOURCE, _chars(self, 18))
        self.table.selectionModel().currentRowChanged.connect(self._preview)
        self.table.doubleClicked.connect(self.add_selected)
        return self.table

    def _target_row(self, selected_item: int) -> QHBoxLayout:
        """Which evidence item a found passage becomes an alternative for, and the buttons."""
        bottom = QHBoxLayout()
        self.evidence_buttons = []
        if self._add_evidence is not None:
            for role, text in (
                ("core", self.tr("Add as core")),
                ("supporting", self.tr("Add as supporting")),
            ):
                button = QPushButton(text)
                button.setAutoDefault(False)
                button.clicked.connect(partial(self.add_selected_as, role))
                bottom.addWidget(button)
                self.evidence_buttons.append(button)
        bottom.addWidget(QLabel(self.tr("Alternative for")))
        self.target = QComboBox()
        bottom.addWidget(self.target, 1)
        self.add_button = QPushButton(self.tr("Add as alternative"))
        self.add_button.setDefault(False)
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.add_selected)
        bottom.addWidget(self.add_button)
        self.set_items(self.items, selected_item)
        close = QPushButton(self.tr("Close"))
        close.setAutoDefault(False)
        close.clicked.connect(self.reject)
        bottom.addWidget(close)
        return bottom

    def set_items(self, items: Sequence[ItemState], selected_item: int | None = None) -> None:
        """The question's evidence items again (one was just added)."""
        chosen = self.target.currentIndex() if selected_item is None else selected_item
        self.items = list(items)
        self.target.clear()
        for item in self.items:
            self.target.addItem(f"{item.primary_id} ({terms.role(item.role)})")
        if self.items:
            self.target.setCurrentIndex(min(max(chosen, 0), len(self.items) - 1))
        self.add_button.setEnabled(bool(self.items))

    def add_selected_as(self, role: str) -> bool:
        """The selected passage becomes a new evidence item with this role."""
        passage = self.selected_passage()
        if passage is None or self._add_evidence is None:
            return False
        if self._add_evidence(passage, role):
            self.status.setText(
                self.tr("Added {passage} as {role} evidence").format(
                    passage=passage["id"], role=terms.role(role)
                )
            )
            return True
        return False

    def run_search(self, text: str) -> None:
        text = text.strip()
        self._serial += 1
        serial = self._serial
        if not text:
            self.model.set_page(0, [], [])
            return
        self.status.setText(self.tr("Searching…"))

        def done(found: tuple[int, list[dict]]) -> None:
            if serial != self._serial:
                return  # a newer search was started
            total, rows = found
            self.model.set_page(total, rows, words(text), lambda offset: more(offset))
            self.status.setText(self.tr("{n} passages").format(n=f"{total:,}"))
            if rows:
                self.table.selectRow(0)

        def more(offset: int) -> None:
            """The next page, asked for by the view as the reviewer scrolls."""

            def arrived(found: tuple[int, list[dict]]) -> None:
                if serial == self._serial:
                    self.model.add_page(offset, found[1])

            self._search(text, offset, arrived, self.order(), chunking=self.chunking())

        self._search(text, 0, done, self.order(), chunking=self.chunking())

    def order(self) -> str:
        return "corpus" if self.corpus_order.isChecked() else "relevance"

    def more_like_this(self, *_args) -> None:
        """The passages most like the selected one (the command line's `similar`), in place
        of the search's results."""
        passage = self.selected_passage()
        if passage is None:
            return
        self._serial += 1
        serial = self._serial
        self.status.setText(self.tr("Searching…"))

        def done(found: tuple[int, list[dict]]) -> None:
            if serial != self._serial:
                return
            total, rows = found
            self.model.set_page(total, rows, [])
            self.status.setText(
                self.tr("{n} passages most like {passage}").format(n=total, passage=passage["id"])
            )
            if rows:
                self.table.selectRow(0)

        self._search("", 0, done, like=passage["pk"])

    def _preview(self, current, _previous=None) -> None:
        p = self.model.passage(current.row())
        if p is None:
            self.preview.clear()
            return
        terms_ = words(self.box.text())
        self.preview.setHtml(
            f"<p><b>{html.escape(p['id'])}</b> {html.escape(p.get('title') or '')}</p>"
            f"<p>{highlighted_html(p['text'], terms_)}</p>"
        )

    def selected_passage(self) -> dict | None:
        return self.model.passage(self.table.currentIndex().row())

    def add_selected(self, *_args) -> bool:
        passage = self.selected_passage()
        if passage is None or not self.items:
            return False
        item = self.items[self.target.currentIndex()]
        if self._add(passage, item):
            self.status.setText(
                self.tr("Added {passage} as an alternative for {item}").format(
                    passage=passage["id"], item=item.primary_id
                )
            )
            return True
        return False


class ShortcutSheet(QDialog):
    """Every action with its key, and what the markers mean."""

    def __init__(self, actions: Sequence[QAction], parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        layout = QVBoxLayout(self)
        table = QTableWidget(0, 2)
        table.setHorizontalHeaderLabels([self.tr("Key"), self.tr("Action")])
        table.verticalHeader().setVisible(False)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for action in actions:
            # "Shift+?" is there only because some keyboards report ? with its Shift.
            keys = ", ".join(
                text
                for text in (
                    s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts()
                )
                if text != "Shift+?"
            )
            if not keys:
                continue
            row = table.rowCount()
            table.insertRow(row)
            table.setItem(row, 0, QTableWidgetItem(keys))
            table.setItem(row, 1, QTableWidgetItem(action.text().replace("&", "")))
        table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        table.resizeColumnToContents(0)
        layout.addWidget(table)
        legend = QLabel(terms.legend())
        legend.setWordWrap(True)
        layout.addWidget(legend)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
        self.table = table
        self.resize(_chars(self, 70), self.fontMetrics().lineSpacing() * 30)
