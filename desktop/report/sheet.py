"""The report's write-only sheets (openpyxl's public write-only API): one styled cell per
column and style reused row after row, row heights for wrapped text, continuation sheets past
Excel's row limit, the printed page's setup, and the sheets' names in each language."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.dimensions import RowDimension
from openpyxl.worksheet.properties import PageSetupProperties

from desktop.report.cells import (
    LINE_POINTS,
    clean_text,
    cleaned,
    header_width,
    sheet_title,
    text_lines,
)

# The sheets, by their English names; a report's sheet names are all in one language, Korean
# unless the UI is English (write_report's ``lang``).
SUMMARY, PER_QUESTION, MISSES = "Summary", "Per question", "Misses"
COMPARISON = "Comparison"
REVIEWERS, SETTINGS, CHARTS = "Reviewers", "Settings", "Charts"
GOLD_CHANGES = "Gold changes"
KOREAN_NAMES = {
    SUMMARY: "요약",
    PER_QUESTION: "질문별",
    MISSES: "누락",
    COMPARISON: "비교",
    REVIEWERS: "검수자",
    SETTINGS: "설정",
    CHARTS: "차트",
    GOLD_CHANGES: "정답 근거 변경",
}
# Only in a report of a database with documents (spans): the chunkings compared.
CHUNKINGS = "Chunkings"
LANGUAGES = ("ko", "en")
MAX_ROWS = 1_048_576  # Excel's rows per sheet; a longer table continues on "Misses 2", …
FONT_NAME = "Malgun Gothic"  # has Hangul; Excel and LibreOffice substitute when it is missing


def sheet_names(lang: str) -> dict[str, str]:
    """Each sheet's English name -> its name in ``lang`` ('ko' or 'en')."""
    if lang not in LANGUAGES:
        raise ValueError(f"the report's language is one of {', '.join(LANGUAGES)}, not {lang!r}")
    return {name: KOREAN_NAMES[name] if lang == "ko" else name for name in KOREAN_NAMES}


def chunkings_name(lang: str) -> str:
    """The Chunkings sheet's name in ``lang``."""
    sheet_names(lang)  # refuses a language it does not know
    return "청킹 비교" if lang == "ko" else CHUNKINGS


def default_language(environ=os.environ) -> str:
    """The report's language when none is given: English under an English locale, Korean
    otherwise (a C or POSIX locale says nothing), as the window chooses without a setting."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable)
        if value:
            return "en" if value.lower().startswith("en") else "ko"
    return "ko"


BASE_FONT = Font(name=FONT_NAME, sz=10, family=2, charset=129)
# One set of style objects for the whole report: each cell points at these, so openpyxl keeps
# one font, fill and alignment of each kind, not one per cell. Every cell has a style, and so
# the Hangul font: openpyxl's public API cannot change the workbook's default font (Calibri).
# (A styled cell costs openpyxl a few µs more to write than a plain value.)
STYLES = {
    None: {"font": BASE_FONT},
    "header": {
        "font": Font(name=FONT_NAME, sz=10, family=2, charset=129, b=True),
        "fill": PatternFill("solid", fgColor="DDEBF7"),
        "alignment": Alignment(wrap_text=True, vertical="top"),
    },
    "title": {"font": Font(name=FONT_NAME, sz=12, family=2, charset=129, b=True)},
    "bold": {"font": Font(name=FONT_NAME, sz=10, family=2, charset=129, b=True)},
    "wrap": {"font": BASE_FONT, "alignment": Alignment(wrap_text=True, vertical="top")},
    "num": {"font": BASE_FONT, "number_format": "0.000"},
    "p": {"font": BASE_FONT, "number_format": "0.0000"},
    "pct": {"font": BASE_FONT, "number_format": "0.0%"},
    # an unranked run's rank measure or cut-off shorter than its context: shown, greyed
    "dim": {"font": Font(name=FONT_NAME, sz=10, family=2, charset=129, color="FF8C8C8C")},
    "dimnum": {
        "font": Font(name=FONT_NAME, sz=10, family=2, charset=129, color="FF8C8C8C"),
        "number_format": "0.000",
    },
}


# A landscape A4 page between Excel's default margins holds about 988 pixels at 96 dpi; a
# column of width w (characters of the default font) takes about 7·w + 5 of them. Shrunk below
# READABLE a page's 11-point text prints under 4.5 points, which cannot be read; above it a
# sheet stays one page wide, so that the sample's report is short (under 20 pages).
PAGE_PIXELS = 988
READABLE = 0.4


def pages_across(widths: Sequence[float]) -> int:
    """How many pages wide a sheet prints so that it is shrunk no more than READABLE."""
    pixels = sum(7 * width + 5 for width in widths)
    return max(1, math.ceil(pixels / (PAGE_PIXELS / READABLE)))


class Sheet:
    """One write-only worksheet, continued on more ("Misses 2", "Misses 3", …, the header row
    repeated) when it would pass ``max_rows`` rows. Column widths, frozen panes and the page
    setup are set before the first row (write-only sheets write them first): landscape, one
    page wide or as few as keep it readable (``pages_across``), the ``print_rows``
    repeated on every printed page. The autofilter is set at the
    end, when the extent of the table is known. ``append`` cleans every value, so that no row
    can make openpyxl raise halfway through a sheet."""

    def __init__(
        self,
        wb: Workbook,
        title: str,
        widths: Sequence[float],
        freeze: str | None,
        *,
        print_rows: str | None = None,
        max_rows: int = MAX_ROWS,
    ):
        self.wb = wb
        self.widths = list(widths)
        self.freeze = freeze
        self.max_rows = max(max_rows, 3)  # room for a repeated header and a row
        self.titles: list[str] = []  # the sheet's title, then its continuations'
        self._head: tuple[list, int] | None = None  # the last header: repeated on a new part
        self._spans: list[tuple] = []  # (worksheet, first row) of that table on earlier parts
        self._table_first = 1  # the row of the last header on this part
        self._open(sheet_title(title), print_rows)
        self.title = self.ws.title

    def _open(self, title: str, print_rows: str | None) -> None:
        ws = self.ws = self.wb.create_sheet(title)
        self.titles.append(ws.title)
        for index, width in enumerate(self.widths, 1):
            ws.column_dimensions[get_column_letter(index)].width = width
        if self.freeze:
            ws.freeze_panes = self.freeze
        # On paper (or in a PDF): landscape, as many pages down as it takes, and as few
        # across as keep the print readable; a sheet wider than one page repeats its first
        # column on each page across, so every row still says what it is.
        ws.page_setup.orientation = "landscape"
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
        across = pages_across(self.widths)
        ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = across, 0
        if across > 1:
            ws.print_title_cols = "A:A"
        if print_rows:
            ws.print_title_rows = print_rows
        self.rows = 0
        # One styled cell per column and style, reused row after row: a write-only sheet
        # writes each row out while append() runs, so the same cell can carry the next
        # row's value (and openpyxl does not make a cell, and look its style up, per value).
        self._pool: dict[tuple[int, str | None], WriteOnlyCell] = {}
        # Per row layout (one style for all, or a style per column): its styles and pooled
        # cells column by column, so that a row looks its layout up once, not each value.
        self._layouts: dict[tuple | str | None, tuple[tuple, list]] = {}
        self._heights: dict[float, RowDimension] = {}

    def _continue(self) -> None:
        """Go on in a new sheet right after this one, its header row repeated."""
        if self._head is not None:
            self._spans.append((self.ws, self._table_first))
        after = self.wb.worksheets.index(self.ws) + 1
        suffix = f" {len(self.titles) + 1}"
        self._open(sheet_title(self.title[: 31 - len(suffix)] + suffix), None)
        self.wb.move_sheet(self.ws.title, after - (len(self.wb.worksheets) - 1))
        if self._head is not None:
            labels, lines = self._head
            self._table_first = self._write(labels, "header", lines)
            self.ws.print_title_rows = "1:1"

    def append(
        self,
        values: Sequence,
        styles: Sequence[str | None] | str | None = None,
        lines: int | None = None,
    ) -> int:
        """Write one row; ``styles`` is one style name per column (or one for all), ``lines``
        the lines of text the row must show (its height). Returns the row's number on the
        part of the sheet it went to."""
        if self.rows >= self.max_rows:
            self._continue()
        return self._write(values, styles, lines)

    def _write(self, values: Sequence, styles, lines: int | None) -> int:
        # A write-only row takes its height before its cells, and LibreOffice does not grow
        # rows to wrapped text by itself: without one, a row shows a single line.
        height = LINE_POINTS * lines + 3 if lines is not None and lines > 1 else None
        self.rows += 1
        dimensions = self.ws.row_dimensions
        if height is not None:
            dimensions[self.rows] = self._height(height)
        self.ws.append(self._cells(values, styles))
        if height is not None:
            del dimensions[self.rows]  # written with its row: kept, it would grow per row
        return self.rows

    def _height(self, points: float) -> RowDimension:
        """One RowDimension per height, lent to each row of that height in turn: openpyxl
        writes a row's height and customHeight from it, not its index."""
        made = self._heights.get(points)
        if made is None:
            made = self._heights[points] = RowDimension(self.ws, ht=points)
        return made

    def _cells(self, values: Sequence, styles) -> list:
        """The row's cleaned values in this sheet's styled cells (None: no cell; a boolean
        without a style as it is). Numbers, the most of a report's cells, go straight in."""
        styled, cells = self._layout(styles, len(values))
        row: list = []
        append = row.append
        for column, value in enumerate(values):
            kind = type(value)
            if kind is str:
                value = clean_text(value)
            elif kind is not float and kind is not int:
                if value is None:
                    append(None)
                    continue
                value = cleaned(value)
                kind = type(value)
            if kind is bool and styled[column] is None:
                # Plain: LibreOffice shows a styled boolean as 1 or 0, not TRUE or FALSE.
                append(value)
                continue
            cell = cells[column]
            if cell is None:  # made when first used, as openpyxl registers its style then
                cell = cells[column] = self._pooled(column, styled[column])
            cell.value = value
            if kind is str:
                cell.data_type = "s"  # text, never a formula or an error code
            append(cell)
        return row

    def _layout(self, styles, columns: int) -> tuple[tuple, list]:
        """The styles of a row's ``columns`` columns and their pooled cells (None until a
        value of that column is written)."""
        one = isinstance(styles, str) or styles is None
        key = styles if one else tuple(styles)
        made = self._layouts.get(key)
        if made is None or len(made[0]) < columns:
            styled = (styles,) * columns if one else key
            cells = [None] * len(styled)
            made = self._layouts[key] = (styled, cells)
        return made

    def _pooled(self, column: int, style: str | None) -> WriteOnlyCell:
        """The column's one cell of this style on this part of the sheet."""
        cell = self._pool.get((column, style))
        if cell is not None:
            return cell
        cell = self._pool[(column, style)] = WriteOnlyCell(self.ws)
        for attribute, made in STYLES[style].items():
            setattr(cell, attribute, made)
        return cell

    def header(self, labels: Sequence[str]) -> int:
        """A header row, at most two lines tall: on a sheet it opens, its columns are widened
        to hold it in two lines (a write-only sheet writes its widths before its first
        row; the widths of later tables are chosen for their headers)."""
        if self.rows == 0:
            for column, label in enumerate(labels):
                needed = header_width(label)
                if needed > self._width(column):
                    self.widths += [8.43] * (column + 1 - len(self.widths))
                    self.widths[column] = needed
                    self.ws.column_dimensions[get_column_letter(column + 1)].width = needed
        # Without a height a two-line header covers the row below it in LibreOffice.
        lines = self.lines(labels)
        row = self.append(labels, "header", lines)
        self._head, self._spans, self._table_first = (list(labels), lines), [], row
        return row

    def lines(self, values: Sequence, columns: Sequence[int] | None = None) -> int:
        """Lines the tallest of these cells (all, or those in ``columns``) takes wrapped."""
        picked = range(len(values)) if columns is None else columns
        return max((text_lines(values[i], self._width(i)) for i in picked if values[i]), default=1)

    def text_lines(self, text, column: int) -> int:
        """Lines one value takes wrapped in ``column`` (one when empty), as ``lines`` counts."""
        return text_lines(text, self._width(column)) if text else 1

    def _width(self, column: int) -> float:
        return self.widths[column] if column < len(self.widths) else 8.43  # Excel's default

    def blank(self) -> int:
        """An empty row: it ends the table above (a sheet going on to another after it
        repeats no header)."""
        self._head, self._spans = None, []
        return self.append([])

    def autofilter(self, first_row: int, columns: int, last_row: int | None = None) -> None:
        """A filter from ``first_row`` (the header's) to ``last_row`` (the last by default); a
        table that went on to more parts gets one on each, from its header there."""
        letter = get_column_letter(max(columns, 1))
        if self._spans:
            for ws, first in self._spans:
                ws.auto_filter.ref = f"A{first}:{letter}{self.max_rows}"
            first_row = self._table_first
        last_row = max(last_row or self.rows, first_row)
        self.ws.auto_filter.ref = f"A{first_row}:{letter}{last_row}"

    @property
    def continued(self) -> list[str]:
        """The titles of the sheets this one went on to (none: it fits)."""
        return self.titles[1:]

    def table(self, title: str, head: Sequence[str], rows, *, filtered: bool = False) -> None:
        """A bold title, a header and the rows as they come (a filter on it when asked)."""
        self.append([title], "bold")
        first = self.header(head)
        for row in rows:
            self.append(row)
        if filtered:
            self.autofilter(first, len(head))
