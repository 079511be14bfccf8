"""Rows of an openpyxl write-only worksheet written straight to its XML stream.

openpyxl builds an ElementTree element per cell and serialises it through et_xmlfile, which
costs about 30 µs a cell: at 50,000 Per question rows of 23 cells and 80,000 Misses rows,
more than the report's own work. ``RawRows`` writes the same XML as text: the ``<row>`` and
``<c>`` elements openpyxl would write for the same values (inline strings, ``%.16g`` numbers,
``xml:space="preserve"`` where a string starts or ends with white space, the row's height and
the cell's style id), byte for byte (tests/test_report_stream.py compares the two).

It uses openpyxl's private layout (the worksheet's writer, its row coroutine, the incremental
file's write function), the way desktop.scratch already does; ``RawRows.open`` returns None
when that layout is not there, and the caller then appends cells through openpyxl.
Values must already be clean (desktop.report.clean_text): this module only escapes them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from openpyxl.cell import WriteOnlyCell
from openpyxl.utils import get_column_letter


class RawRows:
    """The row stream of one write-only worksheet, opened at its first row; closed by
    openpyxl when the workbook is saved (or by closing ``ws._rows``)."""

    def __init__(self, ws, write):
        self.ws = ws
        self._write = write
        self._letters: list[str] = []

    @classmethod
    def open(cls, ws) -> RawRows | None:
        """Take over the rows of ``ws``, a write-only worksheet no row was appended to yet;
        None when this openpyxl does not have the layout relied on."""
        try:
            if ws._rows is not None:
                return None
            ws._get_writer()
            rows = _rows(ws)
            write = next(rows)
        except (AttributeError, TypeError):
            return None
        ws._rows = rows  # what WriteOnlyWorksheet.close() closes when the workbook is saved
        return cls(ws, write)

    def style_id(self, attributes: dict) -> int:
        """The workbook's id of a cell style (font, fill, alignment, number format), made as
        openpyxl makes it for a styled cell."""
        cell = WriteOnlyCell(self.ws)
        for attribute, value in attributes.items():
            setattr(cell, attribute, value)
        return cell.style_id

    def _letter(self, column: int) -> str:
        letters = self._letters
        while len(letters) <= column:
            letters.append(get_column_letter(len(letters) + 1))
        return letters[column]

    def append(
        self, index: int, values: Sequence, styles: Sequence[int], height: float | None
    ) -> None:
        """Row ``index`` (1-based) of cleaned values (str, bool, int, float or None: no
        cell), each with its style id (0: none), at ``height`` points (None: the default)."""
        if height:
            parts = [f'<row r="{index}" ht="{height:.16g}" customHeight="1">']
        else:
            parts = [f'<row r="{index}">']
        row = str(index)
        for column, value in enumerate(values):
            if value is None:
                continue
            style = styles[column]
            head = f'<c r="{self._letter(column)}{row}"' + (f' s="{style}"' if style else "")
            if isinstance(value, str):
                parts.append(_text(head, value))
            elif isinstance(value, bool):
                parts.append(f'{head} t="b"><v>{1 if value else 0}</v></c>')
            elif math.isfinite(value):
                parts.append(f'{head} t="n"><v>{value:.16g}</v></c>')
            else:
                parts.append(f'{head} t="n"><v /></c>')  # what openpyxl writes for NaN, ±inf
        parts.append("</row>")
        self._write("".join(parts))


def _text(head: str, value: str) -> str:
    if not value:
        return f'{head} t="inlineStr" />'
    if "&" in value or "<" in value or ">" in value:
        value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    stripped = value.strip()
    if stripped and stripped != value:
        return f'{head} t="inlineStr"><is><t xml:space="preserve">{value}</t></is></c>'
    return f'{head} t="inlineStr"><is><t>{value}</t></is></c>'


def _rows(ws):
    """openpyxl's WriteOnlyWorksheet._write_rows for rows written as text: opens the sheet's
    rows, yields the stream's write function and closes the rows when it is closed."""
    xf = ws._writer.xf.send(True)
    write = xf._file
    with xf.element("sheetData"):
        try:
            yield write
            while True:
                yield
        except GeneratorExit:
            pass
    ws._writer.xf.send(None)
