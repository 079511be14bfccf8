"""Small widgets: a search box that waits for Korean composition, the Recall@K curve drawn with
QPainter (no QtCharts: that is PySide6-Addons, 200+ MB), a rich-text cell delegate, and the
HTML used to show passages with the question's terms highlighted."""

from __future__ import annotations

import html
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetrics,
    QInputMethodEvent,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
    QTextDocument,
    QTextOption,
    QTransform,
)
from PySide6.QtWidgets import (
    QApplication,
    QLineEdit,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolTip,
    QWidget,
)

from desktop.review import highlight_spans

# Ten colours that stay apart for colour-blind readers (Okabe-Ito plus four), one per system.
SYSTEM_COLOURS = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#7F7F7F",
    "#8C564B",
    "#17BECF",
    "#BCBD22",
)
HIT = QColor(0, 158, 115, 60)
MISS = QColor(213, 94, 0, 60)
MARK = "#fff3a0"


def system_colour(index: int) -> QColor:
    return QColor(SYSTEM_COLOURS[index % len(SYSTEM_COLOURS)])


def highlighted_html(text: str, terms: Sequence[str], limit: int | None = None) -> str:
    """Escaped text with the terms marked, newlines kept; cut at `limit` characters."""
    return _highlighted(text, tuple(terms), limit)


def highlighted_html_built() -> int:
    """How many texts were marked up so far (not found among those kept)."""
    return _highlighted.cache_info().misses


@lru_cache(maxsize=256)
def _highlighted(text: str, terms: tuple[str, ...], limit: int | None) -> str:
    # Built once per text and question: a switch back to a question, a new K or system
    # (the same rows again) and the reader's passage among its neighbours reuse it.
    if limit is not None and len(text) > limit:
        text = text[:limit].rstrip() + "…"
    out, last = [], 0
    for start, end in highlight_spans(text, terms):
        out.append(html.escape(text[last:start]))
        out.append(
            f'<span style="background:{MARK}; color:#000">{html.escape(text[start:end])}</span>'
        )
        last = end
    out.append(html.escape(text[last:]))
    return "".join(out).replace("\n", "<br>")


class CommittedLineEdit(QLineEdit):
    """A line edit that reports its text only when the reviewer pauses, and never while an
    input method is composing a syllable: a Korean IME sends ㅎ, 하, 한 as preedit before it
    commits 한, and filtering on each of those would be both wrong and slow."""

    committed = Signal(str)

    def __init__(self, parent=None, delay_ms: int = 300):
        super().__init__(parent)
        self.composing = False
        self._last = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self._fire)
        # Edits by the reviewer only; preedit is not in text() and never starts a search.
        self.textEdited.connect(self._changed)
        self.returnPressed.connect(self.flush)

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:
        super().inputMethodEvent(event)
        self.composing = bool(event.preeditString())
        if not self.composing:
            self._timer.start()

    def _changed(self, _text: str) -> None:
        if not self.composing:
            self._timer.start()

    def _fire(self) -> None:
        if self.composing:
            return
        text = self.text()
        if text != self._last:
            self._last = text
            self.committed.emit(text)

    def flush(self) -> None:
        """Report the text now (Enter, or a test)."""
        self._timer.stop()
        self._fire()

    def pending(self) -> bool:
        return self._timer.isActive()


def opaque(widget: QWidget) -> QWidget:
    """A widget that fills its whole rect with the window's colour before its children paint:
    Qt then repaints nothing behind it when something inside changes. Without it, a new
    title repaints the window's background and every splitter and panel above it, over the
    whole area the changed widgets cover."""
    widget.setAutoFillBackground(True)
    return widget


class LayoutSlot(QWidget):
    """Holds one widget whose content changes on every question switch (a title, the
    question's header, the tab that counts the pool). A new text makes a widget ask its
    parent for a new layout; in a layout that request climbs to the window, which is laid
    out again and repaints its splitters' edges. The slot has no layout of its own: it takes
    the request, and passes it on only when the held widget's size hints really changed, so
    that a switch repaints what changed and nothing around it."""

    def __init__(self, held: QWidget, parent=None):
        super().__init__(parent)
        self.held = held
        held.setParent(self)
        self.setSizePolicy(held.sizePolicy())
        self.setMinimumSize(held.minimumSize())
        self.setMaximumSize(held.maximumSize())
        opaque(self)
        self._hints = self._measure()

    def _measure(self) -> tuple:
        """The hints a layout reads: none in a direction that is fixed or ignored (a
        shrinkable label's width, a header's two lines)."""
        held = self.held
        ignored = QSizePolicy.Policy.Ignored
        wide = held.minimumWidth() != held.maximumWidth()
        tall = held.minimumHeight() != held.maximumHeight()
        read_w = wide and held.sizePolicy().horizontalPolicy() != ignored
        read_h = tall and held.sizePolicy().verticalPolicy() != ignored

        wraps = held.hasHeightForWidth() and read_h

        def hint(size: QSize, height: bool = True) -> tuple[int, int]:
            return (size.width() if read_w else -1, size.height() if height else -1)

        return (
            # A wrapping widget is placed at its height for the slot's width (below), not at
            # its size hint's: a wrapped label's hint changes with every text (its lines at a
            # guessed width) although it keeps its lines where it is.
            hint(held.sizeHint(), read_h and not wraps),
            hint(held.minimumSizeHint(), read_h),
            held.minimumSize(),
            held.maximumSize(),
            held.heightForWidth(self.width()) if wraps else -1,
        )

    def sizeHint(self) -> QSize:
        return self.held.sizeHint()

    def minimumSizeHint(self) -> QSize:
        return self.held.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:
        return self.held.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        return self.held.heightForWidth(width)

    def resizeEvent(self, event) -> None:
        self.held.setGeometry(self.rect())
        self._hints = self._measure()
        super().resizeEvent(event)

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            hints = self._measure()
            if hints != self._hints:
                self._hints = hints
                self.updateGeometry()
            return True
        if event.type() == QEvent.Type.Show:
            # A hidden slot is not told when its widget changes (Qt posts no request to a
            # hidden parent), and the layout kept the hints it read before: read again.
            self._hints = self._measure()
            self.updateGeometry()
        return super().event(event)


def _soft_selected(option: QStyleOptionViewItem) -> tuple[QStyleOptionViewItem, bool]:
    """The option without the selected state, and whether it was selected: the cell is then
    drawn with its own colours (a hit's green, a miss's red) under a light highlight, instead
    of the style's solid selection that would hide them."""
    opt = QStyleOptionViewItem(option)
    selected = bool(opt.state & QStyle.StateFlag.State_Selected)
    if selected:
        opt.state &= ~QStyle.StateFlag.State_Selected
    return opt, selected


def _clear(painter: QPainter, option: QStyleOptionViewItem) -> None:
    """Paint over the solid selection the view has already drawn under the row."""
    alternate = bool(option.features & QStyleOptionViewItem.ViewItemFeature.Alternate)
    role = QPalette.ColorRole.AlternateBase if alternate else QPalette.ColorRole.Base
    painter.fillRect(option.rect, option.palette.color(role))


def _tint(painter: QPainter, option: QStyleOptionViewItem) -> None:
    colour = QColor(option.palette.color(QPalette.ColorRole.Highlight))
    colour.setAlpha(70)
    painter.fillRect(option.rect, colour)


class SoftSelectionDelegate(QStyledItemDelegate):
    """Selected rows keep their backgrounds and text colours, tinted by the highlight."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index) -> None:
        if not option.state & QStyle.StateFlag.State_Selected:
            # Most cells: drawn as they are, without copying the option (a switch paints a
            # screenful of these).
            super().paint(painter, option, index)
            return
        opt, _selected = _soft_selected(option)
        _clear(painter, option)
        super().paint(painter, opt, index)
        _tint(painter, option)


def text_lines_height(font: QFont, lines: int) -> int:
    """The height of `lines` lines of Korean text as a rich-text cell lays them out (Hangul
    fallback fonts are often taller than the font's own line spacing)."""
    doc = QTextDocument()
    doc.setDocumentMargin(1)
    doc.setDefaultFont(font)
    doc.setPlainText("\n".join(["가A｢"] * lines))
    return int(doc.size().height()) + 2


class TextCell:
    """One cell's rich text, `width` wide, laid out only as far as whole lines fit in
    `available` pixels, and drawn clipped below the last of them (no half line peeks). The
    markup is parsed by a QTextDocument as before, but its paragraph is laid out line by line
    here, where the document's own layout would lay out and keep every line of a long excerpt
    to show two; where and how the lines are drawn is the document layout's own (its margin,
    wrapping, line heights), so that a cell looks as it did. Markup of more than one
    paragraph is left to the document whole."""

    MARGIN = 1  # the document margin the cells have always had

    def __init__(self, markup: str, font: QFont, width: int, available: int):
        self.doc = QTextDocument()
        self.doc.setDocumentMargin(self.MARGIN)
        self.doc.setDefaultFont(font)
        self.doc.setHtml(markup)
        self.width = width
        block = self.doc.firstBlock()
        self.layout = None if block.next().isValid() else block.layout()
        if self.layout is None:
            self.doc.setTextWidth(width)
            self.shown = self._fitting(self._document_lines(), available)
        else:
            self.shown = self._fitting(self._lines(block, available), available)

    def _lines(self, block, available: int) -> list[float]:
        """The paragraph's lines as the document lays them out, up to the first that does not
        fit: the bottom of each."""
        layout = self.layout
        option = QTextOption(self.doc.defaultTextOption())
        option.setTextDirection(block.textDirection())
        layout.setTextOption(option)
        origin = self.MARGIN + block.blockFormat().topMargin()
        bottoms: list[float] = []
        layout.beginLayout()
        while not bottoms or bottoms[-1] <= available:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(self.width - 2 * self.MARGIN)
            line.setPosition(QPointF(0, bottoms[-1] - origin if bottoms else 0))
            bottoms.append(origin + line.y() + line.height())
        layout.endLayout()
        return bottoms

    def _document_lines(self):
        doc = self.doc
        block = doc.begin()
        while block.isValid():
            layout = block.layout()
            origin = doc.documentLayout().blockBoundingRect(block).top()
            for i in range(layout.lineCount()):
                line = layout.lineAt(i)
                yield origin + line.y() + line.height()
            block = block.next()

    @staticmethod
    def _fitting(bottoms, available: int) -> int:
        """The height of the whole lines that fit (all of them when none does)."""
        bottom = 0.0
        for end in bottoms:
            if end > available:
                return max(int(bottom), 1) if bottom else available
            bottom = end
        return int(bottom) + 1 if bottom else available

    def draw(self, painter: QPainter, at: QPointF, text: QColor) -> None:
        painter.save()
        painter.translate(at)
        clip = QRectF(0, 0, self.width, self.shown)
        painter.setClipRect(clip)
        if self.layout is None:
            context = QAbstractTextDocumentLayout.PaintContext()
            context.palette.setColor(QPalette.ColorRole.Text, text)
            context.clip = clip
            self.doc.documentLayout().draw(painter, context)
        else:
            painter.setPen(text)
            self.layout.draw(painter, QPointF(self.MARGIN, self.MARGIN), [], clip)
        painter.restore()


class HtmlDelegate(QStyledItemDelegate):
    """Draws a cell's HTML (from `role`) in up to `lines` lines, clipped; the selection colours
    come from the style as for any other cell. A cell's text is laid out only as far as its
    lines show (a long excerpt is not laid out whole to show two lines), once per markup and
    width. A cell once drawn is kept as a pixmap, keyed by everything its pixels depend on
    (markup, size, font, state, colours), and every later paint of it is one drawPixmap:
    drawing a laid-out rich text costs far more than copying it. The next and previous
    questions' cells can be drawn ahead while the window is idle (`prepare`)."""

    CACHE = 64  # cells laid out: the rows on screen in two rankings, and the ones just left
    DRAWN_BYTES = 4 << 20  # pixmaps kept, by size: three questions' cells on screen, or more

    def __init__(self, role: int, lines: int = 2, parent=None):
        super().__init__(parent)
        self.role = role
        self.lines = lines
        self._cells: OrderedDict[tuple, TextCell] = OrderedDict()
        self._drawn: OrderedDict[tuple, QPixmap] = OrderedDict()
        self._drawn_bytes = 0
        self._shape: tuple = ()  # the cells' size and font: all kept is dropped when it changes
        self.drawn = 0  # cells drawn (not copied from a kept pixmap): a test counts them

    def kept(self) -> int:
        """How many drawn cells are kept."""
        return len(self._drawn)

    def kept_bytes(self) -> int:
        return self._drawn_bytes

    def _cell(self, markup: str, font: QFont, width: int, height: int) -> TextCell:
        key = (markup, font.key(), width, height)
        found = self._cells.get(key)
        if found is not None:
            self._cells.move_to_end(key)
            return found
        found = TextCell(markup, font, width, height)
        self._cells[key] = found
        if len(self._cells) > self.CACHE:
            self._cells.popitem(last=False)
        return found

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index) -> None:
        markup = index.data(self.role)
        if not markup:
            super().paint(painter, option, index)
            return
        ratio = painter.device().devicePixelRatio()
        moved = painter.deviceTransform()
        whole = (
            ratio == int(ratio)
            and moved.type() in _MOVED_ONLY
            and moved.dx() == int(moved.dx())
            and moved.dy() == int(moved.dy())
        )
        if not whole:
            # A pixmap copied to a fractional pixel would be resampled: drawn as it is.
            self.draw(painter, option, index, markup)
            return
        painter.drawPixmap(option.rect.topLeft(), self._pixmap(option, index, markup, ratio))

    def prepare(self, option: QStyleOptionViewItem, index) -> None:
        """Draw a cell ahead into the kept pixmaps, as the view would paint it with `option`
        (a row of the question the reviewer may go to next)."""
        markup = index.data(self.role)
        if markup:
            self._pixmap(option, index, markup, option.widget.devicePixelRatio())

    def _pixmap(self, option: QStyleOptionViewItem, index, markup: str, ratio: float) -> QPixmap:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)  # the colours and font the index gives the cell
        size = option.rect.size()
        shape = (size.width(), size.height(), opt.font.key(), ratio)
        if shape != self._shape:
            self._shape = shape
            self._cells.clear()
            self._drawn.clear()
            self._drawn_bytes = 0
        palette = opt.palette
        key = (
            markup,
            opt.state.value,
            opt.features.value,
            opt.backgroundBrush.color().rgba(),
            opt.backgroundBrush.style().value,
            *(palette.color(role).rgba() for role in _CELL_COLOURS),
            _underlay(option).rgba(),
        )
        found = self._drawn.get(key)
        if found is not None:
            self._drawn.move_to_end(key)
            return found
        found = self._render(option, index, markup, ratio)
        self._drawn[key] = found
        self._drawn_bytes += found.width() * found.height() * 4
        while self._drawn_bytes > self.DRAWN_BYTES and len(self._drawn) > 1:
            _, dropped = self._drawn.popitem(last=False)
            self._drawn_bytes -= dropped.width() * dropped.height() * 4
        return found

    def _render(self, option: QStyleOptionViewItem, index, markup: str, ratio: float) -> QPixmap:
        """The cell drawn at the origin of a pixmap of its own, over what the view paints
        under it first (the viewport's base, the row's alternate colour)."""
        size = option.rect.size()
        pixmap = QPixmap(size * ratio)
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(_underlay(option))
        local = QStyleOptionViewItem(option)
        local.rect = QRect(QPoint(0, 0), size)
        painter = QPainter(pixmap)
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawPrimitive(
            QStyle.PrimitiveElement.PE_PanelItemViewRow, local, painter, option.widget
        )
        self.draw(painter, local, index, markup)
        painter.end()
        return pixmap

    def draw(self, painter: QPainter, option: QStyleOptionViewItem, index, markup: str) -> None:
        """The cell drawn as it is, where `option.rect` says (no pixmap kept)."""
        self.drawn += 1
        opt, selected = _soft_selected(option)
        if selected:
            _clear(painter, option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        if selected:
            _tint(painter, option)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, opt.widget) + 1
        rect = opt.rect.adjusted(margin, 0, -margin, 0)
        cell = self._cell(markup, opt.font, rect.width(), rect.height())
        top = rect.top() + max(0, (rect.height() - cell.shown) // 2)
        cell.draw(painter, QPointF(rect.left(), top), opt.palette.color(QPalette.ColorRole.Text))

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:
        metrics = QFontMetrics(option.font)
        return QSize(metrics.averageCharWidth() * 40, text_lines_height(option.font, self.lines))


# A painter that only moves what it draws, by whole pixels (checked with dx, dy), can take a
# kept pixmap where the cell would have been drawn.
_MOVED_ONLY = (QTransform.TransformationType.TxNone, QTransform.TransformationType.TxTranslate)

# The palette's colours a rich-text cell is drawn with (under, over and around its text).
_CELL_COLOURS = (
    QPalette.ColorRole.Base,
    QPalette.ColorRole.AlternateBase,
    QPalette.ColorRole.Highlight,
    QPalette.ColorRole.HighlightedText,
    QPalette.ColorRole.Text,
)


def _underlay(option: QStyleOptionViewItem) -> QColor:
    """What the view has painted under a cell before its delegate: its viewport's background
    (the row's alternate colour is drawn over it as the view draws it)."""
    view = option.widget
    if view is not None and hasattr(view, "viewport"):
        viewport = view.viewport()
        return viewport.palette().color(viewport.backgroundRole())
    return option.palette.color(QPalette.ColorRole.Base)


class RecallCurve(QWidget):
    """Mean Recall@K for K = 1..depth, one line per system, with the chosen K values marked.
    Everything is measured from the font, so it reads the same at 1366×768 and at 4K."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.curves: dict[str, list[float]] = {}
        self.colours: dict[str, QColor] = {}
        self.marks: list[int] = []
        self.title = ""
        self.empty_text = ""
        self.setMouseTracking(True)
        self.setMinimumSize(
            self.fontMetrics().averageCharWidth() * 40, self.fontMetrics().lineSpacing() * 4
        )

    def set_curves(
        self, curves: dict[str, list[float]], colours: dict[str, QColor], marks: Sequence[int]
    ) -> None:
        shown = (self.curves, self.colours, self.marks)
        self.curves = dict(curves)
        self.colours = dict(colours)
        self.marks = sorted(set(marks))
        # Most judgements (a passage struck from the pool) leave every mean as it was: no
        # repaint then (the curve's paths cost milliseconds a paint at a hundred points).
        if (self.curves, self.colours, self.marks) != shown:
            self.update()

    def depth(self) -> int:
        return max((len(c) for c in self.curves.values()), default=0)

    def _plot_rect(self) -> QRectF:
        fm = self.fontMetrics()
        left = fm.horizontalAdvance("0.00") + fm.averageCharWidth() * 2
        legend = fm.lineSpacing() * (1 if self.title else 0)
        right = fm.averageCharWidth() * 2
        bottom = fm.lineSpacing() * 2
        return QRectF(
            left,
            legend + fm.lineSpacing() * 0.5,
            self.width() - left - right,
            self.height() - legend - bottom - fm.lineSpacing() * 0.5,
        )

    def _x(self, rect: QRectF, k: float, depth: int) -> float:
        if depth <= 1:
            return rect.left()
        return rect.left() + (k - 1) / (depth - 1) * rect.width()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = self.fontMetrics()
        palette = self.palette()
        text_colour = palette.color(QPalette.ColorRole.WindowText)
        if self.title:
            painter.setPen(text_colour)
            painter.drawText(
                QRectF(0, 0, self.width(), fm.lineSpacing()),
                Qt.AlignmentFlag.AlignHCenter,
                self.title,
            )
        depth = self.depth()
        rect = self._plot_rect()
        if depth == 0 or rect.width() < 10 or rect.height() < 10:
            painter.setPen(text_colour)
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.empty_text)
            return
        grid = QColor(text_colour)
        grid.setAlpha(40)
        self._axes(painter, rect, depth, grid, text_colour)
        width = max(2.0, fm.lineWidth() * 2.0)
        self._curves(painter, rect, depth, width, text_colour)
        self._legend(painter, rect, width, text_colour)

    def _axes(self, painter: QPainter, rect: QRectF, depth: int, grid, text_colour) -> None:
        fm = self.fontMetrics()
        painter.setPen(QPen(grid, 1))
        for i in range(0, 11, 2):
            y = rect.bottom() - i / 10 * rect.height()
            painter.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y))
        painter.setPen(text_colour)
        for i in range(0, 11, 2):
            y = rect.bottom() - i / 10 * rect.height()
            label = f"{i / 10:.1f}"
            painter.drawText(
                QRectF(0, y - fm.height() / 2, rect.left() - fm.averageCharWidth(), fm.height()),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                label,
            )
        ticks = sorted({1, depth, *[t for t in (5, 10, 20, 50, 100, 200, 500) if t < depth]})
        last_right = -1e9
        for t in ticks:
            x = self._x(rect, t, depth)
            label = str(t)
            width = fm.horizontalAdvance(label)
            if x - width / 2 < last_right + fm.averageCharWidth():
                continue
            painter.drawText(
                QRectF(x - width, rect.bottom() + 2, width * 2, fm.height()),
                Qt.AlignmentFlag.AlignHCenter,
                label,
            )
            last_right = x + width / 2
        painter.drawText(
            QRectF(rect.left(), rect.bottom() + fm.lineSpacing(), rect.width(), fm.height()),
            Qt.AlignmentFlag.AlignHCenter,
            "K",
        )
        mark_pen = QPen(grid, 1, Qt.PenStyle.DashLine)
        for k in self.marks:
            if 1 <= k <= depth:
                painter.setPen(mark_pen)
                x = self._x(rect, k, depth)
                painter.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))

    def _curves(self, painter: QPainter, rect: QRectF, depth: int, width: float, text_colour):
        for name, values in self.curves.items():
            if not values:
                continue
            path = QPainterPath()
            for i, v in enumerate(values):
                point = QPointF(self._x(rect, i + 1, depth), rect.bottom() - v * rect.height())
                if i == 0:
                    path.moveTo(point)
                else:
                    path.lineTo(point)
            painter.setPen(QPen(self.colours.get(name, text_colour), width))
            painter.drawPath(path)

    def _legend(self, painter: QPainter, rect: QRectF, width: float, text_colour) -> None:
        # At the bottom right inside the plot: recall curves rise towards the top.
        fm = self.fontMetrics()
        swatch = fm.averageCharWidth() * 2
        names = list(self.curves)
        label_width = max((fm.horizontalAdvance(n) for n in names), default=0)
        x0 = rect.right() - label_width - swatch - fm.averageCharWidth() * 2
        y0 = rect.bottom() - fm.lineSpacing() * (len(names) + 0.3)
        for name in names:
            painter.setPen(QPen(self.colours.get(name, text_colour), width))
            y = y0 + fm.lineSpacing() / 2
            painter.drawLine(QPointF(x0, y), QPointF(x0 + swatch, y))
            painter.setPen(text_colour)
            painter.drawText(QPointF(x0 + swatch + fm.averageCharWidth(), y0 + fm.ascent()), name)
            y0 += fm.lineSpacing()

    def value_text(self, k: int) -> str:
        lines = [f"K = {k}"]
        for name, values in self.curves.items():
            if 1 <= k <= len(values):
                lines.append(f"{name}: {values[k - 1]:.3f}")
        return "\n".join(lines)

    def mouseMoveEvent(self, event) -> None:
        depth = self.depth()
        rect = self._plot_rect()
        if depth and rect.width() > 0:
            x = event.position().x()
            k = round((x - rect.left()) / rect.width() * (depth - 1)) + 1 if depth > 1 else 1
            k = min(max(k, 1), depth)
            QToolTip.showText(event.globalPosition().toPoint(), self.value_text(k), self)
        super().mouseMoveEvent(event)

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.Leave:
            QToolTip.hideText()
        return super().event(event)
