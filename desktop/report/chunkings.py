"""The Chunkings sheet (seed §5.1, "which chunk size"): per chunking (name, size, overlap,
unit, passages) and system on it, Recall, SpanRecall and SpanPrecision at each K and each
budget of characters, θ in the heading; and a chart of SpanRecall against the budget, one
line per (chunking, system), so which chunking recovers the evidence at a given context
length is read off one picture. Written only when the database has documents (spans); every
figure is metrics --json's (desktop.report.span_pass)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from openpyxl.chart import LineChart, Reference
from openpyxl.utils import get_column_letter

from desktop.evaluation import spans
from desktop.report.cells import h
from desktop.report.sheet import Sheet

if TYPE_CHECKING:
    from desktop.report.workbook import Report

HEAD_ROWS = "4:4"  # the table's header, repeated on each printed page
SET_MEASURES = ("Recall", "SpanRecall", "SpanPrecision")
CHUNKING_COLUMNS = 6  # chunking, size, overlap, unit, passages, system


def chunkings_widths(ks, budgets) -> list[float]:
    """Column widths: the chunking's and system's, then one per figure (its header in two
    lines: the sheet's header is not its first row, so write-only widths are set here)."""
    figures = len(SET_MEASURES) * (len(ks) + len(budgets))
    return [18, 9, 9, 8, 9, 16] + [12.5] * figures


def _labels(ks, budgets) -> list[str]:
    at_k = [spans.label(m, k) for k in ks for m in SET_MEASURES]
    return at_k + [spans.label(m, budget=b) for b in budgets for m in SET_MEASURES]


def chunkings_sheet(report: Report, sheet: Sheet) -> None:
    """The heading (θ, budgets), the table, the unranked runs' footnote and the chart."""
    found = report.spans
    ks, budgets = report.ks, found.budgets
    labels = _labels(ks, budgets)
    sheet.append(
        [
            f"Which chunking recovers the evidence — coverage θ = {found.theta:g} "
            f"(어떤 청킹이 근거를 찾는가 — 포함 기준 θ = {found.theta:g})"
        ],
        "title",
    )
    sheet.append(
        [
            "Recall@K and Recall@budget: evidence items found (the id rule on the gold's "
            "chunking, coverage ≥ θ on another); SpanRecall: the share of the evidence "
            "characters the context covers; SpanPrecision: the share of the context that is "
            "evidence; budgets in characters: " + ", ".join(map(str, budgets))
        ]
    )
    sheet.blank()
    head = [
        h("chunking", "청킹"),
        h("size", "크기"),
        h("overlap", "겹침"),
        h("unit", "단위"),
        h("passages", "문단 수"),
        h("system", "시스템"),
        *labels,
    ]
    first = sheet.header(head)
    rows = _rows(report, labels)
    for values, styles in rows:
        sheet.append(values, styles)
    sheet.autofilter(first, len(head))
    dimmed = sorted({values[5] for values, styles in rows if "dimnum" in styles})
    sheet.blank()
    if dimmed:
        sheet.append([_unranked_note(dimmed)])
    _chart(report, sheet, [values for values, _ in rows if values[5]], len(labels))


def _rows(report: Report, labels: list[str]) -> list[tuple[list, list]]:
    """One row per chunking and system on it (a chunking no run is on: one row, no system)."""
    found = report.spans
    on = report.project.reads.system_chunkings()
    out = []
    for chunking in report.project.reads.chunkings():
        shape = [
            chunking["name"],
            chunking["chunk_size"],
            chunking["overlap"],
            chunking["unit"],
            chunking["passages"],
        ]
        systems = [s for s in report.systems if on.get(s["pk"]) == chunking["pk"]]
        if not systems:
            out.append((shape + [None] * (1 + len(labels)), [None] * (6 + len(labels))))
        for system in systems:
            means = found.means(system["name"])
            styles = [None] * CHUNKING_COLUMNS + [
                "dimnum" if _cut_short(report, system, label) else "num" for label in labels
            ]
            out.append((shape + [system["name"], *(means.get(x) for x in labels)], styles))
    return out


def _cut_short(report: Report, system: dict, label: str) -> bool:
    """A cut-off shorter than an unranked run's longest context: it follows the given order,
    which is not a ranking (design section 11)."""
    if not system.get("unranked"):
        return False
    passages, chars = report.spans.longest.get(system["name"], (0, 0))
    cut = label.split("@", 1)[1]
    return int(cut[:-2]) < chars if cut.endswith("ch") else int(cut) < passages


def _unranked_note(names: list[str]) -> str:
    from desktop.project_graph import UNRANKED_REASON

    return (
        f"Grey figures ({', '.join(names)}): a cut-off shorter than the run's longest context; "
        f"{UNRANKED_REASON} (회색: 순위가 아닌 문맥의 일부만 자른 값)."
    )


def _chart(report: Report, sheet: Sheet, rows: list[list], n_labels: int) -> None:
    """SpanRecall against the budget, a line per (chunking, system), drawn from a small
    table of those figures written below."""
    budgets = report.spans.budgets
    if not rows or not budgets:
        return
    sheet.blank()
    sheet.append([f"SpanRecall by budget (θ = {report.spans.theta:g}) 예산별 SpanRecall"], "bold")
    head = sheet.header([h("chunking · system", "청킹 · 시스템"), *budgets])
    for values in rows:
        means = report.spans.means(values[5])
        series = [means.get(spans.label("SpanRecall", budget=b)) for b in budgets]
        sheet.append([f"{values[0]} · {values[5]}", *series], [None] + ["num"] * len(budgets))
    ws = sheet.ws
    chart = LineChart()
    chart.title = f"SpanRecall by context length (θ = {report.spans.theta:g})"
    chart.x_axis.title = "budget (characters) 예산 (글자)"
    chart.y_axis.title = "SpanRecall"
    chart.y_axis.scaling.min, chart.y_axis.scaling.max = 0, 1
    chart.x_axis.delete = chart.y_axis.delete = False  # openpyxl 3.1 hides them otherwise
    chart.y_axis.number_format, chart.y_axis.majorUnit = "0.0", 0.1
    data = Reference(
        ws, min_col=1, max_col=len(budgets) + 1, min_row=head + 1, max_row=head + len(rows)
    )
    chart.add_data(data, from_rows=True, titles_from_data=True)
    for line in chart.series:
        line.smooth = False  # straight segments: a smoothed line dips between budgets
    chart.set_categories(Reference(ws, min_col=2, max_col=len(budgets) + 1, min_row=head))
    chart.width, chart.height = 18, 10
    ws.add_chart(chart, f"{get_column_letter(1)}{head + len(rows) + 2}")
