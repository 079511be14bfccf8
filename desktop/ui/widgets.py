"""Small widgets: a search box that waits for Korean composition, the Recall@K curve drawn with
QPainter (no QtCharts: that is PySide6-Addons, 200+ MB), and the HTML used to show passages
with the question's terms highlighted (the cell delegates that draw it are in cells.py)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import lru_cache

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QInputMethodEvent,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QLineEdit,
    QSizePolicy,
    QToolTip,
    QWidget,
)

from desktop.review import highlight_spans
from desktop.ui.cells import (  # noqa: F401 (their home before; imported from here)
    HtmlDelegate,
    SoftSelectionDelegate,
    TextCell,
    text_lines_height,
)

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
        if depth == 0:
            painter.setPen(text_colour)
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.empty_text)
            return
        if rect.width() < 10 or rect.height() < 10:
            return  # runs, but no room for their plot: the title alone, never "No runs yet"
        grid = QColor(text_colour)
        grid.setAlpha(40)
        self._axes(painter, rect, depth, grid, text_colour)
        width = max(2.0, fm.lineWidth() * 2.0)
        self._curves(painter, rect, depth, width, text_colour)
        self._legend(painter, rect, width, text_colour)

    def _axes(self, painter: QPainter, rect: QRectF, depth: int, grid, text_colour) -> None:
        fm = self.fontMetrics()
        step = self.label_step(rect.height())
        painter.setPen(QPen(grid, 1))
        for i in range(0, 11, step):
            y = rect.bottom() - i / 10 * rect.height()
            painter.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y))
        painter.setPen(text_colour)
        for i in range(0, 11, step):
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

    def label_step(self, height: float) -> int:
        """Tenths between two labelled lines of a plot `height` pixels tall: 0.2 while their
        digits stand apart, else 0.5, else 0 and 1 alone (a short dock, as on a 1366×768
        laptop's desktop, piled the six labels up)."""
        room = self.fontMetrics().capHeight() + 4
        return next((s for s in (2, 5) if s / 10 * height >= room), 10)

    def legend_fits(self, height: float) -> bool:
        """The legend is drawn inside the plot only when it fits there: taller than the plot,
        it covered the curves and the title. Each system's colour is also beside its name in
        the metrics table."""
        return self.fontMetrics().lineSpacing() * (len(self.curves) + 0.3) <= height

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
        if not self.legend_fits(rect.height()):
            return
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
