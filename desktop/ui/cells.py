"""Table cells drawn by delegates: the soft selection that keeps a cell's colours, and the
rich-text cell (a ranked passage's excerpt with the question's terms marked), laid out only as
far as its lines show and kept as a pixmap once drawn."""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QIcon,
    QPainter,
    QPalette,
    QPixmap,
    QTextDocument,
    QTextOption,
    QTransform,
)
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem


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
    width. A cell whose text is painted a second time is kept as a pixmap, keyed by everything
    its pixels depend on (markup, size, font, state, colours), and every later paint of it is one
    drawPixmap: drawing a laid-out rich text costs far more than copying it. The next and
    previous questions' cells are drawn ahead into it while the window is idle (`prepare`)."""

    CACHE = 64  # cells laid out: the rows on screen in two rankings, and the ones just left
    SEEN = 256  # texts painted or kept lately, remembered so that their next paint keeps them
    DRAWN_BYTES = 4 << 20  # pixmaps kept, by size: three questions' cells on screen, or more
    SHAPES = 2  # cell sizes (and fonts) kept at once: the one on screen and the next question's
    # A text painted a second time is kept (else only cells drawn ahead are: `prepare`).
    KEPT_WHEN_PAINTED_AGAIN = True

    def __init__(self, role: int, lines: int = 2, parent=None):
        super().__init__(parent)
        self.role = role
        self.lines = lines
        self._cells: OrderedDict[tuple, TextCell] = OrderedDict()
        self._drawn: OrderedDict[tuple, QPixmap] = OrderedDict()
        # The texts painted (or drawn ahead) lately: a cell of one of them is kept when
        # painted again, in whatever state or size (only those drawn ahead, without
        # KEPT_WHEN_PAINTED_AGAIN).
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._drawn_bytes = 0
        # The cells' sizes and fonts kept, the one used last at the end: the evidence table's
        # text column has two widths (alternatives shown or not), and the cells drawn ahead at
        # the next question's width must not drop the cells on screen at the current one.
        self._shapes: list[tuple] = []
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
        if markup not in self._seen:
            # A text painted for the first time (most cells of a question not seen before
            # are painted once), or never kept: drawn as it is, without working out its key
            # (the key's Python cost was a third of drawing it); painted again, it is kept.
            if self.KEPT_WHEN_PAINTED_AGAIN:
                self._remember(markup)
            self.draw(painter, option, index, markup)
            return
        self._seen.move_to_end(markup)
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
        key = self._key(option, index, markup, ratio)
        found = self._drawn.get(key)
        if found is None:
            found = self._keep(key, option, index, markup, ratio)
        else:
            self._drawn.move_to_end(key)
        painter.drawPixmap(option.rect.topLeft(), found)

    def _remember(self, markup: str) -> None:
        self._seen[markup] = None
        if len(self._seen) > self.SEEN:
            self._seen.popitem(last=False)

    def prepare(self, option: QStyleOptionViewItem, index) -> None:
        """Draw a cell ahead into the kept pixmaps, as the view would paint it with `option`
        (a row of the question the reviewer may go to next)."""
        markup = index.data(self.role)
        if markup:
            ratio = option.widget.devicePixelRatio()
            key = self._key(option, index, markup, ratio)
            if key not in self._drawn:
                self._keep(key, option, index, markup, ratio)

    def _key(self, option: QStyleOptionViewItem, index, markup: str, ratio: float) -> tuple:
        """Everything a cell's pixels depend on; what was kept for the least recently used of
        more than SHAPES sizes or fonts is dropped here."""
        size = option.rect.size()
        shape = (size.width(), size.height(), option.font.key(), ratio)
        if not self._shapes or shape != self._shapes[-1]:
            self._use_shape(shape)
        palette = option.palette
        return (
            markup,
            shape,
            option.state.value,
            option.features.value,
            *(_look(index.data(role)) for role in _ITEM_LOOKS),
            *(palette.color(role).rgba() for role in _CELL_COLOURS),
            _underlay(option).rgba(),
        )

    def _use_shape(self, shape: tuple) -> None:
        if shape in self._shapes:
            self._shapes.remove(shape)
        self._shapes.append(shape)
        if len(self._shapes) <= self.SHAPES:
            return
        gone = self._shapes.pop(0)  # a width the table left: its cells will not be painted
        for key in [k for k in self._drawn if k[1] == gone]:
            dropped = self._drawn.pop(key)
            self._drawn_bytes -= dropped.width() * dropped.height() * 4

    def _keep(self, key: tuple, option, index, markup: str, ratio: float) -> QPixmap:
        self._remember(markup)  # its next paint copies it
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

# What a cell's item gives its look besides the markup (initStyleOption reads these); read
# here, not through initStyleOption, which asks the model for every role (Python calls).
_ITEM_LOOKS = (
    Qt.ItemDataRole.BackgroundRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.DecorationRole,
    Qt.ItemDataRole.CheckStateRole,
)


def _look(value) -> object:
    """A role's value as part of a key (brushes are the models' solid colours)."""
    if isinstance(value, QBrush):
        return (value.color().rgba(), value.style().value)
    if isinstance(value, QColor):
        return value.rgba()
    if isinstance(value, QFont):
        return value.key()
    if isinstance(value, (QIcon, QPixmap)):
        return value.cacheKey()
    return value if value is None or isinstance(value, (int, str)) else repr(value)


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


class KeptTextDelegate(HtmlDelegate):
    """A plain-text cell drawn by Qt's own delegate (wrapped, elided as the view says) and kept
    as a pixmap like a rich-text cell: Qt lays a wrapped text out again on every paint (Korean
    text through its fallback fonts), a kept cell is copied. Its text comes from `role`,
    which the model gives for the cells to keep alone; other cells are Qt's own as they are.
    Cells are kept only when drawn ahead (`prepare`, `keep_shown`) and from then on copied; a
    text never kept is drawn as it is, without working out its key, however often it is
    painted (HtmlDelegate's first paint)."""

    KEPT_WHEN_PAINTED_AGAIN = False

    def __init__(self, role: int, parent=None):
        super().__init__(role, parent=parent)

    def _key(self, option: QStyleOptionViewItem, index, markup: str, ratio: float) -> tuple:
        return (*super()._key(option, index, markup, ratio), option.textElideMode.value)

    def draw(self, painter: QPainter, option: QStyleOptionViewItem, index, markup: str) -> None:
        self.drawn += 1
        QStyledItemDelegate.paint(self, painter, option, index)

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:
        return QStyledItemDelegate.sizeHint(self, option, index)


def table_option(table) -> QStyleOptionViewItem:
    """The option a table starts each cell's from, in the colour group QTableView's drawCell
    gives an enabled cell (the cells drawn ahead: keep_shown, the rankings, the pool queue)."""
    option = QStyleOptionViewItem()
    table.initViewItemOption(option)
    if option.state & QStyle.StateFlag.State_Enabled:
        option.palette.setCurrentColorGroup(QPalette.ColorGroup.Normal)
    return option


def cell_option(
    table, base: QStyleOptionViewItem, rect: QRect, visual_row: int, selected: bool, current: bool
) -> QStyleOptionViewItem:
    """A cell's option as QTableView's drawCell makes it from `base` (table_option): selected,
    the focus frame on the current cell of a focused table, every other row alternate."""
    opt = QStyleOptionViewItem(base)
    opt.rect = rect
    if selected:
        opt.state |= QStyle.StateFlag.State_Selected
    if current and (table.hasFocus() or table.viewport().hasFocus()):
        opt.state |= QStyle.StateFlag.State_HasFocus
    if table.alternatingRowColors() and visual_row % 2:
        opt.features |= QStyleOptionViewItem.ViewItemFeature.Alternate
    return opt


def painted_size(table, width: int) -> QSize:
    """A cell's size as QTableView paints it (visualRect's) in a column `width` wide: inside
    the grid line, the rows' default height."""
    grid = 1 if table.showGrid() else 0
    height = table.verticalHeader().defaultSectionSize()
    return QSize(width - grid, height - grid)


def draw_rows_ahead(
    table,
    delegate: HtmlDelegate,
    model,
    column: int,
    selected: int,
    current: bool,
    width: int | None = None,
):
    """Draw a column of a model not shown yet (a question the keys may go to next) into the
    delegate's kept pixmaps, as `table` will paint it once it shows that model: the rows that
    fit in its viewport, row `selected` selected (and current, when `current`), the column as
    wide as now or `width` (the width that question will give it)."""
    size = painted_size(table, table.columnWidth(column) if width is None else width)
    if size.isEmpty() or table.isColumnHidden(column):
        return
    shown = min(model.rowCount(), table.viewport().height() // size.height() + 1)
    base = table_option(table)
    for row in range(shown):
        is_selected = row == selected
        rect = QRect(QPoint(0, 0), size)
        opt = cell_option(table, base, rect, row, is_selected, current and is_selected)
        delegate.prepare(opt, model.index(row, column))


def keep_shown(table, delegate: HtmlDelegate, column: int) -> None:
    """Draw a column's cells on screen into the delegate's kept pixmaps, in the states the
    table paints them in now (cell_option), so that their next paint only copies them."""
    if table.isColumnHidden(column):
        return
    model, viewport, selection = table.model(), table.viewport(), table.selectionModel()
    base = table_option(table)
    for row in range(model.rowCount()):
        index = model.index(row, column)
        rect = table.visualRect(index)
        if table.isRowHidden(row) or not rect.intersects(viewport.rect()):
            continue
        selected = selection.isSelected(index)
        current = index == table.currentIndex()
        visual = table.verticalHeader().visualIndex(row)
        delegate.prepare(cell_option(table, base, rect, visual, selected, current), index)
