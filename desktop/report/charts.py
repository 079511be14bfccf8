"""The Charts sheet: a bar chart of Recall@K per system for each K and the Recall@1..N curve,
with the numbers they draw."""

from __future__ import annotations

from openpyxl.chart import BarChart, LineChart, Reference
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.pagebreak import Break

from desktop.report.cells import h
from desktop.report.sheet import Sheet


def charts_sheet(sheet: Sheet, systems, ks, depth: int, means, curves) -> None:
    """Recall@K bars per K and the Recall@1..depth curve, with the numbers they draw."""
    n = len(systems)
    sheet.header([h("system", "시스템"), *(f"Recall@{k}" for k in ks)])
    for s, system in enumerate(systems):
        sheet.append(
            [system["name"], *(means[s][f"Recall@{k}"] for k in ks)],
            [None] + ["num"] * len(ks),
        )
    sheet.blank()
    curve_head = sheet.header([h("rank", "순위"), *(s["name"] for s in systems)])
    for rank in range(1, depth + 1):
        sheet.append([rank, *(curves[s][rank - 1] for s in range(n))], [None] + ["num"] * n)
    if n == 0:
        return
    ws = sheet.ws
    anchor_col = get_column_letter(max(len(ks), n) + 3)
    cats = Reference(ws, min_col=1, min_row=2, max_row=n + 1)
    for index, k in enumerate(ks):
        chart = BarChart()
        chart.type = "col"
        chart.title = f"Recall@{k}"
        chart.y_axis.title = f"Recall@{k}"
        chart.y_axis.scaling.min = 0
        chart.y_axis.scaling.max = 1
        chart.legend = None
        _show_axes(chart)
        data = Reference(ws, min_col=index + 2, min_row=1, max_row=n + 1)
        chart.add_data(data, titles_from_data=True)
        chart.set_categories(cats)
        chart.width, chart.height = 16, 7.5
        ws.add_chart(chart, f"{anchor_col}{1 + index * 16}")
    line = LineChart()
    line.title = "Recall@K curve 곡선"
    line.x_axis.title = "K"
    line.y_axis.title = "Recall@K"
    line.y_axis.scaling.min = 0
    line.y_axis.scaling.max = 1
    _show_axes(line)
    data = Reference(ws, min_col=2, max_col=n + 1, min_row=curve_head, max_row=curve_head + depth)
    line.add_data(data, titles_from_data=True)
    for series in line.series:
        series.smooth = False  # straight segments: a smoothed curve dips between points
    line.set_categories(
        Reference(ws, min_col=1, min_row=curve_head + 1, max_row=curve_head + depth)
    )
    line.width, line.height = 16, 9
    ws.add_chart(line, f"{anchor_col}{1 + len(ks) * 16}")
    # On paper the curve starts a page of its own, never cut in two by a page's end.
    ws.row_breaks.append(Break(id=len(ks) * 16))


def _show_axes(chart) -> None:
    """openpyxl 3.1 leaves out the axes' <c:delete val="0"/>, and Excel then hides them.
    Recall runs from 0 to 1: one decimal on the axis (the data's 0.000 did not fit)."""
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.y_axis.number_format = "0.0"
    chart.y_axis.majorUnit = 0.1
