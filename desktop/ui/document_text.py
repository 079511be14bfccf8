"""A passage inside its document, as the reader lays it out (review.document_view gives the
text and the spans): the document's text greyed, the passage set off in black on a light
ground, each gold span of the question underlined, and the part of the passage covering a span
shaded. Built with a text cursor, not HTML, so that a document position maps back to a code
point of the document (the reader's selected_span)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor, QTextDocument

from desktop.gold.span_snap import utf16_length
from desktop.review import highlight_spans
from desktop.review.document_view import DocumentWindow, GoldSpan
from desktop.ui.widgets import HIT

OUTSIDE = QColor("#808080")
PASSAGE_GROUND = QColor(70, 110, 190, 28)
GOLD_LINE = QColor(0, 130, 90)
EARLIER = QT_TRANSLATE_NOOP("DocumentText", "▲ earlier text of {document}")
LATER = QT_TRANSLATE_NOOP("DocumentText", "▼ later text of {document}")


def tr(text: str) -> str:
    return QCoreApplication.translate("DocumentText", text)


def fill(
    doc: QTextDocument,
    window: DocumentWindow,
    label: Callable[[GoldSpan], str],
    terms: Sequence[str] = (),
) -> int:
    """Writes the window into doc (empty) and returns the position where its text starts (after
    the "earlier text" link when the window does not start the document); the question's
    terms in bold (a ground of their own would hide the shading of the covered part)."""
    cursor = QTextCursor(doc)
    if window.offset > 0:
        _link(cursor, "document:earlier", tr(EARLIER), window)
    origin = cursor.position()
    for start, end, inside, gold, covered in window.segments():
        piece = window.text[start - window.offset : end - window.offset]
        cursor.insertText(piece, _format(inside, gold, covered, label))
    if window.end < window.document_length:
        cursor.insertBlock()
        _link(cursor, "document:later", tr(LATER), window)
    _embolden(doc, window.text, origin, terms)
    return origin


def _embolden(doc: QTextDocument, text: str, origin: int, terms: Sequence[str]) -> None:
    found = highlight_spans(text, terms) if terms else []
    if not found:
        return
    bold = QTextCharFormat()
    bold.setFontWeight(QFont.Weight.Bold)
    cursor = QTextCursor(doc)
    wide = any(ord(char) > 0xFFFF for char in text)  # else a code point is one Qt position
    for start, end in found:
        if wide:
            start, end = utf16_length(text[:start]), utf16_length(text[:end])
        cursor.setPosition(origin + start)
        cursor.setPosition(origin + end, QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(bold)


def _link(cursor: QTextCursor, href: str, text: str, window: DocumentWindow) -> None:
    fmt = QTextCharFormat()
    fmt.setAnchor(True)
    fmt.setAnchorHref(href)
    fmt.setForeground(OUTSIDE)
    fmt.setFontUnderline(True)
    cursor.insertText(text.format(document=window.document_id), fmt)
    if href.endswith("earlier"):
        cursor.insertBlock()


def _format(inside: bool, gold: list[GoldSpan], covered: bool, label) -> QTextCharFormat:
    fmt = QTextCharFormat()
    if not inside:
        fmt.setForeground(OUTSIDE)
    if inside:
        fmt.setBackground(HIT if covered else PASSAGE_GROUND)
    if gold:
        fmt.setFontUnderline(True)
        fmt.setUnderlineColor(GOLD_LINE)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setToolTip(", ".join(label(g) for g in gold))
        if not inside:
            fmt.setForeground(GOLD_LINE)
    return fmt


def passage_position(window: DocumentWindow, origin: int) -> int:
    """The document position to open on (Qt counts UTF-16 units): the first part of the
    passage covering a gold span, what the reviewer has to judge; else the passage's start."""
    first = min((c.start for c in window.covered), default=window.passage[0])
    start = max(first, window.offset) - window.offset
    return origin + utf16_length(window.text[:start])
