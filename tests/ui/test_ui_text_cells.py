"""A rich-text cell (a ranked passage's excerpt with the question's terms marked) is laid out
only as far as its lines show, and looks exactly as the whole document laid out by Qt and
clipped below its last whole line (issue 23: the look does not change)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QImage,
    QPainter,
    QStandardItem,
    QStandardItemModel,
    QTextDocument,
)
from PySide6.QtWidgets import QApplication

from desktop.ui.cells import HtmlDelegate, KeptTextDelegate, TextCell
from desktop.ui.common import review_table
from desktop.ui.widgets import HIT, highlighted_html, text_lines_height

TERMS = ("사람", "감사", "B", "공백", "ab", "עב")
TEXTS = (
    "감사과 기도에 시대 부모이 시대에 역사는 감사을 구원는 사명은 조국의 사람 " * 6,
    "  앞 공백과   여러   공백\t탭 뒤  ",
    "A&B <tag> \"q\" 'a' 가나다 " * 10,
    "줄\n바꿈\n셋째 줄\n넷째 줄",
    "한",
    "x" * 400,  # one word wider than the cell: broken anywhere
    "ab\u00a0\u00a0cd\u3000\u3000ef " * 20,
    "Ελληνικά עברית العربية mixed 가나 " * 6,
)
SIZES = ((600, 40), (333, 40), (600, 18), (200, 120), (50, 8))


def _markups():
    for text in TEXTS:
        for limit in (320, None):
            markup = highlighted_html(text, TERMS, limit)
            yield markup
            yield "<b style='color:#007a55'>[핵심 1: 82%]</b> " + markup
    yield "<p>첫 문단 사람</p><p>둘째 문단</p><p>셋째</p>"  # more than one paragraph


def _whole_document(markup: str, font, width: int, available: int) -> QImage:
    """The cell as it was drawn before: the document laid out whole, clipped below the last
    line that fits (all of the cell when not even the first does)."""
    doc = QTextDocument()
    doc.setDocumentMargin(1)
    doc.setDefaultFont(font)
    doc.setHtml(markup)
    doc.setTextWidth(width)
    bottom, shown = 0.0, None
    block = doc.begin()
    while block.isValid() and shown is None:
        origin = doc.documentLayout().blockBoundingRect(block).top()
        for i in range(block.layout().lineCount()):
            line = block.layout().lineAt(i)
            end = origin + line.y() + line.height()
            if end > available:
                shown = max(int(bottom), 1) if bottom else available
                break
            bottom = end
        block = block.next()
    if shown is None:
        shown = int(bottom) + 1 if bottom else available
    image = _blank(width, available)
    painter = QPainter(image)
    context = QAbstractTextDocumentLayout.PaintContext()
    context.palette.setColor(context.palette.ColorRole.Text, QColor("#202020"))
    clip = QRectF(0, 0, width, shown)
    painter.setClipRect(clip)
    context.clip = clip
    doc.documentLayout().draw(painter, context)
    painter.end()
    return image


def _blank(width: int, height: int) -> QImage:
    image = QImage(width + 4, height + 4, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("white"))
    return image


def _cell(markup: str, font, width: int, available: int) -> QImage:
    image = _blank(width, available)
    painter = QPainter(image)
    TextCell(markup, font, width, available).draw(painter, QPointF(0, 0), QColor("#202020"))
    painter.end()
    return image


@pytest.mark.parametrize("size", SIZES)
def test_a_cell_looks_as_its_whole_document_clipped(qapp, size):
    font = qapp.font()
    width, available = size
    for markup in _markups():
        assert _cell(markup, font, width, available) == _whole_document(
            markup, font, width, available
        ), markup[:60]


def test_a_long_excerpt_is_laid_out_only_as_far_as_it_shows(qapp):
    text = "감사과 기도에 시대 부모이 시대에 역사는 감사을 구원는 사명은 조국의 사람 " * 6
    markup = highlighted_html(text, TERMS, 320)
    two_lines = TextCell(markup, qapp.font(), 300, text_lines_height(qapp.font(), 2))
    whole = QTextDocument()
    whole.setDefaultFont(qapp.font())
    whole.setHtml(markup)
    whole.setTextWidth(300)
    assert whole.documentLayout().documentSize().height() > 0
    assert whole.firstBlock().layout().lineCount() >= 6
    # the lines shown and the one found not to fit
    assert two_lines.layout.lineCount() == 3


class DrawnEachTime(HtmlDelegate):
    """The cells drawn on every paint, as before pixmaps were kept: the reference."""

    def paint(self, painter, option, index):
        markup = index.data(self.role)
        if markup:
            self.draw(painter, option, index, markup)
        else:
            super().paint(painter, option, index)


HTML_ROLE = Qt.ItemDataRole.UserRole + 1


def _ranking_like(qtbot, delegate_kind, width: int):
    """A review table of Korean excerpts with the terms marked, a hit row's green under one,
    a row selected: drawn by `delegate_kind`."""
    view = review_table()
    model = QStandardItemModel(6, 2, view)
    for row in range(6):
        model.setItem(row, 0, QStandardItem(str(row + 1)))
        cell = QStandardItem()
        cell.setData(highlighted_html(TEXTS[row % 3] + f" {row}", TERMS, 320), HTML_ROLE)
        if row == 2:
            cell.setBackground(HIT)
        model.setItem(row, 1, cell)
    view.setModel(model)
    delegate = delegate_kind(HTML_ROLE, 2, view)
    view.setItemDelegateForColumn(1, delegate)
    view.verticalHeader().setDefaultSectionSize(text_lines_height(view.font(), 2) + 6)
    view.horizontalHeader().setStretchLastSection(True)
    qtbot.addWidget(view)
    view.resize(width, 300)
    view.show()
    qtbot.waitExposed(view)
    return view, delegate


def _shown(view) -> QImage:
    """The view's pixels as painted on its screen (not a grab, which paints a pixmap)."""
    QApplication.processEvents()
    view.viewport().repaint()  # every cell painted (again)
    return view.screen().grabWindow(view.winId()).toImage()


@pytest.mark.parametrize("width", (640, 357))
def test_a_kept_cell_looks_as_one_drawn_each_time(qtbot, width):
    view, _delegate = _ranking_like(qtbot, DrawnEachTime, width)
    looks = []
    kept = HtmlDelegate(HTML_ROLE, 2, view)
    for delegate in (DrawnEachTime(HTML_ROLE, 2, view), kept, kept):  # drawn, kept, copied
        view.setItemDelegateForColumn(1, delegate)
        view.selectRow(1)
        first = _shown(view)
        view.selectRow(4)  # a row left and a row selected: both drawn again
        looks.append((first, _shown(view), view.grab().toImage()))
    assert looks[0] == looks[1] == looks[2]  # on screen, and into a pixmap as a shot takes it
    assert looks[0][0] != looks[0][1]  # the selection shows


def _painted(view, times: int = 1) -> None:
    for _ in range(times):
        view.viewport().repaint()


def test_a_cell_painted_again_is_kept_and_then_copied(qtbot):
    view, _ = _ranking_like(qtbot, HtmlDelegate, 640)
    view.selectRow(1)
    _shown(view)
    delegate = HtmlDelegate(HTML_ROLE, 2, view)
    view.setItemDelegateForColumn(1, delegate)
    _painted(view)
    assert (delegate.drawn, delegate.kept()) == (6, 0)  # painted once: drawn as it is
    _painted(view)
    assert (delegate.drawn, delegate.kept()) == (12, 6)  # painted again: kept
    _painted(view)
    assert delegate.drawn == 12  # and copied
    view.selectRow(3)  # the two rows whose selection changed are drawn anew
    _painted(view)
    assert delegate.drawn == 14
    view.selectRow(1)  # and as they were: copied
    _painted(view)
    assert delegate.drawn == 14


def _keys_counted(kind):
    """A delegate of `kind` that counts the keys it works out."""

    class KeysCounted(kind):
        keys = 0

        def _key(self, option, index, markup, ratio):
            self.keys += 1
            return super()._key(option, index, markup, ratio)

    return KeysCounted


def test_a_text_painted_for_the_first_time_is_drawn_without_working_out_its_key(qtbot):
    """Most cells of a new question are painted once: their key (a third of drawing one, in
    Python) is worked out only for a text painted again, which is then kept."""
    view, _ = _ranking_like(qtbot, HtmlDelegate, 640)
    _shown(view)
    delegate = _keys_counted(HtmlDelegate)(HTML_ROLE, 2, view)
    view.setItemDelegateForColumn(1, delegate)
    _painted(view)
    assert (delegate.keys, delegate.drawn, delegate.kept()) == (0, 6, 0)
    _painted(view)
    assert (delegate.keys, delegate.drawn, delegate.kept()) == (6, 12, 6)


def test_a_plain_text_cell_not_drawn_ahead_is_never_kept(qtbot):
    """The evidence table's text cells are kept only when drawn ahead: painted any number of
    times otherwise, they are drawn as they are, without a key."""
    view, _ = _ranking_like(qtbot, HtmlDelegate, 640)
    _shown(view)
    delegate = _keys_counted(KeptTextDelegate)(HTML_ROLE, parent=view)
    view.setItemDelegateForColumn(1, delegate)
    _painted(view, 3)
    assert (delegate.keys, delegate.drawn, delegate.kept()) == (0, 18, 0)


def test_a_third_width_drops_what_was_kept_at_the_first(qtbot):
    view, delegate = _ranking_like(qtbot, HtmlDelegate, 640)
    before = _shown(view)
    _painted(view, 2)
    wide = delegate.kept_bytes()
    assert delegate.kept() == 6
    view.resize(500, 300)
    _shown(view)
    _painted(view, 2)
    assert delegate.kept() == 12  # two widths kept: the one on screen and the one before
    narrow = delegate.kept_bytes() - wide
    view.resize(640, 300)
    _shown(view)
    drawn = delegate.drawn
    _painted(view)
    assert delegate.drawn == drawn  # back at the first width: copied
    view.resize(400, 300)
    _shown(view)
    _painted(view, 2)
    assert delegate.kept() == 12  # the cells at 640 and 400: those at 500 are gone
    assert delegate.kept_bytes() < wide + narrow
    view.resize(640, 300)
    assert _shown(view) == before


def test_the_kept_pixmaps_are_bounded(qtbot, monkeypatch):
    view, delegate = _ranking_like(qtbot, HtmlDelegate, 640)
    _shown(view)
    _painted(view, 2)
    one = delegate.kept_bytes() // delegate.kept()
    monkeypatch.setattr(HtmlDelegate, "DRAWN_BYTES", one * 3)
    for row in range(6):
        view.selectRow(row)
        _painted(view, 2)
    assert delegate.kept() == 3
    assert delegate.kept_bytes() <= one * 3
