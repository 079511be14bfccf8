"""The report within a sheet's limits and on paper (issues 18 and 20): a table longer than a
sheet holds goes on in the next ("Misses 2", header repeated, the Summary says so); every
sheet landscape, one page wide, its header row repeated on each page and at most two lines
tall; the sheet names in one language."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from openpyxl import Workbook, load_workbook

from desktop.report import cells as rc
from desktop.report import sheet as rs
from desktop.report import write_report
from tests.report.test_report import FAST, KOREAN_SHEETS, sample  # noqa: F401 (a fixture)

LIMIT = 25  # rows per sheet in these tests, header included


def rows_of(wb, titles: list[str]) -> list[list]:
    """The data rows of a table over its parts (each part's header row left out)."""
    out = []
    for title in titles:
        out += [list(r) for r in wb[title].iter_rows(min_row=2, values_only=True)]
    return out


def test_a_sheet_past_its_limit_goes_on_in_the_next(sample, tmp_path):  # noqa: F811
    whole = load_workbook(write_report(sample, tmp_path / "whole.xlsx", [5, 10], **FAST))
    path = write_report(sample, tmp_path / "parts.xlsx", [5, 10], max_rows=LIMIT, **FAST)
    wb = load_workbook(path)
    misses = ["누락", "누락 2", "누락 3"]
    per_q = [f"질문별 {n}" if n > 1 else "질문별" for n in range(1, 6)]
    assert wb.sheetnames[:10] == ["요약", *per_q, *misses, "비교"]
    assert "질문별 6" not in wb.sheetnames and "누락 4" not in wb.sheetnames
    for titles, name in ((misses, "누락"), (per_q, "질문별")):
        header = [c.value for c in whole[name][1]]
        for title in titles:
            ws = wb[title]
            assert [c.value for c in ws[1]] == header, title  # the header row repeated
            assert ws.max_row <= LIMIT
            assert ws.print_title_rows == "$1:$1" and ws.freeze_panes == "C2"
            assert ws.auto_filter.ref == f"A1:{ws.cell(1, len(header)).column_letter}{ws.max_row}"
        # Nothing lost, nothing twice, in the same order.
        assert rows_of(wb, titles) == rows_of(whole, [name])
    notes = [r[0] for r in wb["요약"].iter_rows(values_only=True) if r[0]]
    said = [n for n in notes if "holds more rows than one sheet can" in str(n)]
    assert said == [
        f"Sheet '질문별' holds more rows than one sheet can ({LIMIT}): it goes on in "
        "'질문별 2', '질문별 3', '질문별 4', '질문별 5', the header row repeated "
        "(한 시트의 행 수를 넘어 다음 시트에 이어짐).",
        f"Sheet '누락' holds more rows than one sheet can ({LIMIT}): it goes on in '누락 2', "
        "'누락 3', the header row repeated (한 시트의 행 수를 넘어 다음 시트에 이어짐).",
    ]
    assert not any(
        "holds more rows" in str(r[0]) for r in whole["요약"].iter_rows(values_only=True)
    )


def test_a_part_repeats_the_header_of_the_table_it_goes_on_with_only(tmp_path):
    """A part that starts inside a table repeats its header and carries its filter; one that
    starts after the table ended (a blank row) repeats nothing."""
    wb = Workbook(write_only=True)
    sheet = rs.Sheet(wb, "T", [10, 10], None, print_rows="2:2", max_rows=4)
    sheet.append(["title"], "bold")
    assert sheet.header(["a", "b"]) == 2
    for row in ([1, 2], [3, 4], [5, 6]):
        sheet.append(row)
    sheet.autofilter(2, 2)
    sheet.blank()
    sheet.append(["next"], "bold")
    assert sheet.append(["x"]) == 1
    assert sheet.continued == ["T 2", "T 3"]
    wb.save(tmp_path / "t.xlsx")
    wb = load_workbook(tmp_path / "t.xlsx")
    assert wb.sheetnames == ["T", "T 2", "T 3"]
    cells = {ws.title: [[c.value for c in row] for row in ws.iter_rows(max_col=2)] for ws in wb}
    assert cells == {
        "T": [["title", None], ["a", "b"], [1, 2], [3, 4]],
        "T 2": [["a", "b"], [5, 6], [None, None], ["next", None]],
        "T 3": [["x", None]],
    }
    assert [ws.auto_filter.ref for ws in wb] == ["A2:B4", "A1:B2", None]
    assert [ws.print_title_rows for ws in wb] == ["$2:$2", "$1:$1", None]


def test_every_sheet_prints_landscape_readable_headers_in_two_lines(sample, tmp_path):  # noqa: F811
    from desktop.report.sheet import PAGE_PIXELS, READABLE

    wb = load_workbook(write_report(sample, tmp_path / "r.xlsx", [5, 10], **FAST))
    assert wb.sheetnames == list(KOREAN_SHEETS)
    for ws in wb.worksheets:
        assert ws.page_setup.orientation == "landscape", ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        across, down = ws.page_setup.fitToWidth, ws.page_setup.fitToHeight
        assert down == 0, ws.title
        # One page wide unless that would shrink the print below READABLE; then as few pages
        # across as keep it readable, the first column repeated on each.
        pixels = sum(7 * (d.width or 8.43) + 5 for d in ws.column_dimensions.values())
        assert PAGE_PIXELS * across / pixels >= READABLE, ws.title
        assert across == 1 or PAGE_PIXELS * (across - 1) / pixels < READABLE, ws.title
        assert (ws.print_title_cols == "$A:$A") == (across > 1), ws.title
        widths = {k: d.width for k, d in ws.column_dimensions.items()}
        for row in ws.iter_rows():
            if not (row[0].fill and row[0].fill.fill_type == "solid"):
                continue  # only header rows are filled
            for cell in row:
                width = widths.get(cell.column_letter) or 8.43
                assert rc.text_lines(cell.value, width) <= 2, (ws.title, cell.value, width)
            assert ws.row_dimensions[row[0].row].height <= 2 * rc.LINE_POINTS + 3, ws.title
    titles = {ws.title: ws.print_title_rows for ws in wb.worksheets}
    assert titles["요약"] == titles["질문별"] == titles["누락"] == titles["설정"] == "$1:$1"
    assert titles["정답 근거 변경"] == "$1:$2"  # its title line and header
    # The Recall@K curve (after a bar chart per K, 16 rows each) starts a page of its own.
    assert [b.id for b in wb["차트"].row_breaks.brk] == [32]
    assert wb["요약"].page_setup.fitToWidth == 2, "the sample's Summary is ~40 columns wide"


def test_sheet_names_are_in_one_language(sample, tmp_path):  # noqa: F811
    english = write_report(sample, tmp_path / "en.xlsx", [5], lang="en", **FAST)
    assert load_workbook(english, read_only=True).sheetnames == list(KOREAN_SHEETS.values())
    assert rs.default_language({"LANG": "en_US.UTF-8"}) == "en"
    assert rs.default_language({"LC_ALL": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"}) == "ko"
    assert rs.default_language({"LANG": "C.UTF-8"}) == rs.default_language({}) == "ko"
    with pytest.raises(ValueError):
        write_report(sample, tmp_path / "x.xlsx", [5], lang="fr", **FAST)


@pytest.mark.slow  # seconds of real waiting or an external program: CI runs it
def test_the_sample_prints_on_fewer_than_20_pages(sample, tmp_path):  # noqa: F811
    """LibreOffice's PDF of the sample's report (84 pages before the page setup)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    path = write_report(sample, tmp_path / "r.xlsx", [5, 10], **FAST)
    profile = (tmp_path / "lo-profile").as_uri()  # its own profile: no clash with a running one
    done = subprocess.run(
        [soffice, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf"]
        + ["--outdir", str(tmp_path), str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    pdf = (tmp_path / "r.pdf").read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))
    assert 8 <= pages < 20
