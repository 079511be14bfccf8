"""The report streams: rows written as text are the rows openpyxl would write, and the big
sheets are written as the ranked lists come from the store, not gathered first."""

from __future__ import annotations

import zipfile

from openpyxl import Workbook, load_workbook

from desktop import report as rp
from desktop import xlsx

ROWS = [
    (["a & <b> > c", " lead", "trail ", "  ", "", "x\ny", "=1+1", "#N/A", "#", "한국어"], None),
    ([1, 2.5, True, False, None, 1 / 3, 1e20, 123456789012345678, -0.0, float("nan")], None),
    ([float("inf"), -float("inf"), 0, 10**30, 7e-300], "num"),
    (
        ["bold", 0.25, "wrapped text that is long enough", None, "=x"],
        ["bold", "p", "wrap", "num", None],
    ),
    ([{"json": [1, "둘"]}, ["a"], "bad\x00char\ud800"], [None, "pct", None]),
    ([], None),
]


def sheet_xml(path, forced_cells: bool, monkeypatch) -> str:
    with monkeypatch.context() as m:
        if forced_cells:
            m.setattr(xlsx.RawRows, "open", classmethod(lambda cls, ws: None))
        wb = Workbook(write_only=True)
        sheet = rp.Sheet(wb, "S", [10, 20, 30], "B2")
        for values, styles in ROWS:
            sheet.append(values, styles, sheet.lines(values) if values else None)
        sheet.header(["one\n하나", "two\n둘\n셋"])
        sheet.autofilter(1, 3)
        assert (sheet._raw is None) == forced_cells
        wb.save(path)
    return zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml").decode()


def test_rows_written_as_text_are_the_xml_openpyxl_writes(tmp_path, monkeypatch):
    through_cells = sheet_xml(tmp_path / "cells.xlsx", True, monkeypatch)
    as_text = sheet_xml(tmp_path / "text.xlsx", False, monkeypatch)
    assert 'customHeight="1"' in as_text and 's="' in as_text
    assert as_text == through_cells
    ws = load_workbook(tmp_path / "text.xlsx")["S"]
    assert ws["A1"].value == "a & <b> > c" and ws["G1"].value == "=1+1"
    assert ws["H1"].value == "#N/A" and ws["B1"].value == " lead"
    assert ws["C2"].value is True and ws["F2"].value == 1 / 3
    assert ws["B4"].number_format == "0.0000" and ws["A4"].font.b
